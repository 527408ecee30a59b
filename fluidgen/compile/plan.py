"""`fluidgen plan`: before a change is applied, which edits Fluid carries out and which it ignores.

Fluid's controllers propagate few edits to a running runtime: most engines' SyncRuntime is
empty, so changed properties, JVM options, tiers or FUSE arguments never reach the pods and
Argo CD reports the edit synced and healthy. Each engine module states what its sync carries
out, per Fluid version and with the Fluid source (Engine.edits.runtime: EditFacts; Engine.mount_sync:
how Dataset mount edits reach it; fluid/sync.py; fluidbase.mount_delta); this module compares the objects before and
after and classifies every changed field:

- applied: carried out in place (workers scale, the cache mounts or unmounts a mount);
- rolling: written to a workload whose pods restart with it;
- on-restart: written to an OnDelete workload (the FUSE DaemonSet; on newer Fluid the
  StatefulSets too), taken up only as its pods are recreated;
- fuse-config: written to the FUSE program's config file in the running FUSE pods (Thin);
- fuse-only: a Dataset edit the FUSE mount command follows as FUSE pods are recreated while
  the PersistentVolume and claim keep what they were created with (JuiceFS accessModes);
- recreate: ignored until the runtime is deleted and created again, which loses the cache
  and leaves the Dataset unbound meanwhile;
- same-path: a Dataset mount edit at an unchanged namespace path, which the runtime never
  remounts (a new name or path makes it mount afresh);
- rerun-needed: a data operation runs once, so an edit of one that exists does nothing; it
  takes a new name to run again (with hashed names, fluidgen gives it one);
- kubernetes: any other kind, applied by the API server as usual;
- refused: an edit the API server refuses in an update (a Job's pod template, a PersistentVolume's
  source: fluid/updates.py); the sync fails until the object is deleted;
- recreated: such an edit of an object carrying Flux's recreate marker, which Flux deletes and
  creates again (a training job starts over).

Each ignored edit says what to do about it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..base import versions
from ..base.diagnostics import Diagnostic, PathT, format_path
from ..base.manifest import Manifest, Tree
from ..catalog.kinds import FLUX_FORCE_ANNOTATION
from ..engines.contract import Engine
from ..engines.engine_table import BY_KIND
from ..fluid.fluidbase import is_native, mount_delta, mount_path
from ..fluid.jobkinds import WORKLOADS as JOB_KINDS
from ..fluid.operations import OPERATIONS
from ..fluid.sync import (
    APPLIED,
    CONFIG_ONLY,
    FUSE_CONFIG,
    FUSE_ONLY,
    NO_MOUNT_SYNC,
    ON_RESTART,
    RECREATE,
    ROLLING,
    SAME_PATH,
    EditFact,
    MountSync,
)
from ..fluid.updates import UPDATE_RULES, refused
from ..io import gittree
from .pipeline import CompileResult, compile_paths

if TYPE_CHECKING:
    from ..base.options import Options
    from .pipeline import CompileResult

RERUN = "rerun-needed"
RUNS = "runs"  # a data operation that is new (a new name): Fluid runs it
REMOVED = "removed"
MOVED = "moved"  # the same kind and name, in another namespace now
KUBERNETES = "kubernetes"
REFUSED = "refused"  # the API server refuses the update (fluid/updates.py)
RECREATED = "recreated"  # ... and Flux re-creates the object (its force annotation)
IGNORED = frozenset({RECREATE, SAME_PATH, RERUN, REFUSED, FUSE_ONLY, CONFIG_ONLY})  # the edits plan fails on

WORKLOADS = {"master": "master StatefulSet", "worker": "worker StatefulSet", "fuse": "FUSE DaemonSet"}
MEANING = {
    APPLIED: "applied in place",
    ROLLING: "applied; the {workload}'s pods restart with it",
    ON_RESTART: "written to the {workload} (OnDelete); taken up only as its pods are recreated",
    FUSE_CONFIG: "written to the FUSE config file in the running FUSE pods; the FUSE program takes it up if it "
                 "rereads its config, else as FUSE pods are recreated",
    RECREATE: "ignored until the runtime is re-created (the cache is lost and the dataset unbound meanwhile)",
    SAME_PATH: "ignored: the runtime remounts only mounts whose namespace path appears or disappears",
    RERUN: "ignored: the operation already ran; it runs again only under a new name",
    FUSE_ONLY: "the FUSE mount follows it as the {workload}'s pods are recreated, but the PersistentVolume and claim "
               "Fluid created keep the access modes they were made with, and pods mount the claim by those",
    CONFIG_ONLY: "written to the FUSE config file (config.json) in the running FUSE pods, but the FUSE options Fluid "
                 "gives the program (ro, in the {workload}'s MOUNT_OPTIONS) and the PersistentVolume and claim keep "
                 "the access modes they were made with",
    RUNS: "a new operation: Fluid runs it",
    REMOVED: "removed",
    MOVED: "created in this namespace; the one in the old namespace stays until it is deleted (Argo CD prunes it)",
    KUBERNETES: "applied by Kubernetes",
    REFUSED: "refused by the API server: the field cannot change in place, so every apply fails until the "
             "object is deleted",
    RECREATED: "refused in place; Flux deletes the object and creates it again (kustomize.toolkit.fluxcd.io/force: "
               "enabled), so a job starts over",
}
# What to do about an ignored (or deferred) edit.
ADVICE = {
    RECREATE: "to apply it, delete the runtime and apply again (plan --allow-recreate accepts this)",
    SAME_PATH: "to apply it, give the mount a new name or path (the runtime mounts it afresh there) or re-create "
               "the runtime (plan --allow-recreate accepts this)",
    RERUN: "to run it again, give it a new name: --operation-names hashed does so for every edited step",
    ON_RESTART: "delete those pods to take it up now",
    REFUSED: "delete it and apply again (plan --allow-recreate accepts this); a training job with "
             "workloads[].nameHash: true gets a new name for each edit instead",
    FUSE_ONLY: "to apply it whole, delete the runtime and apply again (plan --allow-recreate accepts this); "
               "recreating only the FUSE pods leaves the FUSE mount and the claim disagreeing",
    CONFIG_ONLY: "to apply it whole, delete the runtime and apply again (plan --allow-recreate accepts this); "
                 "recreating only the FUSE pods keeps the old MOUNT_OPTIONS",
}
MOUNT_KEYS = ("mounts", "sharedOptions", "sharedEncryptOptions")

Key = tuple[str, str, str]  # kind, namespace, name


@dataclass(frozen=True)
class Edit:
    kind: str
    namespace: str
    name: str
    path: str  # "" for the whole object
    effect: str
    workload: str = ""  # master, worker, fuse: where a ROLLING or ON_RESTART edit is written
    note: str = ""  # why, where it is not the effect's general reason

    @property
    def ignored(self) -> bool:
        return self.effect in IGNORED

    def line(self) -> str:
        where = f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"
        meaning = MEANING[self.effect].format(workload=WORKLOADS.get(self.workload, "runtime's workload"))
        note = f" ({self.note})" if self.note else ""
        advice = f"; {ADVICE[self.effect]}" if self.effect in ADVICE else ""
        return f"{where}{' ' + self.path if self.path else ''}: {meaning}{note}{advice}"


def _mapping(value: Any) -> Tree:
    return value if isinstance(value, dict) else {}


def key_of(obj: Tree) -> Key:
    """kind, namespace and name of an object of any shape (read from a file or a dump)."""
    return _key(obj)


def _key(obj: Tree) -> Key:
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


def changed_leaves(old: Any, new: Any) -> list[PathT]:
    """Every changed leaf, also inside a map entry or list item that only one side has."""
    before, after = dict(_leaves(old)), dict(_leaves(new))
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    # an empty map or list on one side is no edit of its own where the other side fills it
    inner = {p[:end] for p in changed for end in range(len(p))}
    return sorted(changed - inner, key=str)


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


def _spec(obj: Tree) -> Any:
    """What an edit can change: spec, or for kinds whose fields sit beside metadata, those.
    A Secret is compared by its keys: values are never read here."""
    if obj.get("kind") == "Secret":
        return {"keys": sorted(str(k) for k in {*_mapping(obj.get("data")), *_mapping(obj.get("stringData"))})}
    if "spec" in obj:
        return obj["spec"]
    return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata", "status")}


def edit_facts(engine: Engine, version: str) -> Iterator[EditFact]:
    """The engine's sync facts that hold for `version`."""
    yield from (fact for fact in engine.edits.runtime if fact.holds_for(version))


