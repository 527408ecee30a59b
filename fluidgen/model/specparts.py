"""The parts of a fluidgen spec that know no engine: metadata, sources and credentials,
placement, cache tiers, data operations and workloads (pydantic models that reject unknown
keys). fluidgen/spec/spec.py assembles the whole spec from these and the engines' own sections."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from ..base import versions
from ..base.manifest import Tree
from ..base.spectypes import (
    AbsolutePaths,
    Argv,
    CachePath,
    DatasetName,
    Duration,
    EnvName,
    Int32,
    LabelKey,
    LabelValue,
    Model,
    MountName,
    MountPath,
    Name,
    Namespace,
    NodeLabelValues,
    NodeSelector,
    Policy,
    Quantity,
    Ratio,
    Replicas,
    SecretKey,
    Size,
    SizeList,
    StrMap,
    choice,
)
from ..fluid.jobkinds import WORKLOADS

DEFAULT_GPU_LABEL = "aliyun.accelerator/nvidia_name"

if TYPE_CHECKING:
    FluidVersion = str
    JobKind = str
else:
    FluidVersion = choice(versions.NAMES)  # the version table owns the list
    JobKind = choice(tuple(WORKLOADS))  # the workload table owns the list


class Metadata(Model):
    name: DatasetName = Field(description="Name of the Dataset and its runtime (Fluid requires both to match).")
    namespace: Namespace | None = Field(None, description="Namespace for every namespaced object.")
    labels: dict[LabelKey, LabelValue] = Field(default_factory=dict,
                                               description="Labels copied to every generated object.")
    annotations: dict[LabelKey, str] = Field(default_factory=dict,
                                             description="Annotations copied to every generated object.")


class ObjectMeta(Model):
    labels: dict[LabelKey, LabelValue] = Field(default_factory=dict,
                                               description="Labels of this object only (beside metadata.labels).")
    annotations: dict[LabelKey, str] = Field(default_factory=dict,
                                             description="Annotations of this object only.")


class RunAs(Model):
    """A user and group (Fluid's User: api/v1alpha1/common.go)."""

    uid: Annotated[int, Field(ge=0, le=2**63 - 1, description="User ID.")]
    gid: Annotated[int, Field(ge=0, le=2**63 - 1, description="Group ID.")]
    user: str = Field(description="User name.")
    group: str = Field(description="Group name.")


class RestoreLocation(Model):
    path: str = Field(description="pvc://<claim>/<subpath>/ or local:///<path>/ holding a DataBackup.")
    nodeName: str | None = Field(None, description="The node a local:// backup is on.")


class DatasetSection(ObjectMeta):
    """The Dataset object itself: what only it carries."""

    owner: RunAs | None = Field(None, description="The user and group the Dataset's files belong to.")
    dataRestoreLocation: RestoreLocation | None = Field(None,
        description="Restore the metadata from this backup when the runtime starts (DataBackup's path).")
    overrides: Tree = Field(default_factory=dict,
        description="Dataset spec fields the spec has no key for (checked against the Fluid API).")


def _same_names(value: object) -> object:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return {v: v for v in value}
    return value


# Option name -> key; a list means the same names. Never empty: a credential that wires no option
# to its Secret builds a Dataset that reads nothing from it (the published schema says so too).
SecretKeys = Annotated[dict[SecretKey, SecretKey], Field(min_length=1), BeforeValidator(
    _same_names,
    json_schema_input_type=Annotated[dict[str, str], Field(min_length=1)] | Annotated[list[str], Field(min_length=1)])]


class ExistingSecret(Model):
    name: Name = Field(description="An existing Secret in the Dataset's namespace.")
    keys: SecretKeys = Field(description="Option name -> key in that Secret (a list means the same names).")


class ExternalSecretRef(Model):
    """External Secrets Operator: an ExternalSecret (external-secrets.io/v1) fetches the values
    from your secret manager in the cluster and creates the Secret the Dataset reads."""

    store: Name = Field(description="Name of the SecretStore or ClusterSecretStore to read from.")
    kind: Literal["SecretStore", "ClusterSecretStore"] = Field("SecretStore",
        description="SecretStore (in the Dataset's namespace) or ClusterSecretStore.")
    remoteKey: str = Field(min_length=1, description="The secret's key in the store (a path or name).")
    properties: SecretKeys = Field(
        description="Option name -> property of the remote secret (a list means the same names).")
    refreshInterval: Duration = Field("1h", description="How often the operator reads the store again.")


class Credentials(Model):
    secretName: Name | None = Field(None, description="Name of the generated Secret (or the one an "
                                                      "externalSecret creates).")
    fromEnv: dict[SecretKey, str] = Field(default_factory=dict,
        description="Option name -> environment variable read at build time.")
    fromFile: dict[SecretKey, str] = Field(default_factory=dict,
        description="Option name -> file (relative to the spec) whose content is the value.")
    envFile: str | None = Field(None, description="A KEY=VALUE file (relative to the spec); keys are option names.")
    inline: dict[SecretKey, str] = Field(default_factory=dict,
        description="Literal values in the spec. Needs allowInline: true.")
    allowInline: bool = Field(False, description="Accept inline credential values (draws a warning).")
    existingSecret: ExistingSecret | None = Field(None,
        description="Reference an existing Secret instead of generating one.")
    externalSecret: ExternalSecretRef | None = Field(None,
        description="Have the External Secrets Operator create the Secret from your secret manager.")

    @model_validator(mode="after")
    def _one_way(self) -> Credentials:
        given = {name for name in _CREDENTIAL_FIELDS if getattr(self, name)}
        for source, conflicts, message in _CREDENTIAL_CONFLICTS:
            if source in given and given & conflicts:
                raise ValueError(message)
        if not given & _VALUE_SOURCES:
            raise ValueError("give the values (fromEnv, fromFile, envFile or inline), existingSecret or "
                             "externalSecret")
        if self.inline and not self.allowInline:
            raise ValueError("inline credential values end up in your repository; "
                             "use fromEnv/fromFile, or set allowInline: true to accept the risk")
        return self


_GENERATED = frozenset({"fromEnv", "fromFile", "envFile", "inline"})  # values read at build time
_VALUE_SOURCES = _GENERATED | {"existingSecret", "externalSecret"}
_CREDENTIAL_FIELDS = ("fromEnv", "fromFile", "envFile", "inline", "existingSecret", "externalSecret", "secretName")
# (a way to give credentials, the fields it cannot be combined with, the error)
_CREDENTIAL_CONFLICTS = (
    ("existingSecret", _GENERATED | {"secretName", "externalSecret"},
     "existingSecret cannot be combined with generated values (fromEnv, fromFile, envFile, inline, secretName) "
     "or externalSecret"),
    ("externalSecret", _GENERATED,
     "externalSecret cannot be combined with values read at build time (fromEnv, fromFile, envFile, inline)"),
)


class NfsSource(Model):
    server: str = Field(description="NFS server host name or address.")
    path: str = Field(description="Exported path on the server.")
    capacity: Size = Field(description="Size for the PersistentVolume and claim, e.g. 150Gi.")
    mountOptions: list[str] = Field(default_factory=list, description="NFS mount options, e.g. nfsvers=4.1.")
    storageClass: str = Field("nfs", description="storageClassName on both volume and claim.")
    volumeName: Name | None = Field(None, description="Name of the PV and PVC (default: the mount name).")
    accessModes: list[Literal["ReadOnlyMany", "ReadWriteMany"]] = Field(
        default_factory=lambda: ["ReadOnlyMany"],  # type: ignore[arg-type]
        description="accessModes of the PersistentVolume and claim (default ReadOnlyMany).")


class Mount(Model):
    uri: str | None = Field(None, description="Where the data is: oss://, s3://, hdfs://, pvc://, juicefs:///, ...")
    nfs: NfsSource | None = Field(None, description="An NFS export, compiled to a PV + PVC + pvc:// mount.")
    name: MountName | None = Field(None, description="Mount name (default: the dataset name for one mount; null: "
                                                     "no name, as Fluid allows).")
    path: MountPath | None = Field(None, description="Path in the cache namespace, absolute (default /<name>).")
    readOnly: bool | None = Field(None, description="Mount the storage read-only in the cache (Fluid's "
                                                      "default: false, read-write).")
    shared: bool | None = Field(None, description="Mount it as shared in the cache (Fluid's default: false).")
    options: StrMap = Field(default_factory=dict, description="Non-secret engine options.")
    credentials: Credentials | None = Field(None, description="Secret options, delivered via encryptOptions.")

    @model_validator(mode="after")
    def _one_source(self) -> Mount:
        if (self.uri is None) == (self.nfs is None):
            raise ValueError("give exactly one of uri or nfs")
        if self.uri is not None and len(self.uri) < 5:
            raise ValueError(f'uri "{self.uri}" is too short (Fluid needs at least 5 characters)')
        return self


class Toleration(Model):
    key: str | None = Field(None, description="Taint key (none with operator Exists: every taint).")
    operator: Literal["Exists", "Equal"] | None = Field(None, description="Exists or Equal (default Equal).")
    value: str | None = Field(None, description="Taint value, with operator Equal.")
    effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] | None = Field(
        None, description="Taint effect to tolerate (none: every effect).")
    tolerationSeconds: Annotated[int, Field(ge=-(2**63), le=2**63 - 1)] | None = Field(
        None, description="NoExecute: seconds the pod stays bound once the taint appears.")


