"""What Fluid, Kubernetes and the programs they run write when something goes wrong, as data.

Each text `fluidgen diagnose` looks for in a cluster dump (an event reason, a condition, a
container state, a message, a log line) is one `Said` here, with where it is written: a Fluid
source (fluidsource.source: file, function, versions; tests/base/test_fluidsource.py checks the file
and the name at every version it claims) or, outside Fluid, the project, file and name that
write it (`Elsewhere`; read at the revision named). The failure families (`FAMILIES`) name the
evidence they read and their sources; docs and the report's table are rendered from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base.fluidsource import FluidSource, source


@dataclass(frozen=True)
class Elsewhere:
    """A text written outside Fluid: the project, the file and the function or constant that writes it."""

    project: str  # kubernetes/kubernetes, helm/helm, libfuse/libfuse, ...
    path: str
    name: str
    note: str = ""

    def cite(self) -> str:
        return f"{self.project} {self.path} {self.name}"


Source = FluidSource | Elsewhere


def cite(s: Source) -> str:
    return s.cite() if isinstance(s, Elsewhere) else f"fluid-cloudnative/fluid {s.cite()}"


@dataclass(frozen=True)
class Said:
    """A text one program writes (an event reason, a container state, a message part), and where."""

    text: str
    sources: tuple[Source, ...]


def k8s(path: str, name: str, note: str = "") -> Elsewhere:
    return Elsewhere("kubernetes/kubernetes", path, name, note)


# Kubernetes: the scheduler ------------------------------------------------------------------

FAILED_SCHEDULING = Said("FailedScheduling", (k8s("pkg/scheduler/schedule_one.go", "handleSchedulingFailure",
                                                  "event reason on the Pod, with the per-node reasons"),))
UNSCHEDULABLE = Said("Unschedulable", (k8s("staging/src/k8s.io/api/core/v1/types.go", "PodReasonUnschedulable",
                                           "reason of the Pod's PodScheduled=False condition"),))
NODE_AFFINITY = Said("didn't match Pod's node affinity/selector", (
    k8s("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "ErrReasonPod"),))
UNTOLERATED_TAINT = Said("had untolerated taint", (
    k8s("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "Filter",
        "node(s) had untolerated taint {key: value}"),))
INSUFFICIENT = Said("Insufficient ", (k8s("pkg/scheduler/framework/plugins/noderesources/fit.go", "fitsRequest",
                                          "Insufficient <resource name>"),))

# Kubernetes: the kubelet and the container runtime -----------------------------------------

CRASH_LOOP = Said("CrashLoopBackOff", (k8s("pkg/kubelet/container/sync_result.go", "ErrCrashLoopBackOff"),))
OOM_KILLED = Said("OOMKilled", (Elsewhere("containerd/containerd", "internal/cri/server/container_status.go",
                                          "toCRIContainerStatus", "lastState.terminated.reason the kubelet copies"),))
IMAGE_PULL = Said("ErrImagePull", (k8s("pkg/kubelet/images/types.go", "ErrImagePull"),))
IMAGE_BACKOFF = Said("ImagePullBackOff", (k8s("pkg/kubelet/images/types.go", "ErrImagePullBackOff"),))
IMAGE_NAME = Said("InvalidImageName", (k8s("pkg/kubelet/images/types.go", "ErrInvalidImageName"),))
IMAGE_REASONS = (IMAGE_PULL, IMAGE_BACKOFF, IMAGE_NAME)
FAILED_MOUNT = Said("FailedMount", (k8s("pkg/kubelet/events/event.go", "FailedMountVolume"),))
CSI_NOT_REGISTERED = Said("not found in the list of registered CSI drivers", (
    k8s("pkg/volume/csi/csi_client.go", "newCsiDriverClient",
        "driver name <name> not found in the list of registered CSI drivers"),))
EVICTED = Said("Evicted", (k8s("pkg/kubelet/eviction/helpers.go", "Reason", "status.reason of an evicted Pod"),))
EMPTYDIR_OVER = Said("Usage of EmptyDir volume", (
    k8s("pkg/kubelet/eviction/eviction_manager.go", "emptyDirLimitEviction",
        "Usage of EmptyDir volume <name> exceeds the limit <sizeLimit>."),))
HOSTPATH_TYPE = Said("hostPath type check failed", (k8s("pkg/volume/hostpath/host_path.go", "checkType"),))

# Kubernetes: volumes -----------------------------------------------------------------------

PVC_PENDING = Said("Pending", (k8s("staging/src/k8s.io/api/core/v1/types.go", "ClaimPending"),))
FAILED_BINDING = Said("FailedBinding", (k8s("pkg/controller/volume/persistentvolume/pv_controller.go",
                                            "syncUnboundClaim", "no persistent volumes available for this claim"),))
PROVISIONING_FAILED = Said("ProvisioningFailed", (k8s("pkg/controller/volume/events/event.go", "ProvisioningFailed"),))
PV_FAILED = Said("Failed", (k8s("staging/src/k8s.io/api/core/v1/types.go", "VolumeFailed"),))

# Fluid ---------------------------------------------------------------------------------------

NOT_BOUND = Said("NotBound", (source("api/v1alpha1/dataset_types.go", "NotBoundDatasetPhase"),))
ERROR_PROCESS_RUNTIME = Said("ErrorProcessRuntime", (source("pkg/common/constants.go", "ErrorProcessRuntimeReason"),))
NO_DATASET = Said("No dataset can be bound to the runtime", (
    source("pkg/controllers/runtime_controller.go", "ReconcileInternal",
           note="event ErrorProcessRuntime on a runtime without a Dataset of its name and namespace"),))
TARGET_NOT_FOUND = Said("TargetDatasetNotFound", (
    source("pkg/common/constants.go", "TargetDatasetNotFound"),
    source("pkg/controllers/operation_controller.go", "ReconcileInternal", note="Target dataset not found: <err>")))
RUNTIME_NOT_READY = Said("RuntimeNotReady", (
    source("pkg/common/constants.go", "RuntimeNotReady"),
    source("pkg/controllers/operation_controller.go", "ReconcileInternal",
           note="Bounded accelerate runtime not ready: the Dataset has no bound runtime yet")))
OPERATION_FAILED = Said("DataOperationFailed", (
    source("pkg/common/constants.go", "DataOperationFailed"),
    source("pkg/ddc/base/operation.go", "reconcileFailed", note="<type> <name> failed")))
OPERATION_EXECUTION_FAILED = Said("DataOperationExecutionFailed", (
    source("pkg/common/constants.go", "DataOperationExecutionFailed"),
    source("pkg/ddc/base/operation.go", "reconcileExecuting", note="fail to execute data operation: <err>")))
PATHS_NOT_EXIST = Said("some paths not exist", (
    source("charts/fluid-dataloader/alluxio/templates/configmap.yaml", "checkPathExistence",
           note="dataLoad failed because some paths not exist."),))
CSI_DRIVER = Said("fuse.csi.fluid.io", (source("pkg/csi/plugins/driver.go", "driverName"),
                                        source("pkg/common/volume.go", "CSIDriver")))
KUBELET_ROOT_DIR = Said("rootDir", (source("charts/fluid/fluid/values.yaml", "rootDir",
                                           note="csi.kubelet.rootDir, default /var/lib/kubelet: where the CSI "
                                                "plugin registers with the kubelet"),))
CSI_PLUGIN_POD = Said("csi-nodeplugin-fluid", (source("charts/fluid/fluid/templates/csi/daemonset.yaml",
                                                      "csi-nodeplugin-fluid", note="the CSI plugin DaemonSet in "
                                                                             "fluid-system, one pod per node"),))
WORKER_AFFINITY = Said("nodeAffinity", (source("pkg/ctrl/affinity.go", "BuildWorkersAffinity",
                                               note="the Dataset's nodeAffinity.required is the workers'"),))
DATASET_TOLERATIONS = Said("tolerations", (source("pkg/ddc/alluxio/transform_resources.go", "transformTolerations",
                                                  note="the Dataset's tolerations go to every runtime pod"),))
EMPTYDIR_QUOTA = Said("sizeLimit", (source("charts/alluxio/templates/_helpers.tpl",
                                           "alluxio.worker.tieredstoreVolumes",
                                           note="a cache level on an emptyDir gets its quota as sizeLimit"),))

FLUID_VERSION_TAG = Said("dataset-controller", (
    source("charts/fluid/fluid/values.yaml", "defaultVersion",
           note="the controllers' imageTag is the chart's version followed by a commit (version-commit)"),
    source("charts/fluid/fluid/templates/controller/dataset_controller.yaml", "dataset-controller",
           note="the dataset-controller Deployment in fluid-system")))

# Helm, libfuse, storage services ------------------------------------------------------------

HELM_NAME = Said("the length must not be longer than 53", (
    Elsewhere("helm/helm", "pkg/chartutil/validate_name.go", "errInvalidName"),
    source("pkg/ddc/alluxio/master_internal.go", "setupMasterInternal",
           note="helm.InstallRelease(e.name, ...): the runtime's name is the release's"),
    source("pkg/ddc/base/operation_helm.go", "InstallDataOperationHelmIfNotExist")))
FUSE_UNKNOWN_OPTION = Said("fuse: unknown option", (
    Elsewhere("libfuse/libfuse", "lib/fuse_opt.c", "call_proc", "libfuse 2: fuse: unknown option `-o x'"),
    Elsewhere("libfuse/libfuse", "lib/fuse_lowlevel.c", "fuse_session_new", "libfuse 3: fuse: unknown option(s)"),
    source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultFuse",
           note="Fluid's libfuse 2 default FUSE options include nonempty, which libfuse 3 refuses")))
NO_SPACE = Said("No space left on device", (Elsewhere("torvalds/linux", "include/uapi/asm-generic/errno-base.h",
                                                      "ENOSPC"),))
CREDENTIAL_ERRORS = Said("InvalidAccessKeyId|SignatureDoesNotMatch|AccessDenied|403 Forbidden", (
    Elsewhere("aliyun/aliyun-oss-java-sdk", "src/main/java/com/aliyun/oss/OSSErrorCode.java", "INVALID_ACCESS_KEY_ID"),
    Elsewhere("aws/aws-sdk-java",
              "aws-java-sdk-s3/src/main/java/com/amazonaws/services/s3/model/AmazonS3Exception.java", "errorCode",
              "InvalidAccessKeyId, SignatureDoesNotMatch, AccessDenied (S3 error responses)")))
ENDPOINT_ERRORS = Said("UnknownHostException|no such host|Name or service not known|Connection refused", (
    Elsewhere("openjdk/jdk", "src/java.base/share/classes/java/net/UnknownHostException.java", "UnknownHostException"),
    Elsewhere("golang/go", "src/net/net.go", "errNoSuchHost"),
    Elsewhere("bminor/glibc", "resolv/gai_strerror-strs.h", "EAI_NONAME")))


@dataclass(frozen=True)
class Family:
    name: str
    evidence: str  # what it reads in the dump
    says: tuple[Said, ...]
    tests: str  # the tests that build a dump of this family (tests/diagnosis/test_run.py)

    def sources(self) -> list[str]:
        return sorted({cite(s) for said in self.says for s in said.sources})


FAMILIES: tuple[Family, ...] = (
    Family("scheduling", "Pod condition PodScheduled=False/Unschedulable and FailedScheduling events (the "
                         "scheduler's per-node reasons); the nodes' labels, taints",
           (FAILED_SCHEDULING, UNSCHEDULABLE, NODE_AFFINITY, UNTOLERATED_TAINT, INSUFFICIENT, WORKER_AFFINITY,
            DATASET_TOLERATIONS), "test_scheduling_*"),
    Family("crash", "containerStatuses lastState.terminated.reason OOMKilled against the runtime's memory limit "
                    "and -Xmx; state.waiting CrashLoopBackOff with the pod's log",
           (OOM_KILLED, CRASH_LOOP), "test_crash_*"),
    Family("mount", "FUSE, worker, master logs (--logs): storage credential errors, unreachable endpoints, "
                    "libfuse option errors", (CREDENTIAL_ERRORS, ENDPOINT_ERRORS, FUSE_UNKNOWN_OPTION),
           "test_mount_*"),
    Family("csi", "FailedMount events naming Fluid's CSI driver; fluid-system CSI plugin pods per node",
           (FAILED_MOUNT, CSI_NOT_REGISTERED, CSI_DRIVER, KUBELET_ROOT_DIR, CSI_PLUGIN_POD), "test_csi_*"),
    Family("binding", "Dataset status.phase NotBound; the runtime of its name (missing, of another name, not "
                      "ready by health()); the runtime's ErrorProcessRuntime events",
           (NOT_BOUND, ERROR_PROCESS_RUNTIME, NO_DATASET), "test_binding_*"),
    Family("volume", "PersistentVolumeClaim status.phase Pending with FailedBinding/ProvisioningFailed events; "
                     "PersistentVolume status.phase Failed", (PVC_PENDING, FAILED_BINDING, PROVISIONING_FAILED,
                                                              PV_FAILED), "test_volume_*"),
    Family("operation", "data operation health() (Failed, stuck Pending), its events (TargetDatasetNotFound, "
                        "RuntimeNotReady, DataOperationFailed) and its job pod's log",
           (TARGET_NOT_FOUND, RUNTIME_NOT_READY, OPERATION_FAILED, OPERATION_EXECUTION_FAILED, PATHS_NOT_EXIST),
           "test_operation_*"),
    Family("image", "containerStatuses state.waiting reason ErrImagePull, ImagePullBackOff, InvalidImageName",
           IMAGE_REASONS, "test_image_*"),
    Family("name", "ErrorProcessRuntime or DataOperationExecutionFailed events with Helm's release name error",
           (HELM_NAME, ERROR_PROCESS_RUNTIME, OPERATION_EXECUTION_FAILED), "test_name_*"),
    Family("version", "the image tag of fluid-system's dataset-controller pod (Fluid's version) against the "
                      "build's target Fluid version", (FLUID_VERSION_TAG,), "test_version_*"),
    Family("cache", "Evicted pods (emptyDir over its sizeLimit), hostPath type check failures, 'No space left "
                    "on device' in a worker's log", (EVICTED, EMPTYDIR_OVER, EMPTYDIR_QUOTA, HOSTPATH_TYPE, NO_SPACE),
           "test_cache_*"),
)


def table() -> str:
    """The families as a Markdown table."""
    rows = ["| family | evidence it reads | sources | tests |", "| --- | --- | --- | --- |"]
    rows += [f"| {f.name} | {f.evidence} | {'; '.join(f.sources())} | tests/diagnosis/test_run.py {f.tests} |"
             for f in FAMILIES]
    return "\n".join(rows) + "\n"


def page() -> str:
    """docs/diagnose.md: the families `fluidgen diagnose` knows, generated from FAMILIES (a test
    fails when the file is stale; `python -m fluidgen.diagnosis.facts > docs/diagnose.md` rewrites it)."""
    return ("# `fluidgen diagnose`: the failure families\n\n"
            "Generated from `fluidgen/diagnosis/facts.py` (`python -m fluidgen.diagnosis.facts > docs/diagnose.md`)."
            " Each family reads the evidence named, matches only texts written by the code cited (Fluid's at "
            "every version fluidgen targets unless noted; the others at the file and name given), and reports "
            "the spec line that set the field, or what in the cluster to check.\n\n" + table())


if __name__ == "__main__":
    print(page(), end="")
