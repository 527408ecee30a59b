"""`fluidgen plan`: before a change is applied, which edits Fluid carries out and which it ignores.

Fluid's controllers propagate few edits to a running runtime: most engines' SyncRuntime is
empty, so changed properties, JVM options, tiers or FUSE arguments never reach the pods and
Argo CD reports the edit synced and healthy. Each engine module lists what its sync does
carry out (Engine.edits, Engine.mount_edits, with the Fluid source files); this module
compares the objects before and after and classifies every changed field:

- applied: carried out in place (workers scale, the cache remounts a changed mount);
- rolling: written to a StatefulSet, whose pods restart with it;
- on-restart: written to the FUSE DaemonSet (OnDelete), taken up as FUSE pods are recreated;
- recreate: ignored until the runtime is deleted and created again, which loses the cache
  and leaves the Dataset unbound meanwhile;
- rerun-needed: a data operation runs once, so an edit of one that exists does nothing; it
  takes a new name to run again (with hashed names, fluidgen gives it one);
- kubernetes: any other kind, applied by the API server as usual.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .diagnostics import PathT, format_path
from .engines import BY_KIND
from .engines.base import APPLIED, ON_RESTART, RECREATE, ROLLING
from .fluid.operations import OPERATIONS

if TYPE_CHECKING:
    from .pipeline import CompileResult, Options

RERUN = "rerun-needed"
RUNS = "runs"  # a data operation that is new (a new name): Fluid runs it
REMOVED = "removed"
KUBERNETES = "kubernetes"
IGNORED = frozenset({RECREATE, RERUN})  # the edits plan fails on

MEANING = {
    APPLIED: "applied in place",
    ROLLING: "applied; the component's pods restart with it",
    ON_RESTART: "written to the FUSE DaemonSet; taken up only as FUSE pods are recreated",
    RECREATE: "ignored until the runtime is re-created (the cache is lost and the dataset unbound meanwhile)",
    RERUN: "ignored: the operation already ran; it runs again only under a new name",
    RUNS: "a new operation: Fluid runs it",
    REMOVED: "removed",
    KUBERNETES: "applied by Kubernetes",
}

Key = tuple[str, str, str]  # kind, namespace, name


@dataclass(frozen=True)
class Edit:
    kind: str
    namespace: str
    name: str
    path: str  # "" for the whole object
    effect: str

    @property
    def ignored(self) -> bool:
        return self.effect in IGNORED

    def line(self) -> str:
        where = f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"
        return f"{where}{' ' + self.path if self.path else ''}: {MEANING[self.effect]}"


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _key(obj: dict[str, Any]) -> Key:
    """Objects read from a committed file or a dump may have any shape."""
    meta = _mapping(obj.get("metadata"))
    return str(obj.get("kind")), str(meta.get("namespace") or ""), str(meta.get("name"))


def _leaves(node: Any, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    if isinstance(node, dict) and node:
        for k in sorted(node):
            yield from _leaves(node[k], (*path, str(k)))
    elif isinstance(node, list) and node:
        for i, item in enumerate(node):
            yield from _leaves(item, (*path, i))
    else:
        yield path, json.dumps(node, sort_keys=True)


def changed_paths(old: Any, new: Any) -> list[PathT]:
    """Changed leaves; a map entry or list item that only one side has is one change."""
    before, after = dict(_leaves(old)), dict(_leaves(new))
    changed = {_whole(p, old, new) for p in set(before) | set(after) if before.get(p) != after.get(p)}
    return sorted(changed, key=str)


def _whole(path: PathT, old: Any, new: Any) -> PathT:
    for end in range(1, len(path) + 1):
        if _has(old, path[:end]) != _has(new, path[:end]):
            return path[:end]
    return path


def _has(node: Any, path: PathT) -> bool:
    for part in path:
        in_list = isinstance(node, list) and isinstance(part, int) and part < len(node)
        if (isinstance(node, dict) and part in node) or in_list:
            node = node[part]
        else:
            return False
    return True


def _spec(obj: dict[str, Any]) -> Any:
    """What an edit can change: spec, or for kinds whose fields sit beside metadata, those.
    A Secret is compared by its keys: values are never read here."""
    if obj.get("kind") == "Secret":
        return {"keys": sorted(str(k) for k in {*_mapping(obj.get("data")), *_mapping(obj.get("stringData"))})}
    if "spec" in obj:
        return obj["spec"]
    return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata", "status")}


def _runtime_effect(kind: str, path: PathT) -> str:
    engine = BY_KIND[kind]
    dotted = ".".join(str(p) for p in path if isinstance(p, str))
    best, effect = -1, RECREATE
    for prefix, what in engine.edits:
        if (dotted == prefix or dotted.startswith(prefix + ".")) and len(prefix) > best:
            best, effect = len(prefix), what
    return effect


def _bound_engine(dataset: Key, objects: Iterable[dict[str, Any]]) -> str | None:
    for obj in objects:
        kind, ns, name = _key(obj)
        if kind in BY_KIND and (ns, name) == dataset[1:]:
            return kind
    return None


def classify(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[Edit]:
    """Every changed field of every object present before and after, and the operations added
    or removed, with what Fluid will do about it."""
    before = {_key(o): _without_defaults(o, after_of(o, new)) for o in old if isinstance(o, dict)}
    after = {_key(o): o for o in new if isinstance(o, dict)}
    edits: list[Edit] = []
    for key in sorted(set(before) | set(after)):
        kind, ns, name = key
        if key not in before:
            edits.append(Edit(kind, ns, name, "", RUNS if kind in OPERATIONS else KUBERNETES))
            continue
        if key not in after:
            edits.append(Edit(kind, ns, name, "", REMOVED))
            continue
        for path in changed_paths(_spec(before[key]), _spec(after[key])):
            shown = format_path(("spec", *path)) if "spec" in after[key] else format_path(path)
            edits.append(Edit(kind, ns, name, shown, _effect(key, path, after.values())))
    return edits


def after_of(obj: dict[str, Any], new: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((o for o in new if isinstance(o, dict) and _key(o) == _key(obj)), None)


def _without_defaults(live: dict[str, Any], wanted: dict[str, Any] | None) -> dict[str, Any]:
    """A live object (from `kubectl get -o yaml`: it has a uid or a status) holds fields the API
    server and Fluid's webhooks defaulted; only what the manifests set can be an edit."""
    meta = _mapping(live.get("metadata"))
    if wanted is None or not ("uid" in meta or "status" in live):
        return live
    return {**live, "spec": _pick(live.get("spec"), wanted.get("spec"))} if "spec" in live else live


