"""fluidgen/diagnosis/rules.py, rule by rule on hand-built clusters (tests/diagnosis/test_run.py
runs the command end to end): the scheduler's message only for a pod not yet scheduled, and the
PodScheduled condition before the event; OOMKilled without JVM sizes or outside a runtime; a
crash loop without logs; the CSI plugin's state per node; a failed data operation named by its
Job (pkg/utils/dataload.go GetDataLoadJobName); Fluid's version from the dataset-controller's
image tag, whose default is charts/fluid/fluid/values.yaml `version` (read at both versions)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fluidgen.compile.pipeline import CompileResult
from fluidgen.diagnosis import rules
from fluidgen.diagnosis.cluster import Cluster
from fluidgen.diagnosis.dump import Redactor, from_objects
from tests.harness.fluid_src import TREES, need_tree

API = "data.fluid.io/v1alpha1"
RUNTIME = {"apiVersion": API, "kind": "AlluxioRuntime", "metadata": {"name": "imagenet", "namespace": "team"},
           "spec": {"worker": {"jvmOptions": ["-Xmx12G"]}, "fuse": {}}}
DATASET = {"apiVersion": API, "kind": "Dataset", "metadata": {"name": "imagenet", "namespace": "team"}}
LOAD = {"apiVersion": API, "kind": "DataLoad", "metadata": {"name": "warm", "namespace": "team"},
        "spec": {"dataset": {"name": "imagenet"}}}


def run(*live: dict[str, Any], versions: tuple[str, ...] = (), logs: dict[str, str] | None = None) -> rules.Run:
    result = CompileResult(objects=[dict(o) for o in (DATASET, RUNTIME, LOAD)], fluid_versions=set(versions))
    return rules.Run(Cluster(result, from_objects(live)), logs or {}, Redactor([]))


def pod(name: str, owner: tuple[str, str] | None, ns: str = "team", **status: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": ns}
    if owner:
        meta["ownerReferences"] = [{"kind": owner[0], "name": owner[1]}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": {"containers": [{"name": "c"}]},
            "status": status}


def event(name: str, reason: str, message: str, minute: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Event", "metadata": {"name": f"{name}.{minute}", "namespace": "team"},
            "involvedObject": {"kind": "Pod", "name": name}, "reason": reason, "message": message,
            "lastTimestamp": f"2026-11-27T10:{minute:02d}:00Z"}


def test_only_a_pod_not_yet_scheduled_reads_the_schedulers_message() -> None:
    cond = {"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "from condition"}
    other = {"type": "PodScheduled", "status": "False", "reason": "SchedulingGated", "message": "gated"}
    r = run(pod("a", None, phase="Pending", conditions=[cond]), pod("b", None, phase="Pending", conditions=[other]),
            pod("c", None, phase="Running"), event("a", "FailedScheduling", "from event", 3),
            event("b", "FailedScheduling", "older", 1), event("b", "FailedScheduling", "newest", 4),
            event("c", "FailedScheduling", "stale", 2))
    said = {n: rules._unschedulable(r, r.cluster.live[("Pod", "team", n)]) for n in "abc"}
    assert said == {"a": "from condition", "b": "newest", "c": ""}


def test_oomkilled_without_jvm_sizes_and_outside_a_runtime() -> None:
    oom = {"name": "c", "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137}}}
    r = run(pod("imagenet-fuse-x", ("DaemonSet", "imagenet-fuse"), containerStatuses=[oom]),
            pod("warm-loader-job-abc", ("Job", "warm-loader-job"), containerStatuses=[oom]))
    found = {f.objects[0]: (f.evidence, f.cause, f.fix) for f in rules.crashes(r)}
    assert found == {
        "Pod team/imagenet-fuse-x": ("container c: lastState.terminated.reason OOMKilled (memory limit none)",
                                     "the fuse used more memory than its limit",
                                     "raise fuse.resources.limits.memory (profile or runtime.overrides)"),
        "Pod team/warm-loader-job-abc": (
            "container c: lastState.terminated.reason OOMKilled (memory limit none)",
            "the container used more memory than its limit",
            "raise the memory (a workload's memory:, an operation's resources) or use less")}


def test_a_crash_loop_without_logs_asks_for_them() -> None:
    status = {"name": "c", "state": {"waiting": {"reason": "CrashLoopBackOff"}},
              "lastState": {"terminated": {"reason": "Error", "exitCode": 2}}}
    r = run(pod("imagenet-worker-0", ("StatefulSet", "imagenet-worker"), containerStatuses=[status]),
            logs={"imagenet-worker-0": "starting\nfatal: bad conf\n\n"})
    (with_log,) = rules.crashes(r)
    assert with_log.evidence == "container c: CrashLoopBackOff, last exit code 2; last log line: fatal: bad conf"
    (without,) = rules.crashes(run(pod("imagenet-worker-0", ("StatefulSet", "imagenet-worker"),
                                       containerStatuses=[status])))
    assert without.evidence == "container c: CrashLoopBackOff, last exit code 2 (no log given: --logs DIR)"
    assert without.cause == "the container exits soon after it starts"


def test_the_csi_plugins_state_on_the_pods_node() -> None:
    def plugin(node: str, ready: bool) -> dict[str, Any]:
        p = pod(f"csi-nodeplugin-fluid-{node}", ("DaemonSet", "csi-nodeplugin-fluid"), ns="fluid-system",
                containerStatuses=[{"name": "plugins", "ready": ready}])
        p["spec"]["nodeName"] = node
        return p

    assert rules._plugin_state([], "n1") == ("the dump holds no csi-nodeplugin-fluid pod of fluid-system (include "
                                             "that namespace's pods)")
    assert rules._plugin_state([plugin("n2", True)], "n1") == (
        "no csi-nodeplugin-fluid pod runs on this node (1 on others: check its nodeSelector and tolerations)")
    assert rules._plugin_state([plugin("n1", False)], "n1") == "its plugin pod csi-nodeplugin-fluid-n1 is not ready"
    assert rules._plugin_state([plugin("n1", True)], "n1") == (
        "its plugin pod csi-nodeplugin-fluid-n1 is running, so the kubelet looks for the registration in another "
        "root directory")


@pytest.mark.parametrize("version", sorted(TREES))
def test_a_failed_load_without_a_log_names_fluids_job(version: str) -> None:
    go = (need_tree(version) / "pkg/utils/dataload.go").read_text()
    assert 'return fmt.Sprintf("%s-loader", name)' in go and 'return fmt.Sprintf("%s-job", releaseName)' in go
    live = {**LOAD, "status": {"phase": "Failed", "conditions": [{"type": "Failed", "status": "True"}]}}
    (f,) = rules.operations(run(live))
    assert f.cause == "the operation's job failed"
    assert f.fix == "read the job's log (`kubectl logs job/warm-loader-job`) or give it with --logs"
    assert f.evidence.endswith("; job warm-loader-job")


@pytest.mark.parametrize(("version", "other"), [("v1.0.8", "v1.1.0-dev"), ("v1.1.0-dev", "v1.0.8")])
def test_fluids_version_from_the_dataset_controllers_default_tag(version: str, other: str) -> None:
    values = (need_tree(version) / "charts/fluid/fluid/values.yaml").read_text()
    tag = re.search(r"^version: &defaultVersion (\S+)$", values, re.M).group(1)  # type: ignore[union-attr]
    assert re.search(r"^\s+imageName: dataset-controller$", values, re.M)
    controller = pod("dataset-controller-5b7f", ("ReplicaSet", "dataset-controller-5b7f"), ns="fluid-system")
    controller["spec"]["containers"] = [{"name": "manager",
                                         "image": f"fluidcloudnative/dataset-controller:{tag}@sha256:0f0f"}]
    assert rules.cluster_fluid(run(controller)) == ("dataset-controller-5b7f", tag)
    assert list(rules.versions(run(controller, versions=(version,)))) == []
    (f,) = rules.versions(run(controller, versions=(other,)))
    assert f.evidence == f"dataset-controller-5b7f runs image tag {tag}"
    assert f.cause.startswith(f"the build targets Fluid {other}, the cluster runs Fluid {version.split('-')[0][1:]}:")


def test_a_pod_bound_since_its_failed_scheduling_is_not_unschedulable() -> None:
    """Binding sets spec.nodeName and PodScheduled=True (Kubernetes' pod binding); a Pending pod so
    bound waits on its image or a volume, and an older FailedScheduling event is stale: no
    scheduling finding, no pointer at placement.tolerations."""
    p = pod("imagenet-worker-0", ("StatefulSet", "imagenet-worker"), phase="Pending",
            conditions=[{"type": "PodScheduled", "status": "True"}])
    p["spec"]["nodeName"] = "gpu-1"
    message = ("0/2 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: present}. preemption: "
               "0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    r = run(p, event("imagenet-worker-0", "FailedScheduling", message, 1))
    assert rules._unschedulable(r, r.cluster.live[("Pod", "team", "imagenet-worker-0")]) == ""
    assert list(rules.scheduling(r)) == []