def runtime_effect(engine: Engine, path: PathT, version: str) -> tuple[str, str]:
    """(effect, workload) of an edit of a running runtime's spec at `path`."""
    dotted = ".".join(str(p) for p in path if isinstance(p, str))
    best, found = -1, None
    for fact in edit_facts(engine, version):
        if (dotted == fact.prefix or dotted.startswith(fact.prefix + ".")) and len(fact.prefix) > best:
            best, found = len(fact.prefix), fact
    return (found.effect, found.workload) if found is not None else (RECREATE, "")


def mount_sync(engine: Engine, version: str) -> MountSync:
    """How the engine takes up Dataset mount edits at `version`."""
    return next((m for m in engine.edits.mounts if m.source is None or m.source.holds_for(version)), NO_MOUNT_SYNC)


def _bound_runtime(dataset: Key, objects: Iterable[Tree]) -> Tree | None:
    for obj in objects:
        kind, ns, name = _key(obj)
        if kind in BY_KIND and (ns, name) == dataset[1:]:
            return obj
    return None


def classify(old: list[Manifest], new: list[Manifest], version: str | None = None,
             built_for: Mapping[Key, str] | None = None, running: Mapping[Key, str] | None = None) -> list[Edit]:
    """Every changed field of every object present before and after, and the operations added
    or removed, with what Fluid will do about it. Each object is judged at the Fluid version
    that runs it (judged_at): `running` (what the deployed objects were built for, when known:
    plan --against git:REV), else `built_for` (the version its spec builds for: its fluid:, else
    the setting), else `version`, else versions.DEFAULT."""
    old = in_build_namespace(old, new)
    before = {_key(o): _without_defaults(o, after_of(o, new)) for o in old if isinstance(o, dict)}
    after = {_key(o): o for o in new if isinstance(o, dict)}
    moved = _moved(set(before) - set(after), set(after) - set(before))
    left = {(kind, was, name) for (kind, _, name), was in moved.items()}
    edits: list[Edit] = []
    for key in sorted((set(before) | set(after)) - left):
        at, note = judged_at(key, version, built_for or {}, running or {})
        edits += [replace(e, note=f"{e.note}; {note}" if e.note else note) if note else e
                  for e in _key_edits(key, before, after, moved, at)]
    return edits


