"""`fluidgen diagnose` (issue 40): each failure family from a dump shaped as Fluid and
Kubernetes write it, back to the spec line; bad input (other namespaces, objects fluidgen did
not generate, partial and huge dumps, secrets anywhere, events out of order); --collect with a
fake kubectl; the Python API.

The dumps are what `kubectl get -o json` prints: a v1 List of objects with the fields the
API server returns. The texts in them are the ones the cited code writes (fluidgen/diagnose/
facts.py names each source): the scheduler's PodScheduled=False/Unschedulable condition and
FailedScheduling event with per-node reasons (kubernetes pkg/scheduler/schedule_one.go
handleSchedulingFailure; nodeaffinity ErrReasonPod; tainttoleration Filter; noderesources
fitsRequest), the kubelet's container states (pkg/kubelet/container/sync_result.go
ErrCrashLoopBackOff, pkg/kubelet/images/types.go, containerd's OOMKilled), FailedMount
(pkg/kubelet/events/event.go) with the CSI client's error (pkg/volume/csi/csi_client.go
newCsiDriverClient), Fluid's events (pkg/common/constants.go; pkg/controllers/runtime_controller.go
and operation_controller.go ReconcileInternal; pkg/ddc/base/operation.go).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

import fluidgen
from fluidgen.base.options import Options
from fluidgen.compile.pipeline import compile_paths
from fluidgen.diagnosis import dump as dump_module
from fluidgen.diagnosis import facts
from fluidgen.diagnosis.dump import from_objects
from fluidgen.diagnosis.run import collect_command, diagnose
from tests.conftest import EXAMPLES, run_cli

SPEC = EXAMPLES / "alluxio-imagenet-oss.yaml"
T0 = "2026-11-27T10:00:00Z"


def spec_in(tmp_path: Path, text: str) -> Path:
    """A spec beside a copy of the example's credentials file (a spec reads files below its own folder)."""
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials", dirs_exist_ok=True)
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    return spec


def _line(path: Path, text: str) -> int:
    """The 1-based line of the first line of `path` holding `text`."""
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln)


def built(spec: Path = SPEC, **options: Any) -> list[dict[str, Any]]:
    return copy.deepcopy(compile_paths([str(spec)], Options(read_credentials=False, **options)).objects)


def stamp(minute: int) -> str:
    return f"2026-11-27T10:{minute:02d}:00Z"


def owner_ref(kind: str, name: str) -> dict[str, Any]:
    api = {"StatefulSet": "apps/v1", "DaemonSet": "apps/v1", "Job": "batch/v1", "MPIJob": "kubeflow.org/v2beta1"}
    return {"apiVersion": api.get(kind, "v1"), "kind": kind, "name": name, "uid": "0b6b3c1e-1111-4c2e-9c77-1d2a",
            "controller": True, "blockOwnerDeletion": True}


def pod(name: str, owner: tuple[str, str], ns: str = "default", phase: str = "Running", node: str | None = "node-1",
        containers: list[dict[str, Any]] | None = None, statuses: list[dict[str, Any]] | None = None,
        conditions: list[dict[str, Any]] | None = None, **status: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": containers or [{"name": "main", "image": "busybox:1.36"}]}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns, "uid": f"uid-{name}", "creationTimestamp": T0,
                         "ownerReferences": [owner_ref(*owner)]},
            "spec": spec,
            "status": {"phase": phase, **({"conditions": conditions} if conditions else {}),
                       **({"containerStatuses": statuses} if statuses else {}), **status}}


def event(kind: str, name: str, reason: str, message: str, minute: int = 5, ns: str = "default",
          type_: str = "Warning", count: int = 3, component: str = "kubelet") -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": f"{name}.{minute:x}{reason.lower()[:6]}", "namespace": ns, "creationTimestamp": T0},
            "involvedObject": {"apiVersion": "v1", "kind": kind, "name": name, "namespace": ns},
            "reason": reason, "message": message, "type": type_, "count": count, "source": {"component": component},
            "firstTimestamp": T0, "lastTimestamp": stamp(minute)}


def node(name: str, labels: dict[str, str] | None = None, taints: list[dict[str, str]] | None = None
         ) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
            "spec": {"taints": taints} if taints else {},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}}


def with_status(objects: list[dict[str, Any]], kind: str, status: dict[str, Any]) -> list[dict[str, Any]]:
    for obj in objects:
        if obj["kind"] == kind:
            obj["status"] = status
    return objects


NOT_BOUND = {"phase": "NotBound", "conditions": []}
BOUND = {"phase": "Bound", "conditions": [{"type": "Ready", "status": "True", "reason": "DatasetReady",
                                           "message": "The ddc runtime is ready.", "lastTransitionTime": T0}]}
RUNTIME_NOT_READY = {"masterPhase": "Ready", "workerPhase": "NotReady", "fusePhase": "Ready",
                     "desiredWorkerNumberScheduled": 4, "workerNumberReady": 0, "conditions": []}
RUNTIME_READY = {"masterPhase": "Ready", "workerPhase": "Ready", "fusePhase": "Ready", "setupDuration": "2m",
                 "desiredWorkerNumberScheduled": 4, "workerNumberReady": 4, "conditions": []}


