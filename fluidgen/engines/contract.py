"""The engine contract: what an engine module declares (every fact fluidgen knows about one
Fluid runtime) and the helpers its hooks share. Engine modules import this and the toolkit
only; what they need from above (the schema of each kind) comes in through the Context.

An engine module holds its runtime kind, the schemes it mounts and what each needs
(secret option names, key pairs, endpoints), the data operations it runs, its schema, what
Fluid's controllers create for it, its lint rules and its lowering hooks. Everything else
(output order, lint kind sets, `init --engine` choices, validate dispatch) is derived from
the ENGINES table in engines/engine_table.py. The facts cite the file in
fluid-cloudnative/fluid they come from; every version in versions.py agrees unless a note
says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..base.diagnostics import PathT, did_you_mean
from ..base.fluidsource import ALL, FluidSource, source
from ..base.manifest import Manifest, Tree
from ..base.rules import Rule
from ..base.structural.dsl import Schema
from ..fluid.fields import Fields
from ..fluid.sync import (
    APPLIED,
    CONFIG_ONLY,
    FUSE_CONFIG,
    FUSE_ONLY,
    NO_MOUNT_SYNC,
    ON_RESTART,
    RECREATE,
    ROLLING,
    EditFact,
    MountSync,
    edits,
    scales,
)
from ..model.context import Context

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..model.specparts import CacheTier

__all__ = ["APPLIED", "CONFIG_ONLY", "FUSE_CONFIG", "FUSE_ONLY", "NO_MOUNT_SYNC", "ON_RESTART", "RECREATE", "ROLLING",
           "Context", "EditFact", "Engine", "ExtraKind", "MountSync", "SpecSection", "Storage", "edits", "scales"]


@dataclass(frozen=True)
class Storage:
    """What an engine needs to reach one kind of storage (a URI scheme)."""

    secret_options: frozenset[str] = frozenset()  # encryptOption names the engine reads
    other_names_read: bool = False  # whether other names are used too (passed on, or made env vars)
    required: frozenset[str] = frozenset()  # secret options that must always be given
    pairs: tuple[frozenset[str], ...] = ()  # options given together or not at all (a key pair)
    needs_one_of: frozenset[str] = frozenset()  # at least one of these secret options
    options: tuple[str, ...] = ()  # plain options that must be set (an endpoint)
    suggested: Mapping[str, str] = field(default_factory=dict)  # plain options a starter spec shows
    endpoint_in_uri: bool = False  # the URI must name the endpoint: scheme://bucket.endpoint/path
    uri_pattern: str = ""  # a regular expression the whole URI must match
    uri_example: str = ""  # how a matching URI looks
    source: FluidSource | None = None  # the Fluid code that reads these names


@dataclass(frozen=True)
class ExtraKind:
    """A kind an engine brings besides its runtime (thin's profile, the cache engine's class)."""

    kind: str
    spec: Schema
    namespaced: bool  # its CRD's scope: every extra kind states it (tests/diagnosis hold it to the CRD)
    top_level: bool = False  # its fields sit beside metadata, not under spec
    named_by: str = ""  # the runtime's field naming it, as a kustomize field path (output.py's kustomizeconfig)
    named_by_source: FluidSource | None = None  # where Fluid reads that field


@dataclass(frozen=True)
class SpecSection:
    """The engine's own section of `runtime:` in a spec (thin:, cacheClass:)."""

    key: str
    model: type[BaseModel]
    doc: str


# What Fluid does with an edit of a running runtime (fluidgen plan): the words and records are
# fluid/sync.py's. An engine lists what its sync carries out as EditFacts, each with its Fluid
# source and versions; every other path waits for the runtime to be re-created.
# The runtime fields the spec computes (runtime.replicas, runtime.cache) for the classic
# runtimes, and where a user sets them instead of in overrides.
CLASSIC_COMPUTED = {"replicas": "runtime.replicas", "tieredstore": "runtime.cache"}
MEM_DEFAULT_PATH = "/dev/shm"


def classic_level(separator: str, t: CacheTier, mem_path: str | None = MEM_DEFAULT_PATH) -> Tree:
    """A tieredstore level of the classic runtimes (api/v1alpha1/common.go, Level)."""
    paths = list(t.path) or ([mem_path] if t.medium == "MEM" and mem_path else [])
    level: Tree = {"mediumtype": t.medium}
    if paths:
        level["path"] = separator.join(p.rstrip("/") or "/" for p in paths)
    if len(t.quota) == 1:
        level["quota"] = t.quota[0]
    else:
        level["quotaList"] = ",".join(t.quota)
    for key in ("high", "low", "volumeType"):
        if getattr(t, key) is not None:
            level[key] = getattr(t, key)
    return level


