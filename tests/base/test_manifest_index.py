"""The indexed view of a set of manifests that rules read (fluidgen/base/manifest_index.py)."""

from __future__ import annotations

from fluidgen.base.manifest_index import DatasetRef, Entry, ManifestIndex, dataset_ref

RUNTIMES = frozenset({"AlluxioRuntime", "JindoRuntime"})


def _obj(kind: str, name: object, namespace: object = None, **spec: object) -> dict[str, object]:
    metadata: dict[str, object] = {} if name is None else {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    return {"kind": kind, "metadata": metadata, "spec": spec}


def _index(*objects: dict[str, object]) -> ManifestIndex:
    return ManifestIndex(objects, RUNTIMES)


def test_entry_reads_any_shape() -> None:
    odd = Entry.of({"kind": 5, "metadata": ["x"], "spec": "text"})
    assert (odd.kind, odd.name, odd.namespace, odd.metadata, odd.spec) == ("5", None, None, {}, {})
    assert Entry.of({}).kind == ""


def test_by_kind_keeps_input_order() -> None:
    a, b, c = _obj("Dataset", "a"), _obj("AlluxioRuntime", "a"), _obj("Dataset", "b")
    index = _index(a, b, c)
    assert [e.obj for e in index.of_kind("Dataset")] == [a, c]
    assert index.of_kind("Secret") == []
    assert [e.obj for e in index.entries] == [a, b, c]


def test_find_treats_no_namespace_as_default_and_returns_the_first() -> None:
    first, second = _obj("Dataset", "data"), _obj("Dataset", "data", "default")
    index = _index(first, second, _obj("Dataset", "data", "team"))
    found = index.find("Dataset", "data", "default")
    assert found is not None and found.obj is first
    assert index.find("Dataset", "data", None) is found
    team = index.find("Dataset", "data", "team")
    assert team is not None and team.namespace == "team"
    assert index.find("Dataset", "data", "other") is None
    assert index.find("AlluxioRuntime", "data", None) is None


def test_binding_takes_no_namespace_as_default_on_either_side() -> None:
    """A Dataset and a runtime of one name bind when both land in one namespace, written or not."""
    unplaced, runtime = _obj("Dataset", "data"), _obj("AlluxioRuntime", "data", "default")
    index = _index(_obj("AlluxioRuntime", "data", "team"), unplaced, runtime, _obj("Dataset", "data", "team"))
    d = index.find("Dataset", "data", None)
    r = index.find("AlluxioRuntime", "data", "default")
    assert d is not None and d.obj is unplaced and r is not None
    bound = index.bound_runtime(d)
    assert bound is not None and bound.obj is runtime
    back = index.bound_dataset(r)
    assert back is not None and back.obj is unplaced
    assert [e.obj for e in index.bound_datasets(r)] == [unplaced]


def test_names_of_any_shape_are_looked_up_by_equality() -> None:
    listed = _obj("Dataset", ["odd"])
    index = _index(listed, _obj("Dataset", 7))
    found = index.find("Dataset", ["odd"], None)
    assert found is not None and found.obj is listed
    assert index.find("Dataset", 7, None) is not None and index.find("Dataset", "7", None) is None


def test_bound_pairs_by_namespace_and_name() -> None:
    dataset, runtime = _obj("Dataset", "imagenet", "ml"), _obj("JindoRuntime", "imagenet", "ml")
    elsewhere = _obj("AlluxioRuntime", "imagenet", "other")
    index = _index(elsewhere, dataset, _obj("Secret", "imagenet", "ml"), runtime)
    d, r = index.find("Dataset", "imagenet", "ml"), index.find("JindoRuntime", "imagenet", "ml")
    assert d is not None and r is not None
    bound = index.bound_runtime(d)
    assert bound is not None and bound.obj is runtime
    back = index.bound_dataset(r)
    assert back is not None and back.obj is dataset
    lonely = index.find("AlluxioRuntime", "imagenet", "other")
    assert lonely is not None and index.bound_dataset(lonely) is None
    assert index.is_runtime(r) and not index.is_runtime(d)


def test_runtime_kinds_come_from_the_caller() -> None:
    dataset = _obj("Dataset", "x")
    index = ManifestIndex([dataset, _obj("AlluxioRuntime", "x")])  # no runtime kinds given
    entry = index.find("Dataset", "x", None)
    assert entry is not None and index.bound_runtime(entry) is None


def test_operation_dataset_per_operation_shape() -> None:
    dataset = _obj("Dataset", "imagenet", "ml")
    load = _obj("DataLoad", "warm", "ml", dataset={"name": "imagenet"})
    backup = _obj("DataBackup", "save", "ml", dataset="imagenet")
    migrate = _obj("DataMigrate", "copy", "ml", to={"dataset": {"name": "imagenet", "namespace": "ml"}},
                   **{"from": {"externalStorage": {"uri": "s3://b/"}}})
    elsewhere = _obj("DataLoad", "warm", "ml", dataset={"name": "imagenet", "namespace": "prod"})
    index = _index(dataset, load, backup, migrate, elsewhere)
    entries = index.entries
    for op in entries[1:4]:
        found = index.operation_dataset(op)
        assert found is not None and found.obj is dataset, op.kind
    assert index.operation_dataset(entries[4]) is None
    assert dataset_ref(entries[3]) == DatasetRef(("spec", "to", "dataset"), "imagenet", "ml")
    assert dataset_ref(entries[2]) == DatasetRef(("spec", "dataset"), "imagenet", "ml")
    assert dataset_ref(Entry.of(_obj("DataLoad", "x", dataset="imagenet"))) is None
    assert dataset_ref(Entry.of(_obj("DataMigrate", "x"))) is None


def test_a_view_is_built_once_per_index() -> None:
    calls: list[int] = []

    def count(index: ManifestIndex) -> int:
        calls.append(1)
        return len(index.entries)

    index = _index(_obj("Dataset", "a"))
    assert index.view(count) == 1 and index.view(count) == 1 and len(calls) == 1
    assert _index().view(count) == 0 and len(calls) == 2


def test_bound_datasets_keeps_every_repeat() -> None:
    first, again = _obj("Dataset", "data", "ml"), _obj("Dataset", "data", "ml", accessModes=["ReadWriteMany"])
    index = _index(first, _obj("JindoRuntime", "data", "ml"), again)
    runtime = index.find("JindoRuntime", "data", "ml")
    assert runtime is not None
    assert [d.obj for d in index.bound_datasets(runtime)] == [first, again]
    bound = index.bound_dataset(runtime)
    assert bound is not None and bound.obj is first


def test_a_cluster_scoped_object_is_found_by_name_whatever_namespace_and_the_last_stands() -> None:
    first, other, last = _obj("K", "k", fileSystemType="a"), _obj("K", "x"), _obj("K", "k", "team", fileSystemType="b")
    index = _index(first, other, last)
    found = index.cluster_scoped("K", "k")
    assert found is not None and found.obj is last
    assert index.cluster_scoped("K", "missing") is None and index.cluster_scoped("J", "k") is None
