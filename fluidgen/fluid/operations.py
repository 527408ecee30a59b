"""Data operations (DataLoad, DataMigrate, DataProcess, DataBackup): schemas and facts.

Sources (fluid-cloudnative/fluid, every version versions.py lists unless noted):
- api/v1alpha1/data*_types.go and common.go (OperationRef, runAfter): fields.
- pkg/utils/dataload.go, datamigrate.go, dataprocess.go, databackup.go: the Helm release and
  Job/Pod names Fluid creates for each operation.
- pkg/controllers/v1alpha1/*: an operation runs once; editing a finished one runs nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..base.fluidsource import ALL, FluidSource, before, fact, holding, since, source
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, Schema, array, fields, int32, k8s, obj, string
from ..base.versions import V1_1_0_DEV
from .common import (
    AFFINITY,
    ENCRYPT_OPTIONS,
    ENV_VARS,
    POD_METADATA,
    RESOURCES,
    RUN_AS,
    TOLERATIONS,
    VOLUME_MOUNTS,
    VOLUMES,
)

POLICY = string(enum=("Once", "Cron", "OnEvent"))
# What each policy does on each engine and version: the policy rows of CELLS below.


@dataclass(frozen=True)
class Operation:
    kind: str
    step: str  # the key of a `dataflow:` step that makes one
    spec: Schema
    job_name: str  # the Job (or Pod) Fluid runs for it; {name} is the operation's name
    release: str  # the Helm release Fluid installs for it; {name} is the operation's name
    sources: Mapping[str, FluidSource]  # where each field is read
    namespaced_dataset: bool = True  # spec.dataset is {name, namespace} (DataBackup: a bare name)
    # Where the operation names other objects, as kustomize field paths (output.py's kustomizeconfig):
    # the Dataset it works on, the Secrets of its encryptOptions, the ServiceAccount it runs as.
    dataset_refs: tuple[str, ...] = ("spec/dataset",)
    secret_refs: tuple[str, ...] = ()
    account_refs: tuple[str, ...] = ()

    def release_name(self, name: str) -> str:
        return self.release.format(name=name)


# The StatefulSet (and headless Service) of a DataMigrate with parallelism > 1: {release}-workers.
PARALLEL_WORKERS = fact("{release}-workers", source("pkg/utils/dataoperation.go", "GetParallelOperationWorkersName"))


KINDS = ("DataLoad", "DataBackup", "DataMigrate", "DataProcess")
_KIND = string(enum=KINDS)
OBJECT_REF = obj(apiVersion=STR, kind=_KIND, name=STR, namespace=STR, required=("kind", "name"))
RUN_AFTER = obj(
    apiVersion=STR, kind=_KIND, name=STR, namespace=STR, required=("kind", "name"),
    affinityStrategy=obj(
        policy=STR, dependOn=OBJECT_REF,
        prefers=array(obj(name=STR, weight=int32(), required=("name", "weight"))),
        requires=array(obj(name=STR, required=("name",)))))
COMMON = {"runAfter": RUN_AFTER, "ttlSecondsAfterFinished": int32()}
# Every operation names the one it runs after (kind, name, namespace): a kustomize field path.
RUN_AFTER_REF = fact("spec/runAfter", source("api/v1alpha1/common.go", "OperationRef"))
PLACEMENT = {"affinity": AFFINITY, "tolerations": TOLERATIONS, "nodeSelector": STR_MAP, "schedulerName": STR,
             "podMetadata": POD_METADATA, "resources": RESOURCES}
MIGRATE_END = obj(
    dataset=obj(name=STR, namespace=STR, path=STR, required=("name", "namespace")),
    externalStorage=obj(uri=STR, encryptOptions=ENCRYPT_OPTIONS, required=("uri",)))

OPERATIONS: dict[str, Operation] = {op.kind: op for op in (
    Operation("DataMigrate", "migrate", fields(
        {**COMMON, **PLACEMENT, "from": MIGRATE_END, "to": MIGRATE_END, "image": STR, "imageTag": STR,
         "imagePullPolicy": STR, "block": BOOL, "runtimeType": STR, "options": STR_MAP, "policy": POLICY,
         "schedule": STR, "parallelism": int32(minimum=1), "parallelOptions": STR_MAP},
        required=("from", "to")), "{name}-migrate-migrate", "{name}-migrate",
        dataset_refs=("spec/from/dataset", "spec/to/dataset"),
        secret_refs=("spec/from/externalStorage/encryptOptions/valueFrom/secretKeyRef/name",
                     "spec/to/externalStorage/encryptOptions/valueFrom/secretKeyRef/name"), sources={
            "release": source("pkg/utils/datamigrate.go", "GetDataMigrateReleaseName"),
            "job_name": source("pkg/utils/datamigrate.go", "GetDataMigrateJobName"),
            "dataset_refs": source("api/v1alpha1/datamigrate_types.go", "DatasetToMigrate"),
            "secret_refs": source("api/v1alpha1/datamigrate_types.go", "ExternalStorage")}),
    Operation("DataProcess", "process", fields(
        {**COMMON, "policy": POLICY, "schedule": STR,
         "dataset": obj(name=STR, namespace=STR, mountPath=STR, subPath=STR, required=("name", "mountPath")),
         "processor": obj(
             serviceAccountName=STR, podMetadata=POD_METADATA, job=obj(podSpec=k8s("core.v1.PodSpec")),
             script=obj(image=STR, imageTag=STR, imagePullPolicy=STR, command=STR_LIST, source=STR, env=ENV_VARS,
                        volumes=VOLUMES, volumeMounts=VOLUME_MOUNTS, resources=RESOURCES,
                        restartPolicy=string(enum=("Never", "OnFailure")), required=("source",)))},
        required=("dataset", "processor")), "{name}-processor-job", "{name}-processor",
        account_refs=("spec/processor/serviceAccountName",), sources={
            "release": source("pkg/utils/dataprocess.go", "GetDataProcessReleaseName"),
            "job_name": source("pkg/utils/dataprocess.go", "GetDataProcessJobName"),
            "dataset_refs": source("api/v1alpha1/dataprocess_types.go", "TargetDatasetWithMountPath"),
            "account_refs": source("api/v1alpha1/dataprocess_types.go", "ServiceAccountName")}),
    Operation("DataLoad", "load", fields(
        {**COMMON, **PLACEMENT, "dataset": obj(name=STR, namespace=STR, required=("name",)), "loadMetadata": BOOL,
         "target": array(obj(path=STR, replicas=int32(), required=("path",))), "options": STR_MAP,
         "policy": POLICY, "schedule": STR}), "{name}-loader-job", "{name}-loader", sources={
            "release": source("pkg/utils/dataload.go", "GetDataLoadReleaseName"),
            "job_name": source("pkg/utils/dataload.go", "GetDataLoadJobName"),
            "dataset_refs": source("api/v1alpha1/dataload_types.go", "TargetDataset")}),
    Operation("DataBackup", "backup", fields(
        {**COMMON, "dataset": STR, "backupPath": STR, "runAs": RUN_AS}), "{name}-pod", "{name}-charts",
        namespaced_dataset=False, sources={
            "release": source("pkg/utils/databackup.go", "GetDataBackupReleaseName"),
            "job_name": source("pkg/utils/databackup.go", "GetDataBackupPodName"),
            "dataset_refs": source("api/v1alpha1/databackup_types.go", "DataBackupSpec")}),
)}

BY_STEP: dict[str, Operation] = {op.step: op for op in OPERATIONS.values()}


# ---------------------------------------------------------------------------------------------
# The data operations as a family (issue 37): for every field of DataLoad, DataMigrate, DataBackup
# and DataProcess, per engine and Fluid version, what Fluid's controller and the operation's Helm
# chart do with it. One row is one fact with its sources; a row holds for the engines it names and
# the versions all its sources hold for (fluidsource.holding). Engines are fluidgen's names
# (runtime.engine); EVERY_ENGINE is code every engine shares (pkg/dataprocess, the controllers).
#
# Verdicts: read (Fluid uses it), ignored (accepted, never used), refused (Fluid fails the
# operation), broken (Fluid renders a Job, CronJob or Pod that cannot do what the value says),
# gated (used only behind a feature gate that ships off). A row with `when` applies only when every
# (spec path, regex) pair fully matches the value there ("" is the field's own value; a missing
# value is ""): the first such row that matches wins over the field's plain row.
#
# Field names are paths in the operation's spec: `a.b`, `a[].b` for the items of a list, `a.*` for
# any key of a map (`a.key` for one key). lower/dataflow.py checks every field an emitted
# operation sets against these rows, commands/explain.py and docs/data-operations.md read them.

Verdict = Literal["read", "ignored", "refused", "broken", "gated"]
VERDICTS: tuple[Verdict, ...] = ("read", "ignored", "refused", "broken", "gated")
# What fluidgen makes of a spec key in a cell of each verdict.
SEVERITY: dict[str, str] = {"ignored": "warning", "gated": "warning", "refused": "error", "broken": "error"}
EVERY_ENGINE = "*"
RELATIVE = r"[^/].*"  # a path without its leading /: a `when` of rows saying a path must be absolute


@dataclass(frozen=True)
class Cell:
    kind: str
    field: str
    engines: tuple[str, ...]
    verdict: Verdict
    what: str  # what Fluid does with the field (messages, explain, the docs page)
    sources: tuple[FluidSource, ...]
    when: tuple[tuple[str, str], ...]  # (path, pattern) conditions; () for a row that always holds

    @property
    def versions(self) -> tuple[str, ...]:
        return holding(self.sources)

    def holds(self, kind: str, field: str, engine: str, version: str) -> bool:
        return (self.kind == kind and self.field == field and version in self.versions
                and (EVERY_ENGINE in self.engines or engine in self.engines))

    def applies(self, spec: Mapping[str, Any], own: Any) -> bool:
        return all(re.fullmatch(pattern, _text(own if path == "" else _at(spec, path)), re.DOTALL)
                   for path, pattern in self.when)


def _at(spec: Mapping[str, Any], path: str) -> Any:
    node: Any = spec
    for part in path.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return node


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _row(kind: str, field: str, engines: str | tuple[str, ...], verdict: Verdict, what: str,
         *sources: FluidSource, when: tuple[tuple[str, str], ...] = ()) -> Cell:
    if not sources:
        raise ValueError(f"{kind} {field}: a cell needs its Fluid source")
    return Cell(kind, field, (engines,) if isinstance(engines, str) else engines, verdict, what, sources, when)


_OLD, _NEW = before(V1_1_0_DEV), since(V1_1_0_DEV)
_PLACEMENT_FIELDS = ("affinity", "tolerations", "nodeSelector", "schedulerName")
_ON_EVENT = (("", "OnEvent"),)
_NOT_CRON = (("policy", "|Once"),)
_NOT_ONCE = (("policy", "Cron|OnEvent"),)
# runAfter.affinityStrategy is carried out by fluidapp's DataOpJob controller, which runs only with
# the Alpha feature gate DataflowAffinity, off by default (the chart passes DataflowAffinity=false);
# without it the preceding operation's status has no nodeAffinity and nothing is injected.
_GATE = (source("pkg/dataflow/features.go", "DataflowAffinity"),
         source("cmd/fluidapp/app/fluidapp.go", "DataflowAffinity"),
         source("pkg/dataflow/helper.go", "GenerateNodeAffinity"),
         source("charts/fluid/fluid/values.yaml", "featureGates"))
GATED_AFFINITY = ("takes effect only when Fluid's fluidapp controller runs with --feature-gates=DataflowAffinity=true; "
                  "the gate is Alpha and off by default, so on a default install the pods are placed as if it were "
                  "not set")
_WAITS = "the controller starts the operation only after the operation it names has completed"
_ON_EVENT_WHAT = ("policy OnEvent never runs on Fluid: the operation's chart renders a Job for Once and a CronJob for "
                  "Cron, nothing for OnEvent; use Once (the default) or Cron")


def _shared(kind: str, engines: str | tuple[str, ...], charts: tuple[FluidSource, ...], controller: str,
            versions: tuple[str, ...] = ALL, policy: bool = True) -> list[Cell]:
    """The rows every operation of `kind` shares: runAfter, TTL and (with `policy`) Once/Cron/OnEvent."""
    impl = source(f"pkg/controllers/v1alpha1/{controller}/implement.go", "GetTTL", versions)
    after = source("pkg/ddc/base/operation.go", "HasPrecedingOperation", versions)
    rows = [_row(kind, "runAfter", engines, "read", _WAITS, after),
            _row(kind, "runAfter.affinityStrategy", engines, "gated", GATED_AFFINITY, *_GATE),
            _row(kind, "ttlSecondsAfterFinished", engines, "read", "the controller deletes the finished operation "
                 "this many seconds after it completes (GetTTL)", impl)]
    if policy:
        rows += [
            _row(kind, "policy", engines, "read", "Once (the default) renders a Job; Cron a CronJob on `schedule`",
                 *charts),
            _row(kind, "policy", engines, "broken", _ON_EVENT_WHAT, *charts, when=_ON_EVENT),
            _row(kind, "schedule", engines, "read", "the CronJob's schedule (policy Cron)", charts[-1]),
            _row(kind, "schedule", engines, "ignored", "only the CronJob of policy Cron reads schedule; with Once "
                 "the chart renders a Job and the schedule is dropped", charts[-1], when=_NOT_CRON),
            _row(kind, "ttlSecondsAfterFinished", engines, "ignored", "GetTTL gives no TTL to a Cron or OnEvent "
                 "operation, so it is never deleted", impl, when=_NOT_ONCE)]
    return rows


# DataLoad: each engine's genDataLoadValue fills the values of its charts/fluid-dataloader chart.
# fluidgen engine -> (Fluid's engine directory, the Go file, the versions it exists at)
LOADERS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "alluxio": ("alluxio", "pkg/ddc/alluxio/load_data.go", ALL),
    "goosefs": ("goosefs", "pkg/ddc/goosefs/load_data.go", _OLD),
    "jindo": ("jindocache", "pkg/ddc/jindocache/load_data.go", ALL),  # jindocache: the default Jindo engine
    "juicefs": ("juicefs", "pkg/ddc/juicefs/data_load.go", ALL),
    "cache": ("cache", "pkg/ddc/cache/engine/dataload.go", _NEW),
}
# The options keys each loader chart turns into its script's environment (job.yaml `eq $key`).
LOAD_OPTION_KEYS: dict[str, tuple[str, ...]] = {
    "goosefs": ("atomicCache", "expireTime"),
    "jindo": ("accessKeyId", "accessKeySecret", "atomicCache", "cacheListReplica", "dryrun", "endpoint", "filter",
              "forceload", "hdfsConfig", "loadMemorydata", "loadMetadataOnly", "threadNum", "url"),
}


def _load_rows(engine: str) -> list[Cell]:
    impl, go_file, versions = LOADERS[engine]
    chart = f"charts/fluid-dataloader/{impl}/templates"

    def go(function: str = "genDataLoadValue") -> FluidSource:
        return source(go_file, function, versions)

    def job(word: str) -> FluidSource:
        return source(f"{chart}/job.yaml", word, versions)

    def script(word: str) -> FluidSource:
        return source(f"{chart}/configmap.yaml", word, versions)

    charts = (source(f"{chart}/job.yaml", "once", versions), source(f"{chart}/cronjob.yaml", "cron", versions))
    k = "DataLoad"
    rows = [*_shared(k, engine, charts, "dataload", versions),
            _row(k, "dataset", engine, "read", "the Dataset to load; its runtime's engine runs the loader", go()),
            _row(k, "target", engine, "read", "the paths to load, in the cache's namespace (none: no path)", go()),
            _row(k, "target[].path", engine, "read", "a path to load", go(), job("targetPaths"))]
    rows += [_row(k, name, engine, "read", f"the loader pod's {name}", go(), job(name)) for name in _PLACEMENT_FIELDS]
    if engine == "juicefs":
        rows += [
            _row(k, "loadMetadata", engine, "ignored", "the JuiceFS loader only runs `juicefs warmup` on the paths: "
                 "its job.yaml passes no NEED_LOAD_METADATA and its script reads none", job("juicefs_dataload"),
                 script("warmup")),
            _row(k, "target[].replicas", engine, "ignored", "job.yaml sets PATH_REPLICAS but the JuiceFS script "
                 "never reads it: `juicefs warmup` warms each worker's cache once", job("PATH_REPLICAS"),
                 script("warmup")),
            _row(k, "target[].path", engine, "broken", "job.yaml joins the paths with spaces and the script splits "
                 "them on spaces again, so a path with whitespace becomes several paths", job("targetPaths"),
                 script("DATA_PATH"), when=(("", r".*\s.*"),)),
            _row(k, "target[].path", engine, "broken", "the script warms $MOUNTPATH<path>: without its leading / the "
                 "path runs into the mount directory's name (paths are absolute in the JuiceFS namespace)",
                 script("MOUNTPATH"), when=(("", RELATIVE),)),
            _row(k, "options", engine, "read", "passed to `juicefs warmup` (see its keys)", go(), script("OPTION")),
            _row(k, "options.*", engine, "read", "becomes the flag --key=value of `juicefs warmup` (--key when empty)",
                 go(), script("OPTION")),
            _row(k, "options.timeout", engine, "read", "the timeout of each `juicefs warmup` the loader runs, not a "
                 "warmup flag", go(), script("TIMEOUT")),
        ]
    else:
        replicas_word = {"alluxio": "setReplication", "goosefs": "setReplication", "jindo": "replica",
                         "cache": "FLUID_DATALOAD_PATH_REPLICAS"}[engine]
        meta_word = "FLUID_DATALOAD_METADATA" if engine == "cache" else "NEED_LOAD_METADATA"
        rows += [
            _row(k, "loadMetadata", engine, "read", "loads the metadata before the data", go(), job(meta_word)),
            _row(k, "target[].replicas", engine, "read", "the cache copies of the path (default 1)", go(),
                 script(replicas_word) if engine != "cache" else job(replicas_word)),
            _row(k, "target[].path", engine, "broken", "job.yaml strips all whitespace from the paths (nospace) and "
                 "joins them with ':', and the loader splits them on ':' again: a path with ':' becomes two paths, "
                 "one with whitespace another path", job("nospace"), when=(("", r".*[:\s].*"),)),
        ]
        if engine == "jindo":
            rows.append(_row(k, "target[].path", engine, "broken", "the script loads jindo://<path>: without its "
                             "leading / the path's first folder is read as a host", script("checkPathExistence"),
                             when=(("", RELATIVE),)))
        if engine in LOAD_OPTION_KEYS:
            rows += [_row(k, "options", engine, "read", "some keys set the loader script's environment (see its "
                          "keys)", go(), job("options")),
                     _row(k, "options.*", engine, "ignored", "the loader chart reads only the keys "
                          f"{', '.join(LOAD_OPTION_KEYS[engine])}; any other key is dropped", job("options"))]
            rows += [_row(k, f"options.{key}", engine, "read", "sets the loader script's environment", job(key))
                     for key in LOAD_OPTION_KEYS[engine]]
        else:
            rows.append(_row(k, "options", engine, "ignored", "genDataLoadValue never copies spec.options into the "
                             "loader's values, so no option reaches the load", go()))
        if engine == "jindo":
            rows.append(_row(k, "options.cacheListLocationEnable", engine, "ignored", "job.yaml passes it as "
                             "Enable_CACHE_LIST_LOCATION, but the script sets that itself from accessKeyId, "
                             "accessKeySecret, endpoint and url", script("enableCacheListLocation")))
    if engine == "goosefs":
        rows += [_row(k, "podMetadata", engine, "ignored", "the GooseFS loader chart renders no labels or annotations "
                      "from its values", job("dataloader")),
                 _row(k, "resources", engine, "ignored", "genDataLoadValue sets no resources and the GooseFS loader "
                      "chart renders none", go(), job("dataloader"))]
    else:
        rows += [_row(k, "podMetadata", engine, "read", "the loader pod's labels and annotations", go(), job("labels")),
                 _row(k, "resources", engine, "read", "the loader container's resources", go(), job("resources"))]
    return rows


# DataMigrate: JuiceFS is the one engine that migrates (pkg/ddc/juicefs/operate.go).
MIGRATE_GO = "pkg/ddc/juicefs/data_migrate.go"
MIGRATE_CHART = "charts/fluid-datamigrate/juicefs/templates"
MIGRATE_PARALLEL_KEYS = ("sshSecretName", "sshPort", "sshReadyTimeoutSeconds")


def _migrate_rows() -> list[Cell]:
    k, e = "DataMigrate", "juicefs"
    value = source(MIGRATE_GO, "generateDataMigrateValueFile")
    url = source(MIGRATE_GO, "genDataUrl")
    job = source(f"{MIGRATE_CHART}/job.yaml", "datamigrate")
    charts = (source(f"{MIGRATE_CHART}/job.yaml", "once"), source(f"{MIGRATE_CHART}/cronjob.yaml", "cron"))
    rows = [*_shared(k, e, charts, "datamigrate")]
    for side in ("from", "to"):
        rows += [
            _row(k, side, e, "read", "one side is a Dataset, the other external storage or a volume", url),
            _row(k, f"{side}.dataset", e, "read", "a Dataset: the jfs:// URL of its file system", url),
            _row(k, f"{side}.dataset.path", e, "read", "a path in the Dataset's file system", url),
            _row(k, f"{side}.externalStorage", e, "read", "the storage to copy from or to", url),
            _row(k, f"{side}.externalStorage.uri", e, "read", "the `juicefs sync` end; pvc://claim/path mounts the "
                 "claim", url),
            _row(k, f"{side}.externalStorage.uri", e, "broken", "local:// is a Fluid native scheme, but genDataUrl "
                 "handles only pvc:// among them and gives an empty URL, so `juicefs sync` has no end",
                 url, source("pkg/common/fluid_ufs_scheme.go", "IsFluidNativeScheme"), when=(("", "local://.*"),)),
            _row(k, f"{side}.externalStorage.encryptOptions", e, "read", "access-key, secret-key and token go into "
                 "the URL's user info; every option is given to the pod from its Secret", url)]
    rows += [
        _row(k, "image", e, "read", "the migrate image (default: the JuiceFS edition's)", value),
        _row(k, "imageTag", e, "read", "the migrate image's tag (default: the JuiceFS edition's)", value),
        _row(k, "imagePullPolicy", e, "ignored", "the chart fixes imagePullPolicy: IfNotPresent; the spec's is never "
             "read", value, job),
        _row(k, "block", e, "ignored", "no code reads spec.block", value,
             source("api/v1alpha1/datamigrate_types.go", "Block")),
        _row(k, "runtimeType", e, "read", "picks which side's Dataset runs the migration",
             source("pkg/utils/datamigrate.go", "GetTargetDatasetNamespacedNameOfMigrate")),
        _row(k, "runtimeType", e, "refused", "it must be the type of the runtime of one side's Dataset (juicefs), "
             "else the controller fails the migration", source("pkg/utils/datamigrate.go",
             "GetTargetDatasetNamespacedNameOfMigrate"), when=(("", "(?!juicefs$).+"),)),
        _row(k, "options", e, "read", "passed to `juicefs sync` (see its keys)", value),
        _row(k, "options.*", e, "read", "becomes the flag --key=value of `juicefs sync` (--key when empty)", value),
        _row(k, "options.timeout", e, "read", "the migration's timeout, not a sync flag", value),
        _row(k, "podMetadata", e, "read", "the migrate pods' labels and annotations", value, job),
        _row(k, "resources", e, "read", "the migrate container's resources", value, job),
        _row(k, "parallelism", e, "read", "above 1: a StatefulSet of workers and a launcher Job over SSH", value,
             source(f"{MIGRATE_CHART}/statefulset.yaml", "parallelism")),
        _row(k, "parallelOptions", e, "read", "the parallel workers' SSH settings (see its keys)",
             source(MIGRATE_GO, "setParallelMigrateOptions")),
        _row(k, "parallelOptions.*", e, "ignored", "setParallelMigrateOptions reads only "
             f"{', '.join(MIGRATE_PARALLEL_KEYS)}", source(MIGRATE_GO, "setParallelMigrateOptions")),
    ]
    rows += [_row(k, f"parallelOptions.{key}", e, "read", "read by setParallelMigrateOptions (ports and timeouts "
                  "must be integers)", source(MIGRATE_GO, "setParallelMigrateOptions"))
             for key in MIGRATE_PARALLEL_KEYS]
    rows += [_row(k, f, e, "read", f"the migrate pods' {f}", value, job) for f in _PLACEMENT_FIELDS]
    return rows


# DataBackup: Alluxio and GooseFS (operate.go), one Pod from charts/fluid-databackup/<engine>.
BACKUPS: dict[str, tuple[str, tuple[str, ...]]] = {"alluxio": ("pkg/ddc/alluxio/backup_data.go", ALL),
                                                    "goosefs": ("pkg/ddc/goosefs/backup_data.go", _OLD)}


def _backup_rows(engine: str) -> list[Cell]:
    k = "DataBackup"
    go_file, versions = BACKUPS[engine]
    value = source(go_file, "generateDataBackupValueFile", versions)
    validate = source("pkg/controllers/v1alpha1/databackup/implement.go", "Validate", versions)
    parse = source("pkg/utils/databackup.go", "ParseBackupRestorePath", versions)
    return [*_shared(k, engine, (), "databackup", versions, policy=False),
            _row(k, "dataset", engine, "read", "the Dataset (in the DataBackup's namespace) whose metadata is backed "
                 "up", value),
            _row(k, "backupPath", engine, "read", "pvc://<claim>/<path>/ or local:///<path>/: where the backup goes",
                 validate, parse),
            _row(k, "backupPath", engine, "refused", "only pvc:// and local:// paths are supported "
                 "(PathNotSupported)", validate, when=(("", "(?!pvc://|local://).*"),)),
            _row(k, "backupPath", engine, "broken", "pvc:// needs a claim name before the path: ParseBackupRestorePath "
                 "reads an empty claim from pvc:///...", parse, when=(("", "pvc://(/.*)?"),)),
            _row(k, "runAs", engine, "read", "the user the backup files are written as (default: the runtime's "
                 "runAs, else root)", value)]


# DataProcess: pkg/dataprocess renders charts/fluid-dataprocess/common for every engine alike.
PROCESS_CHART = "charts/fluid-dataprocess/common/templates"


def _process_rows() -> list[Cell]:
    k, e = "DataProcess", EVERY_ENGINE
    gen = source("pkg/dataprocess/generate_values.go", "GenDataProcessValue")
    common = source("pkg/dataprocess/generate_values.go", "transformCommonPart")
    script = source("pkg/dataprocess/processor_types.go", "TransformDataProcessValues")
    job = source(f"{PROCESS_CHART}/job.yaml", "dataProcess")
    validate = source("pkg/controllers/v1alpha1/dataprocess/implement.go", "Validate")
    charts = (source(f"{PROCESS_CHART}/job.yaml", "once", _NEW), source(f"{PROCESS_CHART}/cronjob.yaml", "cron", _NEW))
    rows = [*_shared(k, e, charts, "dataprocess", ALL, policy=False), *[
        c for c in _shared(k, e, charts, "dataprocess", _NEW) if c.field in ("policy", "schedule")
        or c.when == _NOT_ONCE]]
    rows += [
        _row(k, "dataset", e, "read", "the Dataset whose claim the processing pod mounts", gen, validate),
        _row(k, "dataset.mountPath", e, "read", "where the claim is mounted in every container", gen),
        _row(k, "dataset.subPath", e, "read", "the folder of the claim mounted", gen),
        _row(k, "processor", e, "read", "a script or a job processor (exactly one)", validate),
        _row(k, "processor.serviceAccountName", e, "read", "the processing pod's service account", common, job),
        _row(k, "processor.podMetadata", e, "read", "the processing pod's labels and annotations", common, job),
        _row(k, "processor.job", e, "read", "the pod spec of the processing Job", script),
        _row(k, "processor.job.podSpec", e, "read", "rendered as the Job's pod spec, the dataset volume added to "
             "every container", script, job),
        _row(k, "processor.job.podSpec", e, "broken", "the chart renders the pod spec as given into a batch/v1 Job, "
             "and a Job's pods must have restartPolicy Never or OnFailure: the API server rejects the Job",
             job, when=(("processor.job.podSpec.restartPolicy", "|Always"),)),
        _row(k, "processor.script", e, "read", "one container running source with command", script, job),
        _row(k, "processor.script.image", e, "read", "the script container's image is image:imageTag", script),
        _row(k, "processor.script.image", e, "broken", "the container's image is image + ':' + imageTag, so "
             "without imageTag it ends in ':' and the kubelet cannot pull it (InvalidImageName)", script,
             when=(("processor.script.imageTag", ""),)),
        _row(k, "processor.script.imageTag", e, "read", "the tag after image:", script),
    ]
    rows += [_row(k, f"processor.script.{f}", e, "read", f"the script container's {what}", script, job)
             for f, what in (("imagePullPolicy", "image pull policy"), ("command", "command, given the script file"),
                             ("source", "script, from a ConfigMap"), ("env", "environment"),
                             ("volumes", "pod's extra volumes"), ("volumeMounts", "extra volume mounts"),
                             ("resources", "resources"), ("restartPolicy", "pod's restart policy (default Never)"))]
    return rows


CELLS: tuple[Cell, ...] = (
    *[c for engine in LOADERS for c in _load_rows(engine)],
    *_migrate_rows(),
    *[c for engine in BACKUPS for c in _backup_rows(engine)],
    *_process_rows(),
)


def generic(path: tuple[str | int, ...]) -> str:
    """The field name of a concrete spec path: ("target", 0, "path") -> "target[].path"."""
    out = ""
    for part in path:
        out += "[]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


_BY_FIELD: dict[tuple[str, str], list[Cell]] = {}
for _cell in CELLS:
    _BY_FIELD.setdefault((_cell.kind, _cell.field), []).append(_cell)


def cells_for(kind: str, field: str, engine: str, version: str) -> list[Cell]:
    """The rows of a field for an engine at a version: those with `when` first, in table order."""
    found = [c for c in _BY_FIELD.get((kind, field), ()) if c.holds(kind, field, engine, version)]
    return sorted(found, key=lambda c: not c.when)


def _field_of(kind: str, path: tuple[str | int, ...], engine: str, version: str) -> str | None:
    """The field name with rows for a concrete path: its own, else `map.*` for a key of a map."""
    name = generic(path)
    if cells_for(kind, name, engine, version):
        return name
    if path and isinstance(path[-1], str):
        wild = generic((*path[:-1], "*"))
        if cells_for(kind, wild, engine, version):
            return wild
    return None


def cell_of(kind: str, path: tuple[str | int, ...], engine: str, version: str, spec: Mapping[str, Any]) -> Cell | None:
    """The row that decides the value at `path` of an operation's spec: the first `when` row that
    matches, else the field's plain row; None when no row names the field."""
    name = _field_of(kind, path, engine, version)
    if name is None:
        return None
    own = _at_path(spec, path)
    return next((c for c in cells_for(kind, name, engine, version) if c.applies(spec, own)), None)