def cluster(*objects: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": list(objects)}


def deployed(dataset: dict[str, Any] = NOT_BOUND, runtime: dict[str, Any] = RUNTIME_NOT_READY,
             spec: Path = SPEC) -> list[dict[str, Any]]:
    objects = [o for o in built(spec) if o["kind"] != "Secret"]
    objects = with_status(objects, "Dataset", dataset)
    return with_status(objects, "AlluxioRuntime", runtime)


GPU_NODES = [node("gpu-1", {"aliyun.accelerator/nvidia_name": "Tesla-V100-SXM2-32GB"}),
             node("gpu-2", {"aliyun.accelerator/nvidia_name": "Tesla-V100-SXM2-32GB"}), node("cpu-1")]


def worker(i: int = 0, **kw: Any) -> dict[str, Any]:
    return pod(f"imagenet-worker-{i}", ("StatefulSet", "imagenet-worker"), **kw)


def fuse(suffix: str = "x7k2p", **kw: Any) -> dict[str, Any]:
    return pod(f"imagenet-fuse-{suffix}", ("DaemonSet", "imagenet-fuse"), **kw)


def run_diagnose(tmp_path: Path, objects: list[dict[str, Any]], *extra: str, spec: Path = SPEC,
                 logs: dict[str, str] | None = None) -> tuple[int, str, dict[str, Any]]:
    """The command line's text and exit code, and its JSON."""
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps(cluster(*objects)))
    args = ["diagnose", str(spec), "--cluster", str(dump), *extra]
    if logs is not None:
        folder = tmp_path / "logs"
        folder.mkdir(exist_ok=True)
        for name, text in logs.items():
            (folder / f"{name}.log").write_text(text)
        args += ["--logs", str(folder)]
    text = run_cli(*args, env={})
    as_json = run_cli(*args, "--format", "json", env={})
    assert text.code == as_json.code
    return text.code, text.out, json.loads(as_json.out)


def only(report: dict[str, Any], family: str) -> dict[str, Any]:
    found = [f for f in report["findings"] if f["family"] == family]
    assert len(found) == 1, report
    return found[0]


# Scheduling ------------------------------------------------------------------------------------

AFFINITY_MESSAGE = ("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: "
                    "0/3 nodes are available: 3 Preemption is not helpful for scheduling.")


def _pending(message: str, i: int = 0, affinity: bool = True) -> dict[str, Any]:
    p = worker(i, phase="Pending", node=None, conditions=[
        {"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": message,
         "lastProbeTime": None, "lastTransitionTime": T0}])
    if affinity:  # what BuildWorkersAffinity copies from the Dataset's nodeAffinity.required
        p["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "aliyun.accelerator/nvidia_name", "operator": "In",
                                                         "values": ["Tesla-V100-SXM2-16GB"]}]}]}}}
    return p


def test_scheduling_gpu_label_matching_no_node_points_at_placement(tmp_path: Path) -> None:
    objects = [*deployed(), _pending(AFFINITY_MESSAGE, 0), _pending(AFFINITY_MESSAGE, 1), *GPU_NODES]
    code, text, report = run_diagnose(tmp_path, objects)
    assert code == 1
    f = only(report, "scheduling")
    assert (f["file"], f["line"], f["column"], f["path"]) == (str(SPEC), _line(SPEC, "gpu: Tesla"), 3,
                                                              "placement.gpu")
    assert f["objects"] == ["Pod default/imagenet-worker-0", "Pod default/imagenet-worker-1"]
    assert "no node has aliyun.accelerator/nvidia_name in [Tesla-V100-SXM2-16GB]" in f["cause"]
    assert "Tesla-V100-SXM2-32GB (2)" in f["cause"]
    assert f"{SPEC}:{_line(SPEC, 'gpu: Tesla')}:3: placement.gpu: scheduling:" in text
    # the binding finding says why the Dataset is not bound: the runtime is not ready
    assert only(report, "binding")["path"] == "runtime"


def test_scheduling_from_a_failed_scheduling_event_only_taints(tmp_path: Path) -> None:
    message = "0/2 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: present}. preemption: " \
              "0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    p = worker(0, phase="Pending", node=None)
    objects = [*deployed(), p, event("Pod", "imagenet-worker-0", "FailedScheduling", message,
                                     component="default-scheduler")]
    code, _, report = run_diagnose(tmp_path, objects)
    f = only(report, "scheduling")
    assert code == 1 and f["path"] == "placement.tolerations" and "{nvidia.com/gpu: present}" in f["cause"]
    assert f["line"] == _line(SPEC, "placement:")  # no tolerations yet: at the placement they belong in


def test_scheduling_insufficient_resources_name_the_request(tmp_path: Path) -> None:
    message = "0/3 nodes are available: 1 Insufficient cpu, 3 Insufficient memory. preemption: 0/3 nodes are " \
              "available: 3 No preemption victims found for incoming pod."
    p = _pending(message, affinity=False)
    p["spec"]["containers"] = [{"name": "alluxio-worker", "image": "fluidcloudnative/alluxio:2.9.0",
                                "resources": {"requests": {"cpu": "8", "memory": "48Gi"}}}]
    _code, _, report = run_diagnose(tmp_path, [*deployed(), p])
    f = only(report, "scheduling")
    assert "cpu, memory" in f["cause"] and "alluxio-worker: memory 48Gi" in f["cause"]
    assert f["path"] == "runtime.profile"  # the worker's resources come from the bundled profile


# Crashes ---------------------------------------------------------------------------------------


def _oom_worker() -> dict[str, Any]:
    return worker(0, containers=[{"name": "alluxio-worker", "image": "fluidcloudnative/alluxio:2.9.0",
                                  "resources": {"limits": {"memory": "40Gi"}}}],
                  statuses=[{"name": "alluxio-worker", "ready": False, "restartCount": 4,
                             "image": "fluidcloudnative/alluxio:2.9.0",
                             "state": {"waiting": {"reason": "CrashLoopBackOff",
                                                   "message": "back-off 1m20s restarting failed container"}},
                             "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137,
                                                          "startedAt": T0, "finishedAt": stamp(3)}}}])


