"""Training jobs that read a dataset (`workloads:` in a spec): every fact about each job kind.

What `arena submit mpi|pytorch --data <dataset>:/data` does, as manifests GitOps can hold. A
job mounts the PersistentVolumeClaim Fluid creates for the Dataset (named like it, in its
namespace; pkg/ddc/base/pv.go) and runs on the nodes the cache is pinned to. Each kind
builds its object from one `Pod` description (lower/workloads.py makes it):

- MPIJob kubeflow.org/v2beta1 (MPI Operator v0.8): a Launcher that runs the command and
  `workers` Worker pods with the GPUs and the data; slotsPerWorker = GPUs per worker.
- PyTorchJob kubeflow.org/v1 (Training Operator v1, what arena submits): Master 1 +
  Worker workers-1, container named "pytorch" (the operator's default container name).
- TrainJob trainer.kubeflow.org/v1alpha1 (Kubeflow Trainer v2.3): runtimeRef to a
  ClusterTrainingRuntime, trainer.numNodes/resourcesPerNode, and the volume, placement and
  shm through runtimePatches on the runtime's "node" job and container (the names of
  manifests/base/runtimes/torch_distributed.yaml in kubeflow/trainer).
- Job batch/v1: one pod, for single-node work.

A data operation that submits jobs itself (a DataProcess running `arena submit`) gets a
Role with the narrowest verbs on the kinds it submits (SUBMIT_RULES).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..base.manifest import Tree

GPU = "nvidia.com/gpu"
TRAINJOB_PATCH_MANAGER = "fluidgen.io/workloads"
TRAINER_NODE = "node"  # replicated job and container of Trainer's torch runtimes


@dataclass(frozen=True)
class Pod:
    """One pod of a job, before a kind wraps it: the container and what the pod needs."""

    image: str
    command: list[str]
    args: list[str]
    working_dir: str | None
    env: list[dict[str, str]]
    resources: Tree
    volume_mounts: list[Tree]
    volumes: list[Tree]
    affinity: Tree | None
    tolerations: list[Tree]
    service_account: str | None
    workers: int
    gpus: int
    options: Tree = field(default_factory=dict)  # kind-specific knobs (runtime, cleanPodPolicy)

    def container(self, name: str, data: bool = True, command: list[str] | None = None) -> Tree:
        """The container; `command` replaces the job's command and args (an MPI worker's)."""
        out: Tree = {"name": name, "image": self.image}
        run, args = (self.command, self.args) if command is None else (command, [])
        for key, value in (("command", run), ("args", args), ("workingDir", self.working_dir),
                           ("env", self.env), ("resources", self.resources if data else None),
                           ("volumeMounts", self.volume_mounts if data else None)):
            if value:
                out[key] = value
        return out

    def spec(self, container: Tree, data: bool = True, restart: str | None = None) -> Tree:
        out: Tree = {"containers": [container]}
        if data:
            if self.affinity:
                out["affinity"] = self.affinity
            if self.tolerations:
                out["tolerations"] = self.tolerations
            if self.volumes:
                out["volumes"] = self.volumes
        if self.service_account:
            out["serviceAccountName"] = self.service_account
        if restart:
            out["restartPolicy"] = restart
        return out


def _mpijob(pod: Pod) -> Tree:
    # The launcher runs the command (mpirun); the workers hold the GPUs, the data and the cache
    # locality, and run the image's entrypoint (an SSH server for mpirun) unless told otherwise,
    # as kubeflow/mpi-operator examples/v2beta1/tensorflow-benchmarks.yaml does.
    launcher = pod.spec(pod.container("launcher", data=False), data=False)
    worker = pod.spec(pod.container("worker", command=pod.options.get("workerCommand", [])))
    return {"slotsPerWorker": max(pod.gpus, 1),
            "runPolicy": {"cleanPodPolicy": pod.options.get("cleanPodPolicy", "Running")},
            "mpiReplicaSpecs": {"Launcher": {"replicas": 1, "template": {"spec": launcher}},
                                "Worker": {"replicas": pod.workers, "template": {"spec": worker}}}}


def _pytorchjob(pod: Pod) -> Tree:
    template = {"spec": pod.spec(pod.container("pytorch"))}
    replicas: Tree = {"Master": {"replicas": 1, "restartPolicy": "OnFailure", "template": template}}
    if pod.workers > 1:
        replicas["Worker"] = {"replicas": pod.workers - 1, "restartPolicy": "OnFailure", "template": template}
    return {"runPolicy": {"cleanPodPolicy": pod.options.get("cleanPodPolicy", "Running")},
            "pytorchReplicaSpecs": replicas}


def _trainjob(pod: Pod) -> Tree:
    trainer: Tree = {"image": pod.image, "numNodes": pod.workers}
    for key, value in (("command", pod.command), ("args", pod.args), ("env", pod.env),
                       ("resourcesPerNode", pod.resources)):
        if value:
            trainer[key] = value
    patched_pod = pod.spec({"name": TRAINER_NODE, "volumeMounts": pod.volume_mounts})
    patch = {"manager": TRAINJOB_PATCH_MANAGER, "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [
        {"name": TRAINER_NODE, "template": {"spec": {"template": {"spec": patched_pod}}}}]}}}}
    runtime = pod.options.get("runtime", "torch-distributed")
    return {"runtimeRef": {"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime", "name": runtime},
            "trainer": trainer, "runtimePatches": [patch]}


def _job(pod: Pod) -> Tree:
    return {"backoffLimit": pod.options.get("backoffLimit", 0),
            "template": {"spec": pod.spec(pod.container("main"), restart="Never")}}


@dataclass(frozen=True)
class WorkloadKind:
    kind: str
    api_version: str
    plural: str  # the resource name, for RBAC rules
    build: Callable[[Pod], Tree]
    multi_node: bool = True  # several pods, one per training node
    working_dir: bool = True  # the kind can set the container's working directory
    health: bool = True  # fluidgen ships its Argo CD health check (Argo CD has one for Job)
    # Where _build puts the pod specs that mount the data, as kustomize field paths: their
    # volumes' claimName names the Dataset's claim, serviceAccountName the job's account.
    pod_paths: tuple[str, ...] = ()


WORKLOADS: dict[str, WorkloadKind] = {w.kind: w for w in (
    WorkloadKind("MPIJob", "kubeflow.org/v2beta1", "mpijobs", _mpijob, pod_paths=(
        "spec/mpiReplicaSpecs/Launcher/template/spec", "spec/mpiReplicaSpecs/Worker/template/spec")),
    WorkloadKind("PyTorchJob", "kubeflow.org/v1", "pytorchjobs", _pytorchjob, pod_paths=(
        "spec/pytorchReplicaSpecs/Master/template/spec", "spec/pytorchReplicaSpecs/Worker/template/spec")),
    # Trainer's container patch has no workingDir (TrainJob runtimePatches, v2.3.0 CRD)
    WorkloadKind("TrainJob", "trainer.kubeflow.org/v1alpha1", "trainjobs", _trainjob, working_dir=False,
                 pod_paths=("spec/runtimePatches/trainingRuntimeSpec/template/spec/replicatedJobs/template/spec/"
                            "template/spec",)),
    WorkloadKind("Job", "batch/v1", "jobs", _job, multi_node=False, health=False, pod_paths=("spec/template/spec",)),
)}

# What a script that submits and watches jobs needs (003: `arena submit pytorch`, then `arena get`
# until it succeeds), per submitting tool: (resource, apiGroup, verbs, why).
SUBMIT_RULES: dict[str, list[tuple[str, str, tuple[str, ...], str]]] = {
    "kubectl": [
        ("pods", "", ("get", "list", "watch"), "follow the job's pods"),
        ("pods/log", "", ("get",), "read the training logs"),
    ],
    "arena": [
        ("pods", "", ("get", "list", "watch"), "arena get lists the job's pods"),
        ("pods/log", "", ("get",), "arena logs"),
        # arena records each submitted job in a ConfigMap <type>-<name> (pkg/util/kubectl CreateAppConfigmap)
        ("configmaps", "", ("create", "get", "list"), "arena records each job in a ConfigMap"),
    ],
}


def submit_rules(kinds: list[str], tool: str) -> list[Tree]:
    """The Role rules for submitting and watching `kinds` with `tool`, each with its reason."""
    rules = []
    for kind in sorted(set(kinds)):
        w = WORKLOADS[kind]
        group = w.api_version.rpartition("/")[0]
        rules.append({"apiGroups": [group], "resources": [w.plural], "verbs": ["create", "get", "list", "watch"]})
    for resource, group, verbs, _ in SUBMIT_RULES[tool]:
        rules.append({"apiGroups": [group], "resources": [resource], "verbs": list(verbs)})
    return rules


def submit_reasons(kinds: list[str], tool: str) -> str:
    parts = [f"{', '.join(sorted(set(kinds)))}: create and watch the jobs it submits"]
    parts += [f"{resource}: {why}" for resource, _, _, why in SUBMIT_RULES[tool]]
    return "; ".join(parts)
