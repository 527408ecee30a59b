"""JuiceFSRuntime: POSIX file system over an object store with a metadata engine.

Only the first mount (juicefs:///<subpath>) and the first cache tier are used; several
cache paths are joined with ":" as JuiceFS reads them, and quota becomes cache-size in MiB.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/juicefsruntime_types.go: the spec (volumeClaimTemplates: master only).
- pkg/ddc/juicefs/transform_fuse.go (genValue, genMountOptions): encryptOptions named
  metaurl (community edition), token (enterprise), access-key, secret-key; any other name
  becomes an environment variable; options storage and bucket configure the object store;
  cache-size = quota >> 20 (MiB), free-space-ratio = low, cache-dir joined with ":".
- pkg/ddc/juicefs/data_migrate.go (genDataUrl): a DataMigrate's external storage reads
  encryptOptions access-key, secret-key and token and builds a `juicefs sync` URL from the
  URI, so object stores that need an endpoint need it in the URI (oss://BUCKET.ENDPOINT/..).
- pkg/ddc/juicefs/operate.go: DataLoad, DataMigrate and DataProcess are supported.
- charts/juicefs/templates: the objects Fluid creates (FullnameOverride = runtime name).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..base.fluidsource import before, since, source
from ..base.manifest import levels_of
from ..base.manifest_index import Entry, ManifestIndex
from ..base.quantity import to_bytes
from ..base.rules import Example, Finding, Rule
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, k8s_list, obj
from ..base.versions import V1_1_0_DEV
from ..fluid.common import (
    CONTAINER_PORTS,
    ENV_VARS,
    IMAGE,
    INIT_USERS,
    MANAGEMENT,
    NETWORK_MODE,
    POD_METADATA,
    REPLICAS,
    RESOURCES,
    RUN_AS,
    TIEREDSTORE,
    VOLUME_MOUNTS,
    VOLUMES,
)
from ..fluid.fields import (
    IGNORED,
    MERGED,
    OWN_DEFAULT,
    READ,
    FieldRead,
    Fields,
    dataset_node_affinity,
    dataset_placement,
    fuse_clean_policy,
)
from .contract import (
    FUSE_ONLY,
    ON_RESTART,
    ROLLING,
    Context,
    Created,
    EditFact,
    Edits,
    Engine,
    Health,
    Hooks,
    Lowering,
    Mounts,
    MountSync,
    Starter,
    Storage,
    Workloads,
    edits,
    named_after_runtime,
    not_the_reference_engine,
    partial_ready,
    runtime_status,
    scales,
)

KIND = "JuiceFSRuntime"
_FUSE_GO = "pkg/ddc/juicefs/transform_fuse.go"

COMPONENT = obj(
    replicas=REPLICAS, ports=CONTAINER_PORTS, resources=RESOURCES, options=STR_MAP, env=ENV_VARS, enabled=BOOL,
    nodeSelector=STR_MAP, volumeMounts=VOLUME_MOUNTS, podMetadata=POD_METADATA, networkMode=NETWORK_MODE)
FUSE = obj(
    image=STR, imageTag=STR, imagePullPolicy=STR, env=ENV_VARS, resources=RESOURCES, options=STR_MAP,
    nodeSelector=STR_MAP, volumeMounts=VOLUME_MOUNTS, cleanPolicy=STR, podMetadata=POD_METADATA,
    networkMode=NETWORK_MODE)
SPEC = obj(
    juicefsVersion=IMAGE, initUsers=INIT_USERS, master=COMPONENT, worker=COMPONENT, jobWorker=COMPONENT,
    fuse=FUSE, tieredstore=TIEREDSTORE, configs=STR_LIST, replicas=int32(), runAs=RUN_AS, disablePrometheus=BOOL,
    volumes=VOLUMES, podMetadata=POD_METADATA, management=MANAGEMENT,
    volumeClaimTemplates=k8s_list("core.v1.PersistentVolumeClaim"))

KEYS = frozenset({"access-key", "secret-key"})
STORAGE = {"juicefs": Storage(
    frozenset({"metaurl", "token", "access-key", "secret-key", "access-key2", "secret-key2"}),
    other_names_read=True, pairs=(KEYS, frozenset({"access-key2", "secret-key2"})),
    needs_one_of=frozenset({"metaurl", "token"}),
    suggested={"bucket": "<OBJECT_STORE_BUCKET_URL>", "storage": "<STORAGE_TYPE>"},
    source=source("pkg/ddc/juicefs/transform_fuse.go", "genValue"))}
_MIGRATE = source("pkg/ddc/juicefs/data_migrate.go", "genDataUrl")
_SYNC = frozenset({"access-key", "secret-key", "token"})
MIGRATE_STORAGE = {
    **{scheme: Storage(_SYNC, pairs=(KEYS,), endpoint_in_uri=True, source=_MIGRATE)
       for scheme in ("oss", "cos", "obs")},
    "*": Storage(_SYNC, pairs=(KEYS,), source=_MIGRATE),
}


def _byte_quota(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    """cache-size is quota >> 20 (genMountOptions): below 1 MiB it is 0, and there is no cache."""

    for i, level in enumerate(levels_of(entry.obj)):
        quota = level.get("quota") if isinstance(level, dict) else None
        try:
            size = to_bytes(quota) if isinstance(quota, int | str) and not isinstance(quota, bool) else None
        except ValueError:
            continue
        if size is not None and 0 < size < 2**20:
            hint = f"; did you mean {quota}Mi?" if str(quota).isdigit() else ""
            yield Finding(("spec", "tieredstore", "levels", i, "quota"),
                          f"quota {quota} is {int(size)} bytes, so the JuiceFS cache-size becomes 0 MiB and nothing "
                          f"is cached{hint}")


RULES = (
    Rule(
        "FG117", "error", "a JuiceFS quota below 1 MiB makes a cache-size of 0 (quota is bytes, in MiB)", _byte_quota,
        kinds=frozenset({KIND}),
        description="Fluid turns a JuiceFS tier's quota into the `cache-size` mount option by shifting the "
                    "byte count right by 20 bits (MiB). A quota written as a bare number is bytes, so anything "
                    "below 1 MiB (such as `quota: 40960` meant as MiB) becomes cache-size 0 and nothing is "
                    "cached.",
        sources=(source("pkg/ddc/juicefs/transform_fuse.go", "genMountOptions"),),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: JuiceFSRuntime
metadata: {name: jfsdemo, namespace: default}
spec:
  tieredstore:
    levels:
      - {mediumtype: SSD, path: /cache, quota: 40960}
""", "40960 bytes is 0 MiB of cache; write 40Gi (or 40960Mi).")),
)


