"""The Python API: `fluidgen.build` and `fluidgen.validate` for pipeline code.

The same compile as `fluidgen build` (same objects, same order, same bytes), called in
process: no subprocess, nothing written to stdout or stderr, no `sys.exit`, and nothing of
the command line's start-up (no click, no build cache). Problems come back as `Diagnostic`
values; `Build.raise_for_errors()` turns errors into a `FluidgenError`.

Settings come only from the arguments: FLUIDGEN_* variables are the command line's and are
not read here. `env` replaces `os.environ` for the credential variables a spec names
(`fromEnv`), so a pipeline can hand over values it holds without exporting them.

This module loads the compiler (pydantic, the spec models, the API schemas: 150 ms and
more), so the package imports it on the first use of `fluidgen.build` or
`fluidgen.validate` (PEP 562, fluidgen/__init__.py); `import fluidgen` stays at about 2 ms.
The values it returns are defined in results.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from .base import diagnostics, versions
from .base.diagnostics import format_path
from .base.options import Options
from .compile.filecheck import Checks, check_documents
from .compile.gather import InMemory, Paths, Source, gather
from .compile.pipeline import compile_documents
from .diagnosis.findings import Diagnosis, Finding
from .diagnosis.run import api_diagnose
from .io import settings
from .io.crds import CrdSet
from .io.inputs import Reader
from .io.yamlreader import MAX_BYTES, MAX_INT_DIGITS, Document, in_memory
from .results import Build, Diagnostic, FluidgenError

__all__ = ["Build", "Diagnosis", "Diagnostic", "Finding", "FluidgenError", "build", "diagnose", "validate"]

SpecInput = str | os.PathLike[str] | Mapping[str, Any]
MAPPING_FILE = "<mapping>"  # the name a spec given as a mapping has inside the compile


def build(spec: SpecInput, *, overlays: Iterable[str | os.PathLike[str]] = (), fluid_version: str | None = None,
          namespace: str | None = None, gitops: str | None = None, env: Mapping[str, str] | None = None,
          allow_read: Iterable[str | os.PathLike[str]] = (),
          base_dir: str | os.PathLike[str] | None = None) -> Build:
    """Compile a spec (a file or directory path, or a parsed spec as a mapping) into Fluid
    manifests, as `fluidgen build SPEC` does; with overlays, as `fluidgen build -f SPEC -f
    OVERLAY...` (merged in order onto the spec). A mapping spec stands in `base_dir`: the files
    it names (envFile, scriptFile, profiles) are read below it, as below a spec file's
    directory, and never below the filesystem root. Without base_dir it reads no file but those
    below `allow_read` (relative paths start at the current directory). Arguments with
    values no build accepts raise ValueError."""
    options = Options(fluid_version=_checked("fluid_version", fluid_version),
                      namespace=_checked("namespace", namespace),
                      namespace_from="namespace= of fluidgen.build" if namespace else "",
                      gitops=_checked("gitops", gitops),
                      env=dict(os.environ if env is None else env),
                      allow_read=tuple(os.fspath(p) for p in allow_read))
    base = _base(spec, base_dir)
    layers = tuple(os.fspath(p) for p in overlays)
    source: Source
    if isinstance(spec, Mapping):
        # A mapping without base_dir stands in the working directory for its relative paths, but
        # that directory (a worker's home, with ~/.aws and airflow.cfg) gives it nothing to read.
        try:
            source = _in_memory(spec, base, rootless=base_dir is None, overlays=layers)
        except _NotPlain as exc:
            return Build([], [Diagnostic("error", exc.message, path=_dotted(exc.path))])
    else:
        # With overlays, the spec is the first layer and they merge onto it in order (build -f).
        source = Paths((), (os.fspath(spec), *layers)) if layers else Paths((os.fspath(spec),))
    result = compile_documents(gather(source, options))
    found = [_public(d) for d in result.diagnostics]
    if result.ok and not result.objects:
        found.append(Diagnostic("error", "nothing to build", None if isinstance(spec, Mapping) else os.fspath(spec)))
    return Build(result.objects if result.ok and result.objects else [], found)


def validate(objects: Iterable[Mapping[str, Any]], *, fluid_version: str | None = None,
             crds: Iterable[str | os.PathLike[str]] = (), lint: bool = False) -> list[Diagnostic]:
    """The checks of `fluidgen validate` (and with lint=True of `--lint`) on objects in memory:
    each against the Kubernetes or Fluid API of the target version, unknown fields as errors.
    A diagnostic's file names the object's place in the list, as objects[3]."""
    version = _checked("fluid_version", fluid_version) or versions.DEFAULT
    paths = tuple(os.fspath(c) for c in crds)
    checks = Checks(version, crds=CrdSet.load_all(paths) if paths else None, lint=lint)
    docs, refused = [], []
    for i, obj in enumerate(objects):
        try:
            docs.append(Document(f"objects[{i}]", 0, _plain(obj, (), set(), [0, 0])))
        except _NotPlain as exc:
            refused.append(Diagnostic("error", exc.message, f"objects[{i}]", path=_dotted(exc.path)))
        else:
            if not isinstance(docs[-1].data, dict):
                docs.pop()
                refused.append(Diagnostic("error", f"expected a mapping (an object), found {type(obj).__name__}",
                                          f"objects[{i}]"))
    return refused + [_public(d) for d in check_documents(docs, checks)]


def diagnose(objects: Iterable[Mapping[str, Any]], specs: SpecInput | Iterable[str | os.PathLike[str]], *,
             overlays: Iterable[str | os.PathLike[str]] = (), fluid_version: str | None = None,
             namespace: str | None = None, gitops: str | None = None,
             logs: Mapping[str, str] | None = None) -> Diagnosis:
    """What `fluidgen diagnose SPECS --cluster DUMP` finds: `objects` are the dump's objects
    (as `kubectl get -o json` gives them; Lists are opened), `specs` a spec path, several, or a
    mapping, compiled with the same target options as `build` (credentials are not read), and
    `logs` maps a pod's name to its log text. Secret values in the objects or logs never reach
    a Finding."""
    options = Options(fluid_version=_checked("fluid_version", fluid_version),
                      namespace=_checked("namespace", namespace), gitops=_checked("gitops", gitops),
                      env={}, read_credentials=False)
    refused: list[str] = []
    layers = tuple(os.fspath(p) for p in overlays)
    source: Source
    if isinstance(specs, Mapping):
        try:
            source = _in_memory(specs, os.getcwd(), rootless=True, overlays=layers)
        except _NotPlain as exc:
            return Diagnosis(errors=[f"specs: {_dotted(exc.path) or '(document)'}: {exc.message}"])
    else:
        paths = (os.fspath(specs),) if isinstance(specs, str | os.PathLike) else tuple(os.fspath(p) for p in specs)
        source = Paths((), (*paths, *layers)) if layers else Paths(paths)
    result = compile_documents(gather(source, options, Reader()))
    plain = []
    for i, obj in enumerate(objects):
        try:
            plain.append(_plain(obj, (), set(), [0, 0]))
        except _NotPlain as exc:
            refused.append(f"objects[{i}]: {_dotted(exc.path) or '(object)'}: {exc.message}; not read")
    found = api_diagnose(plain, result, logs)
    return Diagnosis(found.findings, found.notes, [*refused, *found.errors])


MAX_DEPTH = 100  # the YAML reader's limits (yamlreader.MAX_DEPTH, MAX_NODES), for data given in memory
MAX_NODES = 200_000


class _NotPlain(Exception):
    def __init__(self, path: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message


def _plain(value: Any, path: tuple[str | int, ...], open_ids: set[int], count: list[int]) -> Any:
    """A copy of value made of what a YAML file can hold (dicts with str keys, lists, str, int,
    float, bool, None), or _NotPlain at the first key path that is not: another key or value
    type, nesting deeper than a file may, more nodes than a file may, or a container holding
    itself. So data given in memory meets the limits a file meets and never reaches the
    compile as something it cannot write or walk."""
    count[0] += 1
    if count[0] > MAX_NODES:
        raise _NotPlain(path, f"more than {MAX_NODES} values (the limit for one document)")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _TOO_LONG:
        # A file's integer of more digits stays a string (yamlreader.MAX_INT_DIGITS): no manifest holds one, and
        # printing it past 4,300 digits raises in Python itself. The size only: never the number.
        raise _NotPlain(path, f"an integer of more than {MAX_INT_DIGITS} digits; no Kubernetes field holds one")
    if isinstance(value, str):
        _text(value, path, count)
        return value
    if value is None or isinstance(value, bool | int | float):
        return value
    if not isinstance(value, Mapping | list | tuple):
        raise _NotPlain(path, f"expected a mapping, list, string, number, boolean or null, found "
                              f"{type(value).__name__}")
    if len(path) >= MAX_DEPTH:
        raise _NotPlain(path, f"nesting deeper than {MAX_DEPTH} levels")
    if id(value) in open_ids:
        raise _NotPlain(path, "holds itself (a reference cycle)")
    open_ids.add(id(value))
    try:
        if isinstance(value, Mapping):
            out: dict[str, Any] = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    shown = "" if isinstance(key, int) and abs(key) >= _TOO_LONG else f" {key!r:.40}"
                    raise _NotPlain(path, f"mapping keys must be strings, found {type(key).__name__}{shown}")
                _text(key, (*path, key[:40]), count)
                out[key] = _plain(item, (*path, key), open_ids, count)
            return out
        return [_plain(item, (*path, i), open_ids, count) for i, item in enumerate(value)]
    finally:
        open_ids.discard(id(value))


_TOO_LONG = 10 ** MAX_INT_DIGITS


def _text(value: str, path: tuple[str | int, ...], count: list[int]) -> None:
    """Count a string (or key) against the bytes a file may hold (yamlreader.MAX_BYTES): data in
    memory is held to what the same data in a file would be. A lone surrogate (no character; a
    file, UTF-8, cannot hold one, nor a YAML escape) is refused at its key path."""
    try:
        count[1] += len(value) if len(value) > MAX_BYTES else len(value.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise _NotPlain(path, f"not valid Unicode text: a lone surrogate (U+{ord(value[exc.start]):04X}) at "
                              f"character {exc.start + 1}, which no YAML file can hold") from None
    if count[1] > MAX_BYTES:
        raise _NotPlain(path, f"more than {MAX_BYTES // (1024 * 1024)} MiB of text (the limit for one file)")


def _dotted(path: tuple[str | int, ...]) -> str | None:
    return format_path(path) if path else None


def _checked(name: str, value: str | None) -> str | None:
    """An argument checked as the setting it is (io/settings.py), named as the argument."""
    check = {"fluid_version": settings.fluid_version, "namespace": settings.namespace, "gitops": settings.gitops}
    try:
        return check[name](value, {}, given_as=name)
    except settings.SettingError as exc:
        raise ValueError(str(exc)) from None


def _base(spec: SpecInput, base_dir: str | os.PathLike[str] | None) -> str:
    """The directory a mapping spec stands in."""
    if base_dir is None:
        return os.getcwd()
    if not isinstance(spec, Mapping):
        raise ValueError("base_dir applies to a spec given as a mapping; a spec file's own directory is its base")
    if not os.path.isdir(base_dir):
        raise ValueError(f"base_dir {os.fspath(base_dir)!r} is not a directory")
    return os.path.abspath(base_dir)


def _in_memory(spec: Mapping[str, Any], base: str, rootless: bool, overlays: tuple[str, ...]) -> InMemory:
    """A mapping spec as the document a compile reads, standing in `base` as a file there would
    (its diagnostics carry its key paths, and no line): never written as YAML and parsed back.
    _NotPlain when it holds what no YAML file could."""
    return InMemory(in_memory(os.path.join(base, MAPPING_FILE), _plain(spec, (), set(), [0, 0])), rootless, overlays)


def _public(d: diagnostics.Diagnostic) -> Diagnostic:
    mapping = os.path.basename(d.file) == MAPPING_FILE
    in_memory = mapping or d.file.startswith("objects[")
    return Diagnostic(d.severity, d.message, None if mapping else d.file or None,
                      None if in_memory or not d.line else d.line, None if in_memory or not d.line else d.col,
                      format_path(d.path) if d.path else None, d.code or None)
