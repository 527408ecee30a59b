"""One health judgement, three renderings: every status case of fluidgen/catalog/health/cases.yaml,
for every kind with a status that fluidgen emits, runs through the Argo CD Lua in Argo CD's
sandbox for argocd-cm scripts (tests/harness/argocd_lua.py), through the Flux CEL as
kustomize-controller judges it (tests/harness/flux_cel.py: parsed without declared variables, the
object's top-level fields as variables, inProgress, failed, current, the observedGeneration
rule, an evaluation error Unknown) and through the Python evaluator
(fluidgen.catalog.healthcheck.health), and all three must agree with the case's verdict.
The readiness conditions for workflow engines are checked against the same cases."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from fluidgen.catalog.healthcheck import FAMILIES, Wait, family_of, health, readiness, text
from fluidgen.commands.argocd import case_object, cases, render_lua
from fluidgen.commands.flux import VERDICTS, health_entry
from fluidgen.fluid.jobkinds import WORKLOADS, Pod

pytest.importorskip("lupa.lua51", reason="lupa (Lua 5.1) is in the test extra: pip install -e '.[test]'")
pytest.importorskip("celpy", reason="cel-python is in the test extra: pip install -e '.[test]'")

from tests.conftest import SHARED
from tests.harness.argocd_lua import run_health
from tests.harness.flux_cel import flux_status

CASES = [(kind, case, body) for kind, family in family_of().items() for case, body in cases()[family].items()]
KSTATUS = {"current": "Current", "failed": "Failed", "inProgress": "InProgress"}


def lua_verdict(script: str, obj: dict[str, Any]) -> dict[str, Any]:
    return run_health(script, obj)


def flux_expected(obj: dict[str, Any], status: str) -> str:
    """What Flux must say for a verdict: an object with no status cannot be evaluated (no
    `status` variable), which Flux reports Unknown and its wait treats as not ready."""
    return "Unknown" if obj.get("status") is None else KSTATUS[VERDICTS[status]]


@pytest.mark.parametrize(("kind", "case", "body"), CASES, ids=[f"{k}-{c}" for k, c, _ in CASES])
def test_lua_cel_and_python_agree(kind: str, case: str, body: dict[str, Any]) -> None:
    family = FAMILIES[family_of()[kind]]
    obj = case_object(kind, case, body)
    judged = health(obj)
    assert {"status": judged.status, "message": judged.message} == body["expect"]
    assert lua_verdict(render_lua(family), obj) == body["expect"]
    entry = health_entry(obj["apiVersion"], kind, family)
    assert flux_status(entry, obj) == flux_expected(obj, judged.status)


@pytest.mark.parametrize("kind", sorted(family_of()))
def test_every_kind_has_healthy_progressing_and_degraded_cases(kind: str) -> None:
    seen = {body["expect"]["status"] for body in cases()[family_of()[kind]].values()}
    assert {"Healthy", "Progressing", "Degraded"} <= seen


def test_fuse_only_thin_runtime_is_healthy() -> None:
    """issue 23: Fluid's default fuse-only ThinRuntime sets only fusePhase Ready and setupDuration
    (pkg/ddc/thin/status.go ThinEngine.CheckAndUpdateRuntimeStatus, v1.0.8 and master)."""
    obj = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "ThinRuntime", "metadata": {"name": "x"},
           "status": {"fusePhase": "Ready", "setupDuration": "12s"}}
    assert health(obj).status == "Healthy"
    assert "workers" not in health(obj).message.split("no master or workers")[0]


def test_odd_statuses_agree_too() -> None:
    """Objects no case describes (empty status, unknown phases, odd types) get the same verdict."""
    odd: list[Any] = [{}, {"phase": "Weird"}, {"conditions": []}, {"masterPhase": "Ready"}, {"worker": {}},
                      {"phase": 3}, {"conditions": [{"type": "Running"}]}, {"waitingFor": {"operationComplete": True}},
                      {"phase": "Pending", "waitingFor": {"operationComplete": "true"}}, {"phase": True},
                      {"workerPhase": "PartialReady", "desiredWorkerNumberScheduled": 3, "workerNumberReady": "1"},
                      {"phase": "Failed", "conditions": [  # a tie, and a newer condition of another type
                          {"type": "Failed", "status": "True", "lastTransitionTime": "2026-11-20T10:00:00Z",
                           "message": "a"},
                          {"type": "Failed", "status": "True", "lastTransitionTime": "2026-11-20T10:00:00Z",
                           "message": "b"},
                          {"type": "Complete", "status": "True", "lastTransitionTime": "2026-11-20T10:09:00Z",
                           "message": "c"}]}]
    for kind, name in family_of().items():
        family = FAMILIES[name]
        entry = health_entry("x/v1", kind, family)
        for status in odd:
            obj = {"kind": kind, "spec": {}, "status": status}
            judged = health(obj)
            assert lua_verdict(render_lua(family), obj) == {"status": judged.status, "message": judged.message}
            assert flux_status(entry, obj) == flux_expected(obj, judged.status), (kind, status)


def test_health_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="not 'Deployment'"):
        health({"kind": "Deployment"})


# Readiness: Argo Workflows conditions (a label selector over JSON paths) and kubectl wait

def selector_matches(selector: str, obj: dict[str, Any]) -> bool:
    """Argo Workflows' resource conditions: comma-separated requirements, each `key`, `key op
    value` (==, !=, >, <) or `key in|notin (values)`; keys are dotted paths into the object."""
    for req in re.split(r",(?![^(]*\))", selector):
        req = req.strip()
        m = re.fullmatch(r"(\S+)\s+(in|notin)\s+\(([^)]*)\)", req)
        if m:
            found = text(obj, m[1])
            values = [v.strip() for v in m[3].split(",")]
            if (found in values and found != "") != (m[2] == "in"):
                return False
            continue
        m = re.fullmatch(r"(\S+)\s*(==|!=|>|<)\s*(\S+)", req)
        if m is None:
            if text(obj, req) == "":
                return False  # `key` alone: the field exists
            continue
        found = text(obj, m[1])
        if (m[2] == "==" and found != m[3]) or (m[2] == "!=" and found == m[3]):
            return False
        if m[2] in "<>" and not found.isdigit():
            return False
        if (m[2] == ">" and int(found) <= int(m[3])) or (m[2] == "<" and int(found) >= int(m[3])):
            return False
    return True


def jsonpath_matches(wait: str, obj: dict[str, Any]) -> bool:
    m = re.fullmatch(r"jsonpath=\{\.([^}]*)\}=(\S+)", wait)
    assert m, wait
    path, want = m[1], m[2]
    cond = re.fullmatch(r'status\.conditions\[\?\(@\.type=="(\w+)"\)\]\.status', path)
    if cond:
        return any(c.get("type") == cond[1] and c.get("status") == want
                   for c in (obj.get("status") or {}).get("conditions") or [])
    return text(obj, path) == want


@pytest.mark.parametrize(("kind", "case", "body"), CASES, ids=[f"{k}-{c}" for k, c, _ in CASES])
def test_readiness_agrees_with_health(kind: str, case: str, body: dict[str, Any]) -> None:
    ready = readiness(kind)
    obj = case_object(kind, case, body)
    status = health(obj).status
    cron = (obj.get("spec") or {}).get("policy") == "Cron"
    if ready.success_condition is not None:
        assert not selector_matches(ready.success_condition, obj) or status == "Healthy"
        # job kinds count replicas, which the condition-shaped cases do not carry
        assert selector_matches(ready.success_condition, obj) or status != "Healthy" or cron \
            or family_of()[kind] == "job"
    if ready.failure_condition is not None:
        assert not selector_matches(ready.failure_condition, obj) or status == "Degraded"
        # a step fails with its operation (or Dataset): Degraded is what the failure condition catches
        assert selector_matches(ready.failure_condition, obj) or status != "Degraded" or cron \
            or family_of()[kind] not in ("operation", "dataset"), (kind, case)
    if family_of()[kind] in ("dataset", "operation", "job"):  # a runtime's one field cannot tell a lost master
        assert not jsonpath_matches(ready.kubectl_wait, obj) or status == "Healthy"
    if status == "Healthy" and not cron and family_of()[kind] in ("dataset", "operation", "fuse-only", "job"):
        assert jsonpath_matches(ready.kubectl_wait, obj) or kind in ("TrainJob", "Job")


def test_every_wait_condition_matches_a_case_of_its_kind() -> None:
    """No readiness condition is vacuous: each success and failure condition a workflow step waits
    on holds for some status case of its kind, Healthy or Degraded as it claims (a misspelt path
    matches nothing, and the soundness check above passes whatever it says)."""
    for kind in (k for k, family in family_of().items() if family != "job"):  # jobs: the tests below
        ready = readiness(kind)
        judged = [(case_object(kind, case, body), health(case_object(kind, case, body)).status)
                  for k, case, body in CASES if k == kind]
        if ready.success_condition is not None:
            assert any(selector_matches(ready.success_condition, o) and s == "Healthy" for o, s in judged), kind
        if ready.failure_condition is not None:
            assert any(selector_matches(ready.failure_condition, o) and s == "Degraded" for o, s in judged), kind


def test_the_newest_condition_is_the_latest_of_its_type_and_the_last_written_on_a_tie() -> None:
    """A message read from "the newest condition" (CondMessage): by lastTransitionTime, of the type
    asked for only, and on a tie (the timestamps have seconds) the one written later in the list,
    as Fluid appends them; the Lua and CEL renderers agree (test_odd_statuses_agree_too)."""
    from fluidgen.catalog.healthcheck import newest_message

    t1, t2 = "2026-11-20T10:00:00Z", "2026-11-20T10:05:00Z"
    def cond(kind: str, at: str, message: str) -> dict[str, str]:
        return {"type": kind, "status": "True", "lastTransitionTime": at, "message": message}
    def obj(*conditions: dict[str, str]) -> dict[str, Any]:
        return {"status": {"conditions": list(conditions)}}
    assert newest_message(obj(cond("Ready", t1, "a"), cond("Ready", t1, "b")), None) == "b"
    assert newest_message(obj(cond("Ready", t2, "new"), cond("Ready", t1, "old")), None) == "new"
    assert newest_message(obj(cond("Failed", t1, "failed"), cond("Complete", t2, "done")), "Failed") == "failed"
    assert newest_message(obj(cond("Complete", t2, "done")), "Failed") == ""


def test_readiness_for_every_kind() -> None:
    for kind in family_of():
        ready = readiness(kind)
        assert ready.kubectl_wait.startswith("jsonpath={.status.")
    assert readiness("Dataset").success_condition == "status.phase == Bound"
    with pytest.raises(ValueError):
        readiness("Deployment")


def test_every_predicate_renders_alike_negated_or_not() -> None:
    """The renderers on a synthetic family that uses every predicate, each also negated, over
    objects that make each one true and false."""
    from fluidgen.catalog.healthcheck import Cond, Family, Field, IfSet, Missing, Not, Rule, Wait, is_, judge

    preds = [is_("status.phase", "A"), is_("status.phase", "A", ""), is_("status.w.done", "true"),
             is_("status.w.done", "false"), Cond("Ready")]
    said = (IfSet("status.phase", (" ", Field("status.phase"))), " ", Missing("status.want", "status.have"))
    cases = [*((q, "Healthy") for q in preds), *((Not(q), "Degraded") for q in preds)]
    rules = tuple(Rule((p,), status, ("rule ", str(i), *said)) for i, (p, status) in enumerate(cases))
    for skip in range(len(rules)):
        family = Family("synthetic", "test", (*rules[skip:], Rule((), "Progressing", ("none",))), (),
                        Wait("status.phase == A", "status.phase == B", "jsonpath={.status.phase}=A"))
        entry = health_entry("x/v1", "X", family)
        for status in ({"phase": "A"}, {"phase": ""}, {"phase": "B"}, {"w": {"done": False}}, {"w": {"done": True}},
                       {"w": {}}, {"want": 4, "have": 1}, {"want": 4.0, "have": 4}, {"want": "4", "have": 1},
                       {"conditions": [{"type": "Ready", "status": "True"}]}, {"conditions": [{"type": "Ready"}]},
                       {"conditions": [{"type": "Ready", "status": "False"}]}, {}):
            obj = {"kind": "X", "status": status}
            judged = judge(family, obj)
            assert lua_verdict(render_lua(family), obj) == {"status": judged.status, "message": judged.message}
            assert flux_status(entry, obj) == flux_expected(obj, judged.status), (skip, status)


# The Flux harness is as strict as kustomize-controller (tests/harness/flux_cel.py) -----------------------

BOUND = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "d", "generation": 2},
         "status": {"phase": "Bound", "waitingFor": {"done": True}, "conditions": []}}


@pytest.mark.parametrize("expr", [
    "self.status.phase == 'Bound'",  # no `self`: Flux declares no variables (runtime/cel NewExpression)
    "has(spec.policy)",  # no `spec` in the object: no such variable (cel-go), not false
    "has(status.missing.deeper)",  # has() evaluates its operand: status.missing fails
    "string(status.conditions) == ''",  # string() of a list is no overload in cel-go
    "status.phase",  # not a bool: EvaluateBoolean fails
])
def test_negative_control_an_expression_flux_cannot_evaluate_is_unknown(expr: str) -> None:
    assert flux_status({"current": expr}, BOUND) == "Unknown"


def test_negative_control_flux_refuses_an_expression_that_does_not_parse() -> None:
    from tests.harness.flux_cel import ParseError

    with pytest.raises(ParseError):
        flux_status({"current": "status.phase == "}, BOUND)
    with pytest.raises(ParseError):
        flux_status({"failed": "true"}, BOUND)  # current is required (NewStatusEvaluator)


def test_flux_order_default_and_observed_generation() -> None:
    """StatusEvaluator.Evaluate: inProgress, failed, current; none true is InProgress; an int64
    status.observedGeneration other than metadata.generation is InProgress before any expression."""
    assert flux_status({"current": "true", "failed": "true", "inProgress": "true"}, BOUND) == "InProgress"
    assert flux_status({"current": "true", "failed": "true"}, BOUND) == "Failed"
    assert flux_status({"current": "status.phase == 'Bound'"}, BOUND) == "Current"
    assert flux_status({"current": "false", "failed": "false"}, BOUND) == "InProgress"
    assert flux_status({"current": "string(status.waitingFor.done) == 'true'"}, BOUND) == "Current"
    stale = {**BOUND, "status": {**BOUND["status"], "observedGeneration": 1}}
    assert flux_status({"current": "true"}, stale) == "InProgress"
    typed_as_text = {**BOUND, "status": {**BOUND["status"], "observedGeneration": "1"}}
    assert flux_status({"current": "true"}, typed_as_text) == "Current"  # not an int64: the rule is skipped
    assert flux_status({"current": "true"}, {**BOUND, "status": {**BOUND["status"], "observedGeneration": 2}}) \
        == "Current"


def test_every_status_family_states_what_a_workflow_waits_on() -> None:
    """Readiness lives on the family (Family.wait, a required field: a new family without one does
    not construct, and mypy --strict refuses `wait=None`), beside the rules it restates."""
    assert all(isinstance(family.wait, Wait) for family in FAMILIES.values())
    assert {family_of()[kind] for kind in family_of()} <= set(FAMILIES)


# A training job's readiness, on the status each controller writes. The job family's cases carry
# conditions only; a Kubeflow v1 job's Argo conditions count replicas (JobStatus.replicaStatuses,
# keyed by the replica type fluidgen builds), a batch/v1 Job's its succeeded pods, and kubectl waits on
# the Complete condition of a TrainJob or a batch/v1 Job (the condition type healthcheck.py's job
# family reads; Trainer's and Kubernetes' Go code is not in ../shared to cite).
JOB_KINDS_CRD = {"MPIJob": "mpi-operator-v0.8.2/kubeflow.org_mpijobs.yaml",
                 "PyTorchJob": "training-operator-v1.9.4/kubeflow.org_pytorchjobs.yaml"}


def _job_status(kind: str, outcome: str) -> dict[str, Any]:
    lead = {"MPIJob": "Launcher", "PyTorchJob": "Master"}.get(kind)
    done = outcome == "succeeded"
    status: dict[str, Any] = {}
    if lead is not None:
        status["replicaStatuses"] = {lead: {"active": int(outcome == "running"), "succeeded": int(done),
                                            "failed": int(outcome == "failed")}}
    if kind == "Job":
        status.update(active=int(outcome == "running"), succeeded=int(done), failed=int(outcome == "failed"))
    kind_of_done = "Succeeded" if lead is not None else "Complete"
    if outcome != "running":
        status["conditions"] = [{"type": kind_of_done if done else "Failed", "status": "True"}]
    return {"kind": kind, "status": status}


@pytest.mark.parametrize("kind", ["MPIJob", "PyTorchJob", "TrainJob", "Job"])
def test_a_job_step_waits_for_its_jobs_own_success_and_failure(kind: str) -> None:
    ready = readiness(kind)
    objs = {o: _job_status(kind, o) for o in ("running", "succeeded", "failed")}
    if ready.success_condition is not None:
        assert [selector_matches(ready.success_condition, o) for o in objs.values()] == [False, True, False]
    if ready.failure_condition is not None:
        assert [selector_matches(ready.failure_condition, o) for o in objs.values()] == [False, False, True]
    assert [jsonpath_matches(ready.kubectl_wait, o) for o in objs.values()] == [False, True, False]
    assert (ready.success_condition is None) == (kind == "TrainJob")  # only lists: Argo's selector cannot read them
    assert (ready.failure_condition is None) == (kind in ("TrainJob", "Job"))


@pytest.mark.parametrize("kind", sorted(JOB_KINDS_CRD))
def test_a_job_steps_conditions_read_fields_of_the_kinds_crd(kind: str) -> None:
    """Each replica count the conditions read is in the CRD's status (replicaStatuses: a map of
    ReplicaStatus by replica type) and names a replica type fluidgen builds for the kind."""
    file = SHARED / "kubeflow-crds" / JOB_KINDS_CRD[kind]
    if not file.is_file():
        pytest.skip(f"{file} not found")
    schema = yaml.safe_load(file.read_text())["spec"]["versions"]
    served = next(v for v in schema if v["name"] == WORKLOADS[kind].api_version.rpartition("/")[2])
    status = served["schema"]["openAPIV3Schema"]["properties"]["status"]
    pod = Pod("i", [], [], None, [], {}, [], [], None, [], None, 2, 0)
    built = WORKLOADS[kind].build(pod)
    replica_types = set(next(v for k, v in built.items() if k.endswith("ReplicaSpecs")))
    ready = readiness(kind)
    for condition in (ready.success_condition, ready.failure_condition):
        assert condition is not None
        path, _, _ = condition.partition(" ")
        top, map_name, replica, count = path.split(".")
        assert (top, map_name) == ("status", "replicaStatuses") and replica in replica_types, condition
        entry = status["properties"]["replicaStatuses"]["additionalProperties"]
        assert entry["properties"][count]["type"] == "integer", condition