def judged_at(key: Key, version: str | None, built_for: Mapping[Key, str], running: Mapping[Key, str]
              ) -> tuple[str, str]:
    """(the Fluid version an edit of object `key` is judged at, a note when the edit also moves
    the spec's fluid: pin). Edits are carried out by the Fluid that runs the object now: after a
    pin change that is still the old version, until Fluid itself is upgraded."""
    new = built_for.get(key) or version or versions.DEFAULT
    now = running.get(key)
    if now is None or now == new:
        return new, ""
    return now, f"judged at Fluid {now}, which runs it now; the spec's fluid: pin moves it to {new}"


def _key_edits(key: Key, before: dict[Key, Tree], after: dict[Key, Tree], moved: dict[Key, str],
               version: str) -> list[Edit]:
    """The edits of one object: moved, added, removed, or its changed fields."""
    kind, ns, name = key
    if key in moved:
        return [Edit(kind, ns, name, "", MOVED, note=f"from namespace {moved[key]}")]
    if key not in before:
        return [Edit(kind, ns, name, "", RUNS if kind in OPERATIONS else KUBERNETES)]
    if key not in after:
        return [Edit(kind, ns, name, "", REMOVED)]
    if kind == "Dataset":
        return _dataset_edits(key, _mapping(_spec(before[key])), _mapping(_spec(after[key])),
                              list(after.values()), version)
    return _object_edits(key, before[key], after[key], version)


def _object_edits(key: Key, old: Tree, new: Tree, version: str) -> list[Edit]:
    kind, ns, name = key
    out = []
    engine = BY_KIND.get(kind)
    paths = changed_leaves(_spec(old), _spec(new)) if engine is not None else changed_paths(_spec(old), _spec(new))
    refusals = refused(old, new)
    for path in paths:
        full = ("spec", *path) if "spec" in new else path
        shown = format_path(full)
        if engine is not None:
            effect, workload = runtime_effect(engine, path, version)
            out.append(Edit(kind, ns, name, shown, effect, workload))
        elif kind in OPERATIONS:
            out.append(Edit(kind, ns, name, shown, RERUN))
        else:
            out.append(_kubernetes_edit(key, full, shown, refusals, new))
    return out