def _at_path(spec: Mapping[str, Any], path: tuple[str | int, ...]) -> Any:
    node: Any = spec
    for part in path:
        if isinstance(part, int):
            node = node[part] if isinstance(node, list) and part < len(node) else None
        else:
            node = node.get(part) if isinstance(node, Mapping) else None
    return node


def decide(kind: str, spec: Mapping[str, Any], engine: str, version: str) -> list[tuple[tuple[str | int, ...], Cell]]:
    """Every field set in an operation's spec whose row is not `read`, with that row; nothing
    below such a field is looked at."""
    out: list[tuple[tuple[str | int, ...], Cell]] = []

    def walk(node: Any, path: tuple[str | int, ...]) -> None:
        if path:
            cell = cell_of(kind, path, engine, version, spec)
            if cell is not None and cell.verdict != "read":
                out.append((path, cell))
                return
        if isinstance(node, Mapping):
            for key in node:
                walk(node[key], (*path, key))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, (*path, i))

    walk(spec, ())
    return out


@dataclass(frozen=True)
class Rendered:
    """What an operation's Helm chart renders on some engines: the objects, and the settings of
    its pod that no spec field changes."""

    kind: str
    engines: tuple[str, ...]
    chart: str  # the chart's templates directory
    objects: tuple[str, ...]  # the kinds its templates make (sorted)
    restart_policy: str  # the pod's restartPolicy, or how it is chosen
    backoff_limit: int | None  # the Job's backoffLimit (None: no Job)
    image: str  # where the pod's image comes from
    sources: tuple[FluidSource, ...]
    host_network: bool = False  # no operation chart sets hostNetwork: the pods are on the pod network

    @property
    def versions(self) -> tuple[str, ...]:
        return holding(self.sources)


