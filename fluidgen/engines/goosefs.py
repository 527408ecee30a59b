"""GooseFSRuntime: Tencent Cloud's Alluxio-derived cache, in the older Fluid releases only.

Sources in fluid-cloudnative/fluid, the releases that have it (versions.py):
api/v1alpha1/goosefsruntime_types.go (the
spec), pkg/ddc/goosefs/operate.go (DataLoad and DataBackup), charts/goosefs/templates (the
objects Fluid creates).
Removed from master by fluid-cloudnative/fluid#5703.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..base.fluidsource import decided_by, source, sources_of_function
from ..base.manifest import is_reference_dataset, mapping, mounts_of, names_given
from ..base.manifest_index import Entry, ManifestIndex
from ..base.rules import Example, Finding, Rule
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, obj
from ..base.versions import V1_0_8
from ..fluid.common import (
    CLEAN_CACHE_POLICY,
    IMAGE,
    INIT_USERS,
    JVM_OPTIONS,
    PORTS_MAP,
    REPLICAS,
    RESOURCES,
    RUN_AS,
    TIEREDSTORE,
)
from ..fluid.fields import (
    CONDITION,
    IGNORED,
    READ,
    FieldRead,
    Fields,
    dataset_node_affinity,
    dataset_placement,
    fuse_clean_policy,
    memory_limit_given,
)
from ..fluid.fluidbase import encrypt_options_set_twice, is_native
from .contract import (
    Created,
    Edits,
    Engine,
    Health,
    Lowering,
    Mounts,
    MountSync,
    Starter,
    Workloads,
    mounts_only,
    named_after_runtime,
    not_the_reference_engine,
    partial_ready,
    paths_split_at_comma,
    runtime_status,
    scales,
    workers_as_written,
)

KIND = "GooseFSRuntime"

COMPONENT = obj(
    replicas=REPLICAS, jvmOptions=JVM_OPTIONS, properties=STR_MAP, ports=PORTS_MAP, resources=RESOURCES, env=STR_MAP,
    enabled=BOOL, nodeSelector=STR_MAP, annotations=STR_MAP)
SPEC = obj(
    goosefsVersion=IMAGE, master=COMPONENT, jobMaster=COMPONENT, worker=COMPONENT, jobWorker=COMPONENT,
    apiGateway=COMPONENT,
    fuse=obj(image=STR, imageTag=STR, imagePullPolicy=STR, jvmOptions=JVM_OPTIONS, properties=STR_MAP, env=STR_MAP,
             resources=RESOURCES, args=STR_LIST, nodeSelector=STR_MAP, cleanPolicy=STR, annotations=STR_MAP),
    properties=STR_MAP, jvmOptions=JVM_OPTIONS, tieredstore=TIEREDSTORE, data=obj(replicas=int32(), pin=BOOL),
    replicas=int32(), runAs=RUN_AS, hadoopConfig=STR, cleanCachePolicy=CLEAN_CACHE_POLICY, disablePrometheus=BOOL,
    initUsers=INIT_USERS)

_OLD = (V1_0_8,)  # the versions that have GooseFS
_TRANSFORM = "pkg/ddc/goosefs/transform.go"

# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
_RES = "pkg/ddc/goosefs/transform_resources.go"
_FUSE = "pkg/ddc/goosefs/transform_fuse.go"
_OPT = "pkg/ddc/goosefs/transform_optimization.go"
FIELDS = Fields(
    package="pkg/ddc/goosefs", types="api/v1alpha1/goosefsruntime_types.go", base_var="goosefsRuntime",
    runtime=(
        FieldRead("runAs", READ, source("pkg/ddc/goosefs/transform_init_users.go", "transformInitUsers", _OLD),
                  go="Spec.RunAs", note="the uid and gid of the cache processes, and the users the init "
                                        "container creates"),
        FieldRead("master.replicas", READ, source(_TRANSFORM, "transformMasters", _OLD), go="Spec.Master.Replicas",
                  note="0 or left out: 1"),
        FieldRead("fuse.nodeSelector", READ, source(_FUSE, "transformFuse", _OLD), go="Spec.Fuse.NodeSelector"),
        fuse_clean_policy(_OLD),
        FieldRead("properties", READ, source(_TRANSFORM, "transformCommonPart", _OLD), go="Spec.Properties",
                  note="Fluid's own defaults fill the rest (optimizeDefaultProperties)"),
        FieldRead("fuse.properties", READ, source(_FUSE, "transformFuse", _OLD), go="Spec.Fuse.Properties"),
        FieldRead("master.jvmOptions", READ, source(_OPT, "optimizeDefaultForMaster", _OLD),
                  go="Spec.Master.JvmOptions", note="replace Fluid's default master JVM options"),
        FieldRead("worker.jvmOptions", READ, source(_OPT, "optimizeDefaultForWorker", _OLD),
                  go="Spec.Worker.JvmOptions", note="replace Fluid's default worker JVM options"),
        FieldRead("fuse.jvmOptions", READ, source(_OPT, "optimizeDefaultFuse", _OLD), go="Spec.Fuse.JvmOptions",
                  note="replace Fluid's default FUSE JVM options"),
        FieldRead("fuse.args", READ, source(_OPT, "optimizeDefaultFuse", _OLD), go="Spec.Fuse.Args",
                  note="replace Fluid's default FUSE args"),
        FieldRead("fuse.env", READ, source(_FUSE, "transformFuse", _OLD), go="Spec.Fuse.Env"),
        FieldRead("master.resources", READ, source(_RES, "transformResourcesForMaster", _OLD),
                  go="Spec.Master.Resources"),
        FieldRead("worker.resources", CONDITION, source(_RES, "transformResourcesForWorker", _OLD),
                  go="Spec.Worker.Resources",
                  note="applied only when limits.memory is set: without it the worker container gets no limits and "
                       "no requests at all; with it Fluid adds the quota of every MEM cache tier to that memory "
                       "limit (a zero limit becomes 20Gi plus the tiers)",
                  instead="give limits.memory too", when=memory_limit_given("worker"), adds_mem_tier=True),
        FieldRead("fuse.resources", CONDITION, source(_RES, "transformResourcesForFuse", _OLD),
                  go="Spec.Fuse.Resources",
                  note="applied only when limits.memory is set: without it the FUSE container gets no limits and "
                       "no requests at all; with it Fluid adds the quota of every MEM cache tier to that memory "
                       "limit (a zero limit becomes 50Gi plus the tiers)",
                  instead="give limits.memory too", when=memory_limit_given("fuse"), adds_mem_tier=True),
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("master.env", READ, source("pkg/ddc/goosefs/transform.go", "transformMasters", _OLD),
                  go="Spec.Master.Env"),
        FieldRead("master.nodeSelector", READ, source("pkg/ddc/goosefs/transform.go", "transformMasterSelector", _OLD),
                  go="Spec.Master.NodeSelector"),
        FieldRead("master.properties", READ, source("pkg/ddc/goosefs/transform.go", "transformMasters", _OLD),
                  go="Spec.Master.Properties"),
        FieldRead("worker.env", READ, source("pkg/ddc/goosefs/transform.go", "transformWorkers", _OLD),
                  go="Spec.Worker.Env"),
        FieldRead("worker.nodeSelector", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.properties", READ, source("pkg/ddc/goosefs/transform.go", "transformWorkers", _OLD),
                  go="Spec.Worker.Properties"),
        FieldRead("fuse.image", READ, source("pkg/ddc/goosefs/transform_fuse.go", "transformFuse", _OLD),
                  go="Spec.Fuse.Image"),
        FieldRead("fuse.imageTag", READ, source("pkg/ddc/goosefs/transform_fuse.go", "transformFuse", _OLD),
                  go="Spec.Fuse.ImageTag"),
        FieldRead("fuse.imagePullPolicy", READ, source("pkg/ddc/goosefs/transform_fuse.go", "transformFuse", _OLD),
                  go="Spec.Fuse.ImagePullPolicy"),
        FieldRead("jobMaster.env", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobMaster.Env"),
        FieldRead("jobMaster.nodeSelector", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobMaster.NodeSelector"),
        FieldRead("jobMaster.resources", READ,
                  source("pkg/ddc/goosefs/transform_resources.go", "transformResourcesForMaster", _OLD),
                  go="Spec.JobMaster.Resources"),
        FieldRead("jobMaster.jvmOptions", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobMaster.JvmOptions"),
        FieldRead("jobMaster.properties", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobMaster.Properties"),
        FieldRead("jobWorker.env", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobWorker.Env"),
        FieldRead("jobWorker.nodeSelector", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobWorker.NodeSelector"),
        FieldRead("jobWorker.resources", CONDITION,
                  source("pkg/ddc/goosefs/transform_resources.go", "transformResourcesForWorker", _OLD),
                  go="Spec.JobWorker.Resources",
                  note="applied only when worker.resources sets limits.memory: Fluid sets the job worker's "
                       "resources after the worker's, and leaves both out without that limit",
                  instead="give worker.resources.limits.memory too", when=memory_limit_given("worker")),
        FieldRead("jobWorker.jvmOptions", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobWorker.JvmOptions"),
        FieldRead("jobWorker.properties", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.JobWorker.Properties"),
        FieldRead("apiGateway.env", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.APIGateway.Env"),
        FieldRead("apiGateway.nodeSelector", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.APIGateway.NodeSelector"),
        FieldRead("apiGateway.resources", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.APIGateway.Resources"),
        FieldRead("apiGateway.jvmOptions", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.APIGateway.JvmOptions"),
        FieldRead("apiGateway.properties", IGNORED, source("pkg/ddc/goosefs/transform.go", "transform", _OLD),
                  go="Spec.APIGateway.Properties"),
        FieldRead("disablePrometheus", READ, source("pkg/ddc/goosefs/transform.go", "transformCommonPart", _OLD),
                  go="Spec.DisablePrometheus"),
        FieldRead("initUsers", READ, source("pkg/ddc/goosefs/transform_init_users.go", "transformInitUsers", _OLD),
                  go="Spec.InitUsers"),
        FieldRead("jvmOptions", READ, source("pkg/ddc/goosefs/transform.go", "transformCommonPart", _OLD),
                  go="Spec.JvmOptions"),
        FieldRead("hadoopConfig", READ,
                  source("pkg/ddc/goosefs/transform_hadoop_config.go", "transformHadoopConfig", _OLD),
                  go="Spec.HadoopConfig"),
    ),
    dataset=(
        FieldRead("owner", READ, source(_FUSE, "transformFuse", _OLD), go="Spec.Owner",
                  note="its uid and gid are added to the FUSE mount options"),
        FieldRead("tolerations", READ, source(_RES, "transformTolerations", _OLD), go="Spec.Tolerations",
                  note="every component's pods tolerate them"),
        dataset_node_affinity("pkg/ddc/goosefs", "goosefs", _OLD),
        dataset_placement("pkg/ddc/goosefs", _OLD),
        FieldRead("sharedOptions", READ, source(_TRANSFORM, "transformCommonPart", _OLD), go="Spec.SharedOptions",
                  note="under each mount's options"),
    ),
)


# -- How GooseFS merges a Dataset's options for `goosefs fs mount` (the versions that have it) --
_UFS = "pkg/ddc/goosefs/ufs_internal.go"


@decided_by(source(_UFS, "genUFSMountOptions", versions=_OLD,
                   note="mOptions = SharedOptions when it is not empty: the Dataset's own map, not a copy"),
            source(_UFS, "mountUFS", versions=_OLD,
                   note="one Dataset for every mount; every mount but local:// and pvc:// in order; the first "
                        "error returns"),
            source(_UFS, "genEncryptOptions", versions=_OLD))
def refused_encrypt_options(shared_options: Sequence[str], shared_encrypt: Sequence[str],
                            mounts: Sequence[tuple[object, Sequence[str], Sequence[str]]]) -> list[tuple[int, int]]:
    """(mount index, encryptOption index in sharedEncryptOptions + the mount's) of every
    encryptOption GooseFS refuses as "set more than one times", for mounts given as (mountPoint,
    option names, encryptOption names). GooseFS reads the Secrets' values always; and when
    sharedOptions is not empty it writes each mount's options and encryptOptions into the
    Dataset's sharedOptions map itself, so a later mount finds the earlier mounts' names (the
    shared encryptOptions among them) already set."""
    carried: set[str] | None = set(shared_options) if shared_options else None
    refused = []
    for i, (point, options, encrypt) in enumerate(mounts):
        if is_native(point):
            continue
        taken = (carried if carried is not None else set()) | set(options)
        names = [*shared_encrypt, *encrypt]
        refused += [(i, k) for k in encrypt_options_set_twice(taken, names)]
        if carried is not None:
            carried = taken | set(names)  # taken holds what was carried
    return refused


def _encrypt_option_refused(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    runtime = index.bound_runtime(entry)
    if runtime is None or runtime.kind != KIND or is_reference_dataset(entry.obj):
        return  # a dataset:// Dataset is FG120's: GooseFS never serves it
    spec = entry.spec
    shared = [(("spec", "sharedEncryptOptions", j, "name"), name)
              for j, name in names_given(spec.get("sharedEncryptOptions"))]
    mounts = mounts_of(entry.obj)
    given = [[*shared, *((("spec", "mounts", i, "encryptOptions", j, "name"), name)
                         for j, name in names_given(m.get("encryptOptions")))] for i, m in enumerate(mounts)]
    shared_options = [str(k) for k in mapping(spec.get("sharedOptions"))]
    said = set()
    for i, k in refused_encrypt_options(shared_options, [n for _, n in shared],
                                        [(m.get("mountPoint"), [str(o) for o in mapping(m.get("options"))],
                                          [n for _, n in given[i][len(shared):]]) for i, m in enumerate(mounts)]):
        at, name = given[i][k]
        if at in said:
            continue
        said.add(at)
        own = name in mapping(mounts[i].get("options")) or name in shared_options or \
            any(n == name for _, n in given[i][:k])
        why = "" if own else (" Fluid's GooseFS controller writes each mount's options and encryptOptions into the "
                              "Dataset's sharedOptions when sharedOptions is not empty, and an earlier mount set "
                              f"{name} there.")
        advice = "Give the name once" if own else "Move sharedOptions into each mount's options"
        yield Finding(at, f"Fluid refuses GooseFS mount {i}: {name} is already set when this encryptOption is read "
                          f"('the option {name} is set more than one times').{why} The mount fails, and none after "
                          f"it is mounted. {advice}")


_GOOSEFS_DATASET = """\
---
apiVersion: data.fluid.io/v1alpha1
kind: GooseFSRuntime
metadata: {name: imagenet, namespace: default}
spec:
  replicas: 1
"""

RULES = (
    Rule("FG139", "error", "a name GooseFS reads twice for a mount: the mount fails, and every mount after it",
         _encrypt_option_refused,
         kinds=frozenset({"Dataset"}),
         description="Fluid's GooseFS controller reads each encryptOption's Secret value and refuses a name "
                     "that sharedOptions, the mount's options or an earlier encryptOption already set. When "
                     "sharedOptions is not empty, it also writes each mount's options and encryptOptions into the "
                     "Dataset's sharedOptions as it goes, so the second mount finds the shared encryptOptions (and "
                     "the first mount's names) set already: the mount fails, and mountUFS stops there. The first "
                     "mount's plain options reach the later mounts the same way; leaving sharedOptions empty avoids "
                     "both.",
         sources=sources_of_function(refused_encrypt_options),
         example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  sharedOptions: {fs.cosn.bucket.region: ap-shanghai}
  sharedEncryptOptions:
    - name: fs.cosn.userinfo.secretKey
      valueFrom: {secretKeyRef: {name: cos, key: secretKey}}
  mounts:
    - {mountPoint: "cosn://bucket-a/train/", name: train}
    - {mountPoint: "cosn://bucket-b/val/", name: val}
""" + _GOOSEFS_DATASET, "The second mount finds the shared secretKey set by the first: GooseFS never mounts it.")),
)


