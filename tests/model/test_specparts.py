"""fluidgen/model/specparts.py: the engine-free parts of a spec. What each part guarantees beyond
its field types (spectypes.py, held by tests/base/test_spectypes.py): one way to give credentials
and never inline values unasked; exactly one source per mount, with Fluid's shortest mountPoint;
exactly one processor per DataProcess, with the image Fluid's chart requires; exactly one operation
per step; the short forms (a list of Secret keys, a load path as a string) read as the long ones;
and the defaults the compiler relies on. Fluid facts are read off fluid-src v1.0.8 and master."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from fluidgen.base.spectypes import Model
from fluidgen.model import specparts
from fluidgen.model.specparts import (
    Credentials,
    ExistingSecret,
    ExternalSecretRef,
    Load,
    LoadPath,
    Metadata,
    Migrate,
    Mount,
    NfsSource,
    Placement,
    Process,
    RunAs,
    Step,
    Workload,
)


def _problems(model: type[Model], data: dict[str, Any]) -> list[tuple[tuple[int | str, ...], str]]:
    """(location, message) of every problem: a validator's own message, else pydantic's."""
    with pytest.raises(ValidationError) as info:
        model.model_validate(data)
    out = []
    for error in info.value.errors(include_url=False):
        raised = error.get("ctx", {}).get("error")
        out.append((tuple(error["loc"]), str(raised) if raised is not None else error["msg"]))
    return out


ENV = {"fromEnv": {"fs.oss.accessKeyId": "AK"}}
EXISTING = {"existingSecret": {"name": "creds", "keys": ["fs.oss.accessKeyId"]}}
EXTERNAL = {"externalSecret": {"store": "vault", "remoteKey": "oss/prod", "properties": ["fs.oss.accessKeyId"]}}


# --- credentials ------------------------------------------------------------------------------

@pytest.mark.parametrize("given", [
    ENV, {"fromFile": {"k": "key.txt"}}, {"envFile": "oss.env"}, {"inline": {"k": "v"}, "allowInline": True},
    EXISTING, EXTERNAL, {**EXTERNAL, "secretName": "oss-creds"}, {**ENV, "secretName": "oss-creds"},
    {**ENV, "fromFile": {"k2": "key.txt"}, "envFile": "oss.env"},  # generated values combine
])
def test_credentials_take_any_one_way_to_give_the_values(given: dict[str, Any]) -> None:
    Credentials.model_validate(given)


GIVE = "give the values (fromEnv, fromFile, envFile or inline), existingSecret or externalSecret"
EXISTING_ALONE = ("existingSecret cannot be combined with generated values (fromEnv, fromFile, envFile, inline, "
                  "secretName) or externalSecret")
EXTERNAL_ALONE = ("externalSecret cannot be combined with values read at build time (fromEnv, fromFile, envFile, "
                  "inline)")


@pytest.mark.parametrize(("given", "problem"), [
    ({}, GIVE), ({"secretName": "s"}, GIVE), ({"allowInline": True}, GIVE),
    ({"fromEnv": {}}, GIVE),  # an empty mapping gives nothing
    ({**EXISTING, **ENV}, EXISTING_ALONE), ({**EXISTING, "envFile": "e"}, EXISTING_ALONE),
    ({**EXISTING, "secretName": "s"}, EXISTING_ALONE),  # the Secret exists: there is none to name
    ({**EXISTING, **EXTERNAL}, EXISTING_ALONE),
    ({**EXTERNAL, **ENV}, EXTERNAL_ALONE), ({**EXTERNAL, "inline": {"k": "v"}, "allowInline": True}, EXTERNAL_ALONE),
    ({"inline": {"k": "v"}}, "inline credential values end up in your repository; use fromEnv/fromFile, or set "
                             "allowInline: true to accept the risk"),
])
def test_credentials_refuse_mixed_ways_no_values_and_unasked_inline_values(given: dict[str, Any],
                                                                            problem: str) -> None:
    assert _problems(Credentials, given) == [((), problem)]


def test_a_list_of_secret_keys_means_each_option_reads_the_key_of_its_own_name() -> None:
    assert ExistingSecret.model_validate({"name": "s", "keys": ["a", "b"]}).keys == {"a": "a", "b": "b"}
    assert ExistingSecret.model_validate({"name": "s", "keys": {"a": "key-a"}}).keys == {"a": "key-a"}
    assert _problems(ExistingSecret, {"name": "s", "keys": ["a", 1]}) == [(("keys",), "Input should be a valid "
                                                                                     "dictionary")]


def test_an_external_secret_defaults_to_a_namespaced_store_read_hourly_and_needs_a_property() -> None:
    """The operator's own default is the same hour (external-secrets-crds/v2.9.0
    external-secrets.io_externalsecrets.yaml, spec.refreshInterval: default 1h0m0s)."""
    ref = ExternalSecretRef.model_validate({"store": "vault", "remoteKey": "k", "properties": ["p"]})
    assert (ref.kind, ref.refreshInterval, ref.properties) == ("SecretStore", "1h", {"p": "p"})
    assert _problems(ExternalSecretRef, {"store": "vault", "remoteKey": "", "properties": []}) == [
        (("remoteKey",), "String should have at least 1 character"),
        (("properties",), "Dictionary should have at least 1 item after validation, not 0")]


# --- mounts -----------------------------------------------------------------------------------

NFS = {"server": "10.0.0.1", "path": "/export", "capacity": "150Gi"}


def test_a_mount_needs_exactly_one_of_uri_or_nfs() -> None:
    assert Mount.model_validate({"uri": "oss://b/"}).uri == "oss://b/"
    assert Mount.model_validate({"nfs": NFS}).nfs == NfsSource.model_validate(NFS)
    assert _problems(Mount, {}) == [((), "give exactly one of uri or nfs")]
    assert _problems(Mount, {"uri": "oss://b/", "nfs": NFS}) == [((), "give exactly one of uri or nfs")]


def test_a_mount_uri_is_at_least_five_characters_as_fluids_crd_requires() -> None:
    """Dataset spec.mounts[].mountPoint has minLength 5 (api/v1alpha1/dataset_types.go Mount.MountPoint
    +kubebuilder:validation:MinLength=5; the CRD at v1.0.8 and v1.1.0-dev)."""
    assert Mount.model_validate({"uri": "s3://"}).uri == "s3://"
    assert _problems(Mount, {"uri": "s3:/"}) == [((), 'uri "s3:/" is too short (Fluid needs at least 5 characters)')]


def test_an_nfs_source_defaults_to_a_read_only_many_claim_of_class_nfs() -> None:
    nfs = NfsSource.model_validate(NFS)
    assert (nfs.accessModes, nfs.storageClass, nfs.mountOptions, nfs.volumeName) == (["ReadOnlyMany"], "nfs", [], None)


# --- operations -------------------------------------------------------------------------------

def test_a_step_holds_exactly_one_operation_and_names_it() -> None:
    for op, body in (("migrate", {"from": "/a", "to": "oss://bucket/"}), ("load", {}), ("backup", {"path": "pvc://c/"}),
                     ("process", {"mountPath": "/d", "script": "true", "image": "busybox"})):
        assert Step.model_validate({op: body}).op == op
    problem = [((), "each step needs exactly one of migrate, process, load or backup")]
    assert _problems(Step, {}) == problem
    assert _problems(Step, {"load": {}, "backup": {"path": "pvc://c/"}}) == problem


def test_a_step_runs_after_the_previous_one_unless_told() -> None:
    assert Step.model_validate({"load": {}}).after == "previous"
    assert Step.model_validate({"load": {}, "after": "none"}).after == "none"
    assert Step.model_validate({"load": {}, "after": "warm-up"}).after == "warm-up"
    assert _problems(Step, {"load": {}, "after": "Warm_up"})[-1] == (
        ("after", "function-before[validate(), str]"),
        '"Warm_up" is not a valid Kubernetes name (a DNS-1123 subdomain: at most 253 lower-case letters, digits, '
        '"-" and ".", starting and ending with a letter or digit)')


def test_a_load_warms_the_whole_cache_namespace_by_default() -> None:
    assert Load.model_validate({}).paths == [LoadPath(path="/", replicas=None)]
    assert Load.model_validate({"paths": []}).paths == []  # no target: metadata only


@pytest.mark.parametrize(("paths", "read"), [
    ("/train", [LoadPath(path="/train", replicas=None)]),
    ({"path": "/train", "replicas": 2}, [LoadPath(path="/train", replicas=2)]),
    (["/a", {"path": "/b", "replicas": 3}], [LoadPath(path="/a", replicas=None), LoadPath(path="/b", replicas=3)]),
])
def test_every_documented_form_of_load_paths_reads_as_a_list_of_paths(paths: object, read: list[LoadPath]) -> None:
    assert Load.model_validate({"paths": paths}).paths == read


def test_load_paths_of_no_documented_form_are_refused_not_guessed() -> None:
    assert _problems(Load, {"paths": 5}) == [(("paths",), "Input should be a valid list")]


def test_a_migrate_reads_from_under_its_yaml_name() -> None:
    assert Migrate.model_validate({"from": "/raw", "to": "oss://b/"}).from_ == "/raw"
    assert _problems(Migrate, {"from_": "/raw", "to": "oss://b/"}) == [
        (("from",), "Field required"), (("from_",), "Extra inputs are not permitted")]


SCRIPT = {"mountPath": "/data", "script": "ls", "image": "busybox"}


def test_a_script_processor_runs_its_script_with_bash_by_default() -> None:
    """Fluid's chart runs `command` with the script as its one argument (charts/fluid-dataprocess/common/
    templates/job.yaml, v1.0.8 and master: args ["/fluid-scripts/preprocess.sh"])."""
    assert Process.model_validate(SCRIPT).command == ["bash"]
    assert Process.model_validate({**SCRIPT, "command": "python3 -u"}).command == ["python3", "-u"]


@pytest.mark.parametrize(("given", "problem"), [
    ({"mountPath": "/data", "image": "busybox"}, "give exactly one of script, scriptFile or job"),
    ({**SCRIPT, "scriptFile": "prep.sh"}, "give exactly one of script, scriptFile or job"),
    ({**SCRIPT, "job": {"containers": []}}, "give exactly one of script, scriptFile or job"),
    # charts/fluid-dataprocess/common/templates/job.yaml: required "DataProcess image should be set"
    ({"mountPath": "/data", "script": "ls"}, "a script processor needs an image"),
    ({"mountPath": "/data", "scriptFile": "prep.sh", "image": ""}, "a script processor needs an image"),
    ({**SCRIPT, "submits": {"kinds": ["PyTorchJob"]}},
     "a step that submits jobs needs serviceAccount: the account fluidgen grants it to"),
])
def test_a_process_has_one_processor_an_image_for_a_script_and_an_account_to_submit_with(
        given: dict[str, Any], problem: str) -> None:
    assert _problems(Process, given) == [((), problem)]


def test_a_job_processor_needs_no_image_and_a_submitting_step_with_an_account_is_whole() -> None:
    assert Process.model_validate({"mountPath": "/data", "job": {"containers": []}}).image is None
    process = Process.model_validate({**SCRIPT, "serviceAccount": "submitter", "submits": {"kinds": ["MPIJob"]}})
    assert process.submits is not None and (process.submits.kinds, process.submits.tool) == (["MPIJob"], "arena")


def test_submitted_kinds_are_the_workload_tables_and_at_least_one() -> None:
    problems = _problems(specparts.Submits, {"kinds": ["TFJob"]})
    assert problems == [(("kinds", 0), "expected one of 'MPIJob', 'PyTorchJob', 'TrainJob', 'Job', got 'TFJob'; "
                                       'did you mean "Job"?')]
    assert _problems(specparts.Submits, {"kinds": []}) == [
        (("kinds",), "List should have at least 1 item after validation, not 0")]


# --- metadata, placement, users, workloads ------------------------------------------------------

def test_metadata_names_a_dataset_with_fluids_dns1035_rule_and_checks_label_values() -> None:
    assert _problems(Metadata, {"name": "1data", "labels": {"tier": "a b"}}) == [
        (("name",), '"1data" is not a DNS-1035 label (at most 63 lower-case letters, digits and "-", starting with a '
                    "letter, ending with a letter or digit); Fluid refuses such Dataset and runtime names"),
        (("labels", "tier"), '"a b" is not a valid label value (at most 63 letters, digits, "-", "_" and ".", '
                             "starting and ending with a letter or digit)")]


def test_annotation_values_are_free_text_but_their_keys_are_label_keys() -> None:
    assert Metadata.model_validate({"name": "d", "annotations": {"a/b": "any text: at all"}}).annotations == {
        "a/b": "any text: at all"}
    assert _problems(Metadata, {"name": "d", "annotations": {"a b": "x"}})[0][0] == ("annotations", "a b", "[key]")


def test_placement_defaults_to_no_gpu_and_aliyuns_gpu_label() -> None:
    assert Placement.model_validate({}) == Placement(gpu=[], gpuLabel="aliyun.accelerator/nvidia_name",
                                                     nodeSelector={}, tolerations=[], exclusive=None)


def test_a_user_is_fluids_user_four_fields_all_required_ids_within_int64() -> None:
    """api/v1alpha1/common.go User (v1.0.8 and master): UID, GID *int64 (json uid, gid), UserName (user),
    GroupName (group), none omitempty."""
    assert RunAs.model_validate({"uid": 2**63 - 1, "gid": 0, "user": "u", "group": "g"}).uid == 2**63 - 1
    assert _problems(RunAs, {"uid": 2**63, "gid": -1}) == [
        (("uid",), "Input should be less than or equal to 9223372036854775807"),
        (("gid",), "Input should be greater than or equal to 0"),
        (("user",), "Field required"), (("group",), "Field required")]


def test_a_workload_defaults_to_one_worker_no_gpu_and_the_data_at_slash_data_in_data_dir() -> None:
    workload = Workload.model_validate({"name": "train", "kind": "PyTorchJob", "image": "pytorch:2"})
    assert (workload.workers, workload.gpus, workload.mountPath, workload.dataEnv, workload.command,
            workload.args, workload.nameHash) == (1, 0, "/data", "DATA_DIR", [], [], False)


def test_a_workload_needs_an_image_and_a_known_kind() -> None:
    assert _problems(Workload, {"name": "train", "kind": "Pod", "image": ""}) == [
        (("kind",), "expected one of 'MPIJob', 'PyTorchJob', 'TrainJob', 'Job', got 'Pod'"),
        (("image",), "String should have at least 1 character")]
