"""importer/mapping.py: what each Fluid field becomes in a spec. A credential option becomes
an env var name (its value kept in memory for the round trip, never in the spec or a note);
what a spec key cannot say is a failure naming the field or is left to the overrides stage,
never dropped: two Secrets for one mount, a tieredstore level field, a node affinity
fluidgen does not write, a runAfter to nothing, a Dataset without its runtime."""

from __future__ import annotations

from typing import Any

from fluidgen.engines.engine_table import ENGINES
from fluidgen.importer.mapping import Findings, dataflow, env_var, first_class, placement, runtime, source
from fluidgen.importer.objects import Obj, Scenario
from fluidgen.io.yamlreader import Document

ALLUXIO = ENGINES["alluxio"]


def _obj(kind: str, name: str, spec: Any) -> Obj:
    data = {"apiVersion": "data.fluid.io/v1alpha1", "kind": kind, "metadata": {"name": name}, "spec": spec}
    return Obj(data, Document("in.yaml", 0, data))


def _ref(option: str, secret: str, key: str) -> dict[str, Any]:
    return {"name": option, "valueFrom": {"secretKeyRef": {"name": secret, "key": key}}}


def test_env_var_names_follow_the_option_and_never_collide() -> None:
    taken: set[str] = set()
    assert env_var("fs.oss.accessKeyId", taken) == "FS_OSS_ACCESS_KEY_ID"
    assert env_var("fs.oss.accessKeyId", taken, "data-b") == "DATA_B_FS_OSS_ACCESS_KEY_ID"
    assert env_var("fs.oss.accessKeyId", taken) == "FS_OSS_ACCESS_KEY_ID_2"
    assert env_var("9token", taken) == "V_9TOKEN" and env_var("...", taken) == "SECRET"


def test_credential_options_become_env_var_names_and_their_values_stay_in_memory() -> None:
    mount = {"mountPoint": "oss://bucket/", "name": "d", "options": {
        "fs.oss.endpoint": "oss.example.com", "fs.oss.accessKeyId": "AK-VALUE", "db.password": "PW-VALUE"}}
    section = source(Scenario(_obj("Dataset", "d", {"mounts": [mount]})), ALLUXIO, set())
    assert section.value == [{"uri": "oss://bucket/", "options": {"fs.oss.endpoint": "oss.example.com"},
                              "credentials": {"fromEnv": {"db.password": "DB_PASSWORD",
                                                          "fs.oss.accessKeyId": "FS_OSS_ACCESS_KEY_ID"}}}]
    assert section.findings.env == {"DB_PASSWORD": "PW-VALUE", "FS_OSS_ACCESS_KEY_ID": "AK-VALUE"}
    assert not any("VALUE" in note for note in section.findings.notes) and section.findings.failures == []


def test_what_one_mounts_credentials_cannot_say_is_a_failure_naming_the_mount() -> None:
    mounts = [{"mountPoint": "oss://a/", "name": "a", "options": {"fs.oss.accessKeyId": "x"},
               "encryptOptions": [_ref("fs.oss.accessKeySecret", "s", "sk")]},
              {"mountPoint": "oss://b/", "name": "b", "encryptOptions": [_ref("fs.oss.accessKeyId", "s1", "ak"),
                                                                         _ref("fs.oss.accessKeySecret", "s2", "sk")]},
              {"mountPoint": "oss://c/", "name": "c", "encryptOptions": [
                  {"name": "fs.oss.accessKeyId", "valueFrom": {"secretKeyRef": {"name": "s"}}}]},
              {"mountPoint": "oss://e/", "name": "e", "encryptOptions": [_ref("fs.oss.accessKeyId", "s", "ak")]}]
    section = source(Scenario(_obj("Dataset", "d", {"mounts": mounts})), ALLUXIO, set())
    assert section.findings.failures == [
        "Dataset d mounts[0]: secret values in options and encryptOptions together; a spec reads one Secret per mount",
        "Dataset d mounts[1]: encryptOptions read 2 Secrets (s1, s2); a spec reads one per mount",
        "Dataset d mounts[2]: an encryptOptions entry without valueFrom.secretKeyRef name and key"]
    assert section.value[3]["credentials"] == {"existingSecret": {"name": "s", "keys": {"fs.oss.accessKeyId": "ak"}}}


def test_placement_takes_the_affinity_fluidgen_writes_and_leaves_any_other_to_overrides() -> None:
    gpu = {"key": "aliyun.accelerator/nvidia_name", "operator": "In", "values": ["A100", "V100"]}
    zone = {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z1"]}
    spec = {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [gpu, zone]}]}},
            "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}], "placement": "Exclusive"}
    taken = placement(spec)
    assert taken.value == {"gpu": ["A100", "V100"], "nodeSelector": {"topology.kubernetes.io/zone": "z1"},
                           "tolerations": spec["tolerations"], "exclusive": True}
    assert taken.left == () and taken.findings.notes == ["Dataset nodeAffinity, placement, tolerations -> placement"]
    models = {"key": "example.com/model", "operator": "In", "values": ["a", "b"]}
    custom = placement({"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [models]}]}}})
    assert custom.value == {"gpu": ["a", "b"], "gpuLabel": "example.com/model"}
    other = {"key": "a", "operator": "NotIn", "values": ["x"]}
    left = placement({"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [other]}]}},
                      "tolerations": [{"key": "k", "operator": "Exists", "podAffinity": {}}], "placement": "Other"})
    assert left.value == {} and left.left == ("nodeAffinity", "tolerations", "placement")


def test_a_tieredstore_level_field_no_spec_key_writes_is_a_failure() -> None:
    scenario = Scenario(_obj("Dataset", "d", {"mounts": [{"mountPoint": "https://x/"}]}),
                        _obj("AlluxioRuntime", "d", {"replicas": 2, "tieredstore": {"levels": [
                            {"mediumtype": "SSD", "path": "/a,/b", "quotaList": "1Gi,2Gi", "high": 0.9,
                             "volumeSource": {"emptyDir": {}}}]}}))
    section = runtime(scenario, ALLUXIO, "v1.0.8")
    assert section.value["cache"] == [{"medium": "SSD", "path": ["/a", "/b"], "quota": ["1Gi", "2Gi"], "high": "0.9"}]
    assert section.findings.failures == ["tieredstore level fields a spec cannot write: volumeSource"]


def test_a_run_after_to_an_operation_not_in_the_input_is_a_failure() -> None:
    load = _obj("DataLoad", "warm", {"dataset": {"name": "d"}, "runAfter": {"kind": "DataMigrate", "name": "copy"}})
    scenario = Scenario(_obj("Dataset", "d", {}), operations=[load])
    section = dataflow(scenario)
    assert section.findings.failures == ["DataLoad warm runs after DataMigrate copy, which is not in the input"]


def test_a_dataset_without_its_runtime_names_every_runtime_kind() -> None:
    mapped = first_class(Scenario(_obj("Dataset", "d", {"mounts": [{"mountPoint": "s3://b/"}]})), "v1.0.8")
    assert mapped.failures == ["Dataset d: no runtime named d in the input (give the file with its runtime: one of "
                               "AlluxioRuntime, CacheRuntime, EFCRuntime, GooseFSRuntime, JindoRuntime, "
                               "JuiceFSRuntime, ThinRuntime, VineyardRuntime)"]
    assert isinstance(mapped, Findings) and mapped.spec["kind"] == "CachedDataset"