class Placement(Model):
    gpu: NodeLabelValues = Field(default_factory=list,
        description="GPU model(s) to pin the cache to, e.g. Tesla-V100-SXM2-16GB.")
    gpuLabel: LabelKey = Field(DEFAULT_GPU_LABEL,
        description="Node label holding the GPU model (nvidia.com/gpu.product with the GPU operator).")
    nodeSelector: NodeSelector = Field(default_factory=dict, description="Extra node labels the cache nodes must have.")
    tolerations: list[Toleration] = Field(default_factory=list, description="Taints the cache's pods tolerate "
                                                                            "(Dataset tolerations).")
    exclusive: bool | None = Field(None, description="Dataset placement: true=Exclusive, false=Shared.")


class CacheTier(Model):
    medium: Literal["MEM", "SSD", "HDD"] = Field(description="What the tier is on: MEM (memory), SSD or HDD.")
    path: AbsolutePaths = Field(default_factory=list,
        description="Cache directory on the node, absolute (or a list of them). MEM defaults to /dev/shm.")
    quota: SizeList = Field(description="Size, or one size per path (becomes quotaList).")
    high: Ratio | None = Field(None, description="High watermark ratio, e.g. 0.95.")
    low: Ratio | None = Field(None, description="Low watermark ratio, e.g. 0.7.")
    volumeType: Literal["hostPath", "emptyDir"] | None = Field(None, description="hostPath (default: the "
        "directory on the node, kept across pod restarts) or emptyDir (removed with the pod).")


