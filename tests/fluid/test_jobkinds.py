"""fluid/jobkinds.py: each training job kind built from one Pod, held to the real Kubeflow CRDs
(../shared/kubeflow-crds: group, plural, kind names, and every built object strictly, unknown
fields as errors) and to the paths the rest of fluidgen reads the pods at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.fluid.jobkinds import GPU, SUBMIT_RULES, TRAINER_NODE, WORKLOADS, Pod, submit_rules
from tests.conftest import SHARED, run_cli

KUBEFLOW = SHARED / "kubeflow-crds"
CRD_FILES = {"MPIJob": "mpi-operator-v0.8.2/kubeflow.org_mpijobs.yaml",
             "PyTorchJob": "training-operator-v1.9.4/kubeflow.org_pytorchjobs.yaml",
             "TrainJob": "trainer-v2.3.0/trainer.kubeflow.org_trainjobs.yaml"}
RUNTIMES_CRD = "trainer-v2.3.0/trainer.kubeflow.org_clustertrainingruntimes.yaml"
TOLERATION = {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}


def crd(path: str) -> dict[str, Any]:
    file = KUBEFLOW / path
    if not file.is_file():
        pytest.skip(f"{file} not found (see ../shared/kubeflow-crds/SOURCE.md)")
    loaded: dict[str, Any] = yaml.safe_load(file.read_text())
    return loaded


def pod(workers: int = 3, gpus: int = 2, **options: Any) -> Pod:
    return Pod(image="busybox", command=["python", "train.py"], args=["--epochs", "1"], working_dir=None,
               env=[{"name": "DATA_DIR", "value": "/data"}], resources={"limits": {GPU: gpus}} if gpus else {},
               volume_mounts=[{"name": "dataset", "mountPath": "/data"}],
               volumes=[{"name": "dataset", "persistentVolumeClaim": {"claimName": "imagenet"}}],
               affinity=None, tolerations=[TOLERATION], service_account="trainer", workers=workers, gpus=gpus,
               options=options)


def obj(kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": WORKLOADS[kind].api_version, "kind": kind,
            "metadata": {"name": "train", "namespace": "default"}, "spec": spec}


def at(node: Any, path: str) -> list[Any]:
    """Every node a kustomize field path reaches (a list is walked through)."""
    found = [node]
    for part in path.split("/"):
        found = [x for n in found for x in (n if isinstance(n, list) else [n])]
        found = [n[part] for n in found if isinstance(n, dict) and part in n]
    return found


@pytest.mark.parametrize("kind", sorted(CRD_FILES))
def test_a_kind_is_named_as_its_crd_names_it(kind: str) -> None:
    """The RBAC rules name the resource by its plural, in the CRD's group and served version."""
    definition = crd(CRD_FILES[kind])
    w = WORKLOADS[kind]
    group, _, version = w.api_version.rpartition("/")
    assert (definition["spec"]["group"], definition["spec"]["names"]["plural"],
            definition["spec"]["names"]["kind"]) == (group, w.plural, kind)
    assert version in [v["name"] for v in definition["spec"]["versions"] if v.get("served")]
    rule = submit_rules([kind], "arena")[0]
    assert rule == {"apiGroups": [group], "resources": [w.plural], "verbs": ["create", "get", "list", "watch"]}


def test_a_job_is_the_batch_jobs_resource() -> None:
    """Kubernetes serves batch/v1 Job as the resource `jobs` (the name RBAC rules use; no Kubernetes
    source is in ../shared to read it from, so this pins fluidgen's value)."""
    assert submit_rules(["Job"], "kubectl")[0] == {"apiGroups": ["batch"], "resources": ["jobs"],
                                                  "verbs": ["create", "get", "list", "watch"]}


def test_a_trainjob_refers_to_the_cluster_training_runtime_kind() -> None:
    runtimes = crd(RUNTIMES_CRD)
    ref = WORKLOADS["TrainJob"].build(pod())["runtimeRef"]
    assert (ref["apiGroup"], ref["kind"]) == (runtimes["spec"]["group"], runtimes["spec"]["names"]["kind"])
    assert ref["name"] == "torch-distributed"  # kubeflow/trainer manifests/base/runtimes/torch_distributed.yaml
    assert WORKLOADS["TrainJob"].build(pod(runtime="deepspeed"))["runtimeRef"]["name"] == "deepspeed"