def test_crash_oomkilled_against_the_profile_jvm_sizes(tmp_path: Path) -> None:
    code, _, report = run_diagnose(tmp_path, [*deployed(), _oom_worker()])
    f = only(report, "crash")
    # alluxio-imagenet: worker -Xmx12G and -XX:MaxDirectMemorySize=32g, 44 GiB over a 40 GiB limit
    assert "heap 12.0Gi + direct 32.0Gi = 44.0Gi, more than the 40.0Gi memory limit" in f["cause"]
    assert f["path"] == "runtime.profile" and code == 1
    assert "worker.jvmOptions" in f["fix"] and "comes from the profile named here" in f["fix"]


def test_crash_oomkilled_under_the_jvm_sizes_says_what_is_left(tmp_path: Path) -> None:
    p = _oom_worker()
    p["spec"]["containers"][0]["resources"]["limits"]["memory"] = "46Gi"
    _, _, report = run_diagnose(tmp_path, [*deployed(), p])
    assert "= 44.0Gi of the 46.0Gi limit, leaving 2.0Gi for the rest" in only(report, "crash")["cause"]


def test_crash_loop_with_the_log_cause(tmp_path: Path) -> None:
    p = worker(0, statuses=[{"name": "alluxio-worker", "ready": False, "restartCount": 6, "image": "x",
                             "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                             "lastState": {"terminated": {"reason": "Error", "exitCode": 1}}}])
    log = "2026-11-27 10:01:00,000 INFO Starting worker\njava.lang.IllegalArgumentException: bad tier alias\n"
    _code, _, report = run_diagnose(tmp_path, [*deployed(), p], logs={"imagenet-worker-0": log})
    f = only(report, "crash")
    assert "last exit code 1" in f["evidence"] and "bad tier alias" in f["evidence"] and f["path"] == "runtime"


# Mount failures --------------------------------------------------------------------------------


def _crashing_fuse() -> dict[str, Any]:
    return fuse(statuses=[{"name": "alluxio-fuse", "ready": False, "restartCount": 3, "image": "x",
                           "state": {"waiting": {"reason": "CrashLoopBackOff"}}}])


@pytest.mark.parametrize(("line", "path"), [
    ("com.aliyun.oss.OSSException: The OSS Access Key Id you provided does not exist in our records.\n"
     "[ErrorCode]: InvalidAccessKeyId", "source[0].credentials"),
    ("java.net.UnknownHostException: imagenet-bucket.oss-cn-shanghai-internal.aliyuncs.com",
     'source[0].options["fs.oss.endpoint"]'),
    ("fuse: unknown option(s): `-o nonempty'", "runtime.profile"),
])
def test_mount_failure_from_the_fuse_log(tmp_path: Path, line: str, path: str) -> None:
    code, _, report = run_diagnose(tmp_path, [*deployed(), _crashing_fuse()],
                                   logs={"imagenet-fuse-x7k2p": f"INFO starting\n{line}\n"})
    f = only(report, "mount")
    assert code == 1 and f["path"] == path and f["objects"] == ["Pod default/imagenet-fuse-x7k2p"]
    assert not [g for g in report["findings"] if g["family"] == "crash"]  # the log's cause, said once


# CSI and kubelet root dir ----------------------------------------------------------------------

CSI_MESSAGE = ('MountVolume.MountDevice failed for volume "default-imagenet" : kubernetes.io/csi: '
               "attacher.MountDevice failed to create newCsiDriverClient: driver name fuse.csi.fluid.io not found "
               "in the list of registered CSI drivers")


def test_csi_driver_not_registered_is_outside_the_spec(tmp_path: Path) -> None:
    app = pod("train-0", ("Job", "train"), phase="Pending", node="gpu-2")
    plugin = pod("csi-nodeplugin-fluid-4hx2m", ("DaemonSet", "csi-nodeplugin-fluid"), ns="fluid-system",
                 node="gpu-1", statuses=[{"name": "plugins", "ready": True, "state": {"running": {}}}])
    objects = [*deployed(BOUND, RUNTIME_READY), app, plugin,
               event("Pod", "train-0", "FailedMount", CSI_MESSAGE)]
    code, text, report = run_diagnose(tmp_path, objects)
    f = only(report, "csi")
    assert code == 1 and f["file"] is None and "on node gpu-2" in f["outside"]
    assert "no csi-nodeplugin-fluid pod runs on this node" in f["cause"]
    assert "outside the spec: the cluster" in text and "csi.kubelet.rootDir" in f["fix"]


# Dataset NotBound ------------------------------------------------------------------------------


def test_binding_no_runtime_in_the_dump(tmp_path: Path) -> None:
    objects = [o for o in deployed() if o["kind"] != "AlluxioRuntime"]
    code, _, report = run_diagnose(tmp_path, objects)
    f = only(report, "binding")
    assert code == 1 and "no AlluxioRuntime default/imagenet" in f["cause"]
    assert f["path"] == "runtime.engine" and f["line"] == _line(SPEC, "engine: alluxio")


def test_binding_runtime_of_another_name(tmp_path: Path) -> None:
    objects = [o for o in deployed() if o["kind"] != "AlluxioRuntime"]
    other = copy.deepcopy(next(o for o in deployed() if o["kind"] == "AlluxioRuntime"))
    other["metadata"]["name"] = "imagenet-cache"
    objects.append(other)
    objects.append(event("AlluxioRuntime", "imagenet-cache", "ErrorProcessRuntime",
                         "No dataset can be bound to the runtime, waiting."))
    _, _, report = run_diagnose(tmp_path, objects)
    f = only(report, "binding")
    assert "AlluxioRuntime default/imagenet-cache" in f["cause"] and f["path"] == "metadata.name"
    assert f["objects"] == ["Dataset default/imagenet", "AlluxioRuntime default/imagenet-cache"]


def test_binding_runtime_not_ready_judged_by_health(tmp_path: Path) -> None:
    lost = {**RUNTIME_NOT_READY, "setupDuration": "3m", "conditions": [
        {"type": "WorkersReady", "status": "False", "reason": "Workers are not ready",
         "message": "The workers are not ready.", "lastTransitionTime": T0, "lastProbeTime": T0}]}
    _, _, report = run_diagnose(tmp_path, deployed(NOT_BOUND, lost))
    f = only(report, "binding")
    # health(): workerPhase NotReady after setupDuration is Degraded with the WorkersReady message
    assert "runtime Degraded: The workers are not ready." in f["evidence"] and f["path"] == "runtime"


# PVC and PV ------------------------------------------------------------------------------------


def test_volume_nfs_claim_pending(tmp_path: Path) -> None:
    spec = EXAMPLES / "nfs-imagenet-alluxio.yaml"
    objects = deployed(spec=spec)
    claim = next(o for o in objects if o["kind"] == "PersistentVolumeClaim")
    claim["status"] = {"phase": "Pending"}
    objects.append(event("PersistentVolumeClaim", claim["metadata"]["name"], "FailedBinding",
                         "volume \"nfs-imagenet\" already bound to a different claim.",
                         component="persistentvolume-controller"))
    code, _, report = run_diagnose(tmp_path, objects, spec=spec)
    f = only(report, "volume")
    assert code == 1 and f["path"] == "source[0].nfs" and "FailedBinding" in f["evidence"]


# Data operations -------------------------------------------------------------------------------

PIPELINE = EXAMPLES / "juicefs-mnist-pipeline.yaml"


def _pipeline(op_status: dict[str, Any] | None) -> list[dict[str, Any]]:
    objects = [o for o in built(PIPELINE) if o["kind"] != "Secret"]
    with_status(objects, "Dataset", BOUND)
    with_status(objects, "JuiceFSRuntime", RUNTIME_READY)
    load = next(o for o in objects if o["kind"] == "DataLoad")
    if op_status is not None:
        load["status"] = op_status
    return objects


def _load_name() -> str:
    return str(next(o for o in built(PIPELINE) if o["kind"] == "DataLoad")["metadata"]["name"])


def test_operation_target_dataset_not_found(tmp_path: Path) -> None:
    objects = [o for o in _pipeline({"phase": "", "conditions": []}) if o["kind"] != "Dataset"]
    objects.append(event("DataLoad", _load_name(), "TargetDatasetNotFound",
                         'Target dataset not found: datasets.data.fluid.io "mnist" not found'))
    _, _, report = run_diagnose(tmp_path, objects, spec=PIPELINE)
    f = only(report, "operation")
    assert f["path"].startswith("dataflow[") and "not in the cluster" in f["cause"]


def test_operation_failed_with_a_missing_path_in_its_log(tmp_path: Path) -> None:
    name = _load_name()
    objects = _pipeline({"phase": "Failed", "duration": "12s", "conditions": [
        {"type": "Failed", "status": "True", "reason": "Failed", "message": "Job has reached the specified backoff "
         "limit", "lastProbeTime": T0, "lastTransitionTime": T0}]})
    objects.append(pod(f"{name}-loader-job-8x2kq", ("Job", f"{name}-loader-job"), phase="Failed"))
    objects.append(event("DataLoad", name, "DataOperationFailed", f"DataLoad {name} failed", minute=7))
    log = "+ checkPathExistence /mnist/train\ndataLoad failed because some paths not exist.\n"
    _, _, report = run_diagnose(tmp_path, objects, spec=PIPELINE, logs={f"{name}-loader-job-8x2kq": log})
    f = only(report, "operation")
    assert "does not exist" in f["cause"] and f["path"].startswith("dataflow[")
    assert "some paths not exist" in f["evidence"]


def test_operation_waiting_for_the_runtime(tmp_path: Path) -> None:
    objects = _pipeline({"phase": "Pending", "conditions": []})
    with_status(objects, "Dataset", NOT_BOUND)
    objects.append(event("DataLoad", _load_name(), "RuntimeNotReady", "Bounded accelerate runtime not ready",
                         type_="Normal"))
    _, _, report = run_diagnose(tmp_path, objects, spec=PIPELINE)
    assert "waits for its Dataset's runtime" in only(report, "operation")["cause"]


# Image pulls -----------------------------------------------------------------------------------


def test_image_pull_of_fluids_default_image_is_outside_the_spec(tmp_path: Path) -> None:
    p = worker(0, phase="Pending", statuses=[{
        "name": "alluxio-worker", "ready": False, "image": "fluidcloudnative/alluxio:release-2.9.3-460",
        "state": {"waiting": {"reason": "ImagePullBackOff",
                              "message": 'Back-off pulling image "fluidcloudnative/alluxio:release-2.9.3-460"'}}}])
    _, _, report = run_diagnose(tmp_path, [*deployed(), p])
    f = only(report, "image")
    assert f["file"] is None and "Fluid's chart defaults" in f["outside"]


def test_image_pull_of_a_workload_image_points_at_the_workload(tmp_path: Path) -> None:
    overlay = EXAMPLES / "overlays" / "train-resnet50-mpi.yaml"
    objects = [o for o in compile_paths([], Options(read_credentials=False), [str(SPEC), str(overlay)]).objects
               if o["kind"] != "Secret"]
    job = next(o for o in objects if o["kind"] == "MPIJob")
    image = job["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["image"]
    p = pod(f"{job['metadata']['name']}-worker-0", ("MPIJob", job["metadata"]["name"]), phase="Pending", statuses=[
        {"name": "worker", "ready": False, "image": image,
         "state": {"waiting": {"reason": "ErrImagePull", "message": f'rpc error: pull access denied for {image}'}}}])
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps(cluster(*with_status(with_status(objects, "Dataset", BOUND), "AlluxioRuntime",
                                                    RUNTIME_READY), p)))
    out = run_cli("diagnose", "-f", str(SPEC), "-f", str(overlay), "--cluster", str(dump), "--format", "json",
                  env={})
    f = only(json.loads(out.out), "image")
    assert f["path"].startswith("workloads[0]") and f["file"] == str(overlay)


# Names too long for Helm -----------------------------------------------------------------------


def test_name_too_long_for_helm(tmp_path: Path) -> None:
    name = "imagenet-for-the-resnet50-training-team-of-the-vision-group"
    spec = spec_in(tmp_path, SPEC.read_text().replace("name: imagenet", f"name: {name}")
                   + "lint:\n  ignore: [FG134]\n")
    objects = [o for o in built(spec) if o["kind"] != "Secret"]
    helm = (f'Failed to setup ddc engine due to error exit status 1: Error: INSTALLATION FAILED: release name '
            f'"{name}": invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]'
            '([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53')
    objects.append(event("AlluxioRuntime", name, "ErrorProcessRuntime", helm))
    _, _, report = run_diagnose(tmp_path, objects, spec=spec)
    f = only(report, "name")
    assert f["path"] == "metadata.name" and f"({len(name)} characters)" in f["cause"] and "at most 53" in f["fix"]


# Cache path and quota --------------------------------------------------------------------------


def test_cache_quota_emptydir_eviction(tmp_path: Path) -> None:
    spec = spec_in(tmp_path, SPEC.read_text().replace(
        "{medium: SSD, path: /var/lib/docker/alluxio, quota: 50Gi, high: 0.99, low: 0.8}",
        "{medium: MEM, quota: 2Gi, high: 0.99, low: 0.8}"))
    p = worker(0, phase="Failed", reason="Evicted",
               message='Usage of EmptyDir volume "mem" exceeds the limit "2Gi". ')
    objects = [*deployed(spec=spec), p]
    _, _, report = run_diagnose(tmp_path, objects, spec=spec)
    f = only(report, "cache")
    assert f["path"] == "runtime.cache[0]" and "sizeLimit" in f["cause"]


def test_cache_disk_full_in_the_worker_log(tmp_path: Path) -> None:
    log = "ERROR Failed to write block: /var/lib/docker/alluxio/alluxioworker/123 (No space left on device)\n"
    _, _, report = run_diagnose(tmp_path, [*deployed(), worker(0)], logs={"imagenet-worker-0": log})
    f = only(report, "cache")
    assert f["path"] == "runtime.cache[0]" and f["line"] == _line(SPEC, "medium: SSD")


# Bad input -------------------------------------------------------------------------------------


def test_nothing_wrong_exits_zero(tmp_path: Path) -> None:
    code, text, report = run_diagnose(tmp_path, [*deployed(BOUND, RUNTIME_READY), *GPU_NODES, worker(0)])
    assert code == 0 and report["findings"] == [] and "nothing wrong" in text


def test_other_namespace_and_foreign_objects_are_said_not_judged(tmp_path: Path) -> None:
    foreign = pod("web-5d8f", ("ReplicaSet", "web-5d8f"), phase="Pending", conditions=[
        {"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": AFFINITY_MESSAGE}])
    elsewhere = copy.deepcopy(foreign)
    elsewhere["metadata"]["namespace"] = "team-b"
    code, _, report = run_diagnose(tmp_path, [*deployed(BOUND, RUNTIME_READY), foreign, elsewhere])
    assert code == 0 and report["findings"] == []
    assert "objects in namespaces these specs do not build into, not judged: team-b (1)" in report["notes"]
    assert "objects these specs did not generate (nor Fluid for them), not judged: Pod (1)" in report["notes"]


def test_a_dump_of_another_namespace_only_is_an_error(tmp_path: Path) -> None:
    objects = deployed()
    for o in objects:
        o["metadata"]["namespace"] = "team-b"
    code, text, report = run_diagnose(tmp_path, objects)
    assert code == 1 and "holds none of the objects these specs build" in report["errors"][0]
    assert "-n team-b" not in text  # said, not guessed: the user chooses the namespace
    assert run_diagnose(tmp_path, objects, "-n", "team-b")[0] == 1  # now judged: NotBound, no worker pods


def test_partial_dump_names_what_it_lacks(tmp_path: Path) -> None:
    objects = [o for o in deployed(BOUND, RUNTIME_READY) if o["kind"] == "Dataset"]
    code, _, report = run_diagnose(tmp_path, objects)
    assert code == 0 and any(n.startswith("not in the dump, not judged: AlluxioRuntime default/imagenet")
                             for n in report["notes"])


def test_huge_dump_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dump_module, "MAX_OBJECTS", 50)
    many = [event("Pod", f"other-{i}", "Pulled", "ok", type_="Normal") for i in range(200)]
    read = from_objects([*deployed(BOUND, RUNTIME_READY), *many])
    assert len(read.objects) == 50 and read.dropped == 200 + len(deployed()) - 50
    result = compile_paths([str(SPEC)], Options(read_credentials=False))
    assert any("not read (collect one namespace)" in n for n in diagnose(result, read).notes)
    assert dump_module.MAX_FILE_BYTES == 64 * 1024 * 1024 and dump_module.MAX_LOG_BYTES == 1024 * 1024
    # objects of other namespaces are counted, not kept: they never crowd out the ones judged
    foreign = [event("Pod", f"other-{i}", "Pulled", "ok", type_="Normal", ns="team-b") for i in range(200)]
    read = from_objects([*foreign, *deployed(BOUND, RUNTIME_READY)], namespaces={"default"})
    assert read.elsewhere == {"team-b": 200} and read.dropped == 0 and len(read.objects) == len(deployed())
    assert "objects in namespaces these specs do not build into, not judged: team-b (200)" in \
        diagnose(result, read).notes


def test_a_dump_file_over_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dump_module, "MAX_FILE_BYTES", 1000)
    read = dump_module.read_dump([_write(tmp_path, cluster(*deployed()))])
    assert read.problems and not read.objects


def _write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    return str(path)


SECRET = "Sup3rS3cretOSSKey!"


def test_secret_values_are_never_printed(tmp_path: Path) -> None:
    import base64

    secret = {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
              "metadata": {"name": "imagenet-credentials", "namespace": "default", "annotations": {
                  "kubectl.kubernetes.io/last-applied-configuration": json.dumps(
                      {"stringData": {"fs.oss.accessKeySecret": SECRET}})}},
              "data": {"fs.oss.accessKeySecret": base64.b64encode(SECRET.encode()).decode()}}
    f = _crashing_fuse()
    f["spec"]["containers"] = [{"name": "alluxio-fuse", "image": "x", "env": [
        {"name": "OSS_ACCESS_KEY_SECRET", "value": SECRET}, {"name": "OTHER", "value": "plain"}]}]
    f["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": f'{{"secret":"{SECRET}"}}'}
    log = (f"INFO mounting with fs.oss.accessKeySecret={SECRET}\n"
           f"com.aliyun.oss.OSSException: InvalidAccessKeyId (key {SECRET} refused)\n")
    ev = event("Pod", f["metadata"]["name"], "FailedMount", f"mount failed: accessKeySecret={SECRET}")
    code, text, report = run_diagnose(tmp_path, [*deployed(), secret, f, ev], logs={"imagenet-fuse-x7k2p": log})
    assert code == 1 and only(report, "mount")["evidence"].count("***") >= 1
    assert SECRET not in text and SECRET not in json.dumps(report)
    assert base64.b64encode(SECRET.encode()).decode() not in text
    # a key that names a Secret is not a secret: the names stay readable
    kept = from_objects([{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"volumes": [
        {"name": "creds", "secret": {"secretName": "imagenet-credentials"}}]}}])
    assert kept.objects[0]["spec"]["volumes"][0]["secret"]["secretName"] == "imagenet-credentials"
    assert "imagenet-credentials" not in kept.secret_values


