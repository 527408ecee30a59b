"""importer/roundtrip.py: the comparison that proves an import, modulo only the documented
normalisations (scalars as text, the build's namespace, credentials through the generated
Secret, the API server's PersistentVolume defaults, empty mappings). Anything else that
differs is named by object and key path, never by value."""

from __future__ import annotations

import base64
from typing import Any

from fluidgen.engines.engine_table import ENGINES
from fluidgen.importer.roundtrip import compare, engine_defaults

FLUID = "data.fluid.io/v1alpha1"


def _o(kind: str, name: str, spec: Any, namespace: str | None = None, api: str = FLUID) -> dict[str, Any]:
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec}


def test_scalars_compare_as_text_and_a_changed_value_is_named_by_path_only() -> None:
    given = [_o("AlluxioRuntime", "d", {"replicas": 8, "fuse": {"cleanPolicy": True, "ratio": 0.99}})]
    same = [_o("AlluxioRuntime", "d", {"replicas": "8", "fuse": {"cleanPolicy": "true", "ratio": "0.99"}}, "ns")]
    assert compare(given, same, "ns") == []
    other = [_o("AlluxioRuntime", "d", {"replicas": 9, "fuse": {"cleanPolicy": False, "ratio": 0.99}}, "ns")]
    assert compare(given, other, "ns") == ["AlluxioRuntime/d: spec.fuse.cleanPolicy: differs",
                                           "AlluxioRuntime/d: spec.replicas: differs"]


def test_a_namespace_other_than_the_builds_is_a_different_object() -> None:
    given = [_o("Dataset", "d", {}, "team-a")]
    built = [_o("Dataset", "d", {}, "default")]
    assert compare(given, built, "default") == ["Dataset/d: in the build, not in the input",
                                                "Dataset/d: in the input, not in the build"]


def test_keys_on_one_side_only_are_named_and_an_empty_mapping_is_no_setting() -> None:
    given = [_o("Dataset", "d", {"owner": {"uid": 1}, "placement": "Exclusive", "nodeAffinity": {}})]
    built = [_o("Dataset", "d", {"owner": {"uid": 1}, "accessModes": ["ReadOnlyMany"], "tolerations": {}})]
    assert compare(given, built, "default") == ["Dataset/d: spec.accessModes: in the build, not in the input",
                                                "Dataset/d: spec.placement: in the input, not in the build"]


def test_lists_compare_item_by_item_or_whole_when_their_lengths_differ() -> None:
    given = [_o("Dataset", "d", {"mounts": [{"name": "a"}, {"name": "b"}], "accessModes": ["ReadOnlyMany"]})]
    built = [_o("Dataset", "d", {"mounts": [{"name": "a"}, {"name": "c"}], "accessModes": []})]
    assert compare(given, built, "default") == ["Dataset/d: spec.accessModes: differs",
                                                "Dataset/d: spec.mounts.1.name: differs"]


def test_an_option_value_equals_an_encrypt_option_reading_the_generated_secret_only() -> None:
    given = [_o("Dataset", "d", {"mounts": [{"mountPoint": "oss://b/", "options": {"fs.oss.accessKeyId": "AK-1"}}]})]
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "d-creds"},
              "data": {"fs.oss.accessKeyId": base64.b64encode(b"AK-1").decode()}}
    encrypt = [{"name": "fs.oss.accessKeyId", "valueFrom": {"secretKeyRef": {"name": "d-creds", "key":
                                                                            "fs.oss.accessKeyId"}}}]
    built = [_o("Dataset", "d", {"mounts": [{"mountPoint": "oss://b/", "encryptOptions": encrypt}]}), secret]
    assert compare(given, built, "default") == []  # and the input's Secrets are not compared either
    secret["data"] = {"fs.oss.accessKeyId": base64.b64encode(b"AK-2").decode()}
    found = compare(given, built, "default")
    assert found == ["Dataset/d: spec.mounts.0.options.fs.oss.accessKeyId: differs"]
    assert "AK" not in " ".join(found)


