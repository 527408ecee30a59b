"""One health judgement for every kind fluidgen emits, as data, and its Python evaluator.

Each status family (Dataset, runtime, a runtime that may run FUSE only, a runtime with a status per component, data
operation, training job) is an ordered list of rules over the object; the first rule whose
predicates all hold gives the status and the message. The same rules are rendered to Argo CD
health scripts in Lua (fluidgen/commands/argocd.py) and to Flux `healthCheckExprs` in CEL
(fluidgen/commands/flux.py), and judged here in Python (`health`, `fluidgen.health`). Every family
names the Fluid (or Kubeflow) code its fields and phases come from, with the versions the
fact holds for. `readiness(kind)` gives the conditions a workflow engine waits on, checked
against the same rules by the tests.

Predicates read a field as text: a missing field reads as "", so `Is(path, "")` holds for an
unset field. Messages are built from literal text, field values, and the message of the
newest condition of a type (Fluid keeps one condition per type, not in time order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from ..base.fluidsource import FluidSource, source
from ..base.versions import NAMES
from ..engines.engine_table import ENGINES
from ..fluid.jobkinds import WORKLOADS
from ..fluid.operations import OPERATIONS

Status = Literal["Healthy", "Progressing", "Degraded", "Suspended"]
STATUSES: tuple[Status, ...] = ("Healthy", "Progressing", "Degraded", "Suspended")
MASTER = NAMES[-1:]  # Fluid's master


# Predicates ------------------------------------------------------------------------------


@dataclass(frozen=True)
class NoStatus:
    """The object has no status yet."""


@dataclass(frozen=True)
class Is:
    """The field at `path` (dotted, from the object's root) reads as one of `values`."""

    path: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class IsFalse:
    """The boolean field at `path` is false (not merely missing)."""

    path: str


@dataclass(frozen=True)
class Cond:
    """status.conditions holds a condition of this type with status "True"."""

    type: str


@dataclass(frozen=True)
class Not:
    pred: Pred


Pred = NoStatus | Is | IsFalse | Cond | Not


def is_(path: str, *values: str) -> Is:
    return Is(path, values)


def set_(path: str) -> Not:
    return Not(Is(path, ("",)))


# Message parts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """The field's text, or `default` when it is missing or empty."""

    path: str
    default: str = ""


@dataclass(frozen=True)
class CondMessage:
    """The message of the newest condition of `type` (any type when None), or `default`."""

    type: str | None
    default: str


@dataclass(frozen=True)
class IfSet:
    """`parts` only when the field at `path` is set."""

    path: str
    parts: tuple[Part, ...]


Part = str | Field | CondMessage | IfSet


@dataclass(frozen=True)
class Rule:
    when: tuple[Pred, ...]  # all must hold; () always holds
    status: Status
    message: tuple[Part, ...]


@dataclass(frozen=True)
class Family:
    name: str
    summary: str
    rules: tuple[Rule, ...]
    sources: tuple[FluidSource, ...]
    elsewhere: tuple[str, ...] = ()  # sources outside Fluid (Kubeflow's operators)


# The rules -------------------------------------------------------------------------------

DATASET = Family("dataset", "Dataset: status.phase and the newest condition's message", (
    Rule((is_("status.phase", "Bound"),), "Healthy",
         ("Bound to its runtime", IfSet("status.cacheStates.cachedPercentage",
                                        ("; ", Field("status.cacheStates.cachedPercentage"), " cached")))),
    Rule((is_("status.phase", "Failed"),), "Degraded", (CondMessage(None, "Fluid failed to bind the Dataset"),)),
    Rule((is_("status.phase", "Updating"),), "Progressing", (CondMessage("Updating", "Updating its mounts"),)),
    Rule((is_("status.phase", "DataMigrating"),), "Progressing", ("A DataMigrate is writing into the Dataset",)),
    Rule((is_("status.phase", "NotBound", "Pending", ""),), "Progressing",
         (CondMessage(None, "Waiting for its runtime (same name and namespace) to be ready"),)),
    Rule((), "Progressing", ("Unknown Dataset phase ", Field("status.phase"))),
), (source("api/v1alpha1/dataset_types.go", "DatasetPhase", note="Pending, Bound, Failed, NotBound, Updating, "
                                                                  "DataMigrating or \"\"; DatasetStatus conditions"),))


def _runtime_rules(master: str, worker: str, workers: tuple[Part, ...], master_said: Part,
                   worker_said: Part) -> tuple[Rule, ...]:
    """Shared by every runtime: phases are RuntimePhase values ("", NotReady, PartialReady,
    Ready); setupDuration is set once the runtime was first ready, so NotReady after it is a loss."""
    return (
        Rule((NoStatus(),), "Progressing", ("Waiting for Fluid to set up the runtime",)),
        Rule((is_(worker, "Ready"), Not(is_(master, "NotReady"))), "Healthy",
             ("Master and workers ready (", *workers, ")")),
        Rule((set_("status.setupDuration"), is_(master, "NotReady")), "Degraded",
             (master_said, " (was ready after ", Field("status.setupDuration"), ")")),
        Rule((set_("status.setupDuration"), is_(worker, "NotReady")), "Degraded",
             (worker_said, " (", *workers, "; was ready after ", Field("status.setupDuration"), ")")),
        Rule((is_(worker, "PartialReady"),), "Progressing", (*workers, "; the cache serves data meanwhile")),
        Rule((Not(is_(master, "Ready", "PartialReady", "")),), "Progressing", ("Setting up the master",)),
        Rule((), "Progressing", ("Setting up the workers (", *workers, ")")),
    )


_WORKERS: tuple[Part, ...] = (Field("status.workerNumberReady", "0"), "/",
                              Field("status.desiredWorkerNumberScheduled", "0"), " workers ready")
_RUNTIME_RULES = _runtime_rules("status.masterPhase", "status.workerPhase", _WORKERS,
                                CondMessage("MasterReady", "The master is not ready"),
                                CondMessage("WorkersReady", "The workers are not ready"))
_RUNTIME_SOURCES = (
    source("api/v1alpha1/status.go", "RuntimePhase", note="RuntimeStatus masterPhase/workerPhase/fusePhase, "
                                                            "setupDuration, conditions MasterReady/WorkersReady"),
    source("pkg/ddc/base/setup.go", "Setup", note="master, then workers, then CheckAndUpdateRuntimeStatus, which "
                                                  "sets setupDuration once the runtime is ready"),
)

RUNTIME = Family("runtime", "Runtime: masterPhase/workerPhase (FUSE starts only where pods use the data, so its "
                            "phase does not decide)", _RUNTIME_RULES, _RUNTIME_SOURCES)

# The thin engine without worker.enabled (what fluidgen emits) runs only FUSE: Fluid sets fusePhase
# Ready, setupDuration and a FusesInitialized condition, and never a master or worker phase.
FUSE_ONLY = Family("fuse-only", "Thin engine: fuse-only (Fluid's default) judged by fusePhase and "
                                "setupDuration; with workers enabled, as any runtime", (
    _RUNTIME_RULES[0],
    Rule((is_("status.masterPhase", ""), is_("status.workerPhase", ""), is_("status.fusePhase", "Ready"),
          set_("status.setupDuration")), "Healthy",
         ("FUSE ready: fuse-only runtime, no master or workers (set up in ", Field("status.setupDuration"),
          ")")),
    Rule((is_("status.masterPhase", ""), is_("status.workerPhase", "")), "Progressing",
         ("Waiting for Fluid to initialise the FUSE",)),
    *_RUNTIME_RULES[1:],
), (*_RUNTIME_SOURCES,
    source("pkg/ddc/thin/status.go", "CheckAndUpdateRuntimeStatus", note="without worker.enabled: only fusePhase "
                                                                         "Ready, setupDuration, FusesInitialized"),
    source("pkg/ddc/thin/worker.go", "ShouldSetupWorkers", note="no workers without worker.enabled")))

_C_WORKERS: tuple[Part, ...] = (Field("status.worker.readyReplicas", "0"), "/",
                                Field("status.worker.desiredReplicas", "0"), " workers ready")
COMPONENTS = Family("components", "Component runtime (the generic cache engine): a status per component "
                                  "(master/worker/client); the client (FUSE) does not decide", _runtime_rules(
    "status.master.phase", "status.worker.phase", _C_WORKERS,
    Field("status.master.message", "The master is not ready"),
    Field("status.worker.message", "The workers are not ready")),
    (source("api/v1alpha1/cacheruntime_status.go", "RuntimeComponentStatus", MASTER,
            note="status.master/worker/client: phase, reason, message, replica counts"),))

# A Cron operation goes back to Pending (duration "-") while each scheduled run executes, so
# only a failed run decides; it must not hold a GitOps sync in progress between runs.
OPERATION = Family("operation", "Data operation: status.phase; a Cron operation is healthy between runs", (
    Rule((NoStatus(),), "Progressing", ("Waiting for its Dataset to be bound",)),
    Rule((is_("spec.policy", "Cron"), is_("status.phase", "Failed")), "Degraded",
         (CondMessage("Failed", "The last scheduled run failed"),)),
    Rule((is_("spec.policy", "Cron"),), "Healthy",
         ("Scheduled", IfSet("status.lastSuccessfulTime", ("; last run succeeded at ",
                                                           Field("status.lastSuccessfulTime"))))),
    Rule((is_("status.phase", "Complete"),), "Healthy",
         (CondMessage("Complete", "Complete"), IfSet("status.duration", (" (took ", Field("status.duration"), ")")))),
    Rule((is_("status.phase", "Failed"),), "Degraded", (CondMessage("Failed", "Failed"),)),
    Rule((is_("status.phase", "Executing"),), "Progressing", ("Running",)),
    Rule((is_("status.phase", "Pending", ""), IsFalse("status.waitingFor.operationComplete")), "Progressing",
         ("Waiting for the operation it runs after",)),
    Rule((is_("status.phase", "Pending", ""),), "Progressing", ("Waiting for its Dataset to be bound",)),
    Rule((), "Progressing", ("Unknown phase ", Field("status.phase"))),
), (source("pkg/common/types.go", "PhaseComplete", note="Phase: \"\", Pending, Executing, Complete, Failed"),
    source("api/v1alpha1/status.go", "OperationStatus", note="phase, duration, conditions, waitingFor, "
                                                           "lastSuccessfulTime"),
    source("pkg/controllers/v1alpha1/dataload/status_handler.go", "CronStatusHandler",
           note="GetOperationStatus: Complete or Failed -> Pending while the next run executes"),
    source("pkg/controllers/v1alpha1/datamigrate/status_handler.go", "CronStatusHandler"),
    source("pkg/controllers/v1alpha1/dataprocess/status_handler.go", "CronStatusHandler", MASTER)))

JOB = Family("job", "Training job: Kubeflow JobStatus conditions (Created, Running, Restarting, Succeeded, "
                    "Suspended, Failed), TrainJob and batch/v1 Job (Complete, Failed, Suspended)", (
    Rule((Cond("Failed"),), "Degraded", (CondMessage("Failed", "The job failed"),)),
    Rule((Cond("Succeeded"),), "Healthy", (CondMessage("Succeeded", "The job succeeded"),)),
    Rule((Cond("Complete"),), "Healthy", (CondMessage("Complete", "The job succeeded"),)),
    Rule((Cond("Suspended"),), "Suspended", (CondMessage("Suspended", "The job is suspended"),)),
    Rule((Cond("Running"),), "Progressing", (CondMessage("Running", "Running"),)),
    Rule((Cond("Restarting"),), "Progressing", (CondMessage("Restarting", "Running"),)),
    Rule((), "Progressing", ("Waiting for the operator to start the job",)),
), (), elsewhere=(
    "kubeflow/mpi-operator pkg/apis/kubeflow/v2beta1/types.go JobConditionType (MPIJob)",
    "kubeflow/training-operator pkg/apis/kubeflow.org/v1/common_types.go JobConditionType (PyTorchJob)",
    "kubeflow/trainer pkg/apis/trainer/v1alpha1/trainjob_types.go TrainJob conditions Complete, Failed, Suspended",
    "kubernetes batch/v1 JobConditionType Complete, Failed, Suspended (Job)"))

FAMILIES: dict[str, Family] = {f.name: f for f in (DATASET, RUNTIME, FUSE_ONLY, COMPONENTS, OPERATION, JOB)}


@cache
def family_of() -> dict[str, str]:
    """Kind -> status family, for every kind fluidgen emits that has a status worth judging."""
    out = {"Dataset": DATASET.name}
    out.update({e.kind: e.health.status_shape for e in ENGINES.values()})
    out.update({kind: OPERATION.name for kind in OPERATIONS})
    out.update({kind: JOB.name for kind in WORKLOADS})
    return dict(sorted(out.items()))


# The Python evaluator --------------------------------------------------------------------


@dataclass(frozen=True)
class Health:
    status: Status
    message: str


def value(obj: Mapping[str, Any], path: str) -> Any:
    found: Any = obj
    for key in path.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(key)
    return found


def text(obj: Mapping[str, Any], path: str) -> str:
    found = value(obj, path)
    if found is None:
        return ""
    if isinstance(found, bool):
        return "true" if found else "false"  # as Lua's tostring
    return str(found)


def _conditions(obj: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = value(obj, "status.conditions")
    return [c for c in found if isinstance(c, Mapping)] if isinstance(found, list) else []


def _holds(obj: Mapping[str, Any], pred: Pred) -> bool:
    if isinstance(pred, NoStatus):
        return obj.get("status") is None
    if isinstance(pred, Is):
        return text(obj, pred.path) in pred.values
    if isinstance(pred, IsFalse):
        return value(obj, pred.path) is False
    if isinstance(pred, Cond):
        return any(c.get("type") == pred.type and c.get("status") == "True" for c in _conditions(obj))
    return not _holds(obj, pred.pred)


def newest_message(obj: Mapping[str, Any], kind: str | None) -> str:
    best: Mapping[str, Any] | None = None
    for c in _conditions(obj):
        newer = best is None or str(c.get("lastTransitionTime") or "") >= str(best.get("lastTransitionTime") or "")
        if (kind is None or c.get("type") == kind) and newer:
            best = c
    message = best.get("message") if best is not None else None
    return message if isinstance(message, str) else ""


def _say(obj: Mapping[str, Any], parts: Sequence[Part]) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Field):
            out.append(text(obj, part.path) or part.default)
        elif isinstance(part, CondMessage):
            out.append(newest_message(obj, part.type) or part.default)
        elif text(obj, part.path) != "":
            out.append(_say(obj, part.parts))
    return "".join(out)


def judge(family: Family, obj: Mapping[str, Any]) -> Health:
    for rule in family.rules:
        if all(_holds(obj, p) for p in rule.when):
            return Health(rule.status, _say(obj, rule.message))
    return Health("Progressing", "")  # unreachable: every family ends with a rule that always holds


def health(obj: Mapping[str, Any]) -> Health:
    """The health of a Fluid object or training job (a dict as the API server returns it),
    judged exactly as fluidgen's Argo CD and Flux health checks judge it."""
    kind = obj.get("kind") if isinstance(obj, Mapping) else None
    name = family_of().get(kind) if isinstance(kind, str) else None
    if name is None:
        raise ValueError(f"fluidgen judges the health of {', '.join(family_of())}, not {kind!r}")
    return judge(FAMILIES[name], obj)


# What a workflow engine waits on ---------------------------------------------------------


@dataclass(frozen=True)
class Readiness:
    """Argo Workflows resource-template conditions (label-selector syntax over JSON paths;
    None where the status holds only lists, which that syntax cannot query) and a
    `kubectl wait --for=...` argument."""

    kind: str
    success_condition: str | None
    failure_condition: str | None
    kubectl_wait: str


_READY: dict[str, tuple[str | None, str | None, str]] = {
    "dataset": ("status.phase == Bound", "status.phase == Failed", "jsonpath={.status.phase}=Bound"),
    "runtime": ("status.workerPhase == Ready,status.masterPhase != NotReady",
                "status.setupDuration,status.workerPhase == NotReady", "jsonpath={.status.workerPhase}=Ready"),
    "fuse-only": ("status.fusePhase == Ready,status.setupDuration,status.masterPhase notin (NotReady),"
                  "status.workerPhase notin (NotReady,PartialReady)",
                  "status.setupDuration,status.workerPhase == NotReady", "jsonpath={.status.fusePhase}=Ready"),
    "components": ("status.worker.phase == Ready,status.master.phase != NotReady",
                   "status.setupDuration,status.worker.phase == NotReady",
                   "jsonpath={.status.worker.phase}=Ready"),
    "operation": ("status.phase == Complete", "status.phase == Failed", "jsonpath={.status.phase}=Complete"),
    "job": (None, None, 'jsonpath={.status.conditions[?(@.type=="Succeeded")].status}=True'),
}
_JOB_WAIT = {"TrainJob": 'jsonpath={.status.conditions[?(@.type=="Complete")].status}=True',
             "Job": 'jsonpath={.status.conditions[?(@.type=="Complete")].status}=True'}
# Counts Argo's selector syntax can read (Kubeflow ReplicaStatus per replica type; batch/v1 JobStatus)
_JOB_ARGO = {"MPIJob": ("status.replicaStatuses.Launcher.succeeded > 0", "status.replicaStatuses.Launcher.failed > 0"),
             "PyTorchJob": ("status.replicaStatuses.Master.succeeded > 0",
                            "status.replicaStatuses.Master.failed > 0"),
             "Job": ("status.succeeded > 0", None)}


def readiness(kind: str) -> Readiness:
    """What a pipeline step waits on after it creates an object of `kind`."""
    name = family_of().get(kind)
    if name is None:
        raise ValueError(f"fluidgen knows readiness for {', '.join(family_of())}, not {kind!r}")
    success, failure, wait = _READY[name]
    if name == "job":
        success, failure = _JOB_ARGO.get(kind, (None, None))
        wait = _JOB_WAIT.get(kind, wait)
    return Readiness(kind, success, failure, wait)