def _pick(live: Any, wanted: Any) -> Any:
    if isinstance(live, dict) and isinstance(wanted, dict):
        return {k: _pick(live[k], wanted[k]) for k in live if k in wanted}
    return live


def _effect(key: Key, path: PathT, objects: Iterable[dict[str, Any]]) -> str:
    kind = key[0]
    if kind in BY_KIND:
        return _runtime_effect(kind, path)
    if kind == "Dataset":
        engine = _bound_engine(key, objects)
        if path[:1] == ("mounts",) and engine is not None:
            return BY_KIND[engine].mount_edits
        return RECREATE  # Fluid reads the rest when it binds the Dataset to its runtime
    if kind in OPERATIONS:
        return RERUN
    return KUBERNETES


def report(edits: list[Edit]) -> str:
    lines = [e.line() for e in edits]
    ignored = sum(1 for e in edits if e.ignored)
    tail = f"fluidgen plan: {len(edits)} change{'s' if len(edits) != 1 else ''}, {ignored} ignored by Fluid"
    return "\n".join([*lines, tail]) + "\n"


def compile_at_revision(revision: str, specs: Iterable[str], overlays: Iterable[str], options: Options,
                        environment: str | None) -> CompileResult:
    """The same specs as they were at a git revision: the directories they live in are copied
    from the revision's tree into a private temporary directory and compiled there (see
    gittree.py for what a hostile revision string or tree can and cannot do)."""
    import tempfile

    from . import gittree
    from .diagnostics import Diagnostic
    from .pipeline import CompileResult, compile_paths

    label = f"git:{revision}"

    def failed(message: str) -> CompileResult:
        return CompileResult(diagnostics=[Diagnostic(label, 0, 0, "error", message)])

    specs, overlays = list(specs), list(overlays)
    try:
        top = gittree.toplevel()
        tree = gittree.resolve(revision, top)
    except gittree.TreeError as exc:
        return failed(str(exc))
    folders: list[str] = []
    for path in [*specs, *overlays]:
        folder = os.path.abspath(path) if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        rel = os.path.relpath(folder, top)
        if rel == ".." or rel.startswith(".." + os.sep) or path == "-":
            return failed(f"{path} is outside the git repository at {top}")
        folders.append("" if rel == "." else rel.replace(os.sep, "/"))
    with tempfile.TemporaryDirectory(prefix="fluidgen-plan-") as tmp:
        try:
            copied = gittree.copy(tree, top, folders, tmp)
        except gittree.TreeError as exc:
            return failed(str(exc))
        old_specs = [os.path.join(tmp, os.path.relpath(os.path.abspath(p), top)) for p in specs]
        old_overlays = [os.path.join(tmp, os.path.relpath(os.path.abspath(p), top)) for p in overlays]
        result = compile_paths(old_specs, options, old_overlays, environment=environment)
        result.diagnostics = [replace(d, file=d.file.replace(tmp, label)) for d in result.diagnostics]
        result.diagnostics[:0] = [Diagnostic(f"{label}:{rel}", 0, 0, "info", note) for rel, note in copied.notes]
        return result