# SyncRuntime re-renders the runtime (transform) and copies into the worker StatefulSet its node
# selector, volumes, pod metadata, resources, env, volume mounts, image and mount command
# (worker script + restartedAt), and into the FUSE DaemonSet (OnDelete) the same but the node
# selector, which newer Fluid no longer syncs (#6092), and the mount command (FUSE script).
# imagePullPolicy is compared nowhere (fuse's nor juicefsVersion's: only image:imageTag is). The
# older worker StatefulSet rolls; newer Fluid switches it to OnDelete first (#5366). Volumes, the
# cache tier (cache-dir/cache-size) and runtime-wide pod metadata reach both: the FUSE pods,
# recreated on demand, decide.
_WORKER = ("worker.nodeSelector", "worker.volumeMounts", "worker.podMetadata", "worker.resources", "worker.env",
           "worker.options", "juicefsVersion.image", "juicefsVersion.imageTag")
_FUSE = ("fuse.volumeMounts", "fuse.podMetadata", "fuse.resources", "fuse.env", "fuse.options", "fuse.image",
         "fuse.imageTag", "volumes", "tieredstore", "podMetadata")
_SYNC_EDITS = (
    *edits(_WORKER, ROLLING, source("pkg/ddc/juicefs/sync_runtime.go", "syncWorkerSpec", before(V1_1_0_DEV)),
           "worker"),
    *edits(_WORKER, ON_RESTART, source("pkg/ddc/juicefs/sync_runtime.go", "checkAndSetWorkerChanges",
                                       since(V1_1_0_DEV), note="worker StatefulSet forced to OnDelete (#5366)"),
           "worker"),
    *edits(_FUSE, ON_RESTART, source("pkg/ddc/juicefs/sync_runtime.go", "checkAndSetFuseChanges"), "fuse"),
    *edits(("fuse.nodeSelector",), ON_RESTART, source("pkg/ddc/juicefs/sync_runtime.go", "checkAndSetFuseChanges",
                                                      before(V1_1_0_DEV)), "fuse"),
)
# Dataset mount edits: the first mount's options (sharedOptions too) and subpath (subdir=) are part
# of the FUSE and worker mount commands' -o options, the only part isCommandChanged compares; the
# format and quota commands (storage, bucket, bucket2, quota) and the encryptOptions (Secret refs in
# value.Configs: metaurl, token, keys, env) are rendered once (transform_fuse.go genValue).
_MOUNT_SYNC = MountSync(
    "command", source("pkg/ddc/juicefs/sync_runtime.go", "isCommandChanged"),
    fields={"mountPoint": ON_RESTART, "options": ON_RESTART},
    unsynced_options=frozenset({"storage", "bucket", "bucket2", "quota"}), workload="fuse")