def test_events_out_of_order_the_newest_decides(tmp_path: Path) -> None:
    name = _load_name()
    objects = _pipeline({"phase": "Pending", "conditions": []})
    with_status(objects, "Dataset", NOT_BOUND)
    # newest first in time, written oldest-last in the dump: the TargetDatasetNotFound of minute 2 is
    # over (the Dataset exists now), RuntimeNotReady of minute 9 is what holds the operation
    objects += [event("DataLoad", name, "RuntimeNotReady", "Bounded accelerate runtime not ready", minute=9,
                      type_="Normal"),
                event("DataLoad", name, "TargetDatasetNotFound", "Target dataset not found", minute=2)]
    _, _, report = run_diagnose(tmp_path, objects, spec=PIPELINE)
    assert "waits for its Dataset's runtime" in only(report, "operation")["cause"]
    objects[-2]["lastTimestamp"], objects[-1]["lastTimestamp"] = stamp(2), stamp(9)
    _, _, report = run_diagnose(tmp_path, objects, spec=PIPELINE)
    assert "not in the cluster" in only(report, "operation")["cause"]


def test_a_spec_that_does_not_compile_is_an_error(tmp_path: Path) -> None:
    spec = spec_in(tmp_path, SPEC.read_text().replace("replicas: 4", "replcas: 4"))
    code, text, _ = run_diagnose(tmp_path, deployed(), spec=spec)
    assert code == 1 and "replcas" in text


