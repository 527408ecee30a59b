"""One health judgement for every kind fluidgen emits, as data, and its Python evaluator.

Each status family (Dataset, runtime, a runtime that may run FUSE only, a runtime with a status per component, data
operation, training job) is an ordered list of rules over the object; the first rule whose
predicates all hold gives the status and the message. The same rules are rendered to Argo CD
health scripts in Lua (fluidgen/commands/argocd.py) and to Flux `healthCheckExprs` in CEL
(fluidgen/commands/flux.py), and judged here in Python (`health`, `fluidgen.health`). Every family
names the Fluid (or Kubeflow) code its fields and phases come from, with the versions the
fact holds for. `readiness(kind)` gives the conditions a workflow engine waits on, checked
against the same rules by the tests.

Predicates read a field as text (a boolean as "true"/"false", a number in decimal): a missing
field reads as "", so `Is(path, "")` holds for an unset field. Messages are built from literal
text, field values, a difference of two counts, and the message of the newest condition of a
type (Fluid keeps one condition per type, not in time order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from ..base.fluidsource import FluidSource, source
from ..base.versions import NAMES
from ..engines.engine_table import INDEX
from ..fluid.jobkinds import WORKLOADS
from ..fluid.operations import OPERATIONS

Status = Literal["Healthy", "Progressing", "Degraded", "Suspended"]
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
class Cond:
    """status.conditions holds a condition of this type with status "True"."""

    type: str


@dataclass(frozen=True)
class Not:
    pred: Pred


Pred = NoStatus | Is | Cond | Not


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
class Missing:
    """How many of the count at `wanted` the count at `ready` lacks (wanted - ready), or
    `default` unless both are whole numbers."""

    wanted: str
    ready: str
    default: str = "some"


@dataclass(frozen=True)
class IfSet:
    """`parts` only when the field at `path` is set."""

    path: str
    parts: tuple[Part, ...]


Part = str | Field | CondMessage | Missing | IfSet


@dataclass(frozen=True)
class Rule:
    when: tuple[Pred, ...]  # all must hold; () always holds
    status: Status
    message: tuple[Part, ...]


@dataclass(frozen=True)
class Wait:
    """What a workflow engine waits on once it created an object of a family: Argo Workflows
    resource-template conditions (label-selector syntax over JSON paths; None where the status
    holds only lists, which that syntax cannot query) and a `kubectl wait --for=...` argument.
    The same phases the family's rules read, said for a step that blocks on them."""

    success: str | None
    failure: str | None
    kubectl: str


@dataclass(frozen=True)
class Family:
    name: str
    summary: str
    rules: tuple[Rule, ...]
    sources: tuple[FluidSource, ...]
    wait: Wait  # what a pipeline step waits on after creating an object of the family (readiness)
    elsewhere: tuple[str, ...] = ()  # sources outside Fluid (Kubeflow's operators)
    # For a runtime family: whether its rules call PartialReady workers ready (None: no workers).
    # Every engine of the family states the same about Fluid (engines.contract Health).
    partial_workers_ready: bool | None = None


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
                                                                  "DataMigrating or \"\"; DatasetStatus conditions"),),
    wait=Wait("status.phase == Bound", "status.phase == Failed", "jsonpath={.status.phase}=Bound"))


