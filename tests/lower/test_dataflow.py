"""lower/dataflow.py: `dataflow:` steps as Fluid data operations, chained with runAfter.

What is held: runAfter names the previous (or a named) operation in the Dataset's namespace, or
none; a hashed name changes with the step and with the one it runs after; what a step may not
say, with the message the module gives (a migration that is not one path and one URI, an
affinityStrategy with nothing before, a Cron without schedule, a TTL under GitOps); and the
module's Fluid facts, read from Fluid's code: a parallel DataMigrate needs parallelOptions
sshSecretName (pkg/controllers/v1alpha1/datamigrate/implement.go Validate), the script image is
image:imageTag (pkg/dataprocess/processor_types.go TransformDataProcessValues), DataProcess has
no policy in v1.0.8 and no pod placement fields at either version (api/v1alpha1/dataprocess_types.go).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import run_cli
from tests.harness.fluid_src import TREES, need_tree

SPEC: dict[str, Any] = {
    "apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
    "metadata": {"name": "demo", "namespace": "ml"},
    "source": [{"uri": "https://example.com/data/", "name": "data"}],
    "runtime": {"engine": "alluxio", "replicas": 1, "cache": [{"medium": "MEM", "quota": "1Gi"}]}}
# JuiceFS migrates data (pkg/ddc/juicefs/operate.go: case dataoperation.DataMigrateType); Alluxio does not.
JUICEFS: dict[str, Any] = {
    "source": [{"uri": "juicefs:///demo", "name": "demo",
                "options": {"bucket": "https://b.example.com", "storage": "s3"},
                "credentials": {"existingSecret": {"name": "jfs", "keys": ["metaurl", "access-key", "secret-key"]}}}],
    "runtime": {"engine": "juicefs", "replicas": 1, "cache": [{"medium": "MEM", "quota": "1Gi"}]}}


def write_spec(tmp_path: Path, steps: list[dict[str, Any]], **top: Any) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump({**SPEC, **top, "dataflow": steps}, sort_keys=False))
    return path


def build(path: Path, *flags: str) -> list[dict[str, Any]]:
    result = run_cli("build", str(path), *flags)
    assert result.code == 0, result.err
    return [d for d in yaml.safe_load_all(result.out) if d["kind"].startswith("Data") and d["kind"] != "Dataset"]


def refused(path: Path, *flags: str) -> str:
    result = run_cli("build", str(path), *flags)
    assert result.code == 1 and result.out == "", result.err
    return result.err


def test_each_step_runs_after_the_previous_a_named_one_or_none(tmp_path: Path) -> None:
    ops = build(write_spec(tmp_path, [{"name": "first", "load": {"paths": ["/a"]}},
                                      {"load": {"paths": ["/b"]}},
                                      {"after": "first", "load": {"paths": ["/c"]}},
                                      {"after": "none", "load": {"paths": ["/d"]}}]))
    assert [o["metadata"]["name"] for o in ops] == ["first", "demo-step2-load", "demo-step3-load", "demo-step4-load"]
    assert "runAfter" not in ops[0]["spec"] and "runAfter" not in ops[3]["spec"]
    assert ops[1]["spec"]["runAfter"] == {"kind": "DataLoad", "name": "first", "namespace": "ml"}
    assert ops[2]["spec"]["runAfter"] == {"kind": "DataLoad", "name": "first", "namespace": "ml"}


def test_a_hashed_name_changes_with_the_step_and_with_the_step_it_runs_after(tmp_path: Path) -> None:
    def names(first_path: str) -> list[str]:
        spec = write_spec(tmp_path, [{"load": {"paths": [first_path]}}, {"load": {"paths": ["/b"]}}])
        return [o["metadata"]["name"] for o in build(spec, "--operation-names", "hashed")]

    before, again, edited = names("/a"), names("/a"), names("/edited")
    assert all(re.fullmatch(r"demo-step[12]-load-[0-9a-f]{8}", n) for n in before), before
    assert before == again
    assert edited[0] != before[0] and edited[1] != before[1]  # step 2's runAfter names the new step 1


def test_a_migration_is_one_dataset_path_and_one_uri(tmp_path: Path) -> None:
    for ends in ({"from": "/a", "to": "/b"}, {"from": "s3://x/a", "to": "s3://x/b"}):
        err = refused(write_spec(tmp_path, [{"migrate": ends}], **JUICEFS))
        assert ("dataflow[0].migrate: a migration moves data between this dataset (a path such as /raw) and external "
                "storage (a URI such as oss://bucket/dir/): give exactly one of each") in err, err


@pytest.mark.parametrize("version", sorted(TREES))
def test_a_parallel_migration_needs_the_ssh_secret_fluid_validates(tmp_path: Path, version: str) -> None:
    root = need_tree(version)
    validate = (root / "pkg/controllers/v1alpha1/datamigrate/implement.go").read_text()
    assert "Spec.Parallelism > 1" in validate and "ParallelOptions[cdatamigrate.SSHSecretName]" in validate
    assert re.search(r'SSHSecretName\s+= "sshSecretName"', (root / "pkg/datamigrate/constants.go").read_text())
    migrate = {"from": "/a", "to": "s3://x/b", "parallelism": 2}
    err = refused(write_spec(tmp_path, [{"migrate": migrate}], fluid=version, **JUICEFS))
    assert ("dataflow[0].migrate.parallelism: parallelism above 1 needs sshSecretName (Fluid runs the parallel "
            "workers over SSH)") in err, err
    (op,) = build(write_spec(tmp_path, [{"migrate": {**migrate, "sshSecretName": "ssh"}}], fluid=version, **JUICEFS))
    assert op["spec"]["parallelOptions"] == {"sshSecretName": "ssh"}
    (single,) = build(write_spec(tmp_path, [{"migrate": {**migrate, "parallelism": 1}}], fluid=version, **JUICEFS))
    assert "parallelOptions" not in single["spec"]


def test_an_affinity_strategy_with_no_step_before_and_a_cron_without_schedule_are_refused(tmp_path: Path) -> None:
    err = refused(write_spec(tmp_path, [{"affinityStrategy": {"policy": "Prefer"}, "load": {"policy": "Cron"}}],
                             fluid="v1.1.0-dev"))
    assert ("dataflow[0].affinityStrategy: affinityStrategy places pods near the step this one runs after, and this "
            "step runs after none") in err, err
    assert "dataflow[0].load.policy: policy Cron needs a schedule" in err, err


def test_a_ttl_is_written_but_refused_in_gitops_mode(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, [{"ttlSecondsAfterFinished": 60, "load": {"paths": ["/a"]}}])
    (op,) = build(spec)
    assert op["spec"]["ttlSecondsAfterFinished"] == 60
    err = refused(spec, "--gitops", "argocd")
    assert ("dataflow[0].ttlSecondsAfterFinished: Fluid deletes a finished DataLoad after ttlSecondsAfterFinished; "
            "Argo CD or Flux then finds it missing, creates it again, and it runs again, forever.") in err, err


@pytest.mark.parametrize("version", sorted(TREES))
def test_an_operation_the_engine_does_not_run_is_refused_with_those_it_does(tmp_path: Path, version: str) -> None:
    root = need_tree(version)
    assert "DataMigrateType" not in (root / "pkg/ddc/alluxio/operate.go").read_text()
    err = refused(write_spec(tmp_path, [{"migrate": {"from": "/a", "to": "s3://x/b"}}], fluid=version))
    assert ("dataflow[0].migrate: AlluxioRuntime does not support DataMigrate (it supports: DataBackup, DataLoad, "
            "DataProcess)") in err, err


def test_the_script_image_is_split_into_the_image_and_tag_fluid_joins(tmp_path: Path) -> None:
    assert 'fmt.Sprintf("%s:%s", p.ScriptProcessor.Image, p.ScriptProcessor.ImageTag)' in \
        (need_tree("v1.0.8") / "pkg/dataprocess/processor_types.go").read_text()
    process = {"mountPath": "/data", "command": ["bash"], "script": "true"}
    got = {}
    for image in ("debian:buster", "registry:5000/tools/img", "debian"):
        (op,) = build(write_spec(tmp_path, [{"process": {**process, "image": image}}]))
        script = op["spec"]["processor"]["script"]
        got[image] = (script["image"], script["imageTag"])
    assert got == {"debian:buster": ("debian", "buster"), "debian": ("debian", "latest"),
                   "registry:5000/tools/img": ("registry:5000/tools/img", "latest")}


def test_what_dataprocess_lacks_in_fluid_is_refused_at_the_step_key(tmp_path: Path) -> None:
    old = (need_tree("v1.0.8") / "api/v1alpha1/dataprocess_types.go").read_text()
    new = (need_tree("v1.1.0-dev") / "api/v1alpha1/dataprocess_types.go").read_text()
    assert 'json:"policy' not in old and 'json:"policy' in new
    assert 'json:"nodeSelector' not in old + new
    process = {"mountPath": "/data", "image": "debian:buster", "command": ["bash"], "script": "true"}
    err = refused(write_spec(tmp_path, [{"nodeSelector": {"zone": "a"}, "process": {**process, "policy": "Cron",
                                                                                    "schedule": "0 * * * *"}}]))
    assert "dataflow[0].process.policy: DataProcess has no policy/schedule in Fluid v1.0.8 (added in v1.1.0-dev)" \
        in err, err
    assert ("dataflow[0].nodeSelector: DataProcess has no nodeSelector in Fluid v1.0.8; place its pods through the "
            "processor pod spec") in err, err
