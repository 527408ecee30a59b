"""Training jobs from the same spec (`workloads:`), and the RBAC of a step that submits jobs:
what `arena submit mpi|pytorch --data <dataset>:/data` does, as objects that validate
strictly against the real Kubeflow CRDs (../shared/kubeflow-crds) and core schemas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES, SHARED, run_cli

KUBEFLOW = SHARED / "kubeflow-crds"
CRDS = {"MPIJob": "mpi-operator-v0.8.2", "PyTorchJob": "training-operator-v1.9.4", "TrainJob": "trainer-v2.3.0"}
BASE = EXAMPLES / "alluxio-imagenet-oss.yaml"
MPI = EXAMPLES / "overlays" / "train-resnet50-mpi.yaml"
IMAGE = ("registry.cn-hangzhou.aliyuncs.com/tensorflow-samples/horovod-benchmark-dawnbench-v2:"
         "0.18.1-tf1.14.0-torch1.2.0-mxnet1.5.0-py3.6")


def build(*args: str) -> list[dict[str, Any]]:
    result = run_cli("build", *args)
    assert result.code == 0, result.err
    return list(yaml.safe_load_all(result.out))


def one(docs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [d for d in docs if d["kind"] == kind]
    assert len(found) == 1, [d["kind"] for d in docs]
    return found[0]


def validate_against_crd(kind: str, path: Path) -> None:
    crds = KUBEFLOW / CRDS[kind]
    if not crds.is_dir():
        pytest.skip(f"Kubeflow CRDs not found at {crds} (see ../shared/kubeflow-crds/SOURCE.md)")
    result = run_cli("validate", "--crds", str(crds), str(path))
    assert result.code == 0 and result.err == "", result.err


def overlay(tmp_path: Path, kind: str, **changes: Any) -> Path:
    """The MPI overlay as another job kind."""
    data = yaml.safe_load(MPI.read_text())
    job = data["workloads"][0]
    job["kind"] = kind
    if kind == "TrainJob":
        del job["workingDir"]  # Trainer's container patch has no workingDir
    job.update(changes)
    path = tmp_path / f"{kind}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_imagenet_mpijob_is_the_arena_submission_of_the_guide(tmp_path: Path) -> None:
    docs = build("-f", str(BASE), "-f", str(MPI))
    assert [d["kind"] for d in docs][-1] == "MPIJob"  # after the dataset, runtime and operations
    job = one(docs, "MPIJob")
    dataset = one(docs, "Dataset")
    assert job["apiVersion"] == "kubeflow.org/v2beta1"
    assert job["metadata"] == {"name": "horovod-resnet50-v2-4x8-fluid", "namespace": "default"}
    spec = job["spec"]
    assert spec["slotsPerWorker"] == 8
    launcher = spec["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]
    worker_pod = spec["mpiReplicaSpecs"]["Worker"]["template"]["spec"]
    worker = worker_pod["containers"][0]
    assert spec["mpiReplicaSpecs"]["Worker"]["replicas"] == 4
    assert launcher["image"] == worker["image"] == IMAGE
    assert launcher["command"] == ["./launch-example.sh", "4", "8"]
    assert "command" not in worker  # workers run the image's SSH server for mpirun
    assert launcher["workingDir"] == "/horovod-demo/tensorflow-demo/"
    env = {e["name"]: e["value"] for e in launcher["env"]}
    assert env == {"DATA_DIR": "/data/imagenet", "num_batch": "1000", "datasets_num_private_threads": "8"}
    assert worker["resources"] == {"limits": {"nvidia.com/gpu": 8}, "requests": {"nvidia.com/gpu": 8}}
    assert worker["volumeMounts"] == [{"name": "dataset", "mountPath": "/data", "readOnly": True}]
    assert worker_pod["volumes"] == [{"name": "dataset",
                                      "persistentVolumeClaim": {"claimName": "imagenet", "readOnly": True}}]
    assert worker_pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] == \
        dataset["spec"]["nodeAffinity"]["required"]
    rendered = tmp_path / "out.yaml"
    rendered.write_text(yaml.safe_dump_all(docs))
    validate_against_crd("MPIJob", rendered)


@pytest.mark.parametrize("kind", ["PyTorchJob", "TrainJob"])
def test_the_same_spec_as_pytorchjob_and_trainjob_validates(kind: str, tmp_path: Path) -> None:
    docs = build("-f", str(BASE), "-f", str(overlay(tmp_path, kind, shm="32Gi")))
    job = one(docs, kind)
    if kind == "PyTorchJob":
        replicas = job["spec"]["pytorchReplicaSpecs"]
        assert replicas["Master"]["replicas"] == 1 and replicas["Worker"]["replicas"] == 3
        container = replicas["Worker"]["template"]["spec"]["containers"][0]
        assert container["name"] == "pytorch"  # the Training Operator's default container
    else:
        assert job["spec"]["trainer"]["numNodes"] == 4
        assert job["spec"]["trainer"]["resourcesPerNode"]["limits"] == {"nvidia.com/gpu": 8}
        patched = job["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]
        pod = patched["template"]["spec"]["template"]["spec"]
        assert patched["name"] == pod["containers"][0]["name"] == "node"
        assert {v["name"] for v in pod["volumes"]} == {"dataset", "dshm"}
    rendered = tmp_path / "out.yaml"
    rendered.write_text(yaml.safe_dump_all(docs))
    validate_against_crd(kind, rendered)


def test_a_single_node_job_passes_the_strict_core_schemas(tmp_path: Path) -> None:
    docs = build("-f", str(BASE), "-f", str(overlay(tmp_path, "Job", workers=1, memory="64Gi", cpu="16")))
    job = one(docs, "Job")
    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    assert pod["containers"][0]["resources"]["requests"] == {"cpu": "16", "memory": "64Gi", "nvidia.com/gpu": 8}
    rendered = tmp_path / "out.yaml"
    rendered.write_text(yaml.safe_dump_all(docs))
    checked = run_cli("validate", str(rendered))
    assert checked.code == 0 and checked.err == "", checked.err


def test_the_mnist_pipeline_grants_its_training_step_what_arena_needs() -> None:
    docs = build(str(EXAMPLES / "juicefs-mnist-pipeline.yaml"))
    account = one(docs, "ServiceAccount")
    role = one(docs, "Role")
    binding = one(docs, "RoleBinding")
    assert account["metadata"]["name"] == "fluid-demo"
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "fluid-demo", "namespace": "default"}]
    assert binding["roleRef"]["name"] == role["metadata"]["name"]
    rules = {(r["apiGroups"][0], r["resources"][0]): r["verbs"] for r in role["rules"]}
    assert rules[("kubeflow.org", "pytorchjobs")] == ["create", "get", "list", "watch"]
    assert "delete" not in {v for verbs in rules.values() for v in verbs}
    assert "arena records each job in a ConfigMap" in role["metadata"]["annotations"]["fluidgen.io/why"]
    step = next(d for d in docs if d["kind"] == "DataProcess" and d["metadata"]["name"].endswith("step4"))
    assert step["spec"]["processor"]["serviceAccountName"] == "fluid-demo"
    kinds = [d["kind"] for d in docs]
    assert kinds.index("RoleBinding") < kinds.index("DataProcess")


def write_spec(tmp_path: Path, workload: dict[str, Any], **top: Any) -> Path:
    spec = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
            "metadata": {"name": "imagenet", "namespace": "ml"},
            "source": [{"uri": "https://example.com/imagenet/", "name": "imagenet"}],
            "placement": {"gpu": "Tesla-V100-SXM2-16GB"},
            "runtime": {"engine": "alluxio", "replicas": 2, "cache": [{"medium": "MEM", "quota": "4Gi"}]},
            "workloads": [{"name": "train", "kind": "PyTorchJob", "image": "pytorch", "workers": 2, **workload}],
            **top}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    return path


@pytest.mark.parametrize(("workload", "top", "severity", "message"), [
    ({"workers": 4}, {}, "warning", "4 workers but runtime.replicas is 2"),
    ({"gpus": 1}, {"placement": {}}, "warning", "placement.gpu names no GPU model"),
    ({"mountPath": "/dev/shm/data"}, {}, "error", "collides with /dev/shm"),
    ({"mountPath": "data"}, {}, "error", "must be an absolute path"),
    ({"namespace": "other"}, {}, "error", "a pod can mount only a claim of its own namespace"),
    ({"kind": "Job"}, {}, "error", "a Job runs one pod"),
    ({"kind": "TrainJob", "workingDir": "/w"}, {}, "error", "cannot set the working directory"),
    ({"runtime": "x"}, {}, "error", "applies to TrainJob only"),
    ({"env": {"DATA_DIR": "/data/wrong"}}, {}, "warning", "but the data is at /data/imagenet"),
])
def test_workload_checks(workload: dict[str, Any], top: dict[str, Any], severity: str, message: str,
                         tmp_path: Path) -> None:
    result = run_cli("build", str(write_spec(tmp_path, workload, **top)))
    assert f"{severity}: workloads[0]" in result.err and message in result.err, result.err
    assert result.code == (1 if severity == "error" else 0)


@pytest.mark.parametrize(("engine", "source", "extra", "expected"), [
    ("alluxio", {"uri": "https://example.com/imagenet/", "name": "imagenet"}, {}, "/data/imagenet"),
    ("alluxio", {"uri": "https://example.com/imagenet/", "name": "imagenet", "path": "/"}, {}, "/data"),
    ("alluxio", {"uri": "https://example.com/imagenet/", "name": "imagenet"}, {"dataSubPath": "train"},
     "/data/imagenet/train"),
    ("jindo", {"uri": "oss://b/imagenet/", "name": "inet", "options": {"fs.oss.endpoint": "e"},
               "credentials": {"existingSecret": {"name": "s", "keys": ["fs.oss.accessKeyId",
                                                                        "fs.oss.accessKeySecret"]}}},
     {"mountPath": "/mnt"}, "/mnt/inet"),
    # GooseFS mounts each mount at GenUFSPathInUnifiedNamespace as Alluxio does (v1.0.8
    # pkg/ddc/goosefs/ufs_internal.go mountUFS): a mutated data_layout puts the job at /data
    ("goosefs", {"uri": "cosn://imagenet-1234567/", "name": "imagenet"}, {}, "/data/imagenet"),
    ("juicefs", {"uri": "juicefs:///", "name": "jfs", "options": {"bucket": "https://b.s3.amazonaws.com"},
                 "credentials": {"existingSecret": {"name": "s", "keys": ["metaurl", "access-key",
                                                                          "secret-key"]}}}, {}, "/data"),
])
def test_data_dir_follows_where_the_engine_puts_the_data(engine: str, source: dict[str, Any],
                                                         extra: dict[str, Any], expected: str,
                                                         tmp_path: Path) -> None:
    path = write_spec(tmp_path, extra, source=[source],
                      runtime={"engine": engine, "replicas": 2, "cache": [{"medium": "MEM", "quota": "4Gi"}]})
    docs = build(str(path))
    job = one(docs, "PyTorchJob")
    env = job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["env"]
    assert {e["name"]: e["value"] for e in env}["DATA_DIR"] == expected


def test_read_write_datasets_are_mounted_writable(tmp_path: Path) -> None:
    docs = build(str(write_spec(tmp_path, {}, accessModes=["ReadWriteMany"])))
    pod = one(docs, "PyTorchJob")["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]
    assert pod["volumes"][0] == {"name": "dataset", "persistentVolumeClaim": {"claimName": "imagenet"}}
    assert "readOnly" not in pod["containers"][0]["volumeMounts"][0]


def test_jobs_come_last_in_gitops_waves() -> None:
    docs = build("--gitops", "argocd", "-f", str(BASE), "-f", str(MPI))
    waves = {d["kind"]: d["metadata"]["annotations"]["argocd.argoproj.io/sync-wave"] for d in docs}
    assert waves["MPIJob"] == "3" and waves["Dataset"] == "1"


def test_fewer_training_nodes_than_cache_workers_is_not_warned(tmp_path: Path) -> None:
    # The NFS guide's 1x8 run: one training node on four cache workers reads the cache locally.
    path = write_spec(tmp_path, {"workers": 1},
                      runtime={"engine": "alluxio", "replicas": 4, "cache": [{"medium": "MEM", "quota": "4Gi"}]})
    result = run_cli("build", str(path))
    assert result.code == 0 and "without a cache worker" not in result.err, result.err


@pytest.mark.parametrize(("key", "given", "argv"), [
    ("command", "./launch-example.sh 4 8", ["./launch-example.sh", "4", "8"]),  # the arena line
    ("command", "python 'train model.py' --epochs=3", ["python", "train model.py", "--epochs=3"]),
    ("args", "--lr 0.1", ["--lr", "0.1"]),
    ("command", ["./launch-example.sh", "4 8"], ["./launch-example.sh", "4 8"]),  # a list is taken as written
])
def test_a_command_line_string_is_split_as_a_shell_would(key: str, given: Any, argv: list[str],
                                                         tmp_path: Path) -> None:
    docs = build(str(write_spec(tmp_path, {key: given})))
    container = one(docs, "PyTorchJob")["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]
    assert container[key] == argv


def test_mpi_worker_command_string_is_split(tmp_path: Path) -> None:
    docs = build("-f", str(BASE), "-f", str(overlay(tmp_path, "MPIJob", workerCommand="/usr/sbin/sshd -De")))
    worker = one(docs, "MPIJob")["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    assert worker["command"] == ["/usr/sbin/sshd", "-De"]


@pytest.mark.parametrize("line", ["cd /w && ./run.sh", "python train.py | tee log", "echo $HOME", "ls *.py",
                                  "python 'unclosed"])
def test_a_command_line_that_needs_a_shell_is_refused_with_the_list_form(line: str, tmp_path: Path) -> None:
    result = run_cli("build", str(write_spec(tmp_path, {"command": line})))
    assert result.code == 1
    assert "workloads[0].command" in result.err and "list" in result.err, result.err