@pytest.mark.parametrize("kind", sorted(WORKLOADS))
def test_every_pod_path_holds_the_pod_that_mounts_the_data(kind: str, tmp_path: Path) -> None:
    """pod_paths (kustomize's claimName and serviceAccountName references, flux's patches) reach
    each pod spec that mounts the data, with its tolerations and service account; and the object
    validates strictly, against the real CRD for a Kubeflow kind."""
    w = WORKLOADS[kind]
    built = obj(kind, w.build(pod(workers=1 if not w.multi_node else 3)))
    specs = [s for p in w.pod_paths for s in at(built, p)]
    assert len(specs) == len(w.pod_paths) and all(isinstance(s, dict) for s in specs)
    with_data = [s for s in specs if s.get("volumes")]
    assert with_data, kind
    for spec in with_data:
        assert spec["volumes"][0]["persistentVolumeClaim"]["claimName"] == "imagenet"
        assert spec["tolerations"] == [TOLERATION] and spec["serviceAccountName"] == "trainer"
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump(built))
    args = ["validate", *(["--crds", str((KUBEFLOW / CRD_FILES[kind]).parent)] if kind in CRD_FILES else []), str(path)]
    if kind in CRD_FILES:
        crd(CRD_FILES[kind])
    result = run_cli(*args)
    assert result.code == 0 and result.err == "", result.err


def test_each_kind_takes_the_command_args_and_env() -> None:
    p = pod()
    mpi = WORKLOADS["MPIJob"].build(p)["mpiReplicaSpecs"]
    launcher = mpi["Launcher"]["template"]["spec"]["containers"][0]
    assert (launcher["command"], launcher["args"], launcher["env"]) == (p.command, p.args, p.env)
    trainer = WORKLOADS["TrainJob"].build(p)["trainer"]
    assert (trainer["command"], trainer["args"], trainer["env"], trainer["resourcesPerNode"]) == \
        (p.command, p.args, p.env, p.resources)
    node = WORKLOADS["TrainJob"].build(p)["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]
    assert node["replicatedJobs"][0]["name"] == TRAINER_NODE == "node"


def test_what_fluidgen_chooses_where_the_kinds_leave_it_open() -> None:
    """fluidgen's own defaults (arena's, where arena has one): one slot per worker without GPUs;
    pods kept while running; a PyTorchJob of one node is its Master alone, restarted on failure;
    a Job is not retried (a failed epoch is not rerun unasked) and its container is "main"."""
    assert WORKLOADS["MPIJob"].build(pod(gpus=0))["slotsPerWorker"] == 1
    assert WORKLOADS["MPIJob"].build(pod(gpus=4))["slotsPerWorker"] == 4
    one = WORKLOADS["PyTorchJob"].build(pod(workers=1))
    assert set(one["pytorchReplicaSpecs"]) == {"Master"}
    assert one["runPolicy"] == {"cleanPodPolicy": "Running"}
    three = WORKLOADS["PyTorchJob"].build(pod(workers=3, cleanPodPolicy="All"))
    assert [(r["replicas"], r["restartPolicy"]) for r in three["pytorchReplicaSpecs"].values()] == \
        [(1, "OnFailure"), (2, "OnFailure")]
    assert three["runPolicy"] == {"cleanPodPolicy": "All"}
    assert WORKLOADS["MPIJob"].build(pod(cleanPodPolicy="None"))["runPolicy"] == {"cleanPodPolicy": "None"}
    job = WORKLOADS["Job"].build(pod(workers=1))
    assert job["backoffLimit"] == 0 and job["template"]["spec"]["containers"][0]["name"] == "main"
    assert WORKLOADS["Job"].build(pod(workers=1, backoffLimit=2))["backoffLimit"] == 2


def test_a_submitting_step_gets_the_narrowest_rules_for_its_tool() -> None:
    kubectl = submit_rules(["MPIJob"], "kubectl")[1:]
    assert kubectl == [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]},
                       {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}]
    assert [r[0] for r in SUBMIT_RULES["arena"]] == ["pods", "pods/log", "configmaps"]