def _runtime_rules(master: str, worker: str, workers: tuple[Part, ...], missing: Missing, master_said: Part,
                   worker_said: Part) -> tuple[Rule, ...]:
    """Shared by every runtime: phases are RuntimePhase values ("", NotReady, PartialReady,
    Ready); setupDuration is set once the runtime was first ready, so NotReady after it is a loss.
    PartialReady workers are ready for Fluid (_PARTIAL_SOURCES): the runtime is Healthy and the
    message says how many workers are missing."""
    return (
        Rule((NoStatus(),), "Progressing", ("Waiting for Fluid to set up the runtime",)),
        Rule((is_(worker, "Ready"), Not(is_(master, "NotReady"))), "Healthy",
             ("Master and workers ready (", *workers, ")")),
        Rule((is_(worker, "PartialReady"), Not(is_(master, "NotReady"))), "Healthy",
             ("Ready: ", *workers, ", ", missing, " not ready (PartialReady: Fluid counts the runtime ready "
              "and serves from the ready workers)")),
        Rule((set_("status.setupDuration"), is_(master, "NotReady")), "Degraded",
             (master_said, " (was ready after ", Field("status.setupDuration"), ")")),
        Rule((set_("status.setupDuration"), is_(worker, "NotReady")), "Degraded",
             (worker_said, " (", *workers, "; was ready after ", Field("status.setupDuration"), ")")),
        Rule((Not(is_(master, "Ready", "PartialReady", "")),), "Progressing", ("Setting up the master",)),
        Rule((), "Progressing", ("Setting up the workers (", *workers, ")")),
    )


# Fluid counts PartialReady workers as ready, in every version: GetPhaseFromStatefulset gives
# PartialReady for 0 < ready < wanted, and CheckAndSyncWorkerStatus returns ready for it (the
# WorkersReady condition True, "The workers are partially ready."); Setup (pkg/ddc/base/setup.go)
# then checks the runtime and binds the Dataset. Each engine's own checks are in its
# Health.sources["partial_workers_ready"].
_PARTIAL_SOURCES = (
    source("pkg/ctrl/worker.go", "CheckAndSyncWorkerStatus", note="Ready or PartialReady: readyOrPartialReady "
                                                                  "true, WorkersReady condition True"),
    source("pkg/utils/kubeclient/statefulset.go", "GetPhaseFromStatefulset",
           note="0 wanted or ready >= wanted: Ready; 0 < ready < wanted: PartialReady; else NotReady"),
)


_WORKERS: tuple[Part, ...] = (Field("status.workerNumberReady", "0"), "/",
                              Field("status.desiredWorkerNumberScheduled", "0"), " workers ready")
_RUNTIME_RULES = _runtime_rules("status.masterPhase", "status.workerPhase", _WORKERS,
                                Missing("status.desiredWorkerNumberScheduled", "status.workerNumberReady"),
                                CondMessage("MasterReady", "The master is not ready"),
                                CondMessage("WorkersReady", "The workers are not ready"))
_RUNTIME_SOURCES = (
    source("api/v1alpha1/status.go", "RuntimePhase", note="RuntimeStatus masterPhase/workerPhase/fusePhase, "
                                                            "setupDuration, conditions MasterReady/WorkersReady"),
    source("pkg/ddc/base/setup.go", "Setup", note="master, then workers, then CheckAndUpdateRuntimeStatus, which "
                                                  "sets setupDuration once the runtime is ready"),
    *_PARTIAL_SOURCES,
)

RUNTIME = Family("runtime", "Runtime: masterPhase/workerPhase (FUSE starts only where pods use the data, so its "
                            "phase does not decide)", _RUNTIME_RULES, _RUNTIME_SOURCES, partial_workers_ready=True,
    wait=Wait("status.workerPhase in (Ready,PartialReady),status.masterPhase != NotReady",
                "status.setupDuration,status.workerPhase == NotReady", "jsonpath={.status.workerPhase}=Ready"))

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
    source("pkg/ddc/thin/worker.go", "ShouldSetupWorkers", note="no workers without worker.enabled")),
    partial_workers_ready=True,
    wait=Wait("status.fusePhase == Ready,status.setupDuration,status.masterPhase notin (NotReady),"
                "status.workerPhase notin (NotReady)",
                "status.setupDuration,status.workerPhase == NotReady", "jsonpath={.status.fusePhase}=Ready"))

_C_WORKERS: tuple[Part, ...] = (Field("status.worker.readyReplicas", "0"), "/",
                                Field("status.worker.desiredReplicas", "0"), " workers ready")
