"""importer/objects.py: what the server set is dropped and named (status, each server-set
metadata key, kubectl's last-applied annotation), nothing else; documents that are no object
are skipped with a warning, never silently; objects are grouped around their Dataset by
name and namespace, the first Dataset of a name keeps them, the rest stays outside."""

from __future__ import annotations

from typing import Any

import yaml

from fluidgen.importer.objects import Obj, clean, group, objects_of
from fluidgen.io.yamlreader import Document, load_text

FLUID = "data.fluid.io/v1alpha1"


def _obj(kind: str, name: str, spec: Any = None, namespace: str | None = None, api: str = FLUID) -> Obj:
    meta: dict[str, Any] = {"name": name, **({"namespace": namespace} if namespace else {})}
    data: dict[str, Any] = {"apiVersion": api, "kind": kind, "metadata": meta, **({"spec": spec} if spec else {})}
    return Obj(data, Document("in.yaml", 0, data))


def test_clean_drops_and_names_exactly_what_the_server_set() -> None:
    given: dict[str, Any] = {
        "kind": "Dataset", "status": {"phase": "Bound"}, "spec": {"a": None, "b": [None, 1], "c": 2},
        "metadata": {"name": "d", "uid": "u", "resourceVersion": "7", "managedFields": [], "finalizers": ["f"],
                     "labels": {"team": "a"},
                     "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}", "note": "x"}}}
    out, dropped = clean(given)
    assert dropped == ["status", "metadata.uid", "metadata.resourceVersion", "metadata.managedFields",
                       "metadata.finalizers", "metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"]
    assert out == {"kind": "Dataset", "spec": {"b": [None, 1], "c": 2},
                   "metadata": {"name": "d", "labels": {"team": "a"}, "annotations": {"note": "x"}}}
    assert given["status"] == {"phase": "Bound"} and given["spec"]["a"] is None  # the input is left as it was


def test_an_annotations_mapping_left_empty_is_removed() -> None:
    out, _ = clean({"kind": "X", "metadata": {"name": "d", "annotations": {
        "kubectl.kubernetes.io/last-applied-configuration": "{}"}}})
    assert out == {"kind": "X", "metadata": {"name": "d"}}


def test_objects_of_skips_what_is_no_object_with_a_warning_and_notes_what_it_dropped() -> None:
    text = "kind: Dataset\nmetadata: {name: d, uid: u}\nstatus: {}\n---\nkind: Dataset\nmetadata: {}\n---\n- 1\n"
    objects, notes = objects_of(load_text("in.yaml", text))
    assert [o.name for o in objects] == ["d"]
    assert [(d.line, d.severity, d.message, d.stage) for d in notes] == [
        (1, "info", "Dataset d: dropped what the server set (status, metadata.uid)", "import"),
        (5, "warning", "not a Kubernetes object with a kind and metadata.name; skipped", "import"),
        (8, "warning", "not a Kubernetes object with a kind and metadata.name; skipped", "import")]


def test_a_secret_is_known_however_its_kind_is_spelled() -> None:
    assert _obj("secret", "s").is_secret and _obj(" Secret ", "s").is_secret
    with_data = _obj("MySecretStore", "s")
    with_data.data["stringData"] = {"k": "v"}
    assert with_data.is_secret
    assert not _obj("SecretStore", "s", {"provider": {}}).is_secret and not _obj("ConfigMap", "s").is_secret


def test_group_attaches_by_name_and_namespace_and_leaves_the_rest_outside() -> None:
    dataset = _obj("Dataset", "d", {"mounts": [{"mountPoint": "pvc://claim/sub"}], "sharedEncryptOptions": [
        {"name": "k", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "k"}}}]})
    runtime, elsewhere = _obj("AlluxioRuntime", "d"), _obj("AlluxioRuntime", "d", namespace="other")
    second_runtime = _obj("JuiceFSRuntime", "d")
    backup = _obj("DataBackup", "b", {"dataset": "d"})
    migrate = _obj("DataMigrate", "m", {"from": {"externalStorage": {"uri": "s3://x/"}},
                                        "to": {"dataset": {"name": "d"}}})
    load = _obj("DataLoad", "l", {"dataset": {"name": "d", "namespace": "default"}})
    stray = _obj("DataLoad", "x", {"dataset": {"name": "d", "namespace": "other"}})
    secret, unread = _obj("Secret", "creds", api="v1"), _obj("Secret", "other", api="v1")
    same_name_elsewhere = _obj("Secret", "creds", namespace="other", api="v1")
    claim = _obj("PersistentVolumeClaim", "claim", {"volumeName": "pv-1"}, api="v1")
    volume = _obj("PersistentVolume", "pv-1", {"nfs": {}}, api="v1")
    not_fluid = _obj("Dataset", "d", api="example.com/v1")
    objects = [dataset, runtime, elsewhere, second_runtime, backup, migrate, load, stray, secret, unread,
               same_name_elsewhere, claim, volume, not_fluid]
    scenarios, rest = group(objects)
    assert len(scenarios) == 1
    s = scenarios[0]
    assert s.runtime is runtime and s.operations == [backup, migrate, load]
    assert s.secrets == {"creds": secret} and s.volumes == {"claim": (volume, claim)}
    assert rest == [elsewhere, second_runtime, stray, unread, same_name_elsewhere, not_fluid]


def test_a_second_dataset_of_one_name_gets_nothing() -> None:
    first, second, runtime = _obj("Dataset", "d"), _obj("Dataset", "d"), _obj("AlluxioRuntime", "d")
    scenarios, rest = group([first, second, runtime])
    assert [s.runtime for s in scenarios] == [runtime, None] and rest == []
    assert yaml.safe_dump(scenarios[1].dataset.data) == yaml.safe_dump(second.data)