NetworkMode = Literal["HostNetwork", "ContainerNetwork"]


class FuseSettings(Model):
    """The FUSE client's settings that are not tuning (a profile holds that)."""

    nodeSelector: NodeSelector = Field(default_factory=dict,
        description="Run FUSE pods only on nodes with these labels (fuse.nodeSelector).")
    cleanPolicy: Literal["OnDemand", "OnRuntimeDeleted"] | None = Field(None, description="When FUSE pods are "
        "removed: OnDemand (once no pod on the node uses the dataset) or OnRuntimeDeleted.")
    networkMode: NetworkMode | None = Field(None, description="FUSE pods on the host network (default) or not.")




POLICY_DOC = ("When Fluid runs the operation: Once (default), Cron (on schedule) or OnEvent (when the dataset "
              "changes).")
SCHEDULE_DOC = "Cron schedule, with policy: Cron (e.g. \"0 * * * *\")."


class Migrate(Model):
    from_: str = Field(alias="from", description="Source: a URI (oss://...) or a path in this dataset (/raw).")
    to: str = Field(description="Target: a URI or a path in this dataset.")
    credentials: Credentials | None = Field(None, description="Secret options of an external from/to storage, "
                                                              "delivered via encryptOptions.")
    options: StrMap = Field(default_factory=dict, description="Non-secret options of an external from/to storage.")
    image: str | None = Field(None, description="Migrate image (default: the engine's).")
    imageTag: str | None = Field(None, description="Tag of image.")
    parallelism: Replicas | None = Field(None, description="Migrate pods working at once (Fluid's default 1); "
                                                           "above 1 needs sshSecretName.")
    sshSecretName: Name | None = Field(None, description="Required by Fluid when parallelism > 1.")
    policy: Policy | None = Field(None, description=POLICY_DOC)
    schedule: str | None = Field(None, description=SCHEDULE_DOC)