_RUNTIME_IMAGE = "the runtime's image (docker.GetWorkerImage), else the engine's default image"


def _rendered_loader(engine: str) -> Rendered:
    impl, go_file, versions = LOADERS[engine]
    chart = f"charts/fluid-dataloader/{impl}/templates"
    image = "the class's DataLoad image, else the worker's" if engine == "cache" else _RUNTIME_IMAGE
    objects = ("CronJob", "Job") if engine == "cache" else ("ConfigMap", "CronJob", "Job")
    return Rendered("DataLoad", (engine,), chart, objects, "Never", 1 if engine == "jindo" else 3, image,
                    (source(go_file, "generateDataLoadValueFile", versions),
                     source(f"{chart}/job.yaml", "backoffLimit", versions)))


RENDERED: tuple[Rendered, ...] = (
    *[_rendered_loader(engine) for engine in LOADERS],
    Rendered("DataMigrate", ("juicefs",), MIGRATE_CHART, ("ConfigMap", "CronJob", "Job", "Service", "StatefulSet"),
             "Never", 3, "spec.image:spec.imageTag, else the JuiceFS edition's default image",
             (source(MIGRATE_GO, "generateDataMigrateValueFile"), source(f"{MIGRATE_CHART}/job.yaml", "backoffLimit"))),
    *[Rendered("DataBackup", (engine,), f"charts/fluid-databackup/{engine}/templates", ("ConfigMap", "Pod"), "Never",
               None, _RUNTIME_IMAGE, (source(go_file, "generateDataBackupValueFile", versions),
                                      source(f"charts/fluid-databackup/{engine}/templates/databackup.yaml",
                                             "restartPolicy", versions)))
      for engine, (go_file, versions) in BACKUPS.items()],
    Rendered("DataProcess", (EVERY_ENGINE,), PROCESS_CHART, ("ConfigMap", "Job"), "script: restartPolicy (default "
             "Never); job: the pod spec's", 3, "processor.script image:imageTag, or the job processor's pod spec",
             (source("pkg/dataprocess/processor_types.go", "TransformDataProcessValues", _OLD),
              source(f"{PROCESS_CHART}/job.yaml", "backoffLimit", _OLD))),
    Rendered("DataProcess", (EVERY_ENGINE,), PROCESS_CHART, ("ConfigMap", "CronJob", "Job"), "script: restartPolicy "
             "(default Never); job: the pod spec's", 3, "processor.script image:imageTag, or the job processor's "
             "pod spec", (source("pkg/dataprocess/processor_types.go", "TransformDataProcessValues", _NEW),
                          source(f"{PROCESS_CHART}/job.yaml", "backoffLimit", _NEW))),
)