def _kubernetes_edit(key: Key, full: PathT, shown: str, refusals: list[PathT], new: Tree) -> Edit:
    """An edit of a kind no Fluid controller reads: applied, refused by the API server (the rule's
    source in the note), or refused and re-created by Flux."""
    kind, ns, name = key
    if not any(r[:len(full)] == full or full[:len(r)] == r for r in refusals):
        # the operators make a job's pods once from the template (mpi_job_controller.go getOrCreateWorker,
        # training-operator common/pod.go ReconcilePods): running pods keep the old one
        pods = kind in JOB_KINDS and "template" in full
        note = "the operator keeps the pods it made from the old template; a new name runs the edit" if pods else ""
        return Edit(kind, ns, name, shown, KUBERNETES, note=note)
    source = UPDATE_RULES[kind].sources[0]
    marked = _mapping(_mapping(new.get("metadata")).get("annotations")).get(FLUX_FORCE_ANNOTATION) == "enabled"
    return Edit(kind, ns, name, shown, RECREATED if marked else REFUSED, note=f"{source.path} {source.function}")


def _dataset_edits(key: Key, old: Tree, new: Tree, objects: list[Manifest],
                   version: str) -> list[Edit]:
    kind, ns, name = key
    rest_old, mounts_old = _split_mounts(old)
    rest_new, mounts_new = _split_mounts(new)
    runtime = _bound_runtime(key, objects)
    engine = BY_KIND.get(str(runtime.get("kind"))) if runtime is not None else None
    # Fluid reads the rest when it binds the Dataset to its runtime, but for what its sync reads again
    out = _rest_edits(key, engine, rest_old, rest_new, version)
    if engine is None or runtime is None:
        return out + _recreated(key, mounts_old, mounts_new)
    sync = mount_sync(engine, version)
    if sync.mode == "paths":
        edits = _path_mode(engine, sync, old, new, runtime, objects)
    else:
        edits = _field_mode(engine, sync, mounts_old, mounts_new)
    return out + [Edit(kind, ns, name, format_path(("spec", *p)), effect, workload, note)
                  for p, effect, workload, note in edits]


def _rest_edits(key: Key, engine: Engine | None, old: Tree, new: Tree, version: str) -> list[Edit]:
    """The edits of a Dataset's fields outside its mounts: what the bound engine's sync takes up
    at `version` (Engine.edits.dataset), every other one waits for a re-created runtime."""
    kind, ns, name = key
    facts = [f for f in engine.edits.dataset if f.holds_for(version)] if engine is not None else []
    out = []
    for path in [p for p in changed_paths(old, new) if p]:  # (): an empty side, which the other paths say
        dotted = ".".join(str(p) for p in path if isinstance(p, str))
        fact = next((f for f in facts if dotted == f.prefix or dotted.startswith(f.prefix + ".")), None)
        out.append(Edit(kind, ns, name, format_path(("spec", *path)), fact.effect if fact else RECREATE,
                        fact.workload if fact else ""))
    return out


def _split_mounts(spec: Tree) -> tuple[Tree, Tree]:
    """A Dataset spec's fields apart from its mounts (MOUNT_KEYS), and the mount fields."""
    return ({k: v for k, v in spec.items() if k not in MOUNT_KEYS},
            {k: spec[k] for k in MOUNT_KEYS if k in spec})


def _recreated(key: Key, old: Tree, new: Tree) -> list[Edit]:
    """Every changed field of a Dataset spec as an edit taken up only by a re-created runtime."""
    kind, ns, name = key
    return [Edit(kind, ns, name, format_path(("spec", *p)), RECREATE) for p in changed_paths(old, new)]


Classified = tuple[PathT, str, str, str]  # path in the Dataset spec, effect, workload, note


def _mounts(spec: Mapping[str, Any]) -> list[Tree]:
    got = spec.get("mounts")
    return [m for m in got if isinstance(m, dict)] if isinstance(got, list) else []


def _by_path(mounts: list[Tree]) -> dict[str, tuple[int, Tree]]:
    out: dict[str, tuple[int, Tree]] = {}
    for i, m in enumerate(mounts):
        out.setdefault(mount_path(m.get("name"), m.get("path")), (i, m))
    return out