def test_encrypt_options_compare_in_name_order() -> None:
    a = {"name": "a", "valueFrom": {"secretKeyRef": {"name": "s", "key": "a"}}}
    b = {"name": "b", "valueFrom": {"secretKeyRef": {"name": "s", "key": "b"}}}
    given = [_o("Dataset", "d", {"sharedEncryptOptions": [b, a]})]
    assert compare(given, [_o("Dataset", "d", {"sharedEncryptOptions": [a, b]})], "default") == []


def test_only_the_api_servers_volume_defaults_and_a_claims_volume_name_may_be_added() -> None:
    given = [_o("PersistentVolume", "pv", {"nfs": {"server": "s"}}, api="v1"),
             _o("PersistentVolumeClaim", "c", {"accessModes": ["ReadOnlyMany"]}, api="v1")]
    built = [_o("PersistentVolume", "pv", {"nfs": {"server": "s"}, "volumeMode": "Filesystem",
                                           "persistentVolumeReclaimPolicy": "Retain"}, api="v1"),
             _o("PersistentVolumeClaim", "c", {"accessModes": ["ReadOnlyMany"], "volumeName": "pv"}, "default", "v1")]
    assert compare(given, built, "default") == []
    built[0]["spec"].update(volumeMode="Block", persistentVolumeReclaimPolicy="Delete")
    assert compare(given, built, "default") == [
        "PersistentVolume/pv: spec.persistentVolumeReclaimPolicy: in the build, not in the input",
        "PersistentVolume/pv: spec.volumeMode: in the build, not in the input"]


def test_an_engines_defaults_may_be_added_with_their_value_only() -> None:
    # AlluxioRuntime data.replicas: Fluid's Data.Replicas, 1 copy when unset (engines/alluxio.py defaults)
    added = engine_defaults(ENGINES["alluxio"])
    assert added == {("AlluxioRuntime", ("spec", "data", "replicas")): "1"}
    given = [_o("AlluxioRuntime", "d", {"replicas": 1})]
    assert compare(given, [_o("AlluxioRuntime", "d", {"replicas": 1, "data": {"replicas": 1}})], "default", added) == []
    assert compare(given, [_o("AlluxioRuntime", "d", {"replicas": 1, "data": {"replicas": 2}})], "default", added) == [
        "AlluxioRuntime/d: spec.data: in the build, not in the input"]


def test_the_inputs_own_secret_is_never_read_into_its_side() -> None:
    encrypt = [{"name": "token", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "token"}}}]
    dataset = _o("Dataset", "d", {"mounts": [{"mountPoint": "juicefs:///", "encryptOptions": encrypt}]})
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "creds"}, "stringData": {"token": "t"}}
    assert compare([dataset, secret], [dataset], "default") == []


def _waived(value: str | None) -> dict[str, Any]:
    o = _o("AlluxioRuntime", "d", {"replicas": 1})
    if value is not None:
        o["metadata"]["annotations"] = {"fluidgen.io/lint-ignore": value}
    return o


def test_lint_waivers_compare_as_a_set_and_only_a_path_waiver_may_be_added_by_the_build() -> None:
    assert compare([_waived("FG102, FG110@spec/fuse")], [_waived("FG110@spec/fuse,FG102")], "default") == []
    # the build's profile writes RULE@path waivers where its values break a rule on purpose
    assert compare([_waived(None)], [_waived("FG109@spec/fuse/jvmOptions")], "default") == []
    assert compare([_waived("FG102")], [_waived("FG102,FG109@spec/fuse/jvmOptions")], "default") == []
    # a whole-object waiver the input lacks silences more: a difference
    assert compare([_waived(None)], [_waived("FG109")], "default") == [
        "AlluxioRuntime/d: metadata.annotations: in the build, not in the input"]
    # a waiver of the input's the build lacks, path or not, is a difference (the import dropped it)
    for given in ("FG102@spec/mounts", "FG102@spec/mounts,FG110"):
        assert compare([_waived(given)], [_waived("FG110")], "default") == [
            "AlluxioRuntime/d: metadata.annotations.fluidgen.io/lint-ignore: differs"]
