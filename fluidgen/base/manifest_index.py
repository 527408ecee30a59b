"""A typed, indexed view of a set of manifests, built once per lint run and read by every rule.

Rules read hand-written input of any shape, so an `Entry` keeps what the object says as
written (a name may be a number or missing) and offers its metadata and spec as mappings
(empty when they are not). The index answers the lookups rules share in constant time:
objects by kind, an object by kind, namespace and name, the runtime a Dataset binds to (and
back), and the Dataset a data operation works on. It knows no engine: the runtime kinds are
handed in by whoever builds it, with the Fluid version the objects are meant for (a rule whose
fact holds for some versions only reads it there).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar, cast

from .manifest import Manifest, Tree, kind_of, meta, spec_of
from .versions import DEFAULT

T = TypeVar("T")

# api/v1alpha1 in fluid-cloudnative/fluid (every version versions.py lists): where a data
# operation names its Dataset. DataBackup: spec.dataset, a name in the backup's namespace
# (databackup_types.go); DataMigrate: spec.from.dataset or spec.to.dataset, {name, namespace}
# (datamigrate_types.go, DatasetToMigrate); the others: spec.dataset, {name, namespace}
# (dataload_types.go TargetDataset, dataprocess_types.go TargetDatasetWithMountPath).
MIGRATE_ENDS = ("from", "to")


def _key(value: object) -> Hashable:
    """`value` as a dictionary key that is equal where the values are (a list name stays findable)."""
    try:
        hash(value)
    except TypeError:
        return ("<unhashable>", repr(value))
    return value


def landing_namespace(namespace: object) -> object:
    """The namespace an object written with `namespace` lands in: kubectl applies an object without
    one to the context's namespace, "default" unless set; every lookup here takes it as "default"."""
    return namespace or "default"


@dataclass(frozen=True, eq=False)
class Entry:
    """One object of the set, with the parts every rule reads."""

    obj: Manifest
    kind: str
    name: object  # metadata.name as written
    namespace: object  # metadata.namespace as written (None when absent)
    metadata: Tree
    spec: Tree

    @classmethod
    def of(cls, obj: Manifest) -> Entry:
        metadata = meta(obj)
        return cls(obj, kind_of(obj), metadata.get("name"), metadata.get("namespace"), metadata, spec_of(obj))


@dataclass(frozen=True)
class DatasetRef:
    """Where a data operation names its Dataset, and the name and namespace it gives."""

    path: tuple[str, ...]
    name: object
    namespace: object


def dataset_ref(op: Entry) -> DatasetRef | None:
    """The Dataset reference of a data operation, as written (see the note at MIGRATE_ENDS)."""
    if op.kind == "DataBackup":
        return DatasetRef(("spec", "dataset"), op.spec.get("dataset"), op.namespace)
    if op.kind == "DataMigrate":
        for side in MIGRATE_ENDS:
            end = op.spec.get(side)
            if isinstance(end, dict) and isinstance(end.get("dataset"), dict):
                return DatasetRef(("spec", side, "dataset"), end["dataset"].get("name"),
                                  end["dataset"].get("namespace"))
        return None
    ref = op.spec.get("dataset")
    if isinstance(ref, dict):
        return DatasetRef(("spec", "dataset"), ref.get("name"), ref.get("namespace"))
    return None


class ManifestIndex:
    """Every manifest of one lint run, indexed once; each lookup returns the first match in input order.
    `version` is the Fluid version (versions.py) the run targets."""

    def __init__(self, objects: Iterable[Manifest], runtime_kinds: Collection[str] = (), version: str = DEFAULT
                 ) -> None:
        self.entries: tuple[Entry, ...] = tuple(Entry.of(o) for o in objects)
        self.runtime_kinds = frozenset(runtime_kinds)
        self.version = version
        self._by_kind: dict[str, list[Entry]] = {}
        self._found: dict[tuple[str, Hashable, Hashable], list[Entry]] = {}
        self._runtimes: dict[tuple[Hashable, Hashable], Entry] = {}
        self._views: dict[Callable[[ManifestIndex], object], object] = {}
        for m in self.entries:
            self._by_kind.setdefault(m.kind, []).append(m)
            self._found.setdefault((m.kind, _key(m.name), _key(landing_namespace(m.namespace))), []).append(m)
            if m.kind in self.runtime_kinds:
                self._runtimes.setdefault((_key(m.name), _key(landing_namespace(m.namespace))), m)

    def of_kind(self, kind: str) -> list[Entry]:
        return list(self._by_kind.get(kind, ()))

    def cluster_scoped(self, kind: str, name: object) -> Entry | None:
        """The cluster-scoped object of that kind and name: the API server ignores a namespace written
        on one, and of two with one name the last one applied stands."""
        return next((e for e in reversed(self._by_kind.get(kind, ())) if e.name == name), None)

    def find(self, kind: str, name: object, namespace: object) -> Entry | None:
        """The object of that kind, name and namespace; no namespace counts as "default" on both
        sides (kubectl applies such a manifest to the context's namespace, "default" unless set)."""
        found = self._found.get((kind, _key(name), _key(landing_namespace(namespace))))
        return found[0] if found else None

    def is_runtime(self, m: Entry) -> bool:
        return m.kind in self.runtime_kinds

    def bound_runtime(self, dataset: Entry) -> Entry | None:
        """The runtime a Dataset binds to: Fluid binds a runtime of the same namespace and name (a
        missing namespace is "default", as in `find`)."""
        return self._runtimes.get((_key(dataset.name), _key(landing_namespace(dataset.namespace))))

    def bound_dataset(self, runtime: Entry) -> Entry | None:
        """The Dataset a runtime binds to (same namespace and name)."""
        return self.find("Dataset", runtime.name, runtime.namespace)

    def bound_datasets(self, runtime: Entry) -> list[Entry]:
        """Every Dataset of the runtime's namespace and name: one, unless the input repeats it."""
        return list(self._found.get(("Dataset", _key(runtime.name), _key(landing_namespace(runtime.namespace))), ()))

    def operation_dataset(self, op: Entry) -> Entry | None:
        """The Dataset a data operation works on; a reference without a namespace means the operation's own."""
        ref = dataset_ref(op)
        if ref is None or ref.name is None:
            return None
        return self.find("Dataset", ref.name, ref.namespace or op.namespace)

    def view(self, build: Callable[[ManifestIndex], T]) -> T:
        """`build(self)`, computed once per index: a table several objects' checks read."""
        if build not in self._views:
            self._views[build] = build(self)
        return cast(T, self._views[build])