def _class_mounts(engine: Engine, runtime: Tree, objects: list[Manifest]) -> bool | None:
    """Whether a runtime's class (the engine's extra kind, when among the objects) lets it mount:
    topology.master with an executionEntries.mountUFS entry. None: the class is not here."""
    wanted = _mapping(runtime.get("spec")).get("runtimeClassName")
    kinds = {extra.kind for extra in engine.extra_kinds}
    for obj in objects:
        if obj.get("kind") in kinds and _mapping(obj.get("metadata")).get("name") == wanted:
            master = _mapping(_mapping(obj.get("topology")).get("master"))
            disabled = _mapping(_mapping(runtime.get("spec")).get("master")).get("disabled") is True
            return not disabled and bool(_mapping(master.get("executionEntries")).get("mountUFS"))
    return None


def _path_mode(engine: Engine, sync: MountSync, old: Mapping[str, Any], new: Mapping[str, Any],
               runtime: Tree, objects: list[Manifest]) -> list[Classified]:
    """A remounting runtime: mounts whose namespace path appears or disappears are mounted or
    unmounted; every other mount edit waits (fluidbase.mount_delta)."""
    old_mounts, new_mounts = _mounts(old), _mounts(new)
    delta = mount_delta(new_mounts, old_mounts)
    mounts_ok = _class_mounts(engine, runtime, objects) if sync.needs_class_mount else True
    before, after = _by_path(old_mounts), _by_path(new_mounts)
    out: list[Classified] = []
    for path in [*after, *(p for p in before if p not in after)]:
        i_old, m_old = before.get(path, (-1, None))
        i_new, m_new = after.get(path, (-1, None))
        if m_old is not None and m_new is not None:
            out += _remount_edits(sync, i_new, m_old, m_new)
        elif m_new is not None:
            out.append(_mount_or_unmount(("mounts", i_new), m_new, path, path in delta.add, mounts_ok))
        elif m_old is not None:
            out.append(_mount_or_unmount(("mounts", i_old), m_old, path, path in delta.add, mounts_ok))
    for key in ("sharedOptions", "sharedEncryptOptions"):
        for leaf in changed_leaves(old.get(key), new.get(key)):
            out.append(((key, *leaf), SAME_PATH, "", "used only for mounts mounted from now on"))
    return out


NATIVE = "pvc:// and local:// mounts reach the pods as volumes when the runtime is created"
NO_CLASS = "its runtime class has no topology.master executionEntries.mountUFS, so the runtime never mounts"


def _mount_or_unmount(where: PathT, mount: Tree, path: str, added: bool, mounts_ok: bool | None) -> Classified:
    """A mount whose namespace path appears or disappears: the runtime mounts or unmounts it,
    unless it reaches the pods as a volume or the runtime's class never mounts."""
    if is_native(mount.get("mountPoint")):
        return where, RECREATE, "", NATIVE
    if mounts_ok is False:
        return where, RECREATE, "", NO_CLASS
    did = "mounted" if added else "unmounted"
    return where, APPLIED, "", f"{did} at {path}" + ("" if mounts_ok else ", if its class defines mountUFS")


def _remount_edits(sync: MountSync, index: int, old: Tree, new: Tree) -> list[Classified]:
    """The edits of a mount whose namespace path stays: never remounted."""
    native = is_native(old.get("mountPoint")) or is_native(new.get("mountPoint"))
    return [(("mounts", index, *leaf), RECREATE, "", NATIVE) if native else
            (("mounts", index, *leaf), SAME_PATH, "", sync.remount_also) for leaf in changed_leaves(old, new)]


def _field_mode(engine: Engine, sync: MountSync, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Classified]:
    """A runtime that re-renders its FUSE mount command or config from the Dataset: per field."""
    out: list[Classified] = []
    new_secret = bool(_secrets(new) - _secrets(old))
    for path in changed_leaves(old, new):
        effect, note = _field_effect(engine, sync, path, new_secret)
        out.append((path, effect, sync.workload if effect in (ON_RESTART, ROLLING) else "", note))
    return out


def _field_effect(engine: Engine, sync: MountSync, path: PathT, new_secret: bool) -> tuple[str, str]:
    """(effect, note) of one changed mount field; `new_secret`: the edit brings in a Secret."""
    field, option = _mount_field(path)
    effect = sync.fields.get(field, sync.default) if sync.mode != "none" else RECREATE
    if sync.mode == "command" and path[0] == "mounts" and path[1:2] != (0,):
        return RECREATE, f"{engine.kind} reads only the first mount"
    if option is not None and option in sync.unsynced_options:
        return RECREATE, f"{option} is used by a command Fluid runs once, when the runtime is created"
    if field == "encryptOptions" and effect == FUSE_CONFIG and new_secret:
        return RECREATE, "a Secret the FUSE pods do not mount yet reaches them only when they are created"
    return effect, ""


