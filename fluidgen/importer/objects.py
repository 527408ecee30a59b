"""Read Fluid manifests for import and group them per Dataset.

Server-set fields (status, uid, resourceVersion, managedFields, ...) are dropped, kubectl
Lists are opened, and every object keeps the document it came from for locations.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..base.diagnostics import Diagnostic
from ..base.manifest import Manifest, Tree
from ..engines.engine_table import ENGINES
from ..fluid.operations import OPERATIONS
from ..io.lists import open_lists, start
from ..io.yamlreader import Document

# metadata the API server or kubectl writes, never the author
SERVER_METADATA = ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink",
                   "deletionTimestamp", "deletionGracePeriodSeconds", "finalizers", "ownerReferences")
SERVER_ANNOTATIONS = ("kubectl.kubernetes.io/last-applied-configuration",)
RUNTIME_KINDS = frozenset(e.kind for e in ENGINES.values())


@dataclass
class Obj:
    data: Manifest
    doc: Document

    @property
    def kind(self) -> str:
        return str(self.data.get("kind", ""))

    @property
    def name(self) -> str:
        return str(self.data.get("metadata", {}).get("name", ""))

    @property
    def namespace(self) -> str | None:
        ns = self.data.get("metadata", {}).get("namespace")
        return str(ns) if ns else None

    @property
    def is_secret(self) -> bool:
        """A Secret, however its kind is spelled (the API server refuses `secret`, but its data is still
        a credential), or any kind named for secrets that carries data: never written anywhere."""
        kind = self.kind.strip().lower()
        return kind == "secret" or ("secret" in kind and ("data" in self.data or "stringData" in self.data))

    @property
    def spec(self) -> Tree:
        spec = self.data.get("spec")
        return spec if isinstance(spec, dict) else {}

    def key(self, default_namespace: str) -> tuple[str, str, str]:
        return self.kind, self.namespace or default_namespace, self.name

    def where(self) -> str:
        file, line, _ = self.doc.locate(start(self.doc))
        return f"{file}:{line}"

    def diag(self, message: str) -> Diagnostic:
        """An import error at the object's first line."""
        file, line, col = self.doc.locate(start(self.doc))
        return Diagnostic(file, line, col, "error", message, stage="import")


@dataclass
class Scenario:
    """One Dataset and everything that belongs to it."""

    dataset: Obj
    runtime: Obj | None = None
    operations: list[Obj] = field(default_factory=list)
    secrets: dict[str, Obj] = field(default_factory=dict)  # by name
    volumes: dict[str, tuple[Obj | None, Obj | None]] = field(default_factory=dict)  # claim -> (PV, PVC)

    @property
    def name(self) -> str:
        return self.dataset.name

    @property
    def namespace(self) -> str | None:
        return self.dataset.namespace

    def objects(self) -> list[Obj]:
        volumes = [o for pair in self.volumes.values() for o in pair if o is not None]
        runtime = [self.runtime] if self.runtime is not None else []
        return [self.dataset, *runtime, *self.operations, *self.secrets.values(), *volumes]