COMPONENTS = Family("components", "Component runtime (the generic cache engine): a status per component "
                                  "(master/worker/client); the client (FUSE) does not decide", _runtime_rules(
    "status.master.phase", "status.worker.phase", _C_WORKERS,
    Missing("status.worker.desiredReplicas", "status.worker.readyReplicas"),
    Field("status.master.message", "The master is not ready"),
    Field("status.worker.message", "The workers are not ready")),
    (source("api/v1alpha1/cacheruntime_status.go", "RuntimeComponentStatus", MASTER,
            note="status.master/worker/client: phase, reason, message, replica counts"),
     source("pkg/ddc/cache/engine/status.go", "setWorkerComponentStatus", MASTER,
            note="0 < readyReplicas < desiredReplicas: PartialReady, and ready"),
     source("pkg/ddc/cache/engine/status.go", "CheckAndUpdateRuntimeStatus", MASTER,
            note="ready = master ready and worker ready; then setupDuration")),
    partial_workers_ready=True,
    wait=Wait("status.worker.phase in (Ready,PartialReady),status.master.phase != NotReady",
                "status.setupDuration,status.worker.phase == NotReady", "jsonpath={.status.worker.phase}=Ready"))

# A Cron operation: Fluid installs its CronJob in the Executing phase (reconcileExecuting), and
# after a run it goes back to Pending (duration "-") while the next run executes, so once
# Executing only a failed run decides; before that (Pending with duration "Unfinished", set by
# reconcileNone) the schedule does not exist yet and the operation is in progress.
# waitingFor.operationComplete is true while Fluid waits for the runAfter operation: reconcileNone
# sets it true, reconcilePending returns while it is true, and the dataflow controller sets it
# false once that operation is Complete (the API comment reads the other way; the code decides).
_CRON = is_("spec.policy", "Cron")
_SCHEDULED: tuple[Part, ...] = ("Scheduled", IfSet("status.lastSuccessfulTime",
                                                  ("; last run succeeded at ", Field("status.lastSuccessfulTime"))))
OPERATION = Family("operation", "Data operation: status.phase; a Cron operation is healthy once Fluid installs "
                                "its schedule, between runs too", (
    Rule((NoStatus(),), "Progressing", ("Waiting for its Dataset to be bound",)),
    Rule((_CRON, is_("status.phase", "Failed")), "Degraded", (CondMessage("Failed", "The last scheduled run failed"),)),
    Rule((_CRON, is_("status.phase", "Executing", "Complete")), "Healthy", _SCHEDULED),
    Rule((_CRON, is_("status.phase", "Pending"), is_("status.duration", "-")), "Healthy", _SCHEDULED),
    Rule((is_("status.phase", "Complete"),), "Healthy",
         (CondMessage("Complete", "Complete"), IfSet("status.duration", (" (took ", Field("status.duration"), ")")))),
    Rule((is_("status.phase", "Failed"),), "Degraded", (CondMessage("Failed", "Failed"),)),
    Rule((is_("status.phase", "Executing"),), "Progressing", ("Running",)),
    Rule((is_("status.phase", "Pending", ""), is_("status.waitingFor.operationComplete", "true")), "Progressing",
         ("Waiting for the operation it runs after",)),
    Rule((_CRON, is_("status.phase", "Pending", "")), "Progressing",
         ("Waiting for its Dataset to be bound; Fluid installs the schedule after that",)),
    Rule((is_("status.phase", "Pending", ""),), "Progressing", ("Waiting for its Dataset to be bound",)),
    Rule((), "Progressing", ("Unknown phase ", Field("status.phase"))),
), (source("pkg/common/types.go", "PhaseComplete", note="Phase: \"\", Pending, Executing, Complete, Failed"),
    source("api/v1alpha1/status.go", "OperationStatus", note="phase, duration, conditions, waitingFor, "
                                                           "lastScheduleTime, lastSuccessfulTime"),
    source("pkg/ddc/base/operation.go", "reconcileNone", note="\"\" -> Pending, duration Unfinished, "
                                                              "waitingFor.operationComplete true with runAfter"),
    source("pkg/ddc/base/operation.go", "reconcilePending", note="waits while waitingFor.operationComplete is true; "
                                                                 "locks the Dataset; -> Executing"),
    source("pkg/ddc/base/operation.go", "reconcileExecuting", note="InstallDataOperationHelmIfNotExist: the "
                                                                   "operation's Job, or for Cron its CronJob"),
    source("pkg/controllers/v1alpha1/dataflow/operations.go", "reconcileOperationDataFlow",
           note="waitingFor.operationComplete false once the runAfter operation is Complete"),
    source("pkg/controllers/v1alpha1/dataload/status_handler.go", "CronStatusHandler",
           note="GetOperationStatus: Complete or Failed -> Pending, duration \"-\", while the next run executes"),
    source("pkg/controllers/v1alpha1/datamigrate/status_handler.go", "CronStatusHandler"),
    source("pkg/controllers/v1alpha1/dataprocess/status_handler.go", "CronStatusHandler", MASTER)),
    wait=Wait("status.phase == Complete", "status.phase == Failed", "jsonpath={.status.phase}=Complete"))

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
    "kubernetes batch/v1 JobConditionType Complete, Failed, Suspended (Job)"),
    wait=Wait(None, None, 'jsonpath={.status.conditions[?(@.type=="Succeeded")].status}=True'))