# An accessModes edit: SyncRuntime renders the runtime again (transform), and genFuseMount reads the
# Dataset's modes now, adding or dropping ro and the read-only metadata cache options (attr-cache,
# entry-cache; attrcacheto, entrycacheto for the enterprise edition) in the FUSE mount command;
# updateFuseCmdConfigmapOnChanged writes it to the FUSE script, which FUSE pods run as they are
# recreated (the DaemonSet is OnDelete). The PersistentVolume and claim keep the modes they were
# created with (pkg/utils/dataset/volume/create.go CreatePersistentVolumeForRuntime creates them
# once), and the CSI plugin mounts pods by those (pkg/csi/plugins/nodeserver.go NodePublishVolume).
_DATASET_EDITS = (
    EditFact("accessModes", FUSE_ONLY, source(_FUSE_GO, "genFuseMount", note="ro and the read-only cache options "
                                               "follow the Dataset's access modes at every sync"), "fuse"),
)


def _check(ctx: Context) -> None:
    """JuiceFS reads a tier's path as cache-dir, split on ":" (transform_fuse.go genValue), and one
    quota as cache-size over all of them (genMountOptions); Fluid's runtime info splits the path
    on "," and needs one quotaList entry per piece (pkg/ddc/base/runtime.go
    convertToTieredstoreInfo), so a quotaList for several JuiceFS directories fails the runtime."""
    for i, tier in enumerate(ctx.spec.runtime.cache):
        if len(tier.path) > 1 and len(tier.quota) > 1:
            total = sum(int(to_bytes(q)) for q in tier.quota)
            gib, rest = divmod(total, 1 << 30)
            hint = f"{gib}Gi" if not rest else f"{total}"
            ctx.report(("runtime", "cache", i, "quota"),
                       f"JuiceFS takes one cache-size for all {len(tier.path)} cache directories (it splits it "
                       "over them); a quota per directory becomes a quotaList that Fluid cannot match to the "
                       f'":"-joined path, and the runtime never sets up. Give one quota: {hint}', stage="check")


# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
_JT = "pkg/ddc/juicefs/transform.go"
_JRES = "pkg/ddc/juicefs/transform_resources.go"
FIELDS = Fields(
    package="pkg/ddc/juicefs", types="api/v1alpha1/juicefsruntime_types.go", base_var="juicefsRuntime",
    runtime=(
        FieldRead("runAs", IGNORED, source(_JT, "transform"), go="Spec.RunAs"),
        FieldRead("master", IGNORED, source(_JT, "transform"), go="Spec.Master",
                  note="JuiceFS runs no master: no code reads any master field"),
        FieldRead("worker.networkMode", READ, source(_JT, "transformWorkers"), go="Spec.Worker.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("fuse.networkMode", READ, source(_FUSE_GO, "transformFuse"), go="Spec.Fuse.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("management.metadataSyncPolicy", OWN_DEFAULT, source("pkg/ddc/juicefs/metadata.go",
                                                                       "shouldSyncMetadata"),
                  go="Spec.RuntimeManagement.MetadataSyncPolicy", note="autoSync left out: on (AutoSyncEnabled)"),
        FieldRead("fuse.nodeSelector", READ, source(_FUSE_GO, "transformFuseNodeSelector"),
                  go="Spec.Fuse.NodeSelector"),
        fuse_clean_policy(),
        FieldRead("fuse.options", READ, source(_FUSE_GO, "transformFuse"), go="Spec.Fuse.Options"),
        FieldRead("fuse.env", READ, source(_FUSE_GO, "transformFuse"), go="Spec.Fuse.Env"),
        FieldRead("worker.resources", MERGED, source(_JRES, "transformResourcesForWorker"), go="Spec.Worker.Resources",
                  note="the enterprise edition's MEM tier (no worker.options cache-size) raises the memory request "
                       "to its quota, which must fit the memory limit"),
        FieldRead("fuse.resources", MERGED, source(_JRES, "transformResourcesForFuse"), go="Spec.Fuse.Resources",
                  note="a MEM tier (no fuse.options cache-size) raises the memory request to its quota, which must "
                       "fit the memory limit"),
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("worker.env", READ, source("pkg/ddc/juicefs/transform.go", "transformWorkers"), go="Spec.Worker.Env"),
        FieldRead("worker.nodeSelector", READ, source("pkg/ddc/juicefs/transform.go", "transformWorkers"),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.podMetadata", READ, source("pkg/ddc/juicefs/transform.go", "transformPodMetadata"),
                  go="Spec.Worker.PodMetadata"),
        FieldRead("worker.volumeMounts", READ,
                  source("pkg/ddc/juicefs/transform_volume.go", "transformWorkerCacheVolumes"),
                  go="Spec.Worker.VolumeMounts"),
        FieldRead("worker.options", READ, source("pkg/ddc/juicefs/transform.go", "allocatePorts"),
                  go="Spec.Worker.Options"),
        FieldRead("fuse.podMetadata", READ, source("pkg/ddc/juicefs/transform.go", "transformPodMetadata"),
                  go="Spec.Fuse.PodMetadata"),
        FieldRead("fuse.volumeMounts", READ, source("pkg/ddc/juicefs/transform_volume.go", "transformFuseCacheVolumes"),
                  go="Spec.Fuse.VolumeMounts"),
        FieldRead("fuse.image", READ, source("pkg/ddc/juicefs/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.Image"),
        FieldRead("fuse.imageTag", READ, source("pkg/ddc/juicefs/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.ImageTag"),
        FieldRead("fuse.imagePullPolicy", READ, source("pkg/ddc/juicefs/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.ImagePullPolicy"),
        FieldRead("jobWorker.env", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.Env"),
        FieldRead("jobWorker.nodeSelector", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.NodeSelector"),
        FieldRead("jobWorker.podMetadata", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.PodMetadata"),
        FieldRead("jobWorker.volumeMounts", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.VolumeMounts"),
        FieldRead("jobWorker.resources", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.Resources"),
        FieldRead("jobWorker.networkMode", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.NetworkMode"),
        FieldRead("jobWorker.options", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.JobWorker.Options"),
        FieldRead("podMetadata", READ, source("pkg/ddc/juicefs/transform.go", "transformPodMetadata"),
                  go="Spec.PodMetadata"),
        FieldRead("volumes", READ, source("pkg/ddc/juicefs/transform_volume.go", "transformFuseVolumes"),
                  go="Spec.Volumes"),
        FieldRead("disablePrometheus", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"),
                  go="Spec.DisablePrometheus"),
        FieldRead("initUsers", IGNORED, source("pkg/ddc/juicefs/transform.go", "transform"), go="Spec.InitUsers"),
        FieldRead("configs", READ, source("pkg/ddc/juicefs/transform_fuse.go", "transformFuse"), go="Spec.Configs"),
    ),
    dataset=(
        FieldRead("owner", IGNORED, source(_JT, "transform"), go="Spec.Owner"),
        FieldRead("tolerations", READ, source(_JT, "transformTolerations"), go="Spec.Tolerations"),
        dataset_node_affinity("pkg/ddc/juicefs", "juicefs"),
        dataset_placement("pkg/ddc/juicefs"),
        FieldRead("sharedOptions", READ, source(_FUSE_GO, "transformFuse"), go="Spec.SharedOptions",
                  note="under the mount's options"),
    ),
)


ENGINE = Engine(
    name="juicefs",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataMigrate", "DataProcess"}),
    mounts=Mounts(
        schemes=frozenset({"juicefs"}),
        storage=STORAGE,
        migrate_storage=MIGRATE_STORAGE,
        single_mount=True,
        sources={"schemes": source("pkg/ddc/juicefs/utils.go", "ParseSubPathFromMountPoint",
                                   note="a mountPoint without juicefs:// is refused"),
                 "single_mount": source(_FUSE_GO, "transformFuse", note="only dataset.Spec.Mounts[0] is read"),
                 "needs_mounts": source(_FUSE_GO, "transformFuse", note="no mount: \"do not assign mount point\""),
                 "references": not_the_reference_engine()},
    ),
    rules=RULES,
    hooks=Hooks(check=_check),
    lowering=Lowering(
        path_separator=":",
        default_profile="juicefs-default",
        # Workers are optional: with none the FUSE clients cache on their own nodes, and the runtime
        # is ready without them (pkg/ddc/juicefs/status.go: Replicas() == 0 counts as ready).
        default_replicas=None,
        sources={"path_separator": source(_FUSE_GO, "genValue"),
                 "default_replicas": source("pkg/ddc/juicefs/status.go", "CheckAndUpdateRuntimeStatus"),
                 "single_tier": (source(_FUSE_GO, "transformFuse", note="only tieredstore.levels[0] is read"),
                                 source("pkg/ddc/juicefs/transform.go", "transformWorkers",
                                        note="only tieredstore.levels[0] is read")),
                 "mem_default_path": source(_FUSE_GO, "genMountOptions",
                                            note="cache-dir = the level's path as given, empty without one: "
                                                 "Fluid supplies none (DefaultCacheDir only without a tieredstore)"),
                 "emptydir_needs_path": source("pkg/ddc/juicefs/transform_volume.go", "transformFuseCacheVolumes",
                                               note="each cache-dir path is the mountPath of the level's volume, "
                                                    "emptyDir too")},
    ),
    starter=Starter(
        source="juicefs:///",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"), ("ConfigMap", "{full}-fuse-script"),
                 ("ConfigMap", "{full}-worker-script"), ("ConfigMap", "{name}-juicefs-values"),
                 ("ServiceAccount", "{name}-loader"), ("Role", "{name}-loader"), ("RoleBinding", "{name}-loader")),
        sources={"chart_fullname": named_after_runtime("pkg/ddc/juicefs/transform.go"),
                 "objects": (source("charts/juicefs/templates/worker/statefulset.yaml", "StatefulSet"),
                             source("charts/juicefs/templates/fuse/daemonset.yaml", "DaemonSet"),
                             source("charts/juicefs/templates/role/rbac.yaml", "Role"))},
    ),
    edits=Edits(
        runtime=(*scales("juicefs"), *_SYNC_EDITS),
        mounts=(_MOUNT_SYNC,),
        dataset=_DATASET_EDITS,
    ),
    # No master: CheckMasterReady is always true, and no workers wanted (replicas 0) reads as Ready.
    health=Health(sources={"status_shape": runtime_status("api/v1alpha1/juicefsruntime_types.go", "JuiceFSRuntime",
                                                          "pkg/ddc/juicefs/worker.go"),
                           "partial_workers_ready": partial_ready("pkg/ddc/juicefs")}),
    workloads=Workloads(
        # "root": the FUSE mounts the one mount's subpath (subdir) at its mount point.
        sources={"data_layout": (source(_FUSE_GO, "genMountOptions",
                                        note="subdir = the mount's juicefs:///<subpath>, the FUSE's root"),
                                 source(_FUSE_GO, "genValue", note="Fuse.MountPath: the one mount point"))},
    ),
    fields=FIELDS,
)