class Process(Model):
    mountPath: str = Field(description="Where the dataset is mounted in the processing pod.")
    subPath: str | None = Field(None, description="Folder of the dataset to mount (default: all of it).")
    serviceAccount: Name | None = Field(None, description="ServiceAccount the processing pod runs as.")
    image: str | None = Field(None, description="Image of a script processor (required with script/scriptFile).")
    imageTag: str | None = Field(None, description="Tag of image.")
    command: Argv = Field(default_factory=lambda: ["bash"], description="What runs the script (default bash; Fluid "
        "passes the script file as its one argument: charts/fluid-dataprocess/common/templates/job.yaml): a list, "
        "or one line split as a shell would.")
    script: str | None = Field(None, description="Script source, run with command.")
    scriptFile: str | None = Field(None, description="File (relative to the spec) holding the script.")
    env: StrMap = Field(default_factory=dict, description="Environment variables of the script's container.")
    restartPolicy: Literal["Never", "OnFailure"] | None = Field(None, description="Restart policy of the "
                                                                                  "processing pod (default Never).")
    job: Tree | None = Field(None, description="A full pod spec (job processor) instead of a script.")
    policy: Policy | None = Field(None, description=POLICY_DOC)
    schedule: str | None = Field(None, description=SCHEDULE_DOC)
    submits: Submits | None = Field(None, description="The script submits training jobs (arena submit ...): "
        "fluidgen emits the ServiceAccount, Role and RoleBinding it needs.")

    @model_validator(mode="after")
    def _one_processor(self) -> Process:
        given = [n for n in ("script", "scriptFile", "job") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of script, scriptFile or job")
        if self.job is None and not self.image:
            raise ValueError("a script processor needs an image")
        if self.submits is not None and not self.serviceAccount:
            raise ValueError("a step that submits jobs needs serviceAccount: the account fluidgen grants it to")
        return self


class Submits(Model):
    kinds: list[JobKind] = Field(min_length=1, description="Job kinds the script submits and watches.")
    tool: Literal["arena", "kubectl"] = Field("arena", description="What submits them: arena also records each "
                                                                   "job in a ConfigMap.")


class LoadPath(Model):
    path: CachePath = Field(description="Path to warm up, in the cache namespace (/ for everything).")
    replicas: Replicas | None = Field(None, description="Cache copies of this path (default: load.replicas).")


def _load_paths(value: object) -> object:
    """Every documented form: a path, one {path, replicas}, or a list of either."""
    items = value if isinstance(value, list) else [value] if isinstance(value, str | dict) else value
    if isinstance(items, list):
        return [{"path": v} if isinstance(v, str) else v for v in items]
    return items


LoadPaths = Annotated[list[LoadPath], BeforeValidator(
    _load_paths, json_schema_input_type=str | LoadPath | list[str | LoadPath])]


class Load(Model):
    paths: LoadPaths = Field(default_factory=lambda: [LoadPath(path="/", replicas=None)],
                description="Paths to warm up, in the cache namespace: a path, or {path, replicas}. [] writes no "
                            "target: Fluid's loaders then load no path, only metadata with metadata: true "
                            "(pkg/ddc/*/load_data.go build the paths from spec.target alone; "
                            "charts/fluid-dataloader/alluxio/templates/job.yaml loops over them).")
    replicas: Replicas | None = Field(None, description="Cache copies of every path (default: Fluid's, 1).")
    metadata: bool | None = Field(None, description="Load metadata first.")
    options: StrMap = Field(default_factory=dict, description="Engine-specific load options (DataLoad options).")
    policy: Policy | None = Field(None, description=POLICY_DOC)
    schedule: str | None = Field(None, description=SCHEDULE_DOC)


class Backup(Model):
    path: str = Field(description="pvc://<claim>/<subpath>/ or local:///<path>/")
    runAs: RunAs | None = Field(None, description="The user and group the backup files are written as.")


class Step(ObjectMeta):
    name: Name | None = Field(None, description="Object name (default <dataset>-step<N>-<op>).")
    after: Literal["previous", "none"] | Name = Field("previous", description="Run after the previous step "
        "(default), the step of this name, or none (start at once).")
    affinityStrategy: Tree | None = Field(None, description="runAfter.affinityStrategy: place the pods "
        "near the pods of the step it runs after (policy Require/Prefer, requires, prefers).")
    ttlSecondsAfterFinished: Int32 | None = Field(None, description="Seconds after it finishes before Fluid "
        "deletes the operation (never written in GitOps mode, where a deleted operation would run again).")
    nodeSelector: NodeSelector = Field(default_factory=dict, description="Nodes the operation's pods may run on.")
    affinity: Tree | None = Field(None, description="Pod affinity of the operation's pods (core/v1).")
    tolerations: list[Toleration] = Field(default_factory=list, description="Taints the operation's pods tolerate.")
    schedulerName: str | None = Field(None, description="Scheduler of the operation's pods.")
    overrides: Tree = Field(default_factory=dict,
        description="Operation spec fields the step has no key for (checked against the Fluid API).")
    migrate: Migrate | None = Field(None, description="A DataMigrate: copy data between storage and the dataset.")
    process: Process | None = Field(None, description="A DataProcess: run a script or a job on the dataset.")
    load: Load | None = Field(None, description="A DataLoad: warm paths into the cache.")
    backup: Backup | None = Field(None, description="A DataBackup: save the metadata (and cache state).")

    @model_validator(mode="after")
    def _one_op(self) -> Step:
        ops = [n for n in ("migrate", "process", "load", "backup") if getattr(self, n) is not None]
        if len(ops) != 1:
            raise ValueError("each step needs exactly one of migrate, process, load or backup")
        return self

    @property
    def op(self) -> str:
        return next(n for n in ("migrate", "process", "load", "backup") if getattr(self, n) is not None)


class Workload(Model):
    """A training job that reads the dataset: what `arena submit mpi|pytorch --data` makes."""

    name: Name = Field(description="The job's name.")
    kind: JobKind = Field(description="MPIJob (MPI Operator v2beta1), PyTorchJob (Training Operator v1), TrainJob "
                                      "(Kubeflow Trainer v2) or Job (batch/v1, one pod).")
    namespace: Namespace | None = Field(None, description="Must be the dataset's: the claim it mounts is namespaced.")
    image: str = Field(min_length=1, description="The training image.")
    command: Argv = Field(default_factory=list, description="The container's command (default: the image's "
        "entrypoint): a list, or one command line, split as a shell would (shell syntax needs [sh, -c, ...]).")
    args: Argv = Field(default_factory=list, description="Arguments to the command: a list, or one line split as "
                                                         "a shell would.")
    workingDir: str | None = Field(None, description="Working directory of the training containers.")
    env: dict[EnvName, str] = Field(default_factory=dict, description="Environment variables of every training "
                                                                      "container (dataEnv is added).")
    workers: Replicas = Field(1, description="Training nodes (pods); keep equal to runtime.replicas.")
    gpus: Int32 = Field(0, description="GPUs per worker (nvidia.com/gpu requests and limits).")
    cpu: Quantity | None = Field(None, description="CPU request per worker.")
    memory: Size | None = Field(None, description="Memory request per worker.")
    shm: Size | None = Field(None, description="Size of /dev/shm (a memory emptyDir), for data loader workers.")
    serviceAccount: Name | None = Field(None, description="ServiceAccount the training pods run as.")
    mountPath: str = Field("/data", description="Where the dataset appears in the pods.")
    dataEnv: EnvName | None = Field("DATA_DIR", description="Environment variable set to where the data is.")
    dataSubPath: str | None = Field(None, description="Folder of the data inside the dataset (added to dataEnv).")
    runtime: Name | None = Field(None, description="TrainJob: the ClusterTrainingRuntime (default torch-distributed).")
    workerCommand: Argv = Field(default_factory=list, description="MPIJob: what the worker pods run while the "
        "launcher's mpirun drives them (default: the image's entrypoint, an SSH server); a list, or one line split "
        "as a shell would.")
    cleanPodPolicy: Literal["Running", "All", "None"] | None = Field(None,
        description="MPIJob/PyTorchJob: which pods to delete when the job ends (default Running).")
    nameHash: bool = Field(False, description="End the job's name in a hash of its spec, so an edited job is a "
        "new job (the old one is pruned by Argo CD or Flux) instead of an update the API server refuses or the "
        "operator ignores. Changes the name of a running job once: see README, Upgrading.")
