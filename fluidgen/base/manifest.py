"""Safe reads of Kubernetes objects as parsed YAML, of any shape (toolkit: imports nothing of
fluidgen). Rules, engine modules and lowering read hand-written input through these, so a
value of the wrong type reads as empty instead of raising."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .diagnostics import PathT
from .uri import is_reference

Tree = dict[str, Any]  # a YAML mapping as parsed (string keys, any values)
Manifest = Tree  # a Kubernetes object as parsed YAML: apiVersion, kind, metadata, spec, ...


def kind_of(obj: Manifest) -> str:
    return str(obj.get("kind", ""))


def meta(obj: Manifest) -> Tree:
    value = obj.get("metadata")
    return value if isinstance(value, dict) else {}


def spec_of(obj: Manifest) -> Tree:
    value = obj.get("spec")
    return value if isinstance(value, dict) else {}


def same_place(a: Manifest, b: Manifest) -> bool:
    """Same namespace and name (how Fluid binds a runtime to its Dataset)."""
    return (meta(a).get("name"), meta(a).get("namespace")) == (meta(b).get("name"), meta(b).get("namespace"))


def walk_strings(value: object, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    """Every string in a tree, with its path."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_strings(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_strings(v, (*path, i))
    elif isinstance(value, str):
        yield path, value


def mapping(value: object) -> Tree:
    """`value` when it is a mapping, else empty: rules read hand-written input of any shape."""
    return value if isinstance(value, dict) else {}


def items(value: object) -> list[Any]:
    """`value` when it is a list, else empty."""
    return value if isinstance(value, list) else []


def fuse_spec(obj: Manifest) -> Tree:
    return mapping(spec_of(obj).get("fuse"))


def fuse_options(obj: Manifest) -> list[tuple[int, str]]:
    """(index in fuse.args, option) of each FUSE mount option: `-o a,b` and `--fuse-opts=a,b` forms."""
    out = []
    for i, arg in enumerate(items(fuse_spec(obj).get("args"))):
        if isinstance(arg, str):
            body = arg.split("=", 1)[1] if arg.startswith("--fuse-opts=") else arg.removeprefix("-o")
            out += [(i, o.strip()) for o in body.split(",")]
    return out


def levels_of(obj: Manifest) -> list[Any]:
    """The runtime's tieredstore levels (entries of any shape)."""
    return items(mapping(spec_of(obj).get("tieredstore")).get("levels"))


def mounts_of(obj: Manifest) -> list[Tree]:
    """A Dataset's well-formed mounts; nothing for any other kind."""
    if kind_of(obj) != "Dataset":
        return []
    return [m for m in items(spec_of(obj).get("mounts")) if isinstance(m, dict)]


def components_of(obj: Manifest) -> Iterator[tuple[str, Tree]]:
    """(name, section) of each JVM-style component a runtime spec has."""
    spec = spec_of(obj)
    for name in ("master", "worker", "fuse", "jobMaster", "jobWorker"):
        comp = spec.get(name)
        if isinstance(comp, dict):
            yield name, comp


def jvm_flag(options: object, flag: str) -> tuple[int, str] | None:
    """(index, value) of the last JVM option starting with `flag`, or None."""
    found = None
    for i, opt in enumerate(items(options)):
        if isinstance(opt, str) and opt.startswith(flag):
            found = (i, opt[len(flag):])
    return found


def names_given(options: object) -> list[tuple[int, str]]:
    """(index, name) of each well-formed encryptOption."""
    out = []
    for j, option in enumerate(items(options)):
        if isinstance(option, dict) and isinstance(option.get("name"), str):
            out.append((j, option["name"]))
    return out


def fluid_runtime_at(dataset: Manifest, objects: list[Manifest]) -> Manifest | None:
    """The first runtime with the Dataset's namespace and name (Fluid binds them by name). Every
    Fluid runtime kind is named <Engine>Runtime (api/v1alpha1/*runtime_types.go); the kinds
    engines bring besides (a runtime profile, a runtime class) end otherwise."""
    return next((o for o in objects if kind_of(o).endswith("Runtime") and same_place(o, dataset)), None)


def is_reference_dataset(obj: Manifest) -> bool:
    """A Dataset whose mounts are all dataset:// references (and that has some): Fluid serves it
    through the referenced Dataset's runtime (pkg/ddc/base/dataset.go, IsFluidRefSchema)."""
    mounts = mounts_of(obj)
    return bool(mounts) and all(is_reference(m.get("mountPoint", "")) for m in mounts)
