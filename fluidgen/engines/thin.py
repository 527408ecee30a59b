"""ThinRuntime: any FUSE program, described by a cluster-scoped ThinRuntimeProfile.

A spec either names an existing ThinRuntimeProfile (`thin.profileName`) or has fluidgen
generate one (`thin.fileSystemType` plus `thin.profile` fields). A Dataset whose only
mount is a dataset:// reference is served by the referenced dataset's runtime: write
`runtime: {engine: thin}` and nothing else.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/thinruntime_types.go, thinruntimeprofile_types.go: the specs; the profile is
  cluster-scoped.
- pkg/ddc/thin/referencedataset/*: a reference dataset's ThinRuntime spec is ignored.
- pkg/ddc/thin/transform_fuse.go (parseFuseOptions): `ro` is added to the FUSE options of a
  ReadOnlyMany Dataset, but a profile's fuse.options replace that set.
- pkg/ddc/thin/operate.go: DataProcess only. charts/thin/templates: created objects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import Field, field_validator, model_validator

from ..base.fluidsource import source
from ..base.manifest import Manifest, Tree, fuse_spec, is_reference_dataset, items, mapping
from ..base.manifest_index import Entry, ManifestIndex
from ..base.merge import deep_merge
from ..base.rules import Example, Finding, Rule
from ..base.spectypes import Model, Name
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, k8s, obj, string
from ..base.uri import REFERENCE, scheme_of
from ..fluid.common import (
    CONTAINER_PORTS,
    ENV_VARS,
    IMAGE_PULL_SECRETS,
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
    OWN_DEFAULT,
    READ,
    FieldRead,
    Fields,
    dataset_node_affinity,
    dataset_placement,
    fuse_clean_policy,
)
from ..fluid.fluidbase import read_only_dataset
from .contract import (
    CONFIG_ONLY,
    FUSE_CONFIG,
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
    named_after_runtime,
    partial_ready,
    paths_split_at_comma,
    report_schema_problems,
    workers_as_written,
)

KIND = "ThinRuntime"
_FUSE_CONFIG = "pkg/ddc/thin/transform_config.go"
_CACHE_DIR = source("pkg/ddc/thin/transform_fuse.go", "transformFuse",
                    note="Fuse.CacheDir = tieredstore.levels[0].path as given (no other level is read)")
_CACHE_DIR_VOLUME = source("charts/thin/templates/fuse/daemonset.yaml", "cacheDir",
                           note="the cache dir is one hostPath volume mounted at that path, whatever the "
                                "level's volumeType")
PROFILE_KIND = "ThinRuntimeProfile"

FUSE = obj(
    image=STR, imageTag=STR, imagePullPolicy=STR, imagePullSecrets=IMAGE_PULL_SECRETS, env=ENV_VARS,
    resources=RESOURCES, ports=CONTAINER_PORTS, livenessProbe=k8s("core.v1.Probe"),
    readinessProbe=k8s("core.v1.Probe"), lifecycle=k8s("core.v1.Lifecycle"), networkMode=NETWORK_MODE,
    volumeMounts=VOLUME_MOUNTS, nodeSelector=STR_MAP, cleanPolicy=STR, command=STR_LIST, args=STR_LIST,
    options=STR_MAP, podMetadata=POD_METADATA)
WORKER = obj(
    image=STR, imageTag=STR, imagePullPolicy=STR, imagePullSecrets=IMAGE_PULL_SECRETS, replicas=REPLICAS,
    env=ENV_VARS, resources=RESOURCES, ports=CONTAINER_PORTS, livenessProbe=k8s("core.v1.Probe"),
    readinessProbe=k8s("core.v1.Probe"), enabled=BOOL, networkMode=NETWORK_MODE, volumeMounts=VOLUME_MOUNTS,
    nodeSelector=STR_MAP)
SPEC = obj(
    profileName=STR, fuse=FUSE, worker=WORKER, tieredstore=TIEREDSTORE, replicas=int32(), runAs=RUN_AS,
    disablePrometheus=BOOL, volumes=VOLUMES, imagePullSecrets=IMAGE_PULL_SECRETS, management=MANAGEMENT)
PROFILE_SPEC = obj(
    fileSystemType=STR, fuse=FUSE, worker=WORKER, volumes=VOLUMES, imagePullSecrets=IMAGE_PULL_SECRETS,
    nodePublishSecretPolicy=string(enum=(
        "NotMountNodePublishSecret", "MountNodePublishSecretIfExists", "CopyNodePublishSecretAndMountIfNotExists")),
    required=("fileSystemType",))


# -- the spec side ----------------------------------------------------------------------

SETTINGS_DOC = "engine thin only: its ThinRuntimeProfile. Leave out for a dataset:// reference."


class ThinSettings(Model):
    profileName: Name | None = Field(None, description="Use an existing ThinRuntimeProfile.")
    fileSystemType: str | None = Field(None, description="Generate a ThinRuntimeProfile for this file system.")
    profile: Tree = Field(default_factory=dict,
        description="Extra ThinRuntimeProfile spec fields (fuse, worker, ...).")
    name: Name | None = Field(None, description="Name of the generated ThinRuntimeProfile (cluster-scoped), so "
        "other datasets can share it with profileName (default <namespace>.<dataset>).")

    @field_validator("profile")
    @classmethod
    def _no_second_file_system_type(cls, profile: Tree) -> Tree:
        # the generated profile's fileSystemType is thin.fileSystemType: one written here too
        # would silently win over it (the profile's fields are laid over it)
        if "fileSystemType" in profile:
            raise ValueError("fileSystemType is runtime.thin.fileSystemType; remove it from the profile")
        return profile

    @model_validator(mode="after")
    def _one_way(self) -> ThinSettings:
        if (self.profileName is None) == (self.fileSystemType is None):
            raise ValueError("give exactly one of profileName (existing) or fileSystemType (generated)")
        if self.profileName and (self.profile or self.name):
            raise ValueError("profile fields and name only apply to a generated profile (fileSystemType)")
        return self



def refers_only(ctx: Context) -> bool:
    """Only dataset:// sources: this Dataset points at another one. A dataset:// mixed with
    other mounts is a Dataset rule's finding (FG115); judging the runtime too would give
    advice that no longer holds once that is fixed."""
    source = ctx.spec.source
    return bool(source) and all(m.uri is not None and scheme_of(m.uri) == REFERENCE for m in source)


def _import_section(runtime_spec: Mapping[str, Any]) -> Tree | None:
    """A runtime read by `fluidgen import` uses its profile by name: profiles are shared."""
    name = runtime_spec.get("profileName")
    return {"profileName": name} if isinstance(name, str) and name else None


def profile_name(ctx: Context) -> str:
    """ThinRuntimeProfiles are cluster-scoped: two namespaces may both have a dataset named
    imagenet, so the namespace is part of the name. A dot cannot occur in either label, so
    team-a.imagenet and team.a-imagenet never collide."""
    thin = ctx.spec.runtime.section("thin")
    if thin is not None and thin.name:
        return str(thin.name)
    return f"{ctx.namespace}.{ctx.name}"


def _check(ctx: Context) -> None:
    rt = ctx.spec.runtime
    if not refers_only(ctx):
        if rt.section("thin") is None:
            ctx.report(("runtime",), "engine thin needs a thin: section (profileName or fileSystemType), "
                                     "unless the source is a dataset:// reference", stage="check")
        return
    ignored = ["thin"] if rt.section("thin") is not None else []
    ignored += ["profile"] if rt.profile is not None else []
    ignored += [k for k in ("cache", "overrides") if getattr(rt, k)]
    ignored += ["replicas"] if rt.replicas_written else []
    for key in ignored:
        ctx.report(("runtime", key), "does not apply to a dataset:// reference: the referenced dataset's runtime "
                                     "serves the data (of a reference's ThinRuntime Fluid reads only the tiers "
                                     "and fuse.nodeSelector, into its runtime info); remove it", stage="check")


def _finish(ctx: Context, tree: Tree) -> Tree:
    thin = ctx.spec.runtime.section("thin")
    if thin is None or refers_only(ctx):
        return {}  # a reference: Fluid ignores the spec (_check refuses settings)
    return {**tree, "profileName": thin.profileName or profile_name(ctx)}


def _profile(ctx: Context) -> list[Manifest]:
    thin = ctx.spec.runtime.section("thin")
    if thin is None or thin.fileSystemType is None:
        return []
    spec: Tree = deep_merge({"fileSystemType": thin.fileSystemType}, thin.profile)
    _keep_read_only(ctx, spec)
    at = ("runtime", "thin", "profile")
    # fileSystemType comes from thin.fileSystemType (a string: the model's), everything else from
    # thin.profile, which cannot hold a fileSystemType (ThinSettings): a problem lies below `at`
    report_schema_problems(ctx, PROFILE_KIND, spec, at)
    profile = ctx.fluid_object(PROFILE_KIND, profile_name(ctx), spec, at=at, namespaced=False)
    if thin.name:
        ctx.trace(profile, ("metadata", "name"), ("runtime", "thin", "name"))
    # each field at its own key, so a check of the generated profile lands where its schema's
    # check (above) already spoke, and is not said twice (pipeline.said_already)
    for key, value in thin.profile.items():
        ctx.trace_copy(profile, ("spec", key), (*at, key), value)
    ctx.trace(profile, ("spec", "fileSystemType"), ("runtime", "thin", "fileSystemType"))
    return [profile]


def _keep_read_only(ctx: Context, profile_spec: Tree) -> None:
    """Fluid adds `ro` to a ThinRuntime FUSE program's MOUNT_OPTIONS when the Dataset is
    ReadOnlyMany (the default), but a profile with fuse.options replaces that set instead of
    adding to it, so the read-only dataset would be mounted read-write. Put `ro` back."""
    fuse = profile_spec.get("fuse")
    options = fuse.get("options") if isinstance(fuse, dict) else None
    if isinstance(options, dict) and read_only_dataset(ctx.access_modes()) and not {"ro", "rw"} & set(options):
        options["ro"] = ""


# -- rules over manifests ----------------------------------------------------------------

def _references(runtime: Entry, index: ManifestIndex) -> bool:
    """Is it a runtime bound to a reference Dataset (only dataset:// mounts)?"""
    return any(is_reference_dataset(d.obj) for d in index.bound_datasets(runtime))


# What Fluid reads of a reference Dataset's ThinRuntime: its tieredstore and fuse.nodeSelector go into
# the runtime info (pkg/ddc/thin/referencedataset/runtime.go getRuntimeInfo, both commits; a bad
# tieredstore fails it); nothing else of its spec is read.
_READ_FOR_REFERENCE: frozenset[tuple[str, ...]] = frozenset({("tieredstore",), ("fuse", "nodeSelector")})


def _reference_spec(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    if not _references(entry, index):
        return
    for key in sorted(entry.spec):
        value = entry.spec[key]
        fields = [(key, sub) for sub in sorted(value)] if key == "fuse" and isinstance(value, dict) else [(key,)]
        for path in fields:
            if path not in _READ_FOR_REFERENCE:
                yield Finding(("spec", *path), "Fluid ignores this field of a reference dataset's ThinRuntime (the "
                                               "referenced dataset's runtime serves the data; Fluid reads only "
                                               "tieredstore and fuse.nodeSelector of it)")


def _profile_drops_ro(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    options = fuse_spec(entry.obj).get("options")
    if not isinstance(options, dict) or {"ro", "rw"} & set(options):
        return
    for runtime in index.of_kind(KIND):
        if runtime.spec.get("profileName") != entry.name:
            continue
        if {"ro", "rw"} & set(mapping(fuse_spec(runtime.obj).get("options"))):
            continue
        for d in index.bound_datasets(runtime):
            if read_only_dataset([m for m in items(d.spec.get("accessModes")) if isinstance(m, str)]):
                yield Finding(("spec", "fuse", "options"),
                              f"these options replace the ro that Fluid adds for the ReadOnlyMany Dataset "
                              f"{d.name}, so its FUSE program gets no ro; add ro: \"\"")
                return


_REFERENCE = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: shared-imagenet, namespace: team-a}
spec:
  mounts:
    - {mountPoint: "dataset://default/imagenet", name: imagenet}
---
"""
RULES = (
    Rule(
        "FG121", "warning", "Fluid ignores the ThinRuntime spec of a dataset:// reference, but for two fields",
        _reference_spec, kinds=frozenset({KIND}),
        description="For a reference Dataset Fluid builds the reference-dataset engine, which serves the "
                    "referenced Dataset's data through that Dataset's runtime. Of the ThinRuntime's spec it "
                    "reads only `tieredstore` and `fuse.nodeSelector`, into the runtime's info (a bad "
                    "tieredstore fails it); the rule reports every other field.",
        sources=(source("pkg/ddc/thin/engine.go", "Build"),
                 source("pkg/ddc/thin/engine.go", "CheckReferenceDatasetRuntime"),
                 source("pkg/ddc/thin/referencedataset/runtime.go", "getRuntimeInfo")),
        example=Example(_REFERENCE + """\
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntime
metadata: {name: shared-imagenet, namespace: team-a}
spec:
  replicas: 2
""", "replicas: 2 is ignored; the referenced dataset's runtime serves the data.")),
    Rule(
        "FG122", "warning", "ThinRuntimeProfile fuse.options replace the ro Fluid adds for read-only datasets",
        _profile_drops_ro, kinds=frozenset({PROFILE_KIND}),
        description="For a Dataset whose access modes include ReadOnlyMany (the default), Fluid gives the "
                    "ThinRuntime's FUSE program the option `ro`, unless the profile sets `fuse.options`: then "
                    "those options replace Fluid's, `ro` included. The rule reports a profile without ro or rw "
                    "used by such a runtime whose own options set neither.",
        sources=(source("pkg/ddc/thin/transform_fuse.go", "parseFuseOptions"),),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntimeProfile
metadata: {name: nfs-profile}
spec:
  fileSystemType: nfs
  fuse:
    image: example/nfs-fuse
    options: {nolock: ""}
---
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntime
metadata: {name: exports, namespace: default}
spec:
  profileName: nfs-profile
---
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: exports, namespace: default}
spec:
  mounts:
    - {mountPoint: "nfs.example.com:/exports", name: exports}
""", "The profile's options replace Fluid's, so the read-only dataset is mounted without ro.")),
)


# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
_TT = "pkg/ddc/thin/transform.go"
_TF = "pkg/ddc/thin/transform_fuse.go"
FIELDS = Fields(
    package="pkg/ddc/thin", types="api/v1alpha1/thinruntime_types.go", base_var="thinRuntime",
    runtime=(
        FieldRead("runAs", IGNORED, source(_TT, "transform"), go="Spec.RunAs"),
        FieldRead("worker.networkMode", READ, source(_TT, "transformWorkers"), go="Spec.Worker.NetworkMode",
                  note="workers run only with worker.enabled; left out: host network (IsHostNetwork)"),
        FieldRead("fuse.networkMode", READ, source(_TF, "transformFuse"), go="Spec.Fuse.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("management.metadataSyncPolicy", OWN_DEFAULT, source("pkg/ddc/thin/metadata.go",
                                                                       "shouldSyncMetadata"),
                  go="Spec.RuntimeManagement.MetadataSyncPolicy",
                  note="autoSync left out: off (ThinRuntime syncs metadata only with autoSync: true; the other "
                       "engines sync unless it is false)"),
        FieldRead("fuse.nodeSelector", READ, source(_TF, "transformFuse"), go="Spec.Fuse.NodeSelector"),
        fuse_clean_policy(),
        FieldRead("fuse.livenessProbe", READ, source(_TF, "transformFuse"), go="Spec.Fuse.LivenessProbe",
                  note="over the ThinRuntimeProfile's"),
        FieldRead("fuse.args", READ, source(_TF, "transformFuse"), go="Spec.Fuse.Args"),
        FieldRead("fuse.options", READ, source(_TF, "parseFuseOptions"), go="Spec.Fuse.Options"),
        FieldRead("fuse.env", READ, source(_TF, "transformFuse"), go="Spec.Fuse.Env"),
        FieldRead("fuse.resources", READ, source(_TF, "transformFuse"), go="Spec.Fuse.Resources",
                  note="over the ThinRuntimeProfile's"),
        FieldRead("worker.resources", READ, source(_TT, "transformWorkers"), go="Spec.Worker.Resources",
                  note="workers run only with worker.enabled"),
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("worker.env", READ, source("pkg/ddc/thin/transform.go", "transformWorkers"), go="Spec.Worker.Env"),
        FieldRead("worker.nodeSelector", READ, source("pkg/ddc/thin/transform.go", "transformWorkers"),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.volumeMounts", READ, source("pkg/ddc/thin/transform.go", "transformWorkers"),
                  go="Spec.Worker.VolumeMounts"),
        FieldRead("worker.imagePullSecrets", READ, source("pkg/ddc/thin/transform.go", "parseWorkerImage"),
                  go="Spec.Worker.ImagePullSecrets"),
        FieldRead("worker.image", READ, source("pkg/ddc/thin/transform.go", "parseWorkerImage"),
                  go="Spec.Worker.Image"),
        FieldRead("worker.imageTag", READ, source("pkg/ddc/thin/transform.go", "parseWorkerImage"),
                  go="Spec.Worker.ImageTag"),
        FieldRead("worker.imagePullPolicy", READ, source("pkg/ddc/thin/transform.go", "parseWorkerImage"),
                  go="Spec.Worker.ImagePullPolicy"),
        FieldRead("fuse.podMetadata", READ, source("pkg/ddc/thin/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.PodMetadata"),
        FieldRead("fuse.volumeMounts", READ, source("pkg/ddc/thin/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.VolumeMounts"),
        FieldRead("fuse.imagePullSecrets", READ, source("pkg/ddc/thin/transform_fuse.go", "parseFuseImage"),
                  go="Spec.Fuse.ImagePullSecrets"),
        FieldRead("fuse.image", READ, source("pkg/ddc/thin/transform_fuse.go", "parseFuseImage"), go="Spec.Fuse.Image"),
        FieldRead("fuse.imageTag", READ, source("pkg/ddc/thin/transform_fuse.go", "parseFuseImage"),
                  go="Spec.Fuse.ImageTag"),
        FieldRead("fuse.imagePullPolicy", READ, source("pkg/ddc/thin/transform_fuse.go", "parseFuseImage"),
                  go="Spec.Fuse.ImagePullPolicy"),
        FieldRead("volumes", READ, source("pkg/ddc/thin/transform.go", "transformWorkers"), go="Spec.Volumes"),
        FieldRead("imagePullSecrets", READ, source("pkg/ddc/thin/transform.go", "transform"),
                  go="Spec.ImagePullSecrets"),
        FieldRead("disablePrometheus", IGNORED, source("pkg/ddc/thin/transform.go", "transform"),
                  go="Spec.DisablePrometheus"),
    ),
    dataset=(
        FieldRead("owner", IGNORED, source(_TT, "transform"), go="Spec.Owner"),
        FieldRead("tolerations", READ, source(_TT, "transformTolerations"), go="Spec.Tolerations"),
        dataset_node_affinity("pkg/ddc/thin", "thin", worker="worker/statefuleset.yaml"),  # Fluid's spelling
        dataset_placement("pkg/ddc/thin"),
        FieldRead("sharedOptions", READ, source(_FUSE_CONFIG, "extractMountOptions"), go="Spec.SharedOptions",
                  note="under each mount's options"),
    ),
)


ENGINE = Engine(
    name="thin",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataProcess"}),
    mounts=Mounts(
        schemes=None,  # the profile's FUSE program interprets the mountPoint
        # Every mount goes into the FUSE config, and a Dataset may have none yet (mounts added
        # later reach the running FUSE config): Fluid refuses neither.
        needs_mounts=False,
        references=True,
        encrypt_config_storage="THIN_FUSE_CONFIG_STORAGE",
        native_mount_options=True,
        sources={"native_mount_options": source(_FUSE_CONFIG, "transformFuseConfig",
                                                note="every mount, pvc:// and local:// too, with its options"),
                 "encrypt_config_storage": (
                     source(_FUSE_CONFIG, "getFuseConfigStorage", note="configmap unless the variable is set"),
                     source(_FUSE_CONFIG, "extractMountOptions",
                            note="configmap: the Secret files' paths overwrite the options "
                                 "(transformEncryptOptionsWithSecretVolumes); secret: genEncryptOptions reads them"),
                     source("charts/fluid/fluid/values.yaml", "configStorage"),
                     source("charts/fluid/fluid/templates/controller/thinruntime_controller.yaml",
                            "THIN_FUSE_CONFIG_STORAGE")),
                 "schemes": source(_FUSE_CONFIG, "transformFuseConfig",
                                   note="every mountPoint goes into the FUSE config as written (pvc:// also "
                                        "brings the volume's CSI details)"),
                 "single_mount": source(_FUSE_CONFIG, "transformFuseConfig",
                                        note="every mount of the Dataset goes into config.json's mounts"),
                 "needs_mounts": (source(_FUSE_CONFIG, "transformFuseConfig",
                                         note="a Dataset without mounts gets a config with none (\"dynamic "
                                              "mount where dataset starts without any mount\"); "
                                              "transform_fuse_test.go 'dataset has no mounts'"),
                                  source("pkg/ddc/thin/validate.go", "validateDuplicateDatasetMounts",
                                         note="no mounts: nothing to refuse")),
                 "references": (source("pkg/ddc/base/dataset.go", "CheckReferenceDataset"),
                                source("pkg/utils/dataset_runtime.go", "CreateRuntimeForReferenceDatasetIfNotExist",
                                       note="the Dataset controller creates a ThinRuntime for a dataset:// Dataset"))},
    ),
    extra_kinds=(ExtraKind(PROFILE_KIND, PROFILE_SPEC, namespaced=False, named_by="spec/profileName",
                           named_by_source=source("api/v1alpha1/thinruntime_types.go", "ThinRuntimeProfileName")),),
    section=SpecSection("thin", ThinSettings, SETTINGS_DOC),
    rules=RULES,
    lowering=Lowering(
        default_profile="thin-default",
        one_path_per_tier=True,
        sources={"one_path_per_tier": (_CACHE_DIR, _CACHE_DIR_VOLUME),
                 "single_tier": (_CACHE_DIR, source("pkg/ddc/thin/transform.go", "transformWorkers",
                                                     note="Worker.CacheDir = levels[0].path")),
                 "path_separator": (paths_split_at_comma(note="the runtime info splits a level's path at ','"),
                                    _CACHE_DIR_VOLUME),
                 "mem_default_path": (_CACHE_DIR, _CACHE_DIR_VOLUME),
                 "emptydir_needs_path": (_CACHE_DIR, _CACHE_DIR_VOLUME),
                 "default_replicas": workers_as_written(
                     "pkg/ddc/thin/worker.go", note="workers only with worker.enabled (isWorkerEnable); then "
                     "spec.replicas, no default (left out, 0): fluidgen writes 1")},
    ),
    hooks=Hooks(
        import_section=_import_section,
        check=_check,
        finish_runtime=_finish,
        extra_objects=_profile,
    ),
    starter=Starter(
        source="<SCHEME>://<LOCATION>",
        lines=("thin:", "  fileSystemType: <FILE_SYSTEM_TYPE>  # or profileName: a profile already in the cluster",
                       "  profile:", "    fuse: {image: <FUSE_IMAGE>, imageTag: <FUSE_IMAGE_TAG>}"),
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"), ("ConfigMap", "{full}-fuse-conf"),
                 ("Secret", "{full}-fuse-conf"), ("ConfigMap", "{name}-thin-values")),
        sources={"chart_fullname": named_after_runtime("pkg/ddc/thin/transform.go"),
                 "objects": (source("charts/thin/templates/worker/statefuleset.yaml", "StatefulSet"),
                             source("charts/thin/templates/fuse/daemonset.yaml", "DaemonSet"),
                             source("charts/thin/templates/fuseconfig/fuseconfig.yaml", "ConfigMap"))},
    ),
    edits=Edits(
        # Nothing of a running ThinRuntime is synced: SyncReplicas returns nil (pkg/ddc/thin/replicas.go)
        # and SyncRuntime is empty; the engine keeps the runtime it was built with, so even fuse.options
        # reach the FUSE config only from a new engine (a re-created runtime or a restarted controller).
        runtime=(),
        # Dataset edits reach the running FUSE pods: each sync rewrites the FUSE config (config.json
        # in the fuse-conf ConfigMap; THIN_FUSE_CONFIG_STORAGE defaults to configmap) from the current
        # Dataset and bumps an annotation on every FUSE pod (pkg/ddc/thin/ufs.go ShouldUpdateUFS,
        # updateFuseConfigOnChange, updateFusePod). Secrets are mounted into FUSE pods when they are
        # created (transform_config.go transformEncryptOptionsWithSecretVolumes).
        mounts=(MountSync("config", source("pkg/ddc/thin/ufs.go", "updateFuseConfigOnChange"), default=FUSE_CONFIG),),
        # An accessModes edit: the same sync renders config.json's accessModes from the current Dataset
        # (transformFuseConfig: ReadOnlyMany when none), so the running FUSE pods see the new modes in
        # their config file. The ro option Fluid gives the FUSE program (parseFuseOptions, from the
        # Dataset's modes) is the MOUNT_OPTIONS variable of the FUSE DaemonSet, rendered when the
        # runtime is created and never again (transform_fuse.go transformFuse; SyncRuntime is empty), and
        # the PersistentVolume and claim keep the modes they were created with
        # (pkg/utils/dataset/volume/create.go CreatePersistentVolumeForRuntime).
        dataset=(EditFact("accessModes", CONFIG_ONLY, source(_FUSE_CONFIG, "transformFuseConfig",
                                                             note="config.json's accessModes follow the Dataset; "
                                                                  "MOUNT_OPTIONS (parseFuseOptions) and the claim "
                                                                  "do not"), "fuse"),),
    ),
    health=Health(
        # Without worker.enabled (fluidgen never sets it) Fluid runs FUSE only: the runtime is ready
        # with fusePhase Ready and setupDuration (pkg/ddc/thin/status.go CheckAndUpdateRuntimeStatus,
        # every supported version); see fluidgen/catalog/healthcheck.py FUSE_ONLY.
        status_shape="fuse-only",
        # With worker.enabled, PartialReady workers count as ready as for any runtime; without it,
        # CheckWorkersReady returns ready at once (isWorkerEnable false).
        sources={"status_shape": source("pkg/ddc/thin/status.go", "CheckAndUpdateRuntimeStatus"),
                 "partial_workers_ready": partial_ready("pkg/ddc/thin")},
    ),
    workloads=Workloads(
        # "root": Fluid places no mount itself; the profile's FUSE program mounts at the volume's root.
        sources={"data_layout": source(_FUSE_CONFIG, "transformFuseConfig",
                                       note="config.json's targetPath is the volume's root and the profile's FUSE "
                                            "program decides what it mounts there; Fluid's own programs "
                                            "(addons/*/docker) mount the first mount at the root. A dataset:// "
                                            "reference gets the referenced Dataset's volume (lower/workloads.py)")},
    ),
    fields=FIELDS,
)