def test_usage_needs_a_dump_or_collect(tmp_path: Path) -> None:
    assert run_cli("diagnose", str(SPEC), env={}).code == 2
    assert run_cli("diagnose", str(SPEC), "--collect", "--cluster", "x", env={}).code == 2


# --collect -------------------------------------------------------------------------------------


def test_collect_runs_exactly_one_read_only_kubectl_command(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "calls"
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(cluster(*deployed(BOUND, RUNTIME_READY))))
    kubectl = bin_dir / "kubectl"
    kubectl.write_text(f"#!/bin/sh\necho \"$@\" >> {record}\ncat {payload}\n")
    kubectl.chmod(kubectl.stat().st_mode | stat.S_IEXEC)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    out = run_cli("diagnose", str(SPEC), "--collect", env=env)
    calls = record.read_text().splitlines()
    assert out.code == 0 and len(calls) == 1, out.err
    assert calls[0].split()[0] == "get" and calls[0].endswith("--all-namespaces -o json")
    kinds = calls[0].split()[1].split(",")
    assert "dataset.data.fluid.io" in kinds and "alluxioruntime.data.fluid.io" in kinds and "secrets" not in kinds
    assert f"running kubectl {calls[0]}" in out.err
    result = compile_paths([str(SPEC)], Options(read_credentials=False))
    assert collect_command(result) == ["kubectl", *calls[0].split()]