def replicas(ctx: Context, engine: Engine) -> int | None:
    """Cache workers: the spec's, else the engine's default; `replicas: null` leaves it to Fluid."""
    r = ctx.spec.runtime
    return r.replicas if r.replicas_written else engine.lowering.default_replicas


def classic_generate(ctx: Context, engine: Engine) -> Tree:
    """What the spec itself sets on a classic runtime: workers and cache tiers."""
    count = replicas(ctx, engine)
    out: Tree = {} if count is None else {"replicas": count}
    if ctx.spec.runtime.cache:
        how = engine.lowering
        out["tieredstore"] = {"levels": [classic_level(how.path_separator, t, how.mem_default_path)
                                         for t in ctx.spec.runtime.cache]}
    return out


def report_schema_problems(ctx: Context, kind: str, value: Tree, at: PathT,
                           where: Callable[[PathT], PathT] | None = None) -> None:
    """Report where `value`, the spec of an object an engine brings besides its runtime (thin's
    profile, the cache engine's class), breaks `kind`'s schema in the target version; `where`
    maps a path in the object to the spec key the user wrote (default: below `at`)."""
    for p in ctx.spec_validator(ctx.version, kind).problems(value):
        message = p.message
        if p.unknown_field:
            hint = did_you_mean(str(p.path[-1]), p.choices)
            message = f"{kind} has no field {'.'.join(map(str, p.path))}{hint}"
        ctx.report(where(p.path) if where else (*at, *p.path), message, stage="resolve")


def not_the_reference_engine(versions: tuple[str, ...] = ALL) -> FluidSource:
    """Where Fluid decides that a dataset:// reference Dataset is served by the thin engine, not
    by this engine: the Dataset controller creates the thin engine's runtime for it (Mounts.references)."""
    return source("pkg/utils/dataset_runtime.go", "CreateRuntimeForReferenceDatasetIfNotExist", versions,
                  note="a dataset:// Dataset gets the thin engine's runtime, never another engine's")


def runtime_status(types_file: str, kind: str, worker_file: str,
                   versions: tuple[str, ...] = ALL) -> tuple[FluidSource, FluidSource]:
    """Where Fluid decides Health.status_shape "runtime" for a kind: its status is a RuntimeStatus
    (api/v1alpha1/status.go), whose workerPhase the engine's CheckWorkersReady sets through
    pkg/ctrl Helper.CheckAndSyncWorkerStatus (GetPhaseFromStatefulset: no workers wanted is Ready)."""
    return (source(types_file, kind, versions, note=f"{kind}.Status is a RuntimeStatus"),
            source(worker_file, "CheckWorkersReady", versions,
                   note="workerPhase and WorkersReady from Helper.CheckAndSyncWorkerStatus"))


def partial_ready(engine_dir: str, versions: tuple[str, ...] = ALL,
                  status_check: str = "CheckAndUpdateRuntimeStatus") -> tuple[FluidSource, FluidSource]:
    """Where Fluid decides Health.partial_workers_ready True for a RuntimeStatus engine: its
    CheckWorkersReady returns Helper.CheckAndSyncWorkerStatus's readyOrPartialReady (PartialReady
    counts), and its CheckAndUpdateRuntimeStatus calls the workers ready once one is ready."""
    return (source(f"{engine_dir}/worker.go", "CheckWorkersReady", versions,
                   note="returns pkg/ctrl Helper.CheckAndSyncWorkerStatus: Ready or PartialReady is ready"),
            source(f"{engine_dir}/status.go", status_check, versions,
                   note="workers ready when runtime.Replicas() == 0 || workers.Status.ReadyReplicas > 0; "
                        "then setupDuration, and Setup binds the Dataset"))


def mounts_only(path: str, function: str, versions: tuple[str, ...] = ALL) -> FluidSource:
    """Mounts.needs_mounts of a cache whose namespace Fluid builds from the Dataset's mounts
    alone: Fluid does not refuse a Dataset without mounts, but it would cache no storage."""
    return source(path, function, versions,
                  note="the namespace holds the mounts only; Fluid does not refuse a Dataset without mounts, "
                       "which caches no storage: fluidgen refuses it")


def named_after_runtime(transform_file: str, versions: tuple[str, ...] = ALL) -> FluidSource:
    """Where Fluid decides Created.chart_fullname "{name}": the engine's transform sets the chart's
    fullnameOverride to the runtime's name, and the chart names its objects from it."""
    return source(transform_file, "transform", versions,
                  note="value.FullnameOverride = the runtime's name: the chart's objects are {name}-...")


