"""The dump as fluidgen sees it: which objects the specs generated, which Fluid created for them
(a runtime's StatefulSets and DaemonSet, an operation's Job, a Dataset's claim), which pods
belong to each and as which component, the events of each newest first, and what the dump
holds that no spec explains (another namespace, objects fluidgen did not generate)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..base.fluidsource import source
from ..base.manifest import Manifest, Tree, kind_of, meta
from ..catalog import kinds
from ..compile.pipeline import CompileResult
from ..engines.engine_table import BY_KIND
from ..fluid.jobkinds import WORKLOADS
from ..fluid.operations import OPERATIONS
from .dump import FLUID_SYSTEM, Dump, Event, event_of

Key = tuple[str, str, str]  # kind, namespace, name
# Cluster-scoped kinds a dump holds that fluidgen never builds (Kubernetes' own scopes); the
# scope of every kind fluidgen builds is the kind table's (catalog/kinds.py).
READ_ONLY_CLUSTER_KINDS = frozenset({"Node", "StorageClass", "CSIDriver", "Namespace"})
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# What Fluid makes for a bound Dataset: a claim named like it, and a volume <namespace>-<name>
DATASET_CLAIM = source("pkg/utils/dataset/volume/create.go", "CreatePersistentVolumeClaimForRuntime",
                       note="the PersistentVolumeClaim is named runtime.GetName(), the Dataset's name")
DATASET_VOLUME = source("pkg/ddc/base/pv.go", "GetPersistentVolumeName", note="<namespace>-<name>")


@dataclass(frozen=True)
class Owner:
    """A generated object and the part of it a cluster object belongs to: master, worker, fuse
    (a runtime's components), job (a data operation's), claim (a Dataset's), or the object itself."""

    obj: Manifest
    component: str


def key_of(obj: Mapping[str, Any]) -> Key:
    found = obj.get("metadata")
    m: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    kind = str(obj.get("kind", ""))
    ns = "" if kind in READ_ONLY_CLUSTER_KINDS or not kinds.namespaced(kind) else str(m.get("namespace") or "")
    return kind, ns, str(m.get("name", ""))


def label(key: Key) -> str:
    kind, ns, name = key
    return f"{kind} {ns}/{name}" if ns else f"{kind} {name}"


@dataclass
class Cluster:
    result: CompileResult
    dump: Dump
    generated: dict[Key, Manifest] = field(default_factory=dict)
    derived: dict[Key, Owner] = field(default_factory=dict)
    live: dict[Key, Tree] = field(default_factory=dict)
    events: dict[Key, list[Event]] = field(default_factory=dict)
    namespaces: set[str] = field(default_factory=set)  # the namespaces the specs build into

    def __post_init__(self) -> None:
        for obj in self.result.objects:
            if "metadata" not in obj:
                continue
            key = key_of(obj)
            self.generated[key] = obj
            if key[1]:
                self.namespaces.add(key[1])
            self._derive(obj, key)
        for obj in self.dump.objects:
            event = event_of(obj)
            if event is not None:
                self.events.setdefault(event.about(), []).append(event)
            else:
                self.live.setdefault(key_of(obj), obj)
        for found in self.events.values():  # newest first, whatever order the dump has
            found.sort(key=lambda e: (e.time or _EPOCH, e.reason, e.message), reverse=True)

    def _derive(self, obj: Manifest, key: Key) -> None:
        kind, ns, name = key
        engine = BY_KIND.get(kind)
        if engine is not None:
            for made_kind, made in engine.created.names(name, obj.get("spec") if isinstance(obj.get("spec"), dict)
                                                        else None, maybe=True):
                self.derived[(made_kind, ns, made)] = Owner(obj, _component(made))
        op = OPERATIONS.get(kind)
        if op is not None:
            job = op.job_name.format(name=name)
            for made_kind in ("Job", "Pod", "CronJob"):
                self.derived[(made_kind, ns, job)] = Owner(obj, "job")
        if kind == "Dataset":  # Fluid's claim and volume for a bound Dataset (DATASET_CLAIM, DATASET_VOLUME)
            self.derived[("PersistentVolumeClaim", ns, name)] = Owner(obj, "claim")
            self.derived[("PersistentVolume", "", f"{ns}-{name}")] = Owner(obj, "claim")

    # -- reading ----------------------------------------------------------------------------

    def get(self, key: Key) -> Tree | None:
        return self.live.get(key)

    def events_of(self, key: Key) -> list[Event]:
        return self.events.get(key, [])

    def owner(self, obj: Mapping[str, Any], depth: int = 0) -> Owner | None:
        """The generated object a live object belongs to: itself, one Fluid created for it, or
        (a pod) through its controller: a StatefulSet, DaemonSet, Job (also a CronJob's) or a
        training job."""
        key = key_of(obj)
        if key in self.generated:
            return Owner(self.generated[key], "self")
        if key in self.derived:
            return self.derived[key]
        for ref in _owner_refs(obj):
            ref_key = (ref[0], key[1], ref[1])
            if ref_key in self.generated:
                return Owner(self.generated[ref_key], "workload" if ref[0] in WORKLOADS else "self")
            if ref_key in self.derived:
                return self.derived[ref_key]
            parent = self.live.get(ref_key)
            if parent is not None and ref[0] in ("Job", "ReplicaSet") and depth < 2:  # a CronJob's Job
                found = self.owner(parent, depth + 1)
                if found is not None:
                    return found
        return None

    def pods(self) -> list[tuple[Tree, Owner]]:
        out = []
        for key, obj in sorted(self.live.items()):
            if key[0] == "Pod":
                found = self.owner(obj)
                if found is not None:
                    out.append((obj, found))
        return out

    def of_kind(self, kind: str, namespace: str | None = None) -> list[Tree]:
        return [o for k, o in sorted(self.live.items()) if k[0] == kind and (namespace is None or k[1] == namespace)]

    def unexplained(self) -> tuple[dict[str, int], dict[str, int]]:
        """Objects of the dump in namespaces the specs do not build into (count per namespace),
        and objects in theirs that no spec generated nor Fluid made for one (count per kind)."""
        elsewhere: dict[str, int] = dict(self.dump.elsewhere)
        unknown: dict[str, int] = {}
        for key, obj in self.live.items():
            kind, ns, _ = key
            if not ns or ns == FLUID_SYSTEM:
                continue
            if ns not in self.namespaces:
                elsewhere[ns] = elsewhere.get(ns, 0) + 1
            elif self.owner(obj) is None:
                unknown[kind] = unknown.get(kind, 0) + 1
        return dict(sorted(elsewhere.items())), dict(sorted(unknown.items()))


def _component(name: str) -> str:
    for suffix, component in (("-master", "master"), ("-worker", "worker"), ("-fuse", "fuse"), ("-client", "fuse")):
        if name.endswith(suffix):
            return component
    return "runtime"


def _owner_refs(obj: Mapping[str, Any]) -> list[tuple[str, str]]:
    refs = meta(dict(obj)).get("ownerReferences")
    if not isinstance(refs, list):
        return []
    return [(str(r.get("kind")), str(r.get("name"))) for r in refs if isinstance(r, Mapping)]


def runtime_spec_key(runtime: Manifest, component: str) -> str:
    """Where a component's settings live in the runtime's spec (the cache engine calls FUSE client)."""
    found = runtime.get("spec")
    spec: Mapping[str, Any] = found if isinstance(found, dict) else {}
    if component == "fuse" and "client" in spec and "fuse" not in spec:
        return "client"
    return component


__all__ = ["Cluster", "Key", "Owner", "key_of", "kind_of", "label", "runtime_spec_key"]