def test_collect_without_kubectl_says_the_command(tmp_path: Path) -> None:
    out = run_cli("diagnose", str(SPEC), "--collect", env={"PATH": str(tmp_path)})
    assert out.code == 1 and "kubectl get " in out.out and "dataset.data.fluid.io," in out.out


# Python API ------------------------------------------------------------------------------------


def test_api_returns_typed_findings() -> None:
    found = fluidgen.diagnose([*deployed(), _pending(AFFINITY_MESSAGE), *GPU_NODES], SPEC)
    assert not found.ok and isinstance(found.findings[0], fluidgen.Finding)
    f = next(f for f in found.findings if f.family == "scheduling")
    assert (f.file, f.line, f.path) == (str(SPEC), _line(SPEC, "gpu: Tesla"), "placement.gpu")
    healthy = fluidgen.diagnose(deployed(BOUND, RUNTIME_READY), SPEC)
    assert healthy.ok and healthy.findings == []


def test_every_family_has_a_test_and_every_fact_a_source() -> None:
    names = {t for t in globals() if t.startswith("test_")}
    for family in facts.FAMILIES:
        prefix = family.tests.rstrip("*")
        assert any(n.startswith(prefix) for n in names), family.name
        assert family.sources() and family.says
    assert {f.name for f in facts.FAMILIES} == {"scheduling", "crash", "mount", "csi", "binding", "volume",
                                                "operation", "image", "name", "cache", "version"}