def _without_nulls(value: Any) -> Any:
    """The API server drops a null it has no default for (apiextensions-apiserver
    PruneNonNullableNullsWithoutDefaults), so `properties:` with nothing under it is no field."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def clean(obj: Manifest) -> tuple[Manifest, list[str]]:
    """The object without status, server-set metadata and nulls, and what was dropped."""
    out = _without_nulls(copy.deepcopy(obj))
    dropped = []
    if "status" in out:
        del out["status"]
        dropped.append("status")
    meta = out.get("metadata")
    if isinstance(meta, dict):
        for key in SERVER_METADATA:
            if key in meta:
                del meta[key]
                dropped.append(f"metadata.{key}")
        notes = meta.get("annotations")
        if isinstance(notes, dict):
            for key in SERVER_ANNOTATIONS:
                if notes.pop(key, None) is not None:
                    dropped.append(f"metadata.annotations.{key}")
            if not notes:
                del meta["annotations"]
    return out, dropped


def objects_of(docs: list[Document]) -> tuple[list[Obj], list[Diagnostic]]:
    """Every Kubernetes object in the documents, cleaned; Lists opened (lists.py)."""
    out: list[Obj] = []
    items, notes = open_lists(docs)
    notes = [dataclasses.replace(d, stage="import") for d in notes]
    for doc in items:
        data = doc.data
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) \
                or not isinstance(data.get("metadata"), dict) or not data["metadata"].get("name"):
            notes.append(doc.diag(start(doc), "not a Kubernetes object with a kind and metadata.name; skipped",
                                  "warning", stage="import"))
            continue
        cleaned, dropped = clean(data)
        if dropped:
            notes.append(doc.diag(start(doc), f"{data['kind']} {data['metadata']['name']}: dropped what the server "
                                      f"set ({', '.join(dropped)})", "info", stage="import"))
        out.append(Obj(cleaned, doc))
    return out, notes


def _dataset_of(op: Obj) -> tuple[str, str | None] | None:
    """The Dataset (name, namespace) a data operation works on."""
    spec = op.spec
    if op.kind == "DataBackup":
        return (str(spec["dataset"]), op.namespace) if isinstance(spec.get("dataset"), str) else None
    if op.kind == "DataMigrate":
        for side in ("from", "to"):
            end = spec.get(side)
            if isinstance(end, dict) and isinstance(end.get("dataset"), dict):
                ref = end["dataset"]
                return str(ref.get("name", "")), _text(ref.get("namespace")) or op.namespace
        return None
    ref = spec.get("dataset")
    if isinstance(ref, dict):
        return str(ref.get("name", "")), _text(ref.get("namespace")) or op.namespace
    return None


def _text(value: Any) -> str | None:
    return str(value) if value else None


def _mounts(dataset: Obj) -> list[Tree]:
    mounts = dataset.spec.get("mounts")
    return [m for m in mounts if isinstance(m, dict)] if isinstance(mounts, list) else []


def _secret_names(value: Any) -> set[str]:
    """Names of the Secrets any encryptOptions below `value` read."""
    found: set[str] = set()
    if isinstance(value, dict):
        ref = value.get("secretKeyRef")
        if isinstance(ref, dict) and isinstance(ref.get("name"), str):
            found.add(ref["name"])
        for item in value.values():
            found |= _secret_names(item)
    elif isinstance(value, list):
        for item in value:
            found |= _secret_names(item)
    return found


def group(objects: list[Obj]) -> tuple[list[Scenario], list[Obj]]:
    """One scenario per Dataset, in input order; the objects that belong to none."""
    scenarios = [Scenario(o) for o in objects if o.kind == "Dataset"
                 and str(o.data.get("apiVersion", "")).startswith("data.fluid.io/")]
    by_key: dict[tuple[str, str], Scenario] = {}
    for s in scenarios:  # a second Dataset of one name gets nothing (run refuses it); the first keeps its objects
        by_key.setdefault((s.name, s.namespace or "default"), s)
    used: set[int] = {id(s.dataset) for s in scenarios}
    for o in objects:
        owner = _owner(o, by_key)
        if owner is not None:
            used.add(id(o))
    for s in scenarios:
        used |= _attach_secrets_and_volumes(s, objects)
    return scenarios, [o for o in objects if id(o) not in used]


def _owner(o: Obj, by_key: dict[tuple[str, str], Scenario]) -> Scenario | None:
    """The scenario a runtime or data operation joins (attached there), if any."""
    if o.kind in RUNTIME_KINDS:
        owner = by_key.get((o.name, o.namespace or "default"))
        if owner is None or owner.runtime is not None:
            return None
        owner.runtime = o
        return owner
    if o.kind in OPERATIONS:
        ref = _dataset_of(o)
        found = by_key.get((ref[0], ref[1] or "default")) if ref else None
        if found is not None:
            found.operations.append(o)
        return found
    return None


def _attach_secrets_and_volumes(s: Scenario, objects: list[Obj]) -> set[int]:
    """The Secrets the scenario's encryptOptions read and the claims (with volumes) it mounts."""
    wanted = _secret_names([o.spec for o in [s.dataset, *s.operations]])
    claims = _claims(s.dataset)
    ns = s.namespace or "default"
    used: set[int] = set()
    for o in objects:
        if (o.namespace or "default") != ns:
            continue
        if o.kind == "Secret" and o.name in wanted:
            s.secrets[o.name] = o
            used.add(id(o))
        elif o.kind == "PersistentVolumeClaim" and o.name in claims:
            pv = _volume_of(o, objects)
            s.volumes[o.name] = (pv, o)
            used |= {id(o), id(pv)}
    return used


def _claims(dataset: Obj) -> set[str]:
    """The claims a Dataset mounts (pvc://claim or pvc://claim/path)."""
    points = [str(m.get("mountPoint", "")) for m in _mounts(dataset)]
    return {p[len("pvc://"):].split("/")[0] for p in points if p.startswith("pvc://")}


def _volume_of(claim: Obj, objects: list[Obj]) -> Obj | None:
    """The PersistentVolume a claim binds: its volumeName, else the one named like the claim."""
    name = claim.spec.get("volumeName") or claim.name
    return next((v for v in objects if v.kind == "PersistentVolume" and v.name == name), None)
