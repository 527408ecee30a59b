"""EFCRuntime: Alibaba Cloud NAS / CPFS client cache; one mount, first tier, first path.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/efcruntime_types.go: the spec.
- pkg/ddc/efc/utils.go (getMountInfo): only the first mount is read; it must match
  nfs://<id>.<region>.nas.aliyuncs.com:<path> or cpfs://<id>.<region>.cpfs.aliyuncs.com:/share.
  EFC reads no encryptOptions (the efc.nas.* constants in const.go are unused).
- pkg/ddc/efc/operate.go: DataProcess only.
"""

from __future__ import annotations

from typing import Any

from ..base.fluidsource import decided_by, source
from ..base.quantity import to_bytes
from ..base.structural.dsl import BOOL, STR, STR_MAP, int32, obj
from ..fluid.common import (
    CLEAN_CACHE_POLICY,
    IMAGE,
    NETWORK_MODE,
    POD_METADATA,
    PORTS_MAP,
    REPLICAS,
    RESOURCES,
    TIEREDSTORE,
)
from ..fluid.fields import (
    IGNORED,
    MERGED,
    READ,
    FieldRead,
    Fields,
    dataset_node_affinity,
    dataset_placement,
    fuse_clean_policy,
)
from ..fluid.fluidbase import TierError, tier_paths
from .contract import (
    Context,
    Created,
    Edits,
    Engine,
    Health,
    Hooks,
    Lowering,
    Mounts,
    Starter,
    Storage,
    Workloads,
    named_after_runtime,
    not_the_reference_engine,
    partial_ready,
    paths_split_at_comma,
    runtime_status,
    scales,
    workers_as_written,
)

KIND = "EFCRuntime"

COMPONENT = obj(
    replicas=REPLICAS, properties=STR_MAP, ports=PORTS_MAP, resources=RESOURCES, nodeSelector=STR_MAP,
    networkMode=NETWORK_MODE, podMetadata=POD_METADATA, disabled=BOOL, version=IMAGE)
FUSE = obj(
    properties=STR_MAP, resources=RESOURCES, nodeSelector=STR_MAP, networkMode=NETWORK_MODE, podMetadata=POD_METADATA,
    cleanPolicy=STR, version=IMAGE)
SPEC = obj(
    master=COMPONENT, worker=COMPONENT, fuse=FUSE, initFuse=obj(version=IMAGE), tieredstore=TIEREDSTORE,
    replicas=int32(), osAdvise=obj(osVersion=STR, enabled=BOOL), podMetadata=POD_METADATA,
    cleanCachePolicy=CLEAN_CACHE_POLICY)

_SOURCE = source("pkg/ddc/efc/utils.go", "getMountInfo")
_TIERS = "pkg/ddc/efc/transform_tieredstore.go"
_WORKER_TIERS = source(_TIERS, "transformWorkerTieredStore",
                       note="only the level of the fastest medium (tieredstore.GetTieredLevel 0) is kept, and "
                            "of its paths only the first; that path + /<namespace>/<name> is the cache dir")
STORAGE = {
    "nfs": Storage(uri_pattern=r"^nfs://[a-z0-9-]+\.[a-z0-9-]+\.nas\.aliyuncs\.com:", source=_SOURCE,
                   uri_example="nfs://<FILE_SYSTEM_ID>.<REGION>.nas.aliyuncs.com:/<PATH>/"),
    "cpfs": Storage(uri_pattern=r"^cpfs://[a-z0-9-]+\.[a-z0-9-]+\.cpfs\.aliyuncs\.com:/share", source=_SOURCE,
                    uri_example="cpfs://<FILE_SYSTEM_ID>.<REGION>.cpfs.aliyuncs.com:/share/<PATH>/"),
}

MIN_WORKER_QUOTA = "1Gi"  # pkg/ddc/efc/transform_option.go miniWorkerQuota


@decided_by(source("pkg/ddc/efc/transform_option.go", "transformWorkerOptions"),
            source("pkg/ddc/efc/transform_tieredstore.go", "transformWorkerTieredStore"))