ENGINE = Engine(
    name="goosefs",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataBackup"}),
    rules=RULES,
    mounts=Mounts(
        schemes=frozenset({"cos", "cosn", "oss", "s3", "hdfs", "http", "https", "pvc", "local"}),
        documented_schemes=True,
        alluxio_root=True,
        sources={"documented_schemes": source("pkg/ddc/goosefs/ufs_internal.go", "mountUFS", versions=_OLD,
                                              note="`goosefs fs mount` gets every mountPoint but local:// and "
                                                   "pvc:// as written"),
                 "alluxio_root": (source(_TRANSFORM, "transformCommonPart", versions=_OLD,
                                         note="goosefs.master.mount.table.root.ufs is GenAlluxioUFSRootPath's"),
                                  source("pkg/ddc/goosefs/ufs_internal.go", "mountUFS", versions=_OLD,
                                         note="a mount whose path IsMounted already is skipped"),
                                  source("pkg/ddc/goosefs/transform_ufs.go", "transformDatasetToVolume", versions=_OLD,
                                         note="local:// and pvc:// at GenLocalStoragePath")),
                 "schemes": (source("pkg/ddc/goosefs/ufs_internal.go", "mountUFS", versions=_OLD,
                                    note="every mountPoint but local:// and pvc:// goes to `goosefs fs mount` as "
                                         "written; the remote schemes listed are GooseFS's documented UFS"),
                             source("pkg/ddc/goosefs/transform_ufs.go", "transformDatasetToVolume", versions=_OLD,
                                    note="local:// becomes a hostPath volume, pvc:// a PVC volume")),
                 "single_mount": source("pkg/ddc/goosefs/ufs_internal.go", "mountUFS", versions=_OLD,
                                        note="every mount of the Dataset is mounted"),
                 # without a mount the root is the master's local /underFSStorage (pkg/ddc/goosefs/transform.go)
                 "needs_mounts": mounts_only("pkg/utils/ufs_path_builder.go", "GenAlluxioUFSRootPath", _OLD),
                 "references": not_the_reference_engine(_OLD)},
    ),
    lowering=Lowering(
        single_tier=False,
        # As Fluid does without the field (pkg/ddc/goosefs/transform.go: data.replicas <= 0 is 1).
        defaults={"data": {"replicas": 1}},
        default_profile="goosefs-default",
        removed_note="Fluid removed it (fluid-cloudnative/fluid#5703)",
        # ro for a Dataset with ReadOnlyMany (or no mode), rw otherwise, unless fuse.args replace them (FG131)
        fuse_mode_source=source(_OPT, "optimizeDefaultFuse", _OLD),
        sources={"single_tier": (source(_TRANSFORM, "transformCommonPart", _OLD,
                                        note="every level of the tieredstore becomes a GooseFS tier"),
                                 source(_TRANSFORM, "transformWorkers", _OLD, note="level 0's path is also in the "
                                        "worker's GOOSEFS_WORKER_TIEREDSTORE_LEVEL0_DIRS_PATH")),
                 "defaults": source(_TRANSFORM, "transformCommonPart", versions=_OLD),
                 "path_separator": paths_split_at_comma(_OLD, note="split at ',' into cache paths, joined again "
                                                                   "with ',' in transformCommonPart"),
                 "mem_default_path": (source("charts/goosefs/values.yaml", "tieredstore", _OLD,
                                             note="the chart's own MEM level is /dev/shm (emptyDir)"),
                                      source(_TRANSFORM, "transformCommonPart", _OLD,
                                             note="a level's path is taken as given (+/<namespace>/<name>); "
                                                  "Fluid supplies none for a MEM level")),
                 "emptydir_needs_path": (source(_TRANSFORM, "transformCommonPart", _OLD,
                                                note="every level, emptyDir too, is a directory under its path"),
                                         source("charts/goosefs/templates/_helpers.tpl",
                                                "goosefs.worker.tieredstoreVolumeMounts", _OLD,
                                                note="each level's volume is mounted at its path")),
                 "default_replicas": workers_as_written("pkg/ddc/goosefs/worker.go", _OLD)},
    ),
    starter=Starter(
        source="cosn://<BUCKET>/<PATH>/",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"),
                 ("Service", "{full}-master-0"), ("ConfigMap", "{full}-config"),
                 ("ConfigMap", "{name}-goosefs-values")),
        sources={"chart_fullname": named_after_runtime(_TRANSFORM, _OLD),
                 "objects": (source("charts/goosefs/templates/master/statefulset.yaml", "StatefulSet", versions=_OLD),
                             source("charts/goosefs/templates/worker/statefulset.yaml", "StatefulSet", versions=_OLD),
                             source("charts/goosefs/templates/fuse/daemonset.yaml", "DaemonSet", versions=_OLD),
                             source("charts/goosefs/templates/master/service.yaml", "Service", versions=_OLD),
                             source("charts/goosefs/templates/config/goosefs-conf.yaml", "ConfigMap", versions=_OLD))},
    ),
    edits=Edits(
        # SyncRuntime is empty; mounts whose namespace path appears or disappears are mounted or
        # unmounted (pkg/ddc/goosefs/ufs.go UpdateOnUFSChange, ufs_internal.go processUpdatingUFS).
        runtime=scales("goosefs", (V1_0_8,)),
        mounts=(MountSync("paths", source("pkg/ddc/goosefs/ufs_internal.go", "processUpdatingUFS", (V1_0_8,))),),
    ),
    health=Health(sources={"status_shape": runtime_status("api/v1alpha1/goosefsruntime_types.go", "GooseFSRuntime",
                                                          "pkg/ddc/goosefs/worker.go", _OLD),
                           "partial_workers_ready": partial_ready("pkg/ddc/goosefs", _OLD)}),
    workloads=Workloads(
        data_layout="per-mount",  # GenUFSPathInUnifiedNamespace in its FUSE/UFS setup
        sources={"data_layout": source("pkg/ddc/goosefs/ufs_internal.go", "GenUFSPathInUnifiedNamespace",
                                       versions=_OLD)},
    ),
    fields=FIELDS,
)