def _mount_field(path: PathT) -> tuple[str, str | None]:
    """The mount field an edit is in (sharedOptions counts as options) and the option name."""
    if path[0] == "mounts":
        field = str(path[2]) if len(path) > 2 else "mount"
        option = str(path[3]) if field == "options" and len(path) > 3 else None
        return field, option
    if path[0] == "sharedOptions":
        return "options", (str(path[1]) if len(path) > 1 else None)
    return "encryptOptions", None


def _secrets(spec: Mapping[str, Any]) -> set[str]:
    found = set()
    lists = [spec.get("sharedEncryptOptions"), *(m.get("encryptOptions") for m in _mounts(spec))]
    for options in lists:
        for opt in options if isinstance(options, list) else []:
            ref = _mapping(_mapping(_mapping(opt).get("valueFrom")).get("secretKeyRef")).get("name")
            if isinstance(ref, str):
                found.add(ref)
    return found


def in_build_namespace(old: list[Any], new: list[Manifest]) -> list[Any]:
    """The old state with each object that names no namespace placed where the build puts the
    object of that kind and name: hand-written manifests leave metadata.namespace out, and
    kubectl applies them to the namespace the build uses too (the spec's, -n, FLUIDGEN_NAMESPACE)."""
    built = {(str(o.get("kind")), str(_mapping(o.get("metadata")).get("name"))): _key(o)[1]
             for o in new if isinstance(o, dict)}
    out = []
    for obj in old:
        meta = _mapping(obj.get("metadata")) if isinstance(obj, dict) else {}
        where = built.get((str(obj.get("kind")), str(meta.get("name")))) if isinstance(obj, dict) else None
        if meta and not meta.get("namespace") and where:
            obj = {**obj, "metadata": {**meta, "namespace": where}}
        out.append(obj)
    return out


def _moved(gone: set[Key], added: set[Key]) -> dict[Key, str]:
    """Objects only renamespaced: the new key -> the old namespace (never "removed")."""
    by_name = {(kind, name): ns for kind, ns, name in gone}
    return {(kind, ns, name): by_name[(kind, name)] for kind, ns, name in sorted(added) if (kind, name) in by_name}


def after_of(obj: Tree, new: list[Manifest]) -> Tree | None:
    return next((o for o in new if isinstance(o, dict) and _key(o) == _key(obj)), None)


def _without_defaults(live: Tree, wanted: Tree | None) -> Tree:
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
    label = f"git:{revision}" if revision.isprintable() else f"git:{revision!r}"  # one line, located

    def failed(message: str) -> CompileResult:
        return CompileResult(diagnostics=[Diagnostic(label, 0, 0, "error", message)])

    specs, overlays = list(specs), list(overlays)
    try:
        top = gittree.toplevel()
        tree = gittree.resolve(revision, top)
        folders = _folders([*specs, *overlays], top)
    except gittree.TreeError as exc:
        return failed(str(exc))
    with tempfile.TemporaryDirectory(prefix="fluidgen-plan-") as tmp:
        try:
            copied = gittree.copy(tree, top, folders, tmp)
        except gittree.TreeError as exc:
            return failed(str(exc))
        result = compile_paths(_copies(specs, top, tmp), options, _copies(overlays, top, tmp),
                               environment=environment)
        result.diagnostics = [replace(d, file=d.file.replace(tmp, label)) for d in result.diagnostics]
        result.diagnostics[:0] = [Diagnostic(f"{label}:{rel}", 0, 0, "info", note) for rel, note in copied.notes]
        return result


def _folders(paths: list[str], top: str) -> list[str]:
    """The folders of `paths` in the repository at `top` ('' for its top); a path outside it is
    a TreeError."""
    folders: list[str] = []
    for path in paths:
        folder = os.path.abspath(path) if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        rel = os.path.relpath(folder, top)
        if rel == ".." or rel.startswith(".." + os.sep) or path == "-":
            raise gittree.TreeError(f"{path} is outside the git repository at {top}")
        folders.append("" if rel == "." else rel.replace(os.sep, "/"))
    return folders


def _copies(paths: list[str], top: str, copy: str) -> list[str]:
    """Where `paths` (in the repository at `top`) are in its copy."""
    return [os.path.join(copy, os.path.relpath(os.path.abspath(p), top)) for p in paths]