FAMILIES: dict[str, Family] = {f.name: f for f in (DATASET, RUNTIME, FUSE_ONLY, COMPONENTS, OPERATION, JOB)}


def disagreements(engines: Mapping[str, Any]) -> list[str]:
    """The engines whose Fluid facts their status family does not judge alike: an engine for
    which Fluid does not count PartialReady workers as ready needs a family that does not either."""
    out = []
    for name, engine in sorted(engines.items()):
        family = FAMILIES[engine.health.status_shape]
        if family.partial_workers_ready != engine.health.partial_workers_ready:
            out.append(f"{name}: Fluid counts PartialReady workers as ready: {engine.health.partial_workers_ready}, "
                       f"the {family.name} family: {family.partial_workers_ready}")
    return out


@cache
def family_of() -> dict[str, str]:
    """Kind -> status family, for every kind fluidgen emits that has a status worth judging. A
    runtime's family is its engine's Health.status_shape, read from the engine index, so printing
    the health checks imports no engine module; tests/features/test_health_fluid.py holds every
    engine's facts to its family (disagreements)."""
    out = {"Dataset": DATASET.name}
    out.update({row.kind: row.status_shape for row in INDEX.values()})
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


def _whole(found: Any) -> int | None:
    """A JSON number with no fraction (as Lua's `v % 1 == 0`), else None."""
    if isinstance(found, bool) or not isinstance(found, int | float):
        return None
    return int(found) if found == int(found) else None


def missing(obj: Mapping[str, Any], part: Missing) -> str:
    wanted, ready = _whole(value(obj, part.wanted)), _whole(value(obj, part.ready))
    return part.default if wanted is None or ready is None else str(wanted - ready)


def _say(obj: Mapping[str, Any], parts: Sequence[Part]) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Field):
            out.append(text(obj, part.path) or part.default)
        elif isinstance(part, CondMessage):
            out.append(newest_message(obj, part.type) or part.default)
        elif isinstance(part, Missing):
            out.append(missing(obj, part))
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
    family_wait = FAMILIES[name].wait
    success, failure, wait = family_wait.success, family_wait.failure, family_wait.kubectl
    if name == "job":
        success, failure = _JOB_ARGO.get(kind, (None, None))
        wait = _JOB_WAIT.get(kind, wait)
    return Readiness(kind, success, failure, wait)