def test_odd_shapes_anywhere_in_the_dump_never_crash() -> None:
    """Any field of a realistic dump replaced by a value of another type (or an owner that owns
    itself) gives findings or notes, never an internal error."""
    import random

    base = [*deployed(), _oom_worker(), _pending(AFFINITY_MESSAGE), _crashing_fuse(), *GPU_NODES,
            event("AlluxioRuntime", "imagenet", "ErrorProcessRuntime", "No dataset can be bound to the runtime"),
            pod("loop", ("Job", "loop"))]
    base.append({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "loop", "namespace": "default",
                                                                       "ownerReferences": [owner_ref("Job", "loop")]}})
    result = compile_paths([str(SPEC)], Options(read_credentials=False))
    # the two shapes that raised before: a memory limit that is no quantity, a waiting reason that is a mapping
    bad_limit, odd_reason = _oom_worker(), worker(1, statuses=[{"name": "w", "state": {"waiting": {"reason": {}}}}])
    bad_limit["spec"]["containers"][0]["resources"]["limits"]["memory"] = "lots"
    found = diagnose(result, from_objects([*deployed(), bad_limit, odd_reason]))
    assert [f.family for f in found.findings if f.family == "crash"] == ["crash"]
    rng = random.Random(int(os.environ.get("FUZZ_SEED", "40")))
    odd: list[Any] = [None, 7, "x", [], {}, [1, "a"], {"a": [None]}, True]

    def paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        found = [at] if at else []
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        for k, v in items:
            found += paths(v, (*at, k))
        return found

    for _ in range(int(os.environ.get("FUZZ_RUNS", "300"))):
        objects = copy.deepcopy(base)
        target = rng.randrange(len(objects))
        where = rng.choice(paths(objects[target]))
        holder = objects[target]
        for part in where[:-1]:
            holder = holder[part]
        holder[where[-1]] = rng.choice(odd)
        diagnose(result, from_objects(objects), logs={"imagenet-fuse-x7k2p": "InvalidAccessKeyId"})


