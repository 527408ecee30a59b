"""Safe walks over manifests, shared by the rules (they must survive any hand-written input)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..engines import BY_KIND, RUNTIME_KINDS, Engine
from ..rules import Object, kind_of, meta, same_place, spec_of

SECRET_OPTION = re.compile(r"(accesskeysecret|secretkey|secret-key|secret_key|password|token|metaurl)$",
                           re.IGNORECASE)
PLACEHOLDER = re.compile(r"<[A-Za-z_][A-Za-z0-9_ -]*>")
MEMORY_CLIENT_CACHE_LIMIT = 1800 * 2**20


def is_runtime(obj: Object) -> bool:
    return kind_of(obj) in RUNTIME_KINDS


def engine_of(obj: Object) -> Engine | None:
    return BY_KIND.get(kind_of(obj))


def bound_runtime(dataset: Object, objects: list[Object]) -> Object | None:
    """The runtime a Dataset binds to: a runtime with the same namespace and name."""
    return next((o for o in objects if is_runtime(o) and same_place(o, dataset)), None)


def bound_dataset(runtime: Object, objects: list[Object]) -> Object | None:
    return next((o for o in objects if kind_of(o) == "Dataset" and same_place(o, runtime)), None)


def find(objects: list[Object], kind: str, name: object, namespace: object) -> Object | None:
    """The object of that kind, name and namespace; no namespace counts as "default" on both sides
    (kubectl applies such a manifest to the context's namespace, "default" unless set)."""
    want = namespace or "default"
    return next((o for o in objects if kind_of(o) == kind and meta(o).get("name") == name
                 and (meta(o).get("namespace") or "default") == want), None)


def fuse_spec(obj: Object) -> dict[str, Any]:
    fuse = spec_of(obj).get("fuse")
    return fuse if isinstance(fuse, dict) else {}


def fuse_options(obj: Object) -> list[tuple[int, str]]:
    out = []
    args = fuse_spec(obj).get("args")
    for i, arg in enumerate(args if isinstance(args, list) else []):
        if isinstance(arg, str):
            body = arg.split("=", 1)[1] if arg.startswith("--fuse-opts=") else arg.removeprefix("-o")
            out += [(i, o.strip()) for o in body.split(",")]
    return out


def levels_of(obj: Object) -> list[Any]:
    store = spec_of(obj).get("tieredstore")
    levels = store.get("levels") if isinstance(store, dict) else None
    return levels if isinstance(levels, list) else []


def mounts_of(obj: Object) -> list[dict[str, Any]]:
    if kind_of(obj) != "Dataset":
        return []
    mounts = spec_of(obj).get("mounts")
    return [m for m in mounts if isinstance(m, dict)] if isinstance(mounts, list) else []


def components_of(obj: Object) -> Iterator[tuple[str, dict[str, Any]]]:
    spec = spec_of(obj)
    for name in ("master", "worker", "fuse", "jobMaster", "jobWorker"):
        comp = spec.get(name)
        if isinstance(comp, dict):
            yield name, comp


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a mapping, else empty: rules read hand-written input of any shape."""
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[Any]:
    """`value` when it is a list, else empty."""
    return value if isinstance(value, list) else []


def jvm_flag(options: Any, flag: str) -> tuple[int, str] | None:
    found = None
    for i, opt in enumerate(options if isinstance(options, list) else []):
        if isinstance(opt, str) and opt.startswith(flag):
            found = (i, opt[len(flag):])
    return found


def names_given(options: Any) -> list[tuple[int, str]]:
    """(index, name) of each well-formed encryptOption."""
    out = []
    for j, option in enumerate(options if isinstance(options, list) else []):
        if isinstance(option, dict) and isinstance(option.get("name"), str):
            out.append((j, option["name"]))
    return out
