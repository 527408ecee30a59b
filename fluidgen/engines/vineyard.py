"""VineyardRuntime: in-memory object sharing between pipeline steps; needs no mounts.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/vineyardruntime_types.go: the spec (replicas overrides worker.replicas).
- pkg/ddc/vineyard/operate.go: DataProcess only.
- pkg/ddc/vineyard/transform.go (transformTieredStore): every tier is kept; none fails the runtime.
- charts/vineyard/templates: the StatefulSets, Services, DaemonSet and ConfigMap Fluid creates.
"""

from __future__ import annotations

from typing import Any

from ..base.fluidsource import source
from ..base.manifest import mapping
from ..base.structural.dsl import BOOL, STR, STR_MAP, extend, int32, obj
from ..fluid.common import (
    ENCRYPT_OPTIONS,
    NETWORK_MODE,
    POD_METADATA,
    PORTS_MAP,
    REPLICAS,
    RESOURCES,
    TIEREDSTORE,
    VOLUME_MOUNTS,
    VOLUMES,
)
from ..fluid.fields import (
    IGNORED,
    MERGED,
    OTHER_NAME,
    READ,
    FieldRead,
    Fields,
    Spec,
)
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
    Workloads,
    named_after_runtime,
    not_the_reference_engine,
    partial_ready,
    runtime_status,
    scales,
    workers_as_written,
)

KIND = "VineyardRuntime"

COMPONENT = obj(
    replicas=REPLICAS, image=STR, imageTag=STR, imagePullPolicy=STR, env=STR_MAP, options=STR_MAP, ports=PORTS_MAP,
    resources=RESOURCES, nodeSelector=STR_MAP, networkMode=NETWORK_MODE, podMetadata=POD_METADATA,
    volumeMounts=VOLUME_MOUNTS)
SPEC = obj(
    master=extend(COMPONENT, endpoint=obj(uri=STR, options=STR_MAP, encryptOptions=ENCRYPT_OPTIONS)),
    worker=COMPONENT,
    fuse=obj(image=STR, imageTag=STR, imagePullPolicy=STR, env=STR_MAP, options=STR_MAP, resources=RESOURCES,
             cleanPolicy=STR, networkMode=NETWORK_MODE, podMetadata=POD_METADATA),
    tieredstore=TIEREDSTORE, replicas=int32(), volumes=VOLUMES, podMetadata=POD_METADATA, disablePrometheus=BOOL)

# transformTieredStore: no level fails the runtime ("the tieredstore is empty"); a MEM level is the
# shared memory (level 0), any other level is kept as level 1, the spill path
# (charts/vineyard/templates/_helpers.tpl vineyard.spill.path).
TIERS_SOURCE = source("pkg/ddc/vineyard/transform.go", "transformTieredStore")
_NO_UFS = source("pkg/ddc/vineyard/ufs.go", "PrepareUFS")  # no storage is mounted
_HELPERS = "charts/vineyard/templates/_helpers.tpl"


def _finish(ctx: Context, tree: dict[str, Any]) -> dict[str, Any]:
    store = tree.get("tieredstore")
    if not (isinstance(store, dict) and store.get("levels")):
        ctx.report(("runtime", "cache"), "a VineyardRuntime needs a cache tier: Fluid fails one without "
                                         f'("the tieredstore is empty", {TIERS_SOURCE.cite()}); add '
                                         "cache: [{medium: MEM, quota: 4Gi}]")
    return tree


# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
_VT = "pkg/ddc/vineyard/transform.go"
_VRES = "pkg/ddc/vineyard/transform_resources.go"
_VFUSE = "charts/vineyard/templates/fuse/daemonset.yaml"
_FUSE_GETS_MASTER_RESOURCES = ((_VFUSE, 'include "vineyard.master.resources"', True),
                               (_VFUSE, "vineyard.fuse.resources", False))


def _same_network(spec: Spec) -> bool:
    """master.networkMode means what it says when the master's network (worker.networkMode's) agrees."""
    def host(component: str) -> bool:
        return mapping(spec.get(component)).get("networkMode") != "ContainerNetwork"
    return host("master") == host("worker")


