"""CacheRuntime: Fluid's generic runtime for any cache system, described by a CacheRuntimeClass.

A CacheRuntimeClass (cluster-scoped, written once per cache system, such as Curvine) says
how the master, worker and client pods run and which data operations the system can do.
A CacheRuntime names a class and sets the replicas, cache tiers, resources and options of
one Dataset's cache. A spec names an existing class (`cacheClass.name`) or defines it too
(`cacheClass.define`, which fluidgen emits as the class).

Cache tiers map to the `tieredStore` (capital S) of the worker: MEM without a path to a
Memory emptyDir, a tier with paths to hostPath (one quota per path), volumeType emptyDir to
a disk emptyDir.

Sources in fluid-cloudnative/fluid (versions.py says which versions have it):
- api/v1alpha1/cacheruntime_types.go, cacheruntimeclass_types.go: the two specs; the class
  keeps its fields beside metadata, with no spec.
- pkg/ddc/cache/engine/data_operation.go, datamigrate.go, databackup.go: DataLoad and
  DataProcess run; DataMigrate and DataBackup are NotSupported.
- pkg/ddc/cache/engine/dataload.go: a DataLoad needs the class to list DataLoad in
  dataOperationSpecs, else it is NotSupported.
- pkg/common/cacheruntime.go (GetCacheComponentName) and pkg/ddc/cache/engine/util.go: Fluid
  creates <name>-master and <name>-worker (AdvancedStatefulSets), <name>-client (DaemonSet),
  Services svc-<name>-<component>, and the ConfigMap fluid-runtime-config-<name>
  (pkg/common/cacheruntime.go GetCacheRuntimeConfigConfigMapName). A component exists only
  where the class's topology defines it and the runtime does not disable it, and its Service
  only with service.headless (Created.by_related, _made).
- docs/zh/cacheruntime/cacheruntime_spec_update.md: only runtimeVersion and resources of the
  master and worker reach running pods.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pydantic import Field

from ..base.fluidsource import since, source
from ..base.manifest import Manifest, Tree
from ..base.manifest_index import Entry, ManifestIndex
from ..base.merge import set_path
from ..base.rules import Example, Finding, Rule
from ..base.spectypes import Model, Name
from ..base.structural.dsl import BOOL, QUANTITY, STR, STR_LIST, STR_MAP, array, fields, int32, k8s, obj, string
from ..base.versions import V1_1_0_DEV
from ..fluid.common import (
    ENV_VARS,
    IMAGE,
    IMAGE_PULL_SECRETS,
    POD_METADATA,
    RESOURCES,
    TOLERATIONS,
    VOLUME_MOUNTS,
    VOLUMES,
)
from ..fluid.fields import (
    IGNORED,
    READ,
    FieldRead,
    Fields,
)
from .contract import (
    APPLIED,
    ROLLING,
    Context,
    Created,
    EditFact,
    Edits,
    Engine,
    ExtraKind,
    Health,
    Hooks,
    Lowering,
    Mounts,
    MountSync,
    SpecSection,
    Starter,
    Workloads,
    mounts_only,
    not_the_reference_engine,
    replicas,
    report_schema_problems,
)

_NEW = since(V1_1_0_DEV)  # the versions that have the cache engine
_CM = "pkg/ddc/cache/engine/cm.go"
KIND = "CacheRuntime"
CLASS_KIND = "CacheRuntimeClass"

COMMON = {
    "disabled": BOOL, "runtimeVersion": IMAGE, "options": STR_MAP, "podMetadata": POD_METADATA,
    "resources": RESOURCES, "env": ENV_VARS, "volumeMounts": VOLUME_MOUNTS, "args": STR_LIST,
    "nodeSelector": STR_MAP, "tolerations": TOLERATIONS,
}
LEVEL = obj(
    processMemory=obj(quota=QUANTITY, required=("quota",)),
    emptyDir=obj(quota=QUANTITY, medium=STR, required=("quota",)),
    hostPath=obj(paths=array(STR, min_items=1), quotas=array(QUANTITY, min_items=1), type=STR,
                 required=("paths", "quotas")),
    high=STR, low=STR)
TIERED_STORE = obj(levels=array(LEVEL))
SPEC = obj(
    runtimeClassName=STR,
    master=fields({**COMMON, "replicas": int32(minimum=0)}),
    worker=fields({**COMMON, "replicas": int32(minimum=0), "tieredStore": TIERED_STORE}),
    client=fields({**COMMON, "tieredStore": TIERED_STORE,
                   "cleanPolicy": string(enum=("OnRuntimeDeleted", "OnDemand"))}),
    options=STR_MAP, podMetadata=POD_METADATA, imagePullSecrets=IMAGE_PULL_SECRETS, volumes=VOLUMES,
    required=("runtimeClassName",))
ENTRY = obj(command=STR_LIST, timeout=int32(), required=("command",))
COMPONENT = obj(
    options=STR_MAP, template=k8s("core.v1.PodTemplateSpec"), service=obj(headless={"type": "object"}),
    dependencies=obj(secretMount=obj(enabled=BOOL),
                     extraResources=obj(configMaps=array(obj(name=STR, mountPath=STR)))),
    executionEntries=obj(mountUFS=ENTRY, reportSummary=ENTRY))
OPERATION_KINDS = ("DataLoad", "DataBackup", "DataMigrate", "DataProcess")
CLASS = obj(
    fileSystemType=STR, topology=obj(master=COMPONENT, worker=COMPONENT, client=COMPONENT),
    extraResources=obj(configMaps=array(obj(name=STR, data=STR_MAP))),
    dataOperationSpecs=array(obj(name=string(enum=OPERATION_KINDS), image=STR, command=STR_LIST, args=STR_LIST,
                                 required=("name",))),
    required=("fileSystemType",))


# -- the spec side ----------------------------------------------------------------------

SECTION_DOC = "engine cache only: the CacheRuntimeClass this cache runs with, named (and optionally defined)."


class CacheClassSettings(Model):
    name: Name = Field(description="The CacheRuntimeClass (cluster-scoped, shared by every CacheRuntime of a system).")
    define: Tree | None = Field(
        None, description="Also emit the class with these fields: fileSystemType, topology, extraResources, "
                          "dataOperationSpecs (leave out to use a class already in the cluster).")


def _settings(ctx: Context) -> CacheClassSettings | None:
    found = ctx.spec.runtime.section("cacheClass")
    return found if isinstance(found, CacheClassSettings) else None


def _import_section(runtime_spec: Mapping[str, Any]) -> Tree | None:
    """A runtime read by `fluidgen import` names its class; a class is shared, so it is not defined here."""
    name = runtime_spec.get("runtimeClassName")
    return {"name": name} if isinstance(name, str) and name else None


def _check(ctx: Context) -> None:
    if _settings(ctx) is None:
        ctx.report(("runtime",), "engine cache needs a cacheClass: section naming its CacheRuntimeClass "
                                 "(cacheClass: {name: ...}, plus define: to emit the class too)", stage="check")


def _level(ctx: Context, i: int) -> Tree:
    t = ctx.spec.runtime.cache[i]
    level: Tree
    if t.path and t.volumeType != "emptyDir":
        quotas = list(t.quota) if len(t.quota) == len(t.path) else [t.quota[0]] * len(t.path)
        level = {"hostPath": {"paths": [p.rstrip("/") or "/" for p in t.path], "quotas": quotas}}
    elif t.medium == "MEM":
        level = {"emptyDir": {"medium": "Memory", "quota": t.quota[0]}}
    else:
        level = {"emptyDir": {"quota": t.quota[0]}}
    for key in ("high", "low"):
        if getattr(t, key) is not None:
            level[key] = getattr(t, key)
    return level


def _generate(ctx: Context, engine: Engine) -> Tree:
    settings = _settings(ctx)
    count = replicas(ctx, engine)
    tree: Tree = {"runtimeClassName": settings.name if settings else "", "worker": {}}
    if count is not None:
        tree = set_path(tree, engine.lowering.replicas_at, count)
    if ctx.spec.runtime.cache:
        tree = set_path(tree, engine.lowering.levels_at, [_level(ctx, i) for i in range(len(ctx.spec.runtime.cache))])
    return tree


def _class(ctx: Context) -> list[Manifest]:
    settings = _settings(ctx)
    if settings is None or settings.define is None:
        return []
    at = ("runtime", "cacheClass", "define")
    report_schema_problems(ctx, CLASS_KIND, settings.define, at)
    made = ctx.fluid_object(CLASS_KIND, settings.name, dict(settings.define), at=at, namespaced=False,
                            top_level=True)
    for key, value in settings.define.items():
        ctx.trace_copy(made, (key,), (*at, key), value)
    return [made]


# -- rules over manifests ----------------------------------------------------------------


Made = Callable[[Mapping[str, Any], Mapping[str, Any] | None], bool | None]


def _made(component: str, service: bool = False) -> Made:
    """Whether Fluid makes the component (its headless Service, with `service`) for a runtime spec
    and its class: transform_<component>.go skips a component the class's topology lacks or the
    runtime disables; initComponentValue gives it a Service only when service.headless is set."""
    def made(spec: Mapping[str, Any], runtime_class: Mapping[str, Any] | None) -> bool | None:
        if runtime_class is None:
            return None
        topology = runtime_class.get("topology")
        definition = topology.get(component) if isinstance(topology, Mapping) else None
        part = spec.get(component)
        if not isinstance(definition, Mapping) or (isinstance(part, Mapping) and part.get("disabled") is True):
            return False
        headless = definition.get("service")
        return not service or (isinstance(headless, Mapping) and isinstance(headless.get("headless"), Mapping))
    return made


def _load_needs_the_class(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """A DataLoad on a CacheRuntime runs only when its class lists DataLoad."""
    ref = entry.spec.get("dataset")
    if not isinstance(ref, dict):
        return
    runtime = index.find(KIND, ref.get("name"), ref.get("namespace") or entry.namespace)
    class_name = runtime.spec.get("runtimeClassName") if runtime is not None else None
    found = index.cluster_scoped(CLASS_KIND, class_name)
    if found is None:
        return
    specs = found.obj.get("dataOperationSpecs")
    declared = {s.get("name") for s in specs if isinstance(s, dict)} if isinstance(specs, list) else set()
    if "DataLoad" not in declared:
        yield Finding(("spec", "dataset"), f"{CLASS_KIND} {class_name} lists no DataLoad in dataOperationSpecs, so "
                                           f"Fluid refuses this DataLoad as not supported")



COMPONENTS = ("master", "worker", "client")


def _undefined_component_enabled(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """generateRuntimeConfigData (cm.go) reads runtimeClass.Topology.<C>.Options for every component the
    runtime does not disable: a class without that component leaves a nil pointer to read."""
    found = index.cluster_scoped(CLASS_KIND, entry.spec.get("runtimeClassName"))
    if found is None:
        return
    topology = found.obj.get("topology")
    if not any(isinstance(topology, Mapping) and isinstance(topology.get(c), Mapping) for c in COMPONENTS):
        yield Finding(("spec", "runtimeClassName"),
                      f"{CLASS_KIND} {found.name} defines no component (topology: master, worker or client), and "
                      "Fluid refuses the runtime: 'at least one component should be defined in runtimeClass'")
        return
    for component in COMPONENTS:
        part = entry.spec.get(component)
        defined = isinstance(topology, Mapping) and isinstance(topology.get(component), Mapping)
        if not defined and not (isinstance(part, Mapping) and part.get("disabled") is True):
            yield Finding(("spec", component) if isinstance(part, Mapping) else ("spec", "runtimeClassName"),
                          f"{CLASS_KIND} {found.name} defines no {component}, and Fluid reads the class's {component} "
                          f"options for every component the runtime does not disable, so its controller fails on "
                          f"this runtime before it makes any component; set {component}: {{disabled: true}}")


RULES = (
    Rule(
        "FG128", "error", "a DataLoad on a CacheRuntime needs its class to declare DataLoad", _load_needs_the_class,
        kinds=frozenset({"DataLoad"}),
        description="A CacheRuntime's data operations are what its CacheRuntimeClass declares in "
                    "`dataOperationSpecs`. Fluid looks up the DataLoad entry there and reports a DataLoad on a "
                    "runtime whose class has none as not supported.",
        sources=(source("pkg/ddc/cache/engine/dataload.go", "genDataLoadValue", versions=_NEW),
                 source("pkg/ddc/cache/engine/dataload.go", "findDataOperationSpec", versions=_NEW)),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntimeClass
metadata: {name: curvine}
fileSystemType: curvine
dataOperationSpecs: []
---
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntime
metadata: {name: imagenet, namespace: default}
spec:
  runtimeClassName: curvine
---
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warmup, namespace: default}
spec:
  dataset: {name: imagenet, namespace: default}
""", "The class curvine declares no DataLoad, so Fluid refuses this one.")),
    Rule(
        "FG143", "error", "a CacheRuntime disables each component its class does not define",
        _undefined_component_enabled, kinds=frozenset({KIND}),
        description="Fluid writes a CacheRuntime's config from its class's topology: for the master, the worker "
                    "and the client it reads the class's component options unless the runtime sets that "
                    "component's `disabled: true`. A class without a component (a workers-only class has no "
                    "master) leaves a nil pointer there, and the controller fails on the runtime before it "
                    "makes any component.",
        sources=(source("pkg/ddc/cache/engine/cm.go", "generateRuntimeConfigData", versions=_NEW),
                 source("pkg/ddc/cache/engine/transform.go", "transform", versions=_NEW,
                        note="a class with no component is refused first"),
                 source("pkg/ddc/cache/engine/cm.go", "createRuntimeConfigMaps", versions=_NEW),
                 source("pkg/ddc/cache/engine/setup.go", "Setup", versions=_NEW)),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntimeClass
metadata: {name: curvine}
fileSystemType: curvine
topology:
  worker:
    template: {spec: {containers: [{name: worker, image: curvine}]}}
  client:
    template: {spec: {containers: [{name: client, image: curvine}]}}
---
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntime
metadata: {name: imagenet, namespace: default}
spec:
  runtimeClassName: curvine
""", "The class has no master, and the runtime does not disable one.")),
)


_SYNC = source("pkg/ddc/cache/engine/sync.go", "syncRuntimeSpec", since(V1_1_0_DEV))

_WORKER_SPEC = source("api/v1alpha1/cacheruntime_types.go", "CacheRuntimeWorkerSpec", versions=_NEW,
                      note="worker.replicas and worker.tieredStore (json names): where the spec's replicas and "
                           "cache tiers go")
_TIERS = source("pkg/ddc/cache/engine/transform_tiered_store.go", "TransformRuntimeTieredStore", versions=_NEW)

# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
_CE = "pkg/ddc/cache/engine"
FIELDS = Fields(
    package="pkg/ddc/cache", types="api/v1alpha1/cacheruntime_types.go", base_var="cacheRuntime",
    runtime=(
        FieldRead("master.replicas", READ, source(f"{_CE}/transform_master.go", "transformMaster", _NEW),
                  evidence=((f"{_CE}/transform_master.go", "runtimeMaster.Replicas", True),)),
    ),
    dataset=(
        FieldRead("owner", IGNORED, source(f"{_CE}/transform.go", "transform", _NEW), go="Spec.Owner"),
        FieldRead("tolerations", READ, source(f"{_CE}/transform_common.go", "transformComponentPodTemplate", _NEW),
                  go="Spec.Tolerations"),
        FieldRead("nodeAffinity", READ, source(f"{_CE}/transform_worker.go", "buildWorkerAffinity", _NEW),
                  go="Spec.NodeAffinity", note="the cache workers' node affinity (not the client's)"),
        FieldRead("sharedOptions", READ, source(f"{_CE}/cm.go", "generateRuntimeConfigData", _NEW),
                  go="Spec.SharedOptions", note="in the runtime config the components read"),
    ),
)


ENGINE = Engine(
    name="cache",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataProcess"}),
    mounts=Mounts(
        schemes=None,  # the class's mountUFS entry interprets the mountPoint
        sources={"schemes": source(_CM, "generateRuntimeConfigData", versions=_NEW,
                                   note="every mount's mountPoint goes into the runtime config as written"),
                 "single_mount": source(_CM, "generateRuntimeConfigData", versions=_NEW,
                                        note="every mount of the Dataset goes into the runtime config"),
                 "needs_mounts": mounts_only(_CM, "generateRuntimeConfigData", _NEW),
                 "references": not_the_reference_engine(_NEW)},
    ),
    extra_kinds=(ExtraKind(CLASS_KIND, CLASS, namespaced=False, top_level=True, named_by="spec/runtimeClassName",
                           named_by_source=source("api/v1alpha1/cacheruntime_types.go", "RuntimeClassName", _NEW)),),
    section=SpecSection("cacheClass", CacheClassSettings, SECTION_DOC),
    rules=RULES,
    lowering=Lowering(
        single_tier=False,
        emptydir_needs_path=False,
        no_default_profile="the class carries the cache system's tuning; nothing holds for every class",
        computed={"runtimeClassName": "runtime.cacheClass.name"},
        replicas_at=("worker", "replicas"),
        levels_at=("worker", "tieredStore", "levels"),
        # path_separator and mem_default_path are not read: _level writes hostPath paths as a list
        # and a MEM tier as a Memory emptyDir.
        sources={"single_tier": _TIERS, "emptydir_needs_path": _TIERS,
                 "replicas_at": _WORKER_SPEC, "levels_at": _WORKER_SPEC,
                 "default_replicas": source("api/v1alpha1/cacheruntime_types.go", "CacheRuntimeWorkerSpec",
                                            versions=_NEW, note="worker.replicas: +kubebuilder:default=1, the "
                                                                "value fluidgen writes")},
    ),
    hooks=Hooks(
        import_section=_import_section,
        generate=_generate,
        check=_check,
        extra_objects=_class,
    ),
    starter=Starter(
        source="s3://<BUCKET>/<PATH>",
        lines=("cacheClass:", "  name: <CACHE_RUNTIME_CLASS>  # a class in the cluster; add define: to emit one"),
    ),
    created=Created(
        objects=(("ConfigMap", "fluid-runtime-config-{name}"),),  # pkg/common/cacheruntime.go
        # GetCacheRuntimeConfigConfigMapName; the components are created directly, without Helm
        helm_release=False,
        by_related=(("AdvancedStatefulSet", "{name}-master", _made("master")),
                    ("AdvancedStatefulSet", "{name}-worker", _made("worker")),
                    ("DaemonSet", "{name}-client", _made("client")),
                    *(("Service", f"svc-{{name}}-{c}", _made(c, service=True))
                      for c in ("master", "worker", "client"))),
        sources={"objects": (source("pkg/common/cacheruntime.go", "GetCacheRuntimeConfigConfigMapName",
                                    versions=_NEW),
                             source("pkg/ddc/cache/engine/cm.go", "createRuntimeValueConfigMap", versions=_NEW)),
                 "by_related": (source("pkg/common/cacheruntime.go", "GetCacheComponentName", versions=_NEW),
                                source("pkg/ddc/cache/engine/util.go", "GetComponentServiceName", versions=_NEW),
                                source("pkg/ddc/cache/engine/transform_master.go", "transformMaster", versions=_NEW,
                                       note="no master without topology.master, or with master.disabled"),
                                source("pkg/ddc/cache/engine/transform_worker.go", "transformWorker", versions=_NEW),
                                source("pkg/ddc/cache/engine/transform_client.go", "transformClient", versions=_NEW),
                                source("pkg/ddc/cache/engine/transform_common.go", "initComponentValue",
                                       versions=_NEW, note="a Service only when service.headless is set"),
                                source("pkg/ddc/cache/component/component_manager.go", "NewComponentHelper",
                                       versions=_NEW, note="master and worker: AdvancedStatefulSet; client: "
                                                           "DaemonSet")),
                 "helm_release": source("pkg/ddc/cache/engine/master.go", "setupMasterInternal", versions=_NEW)},
    ),
    edits=Edits(
        # syncRuntimeSpec copies master/worker runtimeVersion, resources and replicas into their
        # AdvancedStatefulSets (in place where possible); the client DaemonSet is never synced.
        runtime=(*(EditFact(f"{c}.replicas", APPLIED, _SYNC, c) for c in ("master", "worker")),
                 *(EditFact(f"{c}.{k}", ROLLING, _SYNC, c) for c in ("master", "worker")
                   for k in ("resources", "runtimeVersion"))),
        # The class's mountUFS entry runs when the set of namespace paths changes, or after the
        # master restarted since the last mount; a workers-only class never mounts.
        mounts=(MountSync("paths", source("pkg/ddc/cache/engine/ufs.go", "UpdateOnUFSChange", since(V1_1_0_DEV)),
                          needs_class_mount=True,
                          remount_also="or restart the master pod: after a master restart the class's mountUFS "
                                       "runs again over the current mounts (checkIfRemountRequired)",
                          remount_sources=(source("pkg/ddc/cache/engine/ufs.go", "checkIfRemountRequired",
                                                  since(V1_1_0_DEV)),)),),
    ),
    health=Health(
        status_shape="components",
        sources={"status_shape": (source("api/v1alpha1/cacheruntime_status.go", "RuntimeComponentStatusCollection",
                                         versions=_NEW),
                                  source("pkg/ddc/cache/engine/status.go", "CheckAndUpdateRuntimeStatus",
                                         versions=_NEW)),
                 # status.worker.phase PartialReady (0 < readyReplicas < desiredReplicas) returns ready,
                 # and the runtime is ready when master and worker are
                 "partial_workers_ready": source("pkg/ddc/cache/engine/status.go", "setWorkerComponentStatus",
                                                 versions=_NEW)},
    ),
    workloads=Workloads(
        data_layout="per-mount",  # GenUFSPathInUnifiedNamespace in its FUSE/UFS setup
        sources={"data_layout": source("pkg/ddc/cache/engine/ufs.go", "GenUFSPathInUnifiedNamespace", versions=_NEW)},
    ),
    fields=FIELDS,
)