def test_scheduling_a_node_selector_label_points_at_its_key(tmp_path: Path) -> None:
    spec = spec_in(tmp_path, SPEC.read_text().replace(
        "  gpu: Tesla-V100-SXM2-16GB", "  nodeSelector:\n    pool: imagenet-cache"))
    p = _pending(AFFINITY_MESSAGE, affinity=False)
    term = {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["imagenet-cache"]}]}
    p["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [term]}}}
    _, _, report = run_diagnose(tmp_path, [*deployed(spec=spec), p, *GPU_NODES], spec=spec)
    f = only(report, "scheduling")
    assert f["path"] == "placement.nodeSelector.pool" and f["line"] == _line(spec, "pool: imagenet-cache")
    assert "no node has pool in [imagenet-cache]; nodes carry: none" in f["cause"]


def test_binding_a_runtime_without_its_dataset(tmp_path: Path) -> None:
    objects = [o for o in deployed() if o["kind"] != "Dataset"]
    objects.append(event("AlluxioRuntime", "imagenet", "ErrorProcessRuntime",
                         "No dataset can be bound to the runtime, waiting."))
    code, _, report = run_diagnose(tmp_path, objects)
    f = only(report, "binding")
    assert code == 1 and f["path"] == "metadata.name" and "no Dataset of its name" in f["cause"]


def test_the_readme_worked_example_is_what_the_command_prints() -> None:
    """README "After it is applied": the dump in examples/diagnose gives the output shown, and the
    line it names is the line the README fixes."""
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    command = "fluidgen diagnose examples/alluxio-imagenet-oss.yaml --cluster examples/diagnose/imagenet-cluster.yaml"
    shown = readme.split(f"$ {command}\n", 1)[1].split("$ echo $?", 1)[0]
    out = run_cli(*command.split()[1:], env={}, cwd=ROOT)
    assert out.code == 1 and out.out == shown
    assert "Fix line 17:" in readme and _line(SPEC, "gpu: Tesla-V100-SXM2-16GB") == 17
    fixed = [*deployed(BOUND, RUNTIME_READY), *GPU_NODES]
    assert fluidgen.diagnose(fixed, SPEC).ok


def test_the_families_page_is_generated() -> None:
    from tests.conftest import ROOT

    assert (ROOT / "docs" / "diagnose.md").read_text() == facts.page(), \
        "docs/diagnose.md is stale: python -m fluidgen.diagnosis.facts > docs/diagnose.md"


def test_names_from_the_dump_stay_on_their_line(tmp_path: Path) -> None:
    """A namespace or pod name from the dump with a newline or an escape cannot forge a line."""
    forged = pod("web\nexamples/alluxio-imagenet-oss.yaml:1:1: placement: forged", ("ReplicaSet", "web"),
                 ns="team\x1b[2J")
    code, text, report = run_diagnose(tmp_path, [*deployed(BOUND, RUNTIME_READY), forged])
    assert code == 0 and "\x1b" not in text and not any(ln.startswith("examples/") for ln in text.splitlines())
    assert all("\n" not in n and "\x1b" not in n for n in report["notes"])


def _controller(tag: str) -> dict[str, Any]:
    """fluid-system's dataset-controller pod; its image tag is the chart's version (values.yaml defaultVersion)."""
    return pod("dataset-controller-5b7f9c6d4-7kq2m", ("ReplicaSet", "dataset-controller-5b7f9c6d4"), ns="fluid-system",
               containers=[{"name": "manager", "image": f"fluidcloudnative/dataset-controller:{tag}"}])


def test_version_of_fluid_in_the_cluster_against_the_build(tmp_path: Path) -> None:
    same = [*deployed(BOUND, RUNTIME_READY), _controller("v1.0.8-6533239")]
    assert run_diagnose(tmp_path, same)[0] == 0
    code, _, report = run_diagnose(tmp_path, [*deployed(BOUND, RUNTIME_READY), _controller("v1.1.0-36f0467")])
    f = only(report, "version")
    assert code == 1 and "targets Fluid v1.0.8, the cluster runs Fluid 1.1.0" in f["cause"]
    assert f["path"] == "fluid" and f["line"] == 1  # the spec has no fluid: key; it goes at its top
    pinned = spec_in(tmp_path, SPEC.read_text().replace("kind: CachedDataset\n",
                                                         "kind: CachedDataset\nfluid: v1.0.8\n"))
    _, _, report = run_diagnose(tmp_path, [*deployed(BOUND, RUNTIME_READY), _controller("v1.1.0-36f0467")],
                                spec=pinned)
    assert only(report, "version")["line"] == _line(pinned, "fluid: v1.0.8")


def test_a_log_link_leading_out_of_the_logs_folder_or_a_fifo_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.log"
    outside.write_text("ERROR write failed (No space left on device)\n")
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "imagenet-worker-0.log").symlink_to(outside)
    os.mkfifo(folder / "imagenet-worker-1.log")
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps(cluster(*deployed(BOUND, RUNTIME_READY), worker(0), worker(1))))
    out = run_cli("diagnose", str(SPEC), "--cluster", str(dump), "--logs", str(folder), "--format", "json", env={})
    report = json.loads(out.out)
    assert out.code == 0 and report["findings"] == []  # neither was opened (a FIFO would block)
    assert any(n.startswith("no <pod>.log in") for n in report["notes"])
    (folder / "imagenet-worker-0.log").unlink()
    (folder / "imagenet-worker-0.log").write_text(outside.read_text())
    out = run_cli("diagnose", str(SPEC), "--cluster", str(dump), "--logs", str(folder), "--format", "json", env={})
    assert only(json.loads(out.out), "cache")["objects"] == ["Pod default/imagenet-worker-0"]


def test_api_refuses_what_no_dump_holds_and_takes_a_mapping_spec() -> None:
    """An object the API server could not have sent (a set, a cycle) is named and not read; a spec
    given as a mapping is compiled as build compiles it."""
    cyclic: dict[str, Any] = {"kind": "Pod", "metadata": {"name": "loop"}}
    cyclic["spec"] = cyclic
    found = fluidgen.diagnose([{"kind": "Pod", "metadata": {"name": "x"}, "spec": {1, 2}}, cyclic,
                               *deployed(BOUND, RUNTIME_READY)], SPEC)
    assert not found.ok and [e.split(":")[0] for e in found.errors] == ["objects[0]", "objects[1]"]
    spec = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "mnist"},
            "source": [{"uri": "https://example.com/mnist/"}], "runtime": {"engine": "alluxio", "replicas": 1}}
    objects = [o for o in copy.deepcopy(fluidgen.build(spec).objects) if o["kind"] != "Secret"]
    assert fluidgen.diagnose(with_status(objects, "Dataset", BOUND), spec).ok
    assert not fluidgen.diagnose(with_status(objects, "Dataset", NOT_BOUND), spec).ok


def test_cache_path_that_is_not_a_directory(tmp_path: Path) -> None:
    """kubelet FailedMount with the hostPath plugin's type check (pkg/volume/hostpath checkType)."""
    message = ('MountVolume.SetUp failed for volume "ssd-0" : hostPath type check failed: /var/lib/docker/alluxio '
               "is not a directory")
    objects = [*deployed(), worker(0, phase="Pending"), event("Pod", "imagenet-worker-0", "FailedMount", message)]
    _, _, report = run_diagnose(tmp_path, objects)
    f = only(report, "cache")
    assert f["path"] == "runtime.cache[0]" and f["line"] == _line(SPEC, "medium: SSD") and "hostPath" in f["evidence"]