FIELDS = Fields(
    package="pkg/ddc/vineyard", types="api/v1alpha1/vineyardruntime_types.go", base_var="vineyardRuntime",
    runtime=(
        FieldRead("master.replicas", READ, source(_VT, "transformMasters"), go="Spec.Master.Replicas"),
        FieldRead("master.networkMode", OTHER_NAME, source(_VT, "transform"), go="Spec.Master.NetworkMode",
                  note="the master pod's network follows worker.networkMode (transformMasters); master.networkMode "
                       "only decides, with worker.networkMode, whether Fluid allocates host ports (transform)",
                  instead="worker.networkMode (it sets the master's network too)", when=_same_network,
                  evidence=((_VT, "value.Master.HostNetwork = datav1alpha1.IsHostNetwork("
                                  "runtime.Spec.Worker.NetworkMode)", True),)),
        FieldRead("worker.networkMode", READ, source(_VT, "transformWorkers"), go="Spec.Worker.NetworkMode",
                  note="sets the master pod's network too; left out: host network (IsHostNetwork)"),
        FieldRead("fuse.networkMode", READ, source(_VT, "transformFuse"), go="Spec.Fuse.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("fuse.cleanPolicy", READ, source(_VT, "transformFuse"), go="Spec.Fuse.CleanPolicy"),
        FieldRead("fuse.options", MERGED, source(_VT, "transformFuseOptions"), go="Spec.Fuse.Options",
                  note="over Fluid's own size (0: no local vineyardd), etcd endpoint and prefix; Fluid derives "
                       "no memory request from size"),
        FieldRead("fuse.env", READ, source(_VT, "transformFuse"), go="Spec.Fuse.Env"),
        FieldRead("master.resources", READ, source(_VRES, "transformResourcesForMaster"), go="Spec.Master.Resources",
                  note="the chart gives the FUSE container these resources too", evidence=_FUSE_GETS_MASTER_RESOURCES),
        FieldRead("worker.resources", MERGED, source(_VRES, "transformResourcesForWorker"), go="Spec.Worker.Resources",
                  note="a MEM tier raises the memory request to its quota, which must fit the memory limit"),
        FieldRead("fuse.resources", IGNORED, source(_VFUSE, "vineyard.master.resources"),
                  note="transformResourcesForFuse keeps them (with a memory limit), but the chart's FUSE container "
                       "renders the master's resources; its vineyard.fuse.resources template is never used",
                  instead="master.resources (which sizes the master too)", evidence=_FUSE_GETS_MASTER_RESOURCES),
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("master.env", READ, source("pkg/ddc/vineyard/transform.go", "transformMasters"),
                  go="Spec.Master.Env"),
        FieldRead("master.nodeSelector", READ, source("pkg/ddc/vineyard/transform.go", "transformMasterSelector"),
                  go="Spec.Master.NodeSelector"),
        FieldRead("master.podMetadata", READ, source("pkg/ddc/vineyard/transform.go", "transformPodMetadata"),
                  go="Spec.Master.PodMetadata"),
        FieldRead("master.volumeMounts", READ,
                  source("pkg/ddc/vineyard/transform_volumes.go", "transformMasterVolumes"),
                  go="Spec.Master.VolumeMounts"),
        FieldRead("master.image", READ, source("pkg/ddc/vineyard/transform.go", "transformMasters"),
                  go="Spec.Master.Image"),
        FieldRead("master.imageTag", READ, source("pkg/ddc/vineyard/transform.go", "transformMasters"),
                  go="Spec.Master.ImageTag"),
        FieldRead("master.imagePullPolicy", READ, source("pkg/ddc/vineyard/transform.go", "transformMasters"),
                  go="Spec.Master.ImagePullPolicy"),
        FieldRead("master.options", READ, source("pkg/ddc/vineyard/transform.go", "transformMasterOptions"),
                  go="Spec.Master.Options"),
        FieldRead("worker.env", READ, source("pkg/ddc/vineyard/transform.go", "transformWorkers"),
                  go="Spec.Worker.Env"),
        FieldRead("worker.nodeSelector", READ, source("pkg/ddc/vineyard/transform.go", "transformWorkers"),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.podMetadata", READ, source("pkg/ddc/vineyard/transform.go", "transformPodMetadata"),
                  go="Spec.Worker.PodMetadata"),
        FieldRead("worker.volumeMounts", READ,
                  source("pkg/ddc/vineyard/transform_volumes.go", "transformWorkerVolumes"),
                  go="Spec.Worker.VolumeMounts"),
        FieldRead("worker.image", READ, source("pkg/ddc/vineyard/transform.go", "transformWorkers"),
                  go="Spec.Worker.Image"),
        FieldRead("worker.imageTag", READ, source("pkg/ddc/vineyard/transform.go", "transformWorkers"),
                  go="Spec.Worker.ImageTag"),
        FieldRead("worker.imagePullPolicy", READ, source("pkg/ddc/vineyard/transform.go", "transformWorkers"),
                  go="Spec.Worker.ImagePullPolicy"),
        FieldRead("worker.options", READ, source("pkg/ddc/vineyard/transform.go", "transformWorkerOptions"),
                  go="Spec.Worker.Options"),
        FieldRead("fuse.podMetadata", READ, source("pkg/ddc/vineyard/transform.go", "transformPodMetadata"),
                  go="Spec.Fuse.PodMetadata"),
        FieldRead("fuse.image", READ, source("pkg/ddc/vineyard/transform.go", "transformFuse"), go="Spec.Fuse.Image"),
        FieldRead("fuse.imageTag", READ, source("pkg/ddc/vineyard/transform.go", "transformFuse"),
                  go="Spec.Fuse.ImageTag"),
        FieldRead("fuse.imagePullPolicy", READ, source("pkg/ddc/vineyard/transform.go", "transformFuse"),
                  go="Spec.Fuse.ImagePullPolicy"),
        FieldRead("podMetadata", READ, source("pkg/ddc/vineyard/transform.go", "transformPodMetadata"),
                  go="Spec.PodMetadata"),
        FieldRead("volumes", READ, source("pkg/ddc/vineyard/transform_volumes.go", "transformMasterVolumes"),
                  go="Spec.Volumes"),
        FieldRead("disablePrometheus", IGNORED, source("pkg/ddc/vineyard/transform.go", "transform"),
                  go="Spec.DisablePrometheus"),
    ),
    dataset=(
        FieldRead("owner", IGNORED, source(_VT, "transform"), go="Spec.Owner"),
        FieldRead("tolerations", IGNORED, source(_VT, "transform"), go="Spec.Tolerations",
                  note="no code of the engine reads the Dataset's tolerations; its FUSE tolerates every taint",
                  evidence=((_VFUSE, "- operator: Exists", True),)),
        FieldRead("nodeAffinity", IGNORED, source("pkg/ctrl/affinity.go", "BuildWorkersAffinity"),
                  note="Fluid adds it only to worker pods without an affinity, and the chart always gives "
                       "Vineyard's workers one (a podAntiAffinity)",
                  instead="worker.nodeSelector of the runtime",
                  evidence=(("pkg/ddc/vineyard/worker.go", "Helper.SetupWorkers(", True),
                            ("charts/vineyard/templates/worker/statefulset.yaml", "affinity:", True))),
        FieldRead("sharedOptions", IGNORED, source(_VT, "transform"), go="Spec.SharedOptions"),
    ),
)


ENGINE = Engine(
    name="vineyard",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataProcess"}),
    mounts=Mounts(
        schemes=frozenset(),
        needs_mounts=False,
        # Vineyard mounts no storage: its UFS hooks do nothing (PrepareUFS returns at once).
        sources={"schemes": _NO_UFS, "needs_mounts": _NO_UFS, "single_mount": _NO_UFS,
                 "references": not_the_reference_engine()},
    ),
    edits=Edits(runtime=scales("vineyard")),  # SyncRuntime is empty (pkg/ddc/vineyard/sync_runtime.go)
    hooks=Hooks(finish_runtime=_finish),
    lowering=Lowering(
        # Every level is read: MEM as memory, another medium as the spill path (TIERS_SOURCE).
        single_tier=False,
        default_profile="vineyard-default",
        # A MEM level's path is never read: only its medium and quota reach the values
        # (pkg/ddc/vineyard/transform.go transformTieredStore), so none is written.
        mem_default_path=None,
        one_path_per_tier=True,
        sources={"one_path_per_tier": (source(_HELPERS, "vineyard.spill.path",
                                              note="the spill level's path goes whole into one --spill_path"),
                                       source(_HELPERS, "vineyard.worker.tieredstoreVolume",
                                              note="the SSD level's path is one hostPath volume")),
                 "mem_default_path": TIERS_SOURCE, "single_tier": TIERS_SOURCE,
                 "path_separator": (TIERS_SOURCE,
                                    source(_HELPERS, "vineyard.spill.path",
                                           note="the spill level's path goes whole into one --spill_path: Fluid "
                                                "splits no level's path, so a level takes one directory")),
                 "emptydir_needs_path": source(_HELPERS, "vineyard.checkTieredStore",
                                               note="spilling needs an SSD level with a path (and a MEM level with "
                                                    "high and low)"),
                 "default_replicas": (workers_as_written("pkg/ddc/vineyard/worker.go"),
                                      source("pkg/ddc/vineyard/transform.go", "transformWorkers",
                                             note="Worker.Replicas = spec.replicas")),
                 },
    ),
    starter=Starter(
        source="",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("Service", "{full}-master"),
                 ("Service", "{full}-worker"), ("DaemonSet", "{full}-fuse"), ("ConfigMap", "{full}-rpc-conf"),
                 ("ConfigMap", "{name}-vineyard-values")),
        sources={"chart_fullname": named_after_runtime("pkg/ddc/vineyard/transform.go"),
                 "objects": (source("charts/vineyard/templates/master/statefulset.yaml", "StatefulSet"),
                             source("charts/vineyard/templates/worker/statefulset.yaml", "StatefulSet"),
                             source("charts/vineyard/templates/master/service.yaml", "Service"),
                             source("charts/vineyard/templates/worker/service.yaml", "Service"),
                             source("charts/vineyard/templates/fuse/daemonset.yaml", "DaemonSet"),
                             source("charts/vineyard/templates/config/vineyard-rpc-conf.yaml", "ConfigMap"))},
    ),
    health=Health(sources={"status_shape": runtime_status("api/v1alpha1/vineyardruntime_types.go", "VineyardRuntime",
                                                          "pkg/ddc/vineyard/worker.go"),
                           "partial_workers_ready": partial_ready("pkg/ddc/vineyard")}),
    workloads=Workloads(
        # "root": no mounts; pods find vineyard's socket (vineyard.sock) and rpc-conf at the volume's root.
        sources={"data_layout": source("pkg/ddc/vineyard/transform.go", "transformFuse",
                                       note="Fuse.TargetPath is the volume; charts/vineyard fuse/daemonset.yaml "
                                            "puts vineyard.sock and rpc-conf in it")},
    ),
    fields=FIELDS,
)