def workers_as_written(worker_file: str, versions: tuple[str, ...] = ALL, note: str = "") -> FluidSource:
    """Where Fluid decides Lowering.default_replicas 1: the engine's SetupWorkers scales the worker
    StatefulSet to runtime.Replicas(), the spec's replicas, which has no default in Fluid (the API
    says "need to be specified"; left out, 0 workers): fluidgen writes one worker."""
    return source(worker_file, "SetupWorkers", versions,
                  note=note or "workers = spec.replicas (pkg/ctrl Helper.SetupWorkers); Fluid has no default, "
                               "left out is 0 workers: fluidgen writes 1")


def paths_split_at_comma(versions: tuple[str, ...] = ALL, note: str = "") -> FluidSource:
    """Where Fluid decides Lowering.path_separator ",": the runtime info splits a level's path at
    commas into its cache paths (and quotaList alike)."""
    return source("pkg/ddc/base/runtime.go", "convertToTieredstoreInfo", versions,
                  note=note or "a level's path is split at ',' into cache paths, each with its quota")


def _no_check(ctx: Context) -> None:
    return None


def _same(ctx: Context, tree: Tree) -> Tree:
    return tree


def _none(ctx: Context) -> list[Manifest]:
    return []


def _no_section(runtime_spec: Mapping[str, Any]) -> Tree | None:
    return None


@dataclass(frozen=True)
class Mounts:
    """What the engine mounts (read by lower/mounts.py, lint's credential rules, init, import)."""

    schemes: frozenset[str] | None  # mountPoint schemes it mounts; None: any
    # The remote schemes listed are the engine's own documented storage, not Fluid's: Fluid hands any
    # scheme to the engine as written, so another one is a warning (the engine may have it), not an error.
    documented_schemes: bool = False
    storage: Mapping[str, Storage] = field(default_factory=dict)  # per scheme, for Dataset mounts
    migrate_storage: Mapping[str, Storage] = field(default_factory=dict)  # per scheme, DataMigrate
    single_mount: bool = False  # uses only the first mount
    # A Dataset without mounts is refused (or serves nothing); False: Fluid runs it without any
    # (thin: mounts added later, vineyard: none at all). Whether it takes mounts is `takes_mounts`.
    needs_mounts: bool = True
    references: bool = False  # the runtime a dataset:// reference Dataset gets (Fluid ignores its spec)
    # Its namespace root is chosen as Alluxio's (GenAlluxioUFSRootPath): a mount at path "/" is
    # honoured only when it is the single mount or local:// / pvc:// (fluidbase.unmounted_at_root; FG124).
    alluxio_root: bool = False
    # Where plain storage options (an endpoint, a region) may also come from the runtime's
    # properties (Alluxio's site properties), not only the mount's options and sharedOptions.
    options_in_properties: FluidSource | None = None
    # The controller's environment variable that chooses how encryptOptions reach the mount, for an
    # engine whose default ("configmap") mounts each Secret as a file whose path becomes the option,
    # overwriting one of the same name silently, while any other setting reads the Secrets' values
    # and refuses a name set twice (fluidbase.encrypt_options_set_twice; FG123). "": not so.
    encrypt_config_storage: str = ""
    # Whether Fluid reads a local:// or pvc:// mount's options at all (Alluxio mounts those as volumes
    # and reads none; the thin engine writes every mount into its FUSE config).
    native_mount_options: bool = False
    # The Fluid source of each field set above (a test fails for a set field without one); each
    # Storage carries its own source, and options_in_properties is one.
    sources: Mapping[str, FluidSource | tuple[FluidSource, ...]] = field(default_factory=dict)

    @property
    def takes_mounts(self) -> bool:
        """Whether a Dataset of this engine may have mounts at all (schemes: none accepted)."""
        return self.schemes is None or bool(self.schemes)