def worker_cache_gb(quota_bytes: int) -> int | None:
    """cache_capacity_gb of the worker's cache (the first path of level 0), None where Fluid
    refuses the runtime: below 1Gi."""
    minimum = int(to_bytes(MIN_WORKER_QUOTA))
    return None if quota_bytes < minimum else quota_bytes // minimum


def _finish(ctx: Context, tree: dict[str, Any]) -> dict[str, Any]:
    levels = tree.get("tieredstore", {}).get("levels") if isinstance(tree.get("tieredstore"), dict) else None
    level = levels[0] if isinstance(levels, list) and levels and isinstance(levels[0], dict) else None
    if level is None:
        return tree
    try:
        paths = tier_paths(str(level.get("path", "")), level.get("quota"), str(level.get("quotaList", "") or ""))
    except (TierError, ValueError):
        return tree  # FG112 reports the level's form
    if paths and worker_cache_gb(int(paths[0][1])) is None:
        ctx.report(("runtime", "cache", 0, "quota"),
                   f"EFC's worker cache (the first path of the first tier) gets {paths[0][1]} bytes; Fluid refuses "
                   f"a worker cache below {MIN_WORKER_QUOTA} (pkg/ddc/efc/transform_option.go "
                   f"transformWorkerOptions); give at least {MIN_WORKER_QUOTA} per path")
    return tree


# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
_ET = "pkg/ddc/efc/transform.go"
_ERES = "pkg/ddc/efc/transform_resources.go"
FIELDS = Fields(
    package="pkg/ddc/efc", types="api/v1alpha1/efcruntime_types.go", base_var="efcRuntime",
    runtime=(
        FieldRead("master.replicas", READ, source("api/v1alpha1/efcruntime_types.go", "MasterReplicas"),
                  go="Spec.Master.Replicas", note="0 or left out: 1; none with master.disabled"),
        FieldRead("master.networkMode", READ, source(_ET, "transformMasters"), go="Spec.Master.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("worker.networkMode", READ, source(_ET, "transformWorkers"), go="Spec.Worker.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("fuse.networkMode", READ, source(_ET, "transformFuse"), go="Spec.Fuse.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("fuse.nodeSelector", READ, source(_ET, "transformFuse"), go="Spec.Fuse.NodeSelector"),
        fuse_clean_policy(),
        FieldRead("fuse.properties", READ, source("pkg/ddc/efc/transform_option.go", "transformFuseOptions"),
                  go="Spec.Fuse.Properties", note="become the FUSE's mount options"),
        FieldRead("master.resources", READ, source(_ERES, "transformResourcesForMaster"), go="Spec.Master.Resources"),
        FieldRead("worker.resources", MERGED, source(_ERES, "transformResourcesForWorker"), go="Spec.Worker.Resources",
                  note="a MEM tier raises the memory request to its quota, which must fit the memory limit"),
        FieldRead("fuse.resources", MERGED, source(_ERES, "transformResourcesForFuse"), go="Spec.Fuse.Resources",
                  note="a MEM tier raises the memory request to its quota, which must fit the memory limit"),
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("master.nodeSelector", READ, source("pkg/ddc/efc/transform.go", "transformMasters"),
                  go="Spec.Master.NodeSelector"),
        FieldRead("master.podMetadata", READ, source("pkg/ddc/efc/transform.go", "transformPodMetadata"),
                  go="Spec.Master.PodMetadata"),
        FieldRead("master.properties", READ, source("pkg/ddc/efc/transform_option.go", "transformMasterOptions"),
                  go="Spec.Master.Properties"),
        FieldRead("worker.nodeSelector", READ, source("pkg/ddc/efc/transform.go", "transformWorkers"),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.podMetadata", READ, source("pkg/ddc/efc/transform.go", "transformPodMetadata"),
                  go="Spec.Worker.PodMetadata"),
        FieldRead("worker.properties", READ, source("pkg/ddc/efc/transform_option.go", "transformWorkerOptions"),
                  go="Spec.Worker.Properties"),
        FieldRead("fuse.podMetadata", READ, source("pkg/ddc/efc/transform.go", "transformPodMetadata"),
                  go="Spec.Fuse.PodMetadata"),
        FieldRead("podMetadata", READ, source("pkg/ddc/efc/transform.go", "transformPodMetadata"),
                  go="Spec.PodMetadata"),
    ),
    dataset=(
        FieldRead("owner", IGNORED, source(_ET, "transform"), go="Spec.Owner"),
        FieldRead("tolerations", READ, source(_ET, "transformTolerations"), go="Spec.Tolerations"),
        dataset_node_affinity("pkg/ddc/efc", "efc"),
        dataset_placement("pkg/ddc/efc"),
        FieldRead("sharedOptions", IGNORED, source(_ET, "transform"), go="Spec.SharedOptions",
                  instead="each mount's options"),
    ),
)


ENGINE = Engine(
    name="efc",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataProcess"}),
    mounts=Mounts(
        schemes=frozenset({"nfs", "cpfs"}),
        storage=STORAGE,
        single_mount=True,
        # Only dataset.Spec.Mounts[0] is read, and it must be nfs:// (NAS) or cpfs://.
        # No mount: "empty mount point for EFCRuntime".
        sources={"schemes": _SOURCE, "single_mount": _SOURCE, "needs_mounts": _SOURCE,
                 "references": not_the_reference_engine()},
    ),
    # SyncRuntime is empty and Dataset mounts are never remounted (pkg/ddc/efc/ufs.go ShouldUpdateUFS).
    edits=Edits(runtime=scales("efc")),
    hooks=Hooks(finish_runtime=_finish),
    lowering=Lowering(
        default_profile="efc-default",
        fastest_tier=True,
        sources={"single_tier": _WORKER_TIERS,
                 "fastest_tier": (_WORKER_TIERS, source("pkg/utils/tieredstore/tiered_store.go", "GetTieredLevel",
                                                        note="level 0 is the fastest medium: MEM, SSD, HDD")),
                 "path_separator": paths_split_at_comma(note="split at ',' into cache paths; the worker keeps the "
                                                             "first (transformWorkerTieredStore)"),
                 "mem_default_path": (source(_TIERS, "transformFuseTieredStore",
                                             note="Fluid's own MEM levels (master, FUSE) are /dev/shm emptyDirs"),
                                      _WORKER_TIERS),
                 "emptydir_needs_path": _WORKER_TIERS,
                 "default_replicas": workers_as_written("pkg/ddc/efc/worker.go")},
    ),
    starter=Starter(
        source="nfs://<FILE_SYSTEM_ID>.<REGION>.nas.aliyuncs.com:/<PATH>/",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"),
                 ("ConfigMap", "{full}-worker-endpoints"), ("ConfigMap", "{name}-efc-values")),
        sources={"chart_fullname": named_after_runtime("pkg/ddc/efc/transform.go"),
                 "objects": (source("charts/efc/templates/master/statefulset.yaml", "StatefulSet"),
                             source("charts/efc/templates/worker/statefulset.yaml", "StatefulSet"),
                             source("charts/efc/templates/fuse/daemonset.yaml", "DaemonSet"),
                             source("charts/efc/templates/worker/configmap.yaml", "ConfigMap"))},
    ),
    health=Health(sources={"status_shape": runtime_status("api/v1alpha1/efcruntime_types.go", "EFCRuntime",
                                                          "pkg/ddc/efc/worker.go"),
                           "partial_workers_ready": partial_ready("pkg/ddc/efc")}),
    workloads=Workloads(
        # "root": the FUSE mounts the one NAS or CPFS path at its mount point.
        sources={"data_layout": source("pkg/ddc/efc/transform.go", "transformFuse",
                                       note="Fuse.MountPoint = the first mount's path (getMountInfo)")},
    ),
    fields=FIELDS,
)