@dataclass(frozen=True)
class Lowering:
    """How the spec becomes the runtime object (read by lower/runtime.py, classic_generate, import)."""

    path_separator: str = ","  # between several cache paths of one tieredstore level
    mem_default_path: str | None = MEM_DEFAULT_PATH  # a MEM tier's path when the spec gives none (None: no path)
    single_tier: bool = True  # reads only one tieredstore level: levels[0], or see fastest_tier
    fastest_tier: bool = False  # that one level is the fastest medium's (fluidbase.fastest_level), not levels[0]
    emptydir_needs_path: bool = True  # a tier on an emptyDir still names its directory
    one_path_per_tier: bool = False  # Fluid uses a tier's path whole, as one directory (no split at commas)
    # The tieredstore levels Fluid makes Memory emptyDirs in the worker pod, one per path sized by its
    # quota: memory the worker container is charged for (FG110). The engine's function, as Fluid
    # decides the medium (a level's volumeSource.emptyDir.medium, when given, over its mediumtype).
    # None: no level is (GooseFS's hostPath, JuiceFS's disk emptyDir, Vineyard and Thin no volume,
    # EFC the first path only).
    worker_memory_emptydir: Callable[[Sequence[Any]], list[Tree]] | None = None
    # Where runtime.replicas and runtime.cache's levels land in the runtime's spec: what the build
    # traces them to, so a problem there is said at the spec's own line.
    replicas_at: tuple[str, ...] = ("replicas",)
    levels_at: tuple[str, ...] = ("tieredstore", "levels")
    defaults: Mapping[str, Any] = field(default_factory=dict)  # built-in runtime spec defaults
    default_replicas: int | None = 1  # workers when the spec says nothing (None: leave it to Fluid)
    computed: Mapping[str, str] = field(default_factory=lambda: dict(CLASSIC_COMPUTED))
    default_profile: str | None = None
    no_default_profile: str = ""  # why there is no bundled default profile, when there is none
    removed_note: str = ""  # why a version lacks it
    # Where Fluid chooses the FUSE mount's ro (read-only Dataset) or rw from the Dataset's access
    # modes, in a default set that the runtime's fuse.args replace (FG131; the engine's
    # finish_runtime puts the mode back). None: the engine keeps ro itself, or has no such args.
    fuse_mode_source: FluidSource | None = None
    # The Fluid source of each field set above (a test fails for a set field without one).
    sources: Mapping[str, FluidSource | tuple[FluidSource, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Hooks:
    """The engine's own code, called at fixed points of a build and of `fluidgen import`."""

    generate: Callable[[Context, Engine], Tree] = classic_generate
    """lower/runtime.py runtime(): what the spec itself sets on the runtime (replicas, cache tiers)."""
    check: Callable[[Context], None] = _no_check
    """lower/runtime.py check(): engine-specific checks of a spec, before lowering."""
    finish_runtime: Callable[[Context, Tree], Tree] = _same
    """lower/runtime.py runtime(): the last word on the runtime's spec, after profiles and overrides."""
    extra_objects: Callable[[Context], list[Manifest]] = _none
    """pipeline.py _lower(): objects the engine brings besides its runtime (thin's profile, a cache class)."""
    import_section: Callable[[Mapping[str, Any]], Tree | None] = _no_section
    """importer/mapping.py: the engine's section of a spec, from a runtime's spec (None: no section)."""


@dataclass(frozen=True)
class Starter:
    """What `fluidgen init --engine` writes (read by init.py)."""

    source: str = "oss://<BUCKET>/<PATH>/"  # the source `fluidgen init` writes
    lines: tuple[str, ...] = ()  # what `fluidgen init` adds under runtime: (the engine's section)


@dataclass(frozen=True)
class Created:
    """What Fluid's controllers create for a runtime named {name}: (kind, name pattern).
    {full} is the chart's fullname ({name} unless the engine says otherwise). Read by lint
    (FG126, names already taken)."""

    objects: tuple[tuple[str, str], ...]  # every engine's chart makes some: no default
    chart_fullname: str = "{name}"
    # One object per master, {i} from 0 (HA Alluxio: a Service each, charts/alluxio master service.yaml)
    per_master: tuple[tuple[str, str], ...] = ()
    # Fluid installs the runtime as a Helm release named after it (pkg/ddc/<engine>/master_internal.go
    # setupMasterInternal: helm.InstallRelease(e.name, ...)); Helm refuses names over 53 characters.
    helm_release: bool = True
    # Objects Fluid makes only as the runtime's related object says (the cache engine's class, the
    # extra kind the runtime names): (kind, name pattern, made(runtime spec, related object or None)),
    # made True or False, or None when the related object is not at hand: nothing is claimed then.
    by_related: tuple[tuple[str, str, Callable[[Mapping[str, Any], Mapping[str, Any] | None], bool | None]], ...] = ()
    # The Fluid source of each field set above (a test fails for a set field without one).
    sources: Mapping[str, FluidSource | tuple[FluidSource, ...]] = field(default_factory=dict)

    def names(self, name: str, spec: Mapping[str, Any] | None = None, related: Mapping[str, Any] | None = None,
              maybe: bool = False) -> list[tuple[str, str]]:
        """What Fluid creates for the runtime `name` with runtime spec `spec` (master count) and
        the related object (by_related); `maybe`: also what it may create, the related object unknown."""
        full = self.chart_fullname.format(name=name)
        out = [(kind, pattern.format(name=name, full=full)) for kind, pattern in self.objects]
        for kind, pattern, made in self.by_related:
            decided = made(spec or {}, related)
            if decided or (maybe and decided is None):
                out.append((kind, pattern.format(name=name, full=full)))
        master = (spec or {}).get("master")
        count = master.get("replicas") if isinstance(master, Mapping) else None
        masters = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 1
        for i in range(masters):
            out += [(kind, pattern.format(name=name, full=full, i=i)) for kind, pattern in self.per_master]
        return out


@dataclass(frozen=True)
class Edits:
    """What Fluid does with an edit of a running runtime (read by plan.py)."""

    # What the runtime's sync carries out of an edit of its spec, per Fluid version: paths not
    # listed wait for a re-created runtime. Most engines' SyncRuntime is empty
    # (pkg/ddc/<engine>/sync_runtime.go); SyncReplicas scales workers (pkg/ddc/<engine>/replicas.go).
    # Every engine states it (no default): at least its SyncReplicas.
    runtime: tuple[EditFact, ...]
    # How it takes up edits of its Dataset's mounts, per Fluid version (fluid/sync.py MountSync).
    mounts: tuple[MountSync, ...] = (NO_MOUNT_SYNC,)
    # What its sync does with an edit of its Dataset's other fields (a prefix of the Dataset's spec,
    # such as accessModes), per Fluid version: fields not listed wait for a re-created runtime.
    dataset: tuple[EditFact, ...] = ()


@dataclass(frozen=True)
class Health:
    """How the runtime's status reads (read by healthcheck.py)."""

    # Shape of the runtime's status, the health family of fluidgen/catalog/healthcheck.py:
    # "runtime" = RuntimeStatus (masterPhase/workerPhase/fusePhase, api/v1alpha1/status.go);
    # "fuse-only" = RuntimeStatus where a ready runtime may run FUSE only (the thin engine);
    # "components" = a status per component (master/worker/client, api/v1alpha1/cacheruntime_status.go)
    status_shape: str = "runtime"
    # Whether Fluid counts the runtime ready (and binds the Dataset) while only some workers are
    # ready (phase PartialReady): the engine's worker check and its runtime status check. The
    # family of status_shape must judge it alike (healthcheck.disagreements).
    partial_workers_ready: bool = True
    # The Fluid source of each field set above (a test fails for a set field without one).
    sources: Mapping[str, FluidSource | tuple[FluidSource, ...]] = field(default_factory=dict)


DATA_LAYOUTS = ("root", "per-mount")


@dataclass(frozen=True)
class Workloads:
    """Where jobs find the data (read by lower/workloads.py)."""

    # Where a Dataset's data appears in the volume Fluid gives pods: "per-mount" = each mount at
    # its absolute `path`, else /<mount name> (pkg/utils/ufs_path_builder.go
    # GenUFSPathInUnifiedNamespace, used by the engine's FUSE); "root" = the one mount is the root.
    data_layout: str = "root"
    # The Fluid source of each field set above (a test fails for a set field without one).
    sources: Mapping[str, FluidSource | tuple[FluidSource, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.data_layout not in DATA_LAYOUTS:  # the readers compare with "per-mount" only
            raise ValueError(f"data_layout must be one of {', '.join(DATA_LAYOUTS)}, got {self.data_layout!r}")


@dataclass(frozen=True)
class Engine:
    """One Fluid runtime: who it is, what it runs, and one sub-record per consumer."""

    name: str  # what a spec writes in runtime.engine
    kind: str
    doc: str
    spec: Schema  # the runtime's spec, every field any version has (versions.py trims it)
    operations: frozenset[str]  # data operation kinds it runs
    mounts: Mounts
    # Every engine states these: each holds facts about its own Fluid code, which no default can
    lowering: Lowering
    created: Created
    edits: Edits
    health: Health
    workloads: Workloads
    # What its Fluid does with each runtime and Dataset field (fluid/fields.py, docs/runtime-fields.md).
    fields: Fields
    extra_kinds: tuple[ExtraKind, ...] = ()
    section: SpecSection | None = None  # the engine's own part of `runtime:` in a spec
    rules: tuple[Rule, ...] = ()
    hooks: Hooks = Hooks()
    starter: Starter = Starter()

    def __post_init__(self) -> None:
        if not self.mounts.takes_mounts and self.starter.source:
            raise ValueError(f"{self.name}: an engine that takes no mounts has no starter source")
