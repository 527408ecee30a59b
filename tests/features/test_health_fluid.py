"""The health rules' Fluid facts, read back from Fluid's code at every version they cite
(../shared/fluid-src): PartialReady workers are ready for Fluid, per engine and version
(issue 35 item 2), a Cron operation's schedule exists from the Executing phase on (item 3),
and waitingFor.operationComplete is true while Fluid waits."""

from __future__ import annotations

import dataclasses
import re

import pytest

from fluidgen.base.fluidsource import FluidSource
from fluidgen.catalog.healthcheck import FAMILIES, disagreements, health
from fluidgen.engines.engine_table import ENGINES
from tests.harness.fluid_src import missing_reason, tree


def body(version: str, path: str, function: str) -> str:
    """The Go function `function` (a method or a function) in `path` at `version`."""
    root = tree(version)
    if root is None:
        pytest.skip(missing_reason())
    text = (root / path).read_text()
    start = re.search(rf"^func (\([^)]*\) )?{re.escape(function)}\(", text, re.M)
    assert start, f"{path} has no func {function} at {version}"
    end = text.index("\n}\n", start.start())
    return text[start.start():end]


def partial_sources(name: str) -> tuple[FluidSource, ...]:
    found = ENGINES[name].health.sources["partial_workers_ready"]
    return found if isinstance(found, tuple) else (found,)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_each_engine_counts_partial_ready_workers_as_ready_at_every_version_it_cites(name: str) -> None:
    """The engine's own worker check returns the shared helper's answer (or ready without
    workers), and its runtime status check is ready once one worker is."""
    assert ENGINES[name].health.partial_workers_ready
    for s in partial_sources(name):
        for version in s.versions:
            code = body(version, s.path, s.function)
            if s.function == "CheckWorkersReady":
                assert "CheckAndSyncWorkerStatus(" in code, (name, version)
            elif s.function in ("CheckAndUpdateRuntimeStatus", "syncCacheModeRuntimeStatus"):
                assert re.search(r"workerReady = true|runtimeReady = true", code), (name, version)
                assert "workers.Status.ReadyReplicas > 0" in code, (name, version)
            else:  # the cache engine's worker component
                assert s.function == "setWorkerComponentStatus"
                partial = code[code.index("RuntimePhasePartialReady"):]
                assert re.match(r"RuntimePhasePartialReady\s+ready = true", partial), (name, version)


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_fluid_returns_ready_for_partial_ready_workers(version: str) -> None:
    code = body(version, "pkg/ctrl/worker.go", "CheckAndSyncWorkerStatus")
    case = code[code.index("case datav1alpha1.RuntimePhasePartialReady:"):]
    assert re.match(r"case datav1alpha1.RuntimePhasePartialReady:\s+readyOrPartialReady = true", case)
    assert "corev1.ConditionTrue" in case.split("case datav1alpha1.RuntimePhaseNotReady")[0]
    phase = body(version, "pkg/utils/kubeclient/statefulset.go", "GetPhaseFromStatefulset")
    assert "RuntimePhasePartialReady" in phase


def test_the_runtime_families_judge_partial_ready_workers_as_the_engines_say() -> None:
    assert disagreements(ENGINES) == []
    for shape in {e.health.status_shape for e in ENGINES.values()}:
        assert FAMILIES[shape].partial_workers_ready is True
    obj = {"kind": "AlluxioRuntime", "status": {"masterPhase": "Ready", "workerPhase": "PartialReady",
                                                "desiredWorkerNumberScheduled": 5, "workerNumberReady": 3}}
    assert health(obj).status == "Healthy"
    assert "3/5 workers ready, 2 not ready" in health(obj).message


def test_an_engine_whose_partial_ready_fact_differs_from_its_family_is_refused() -> None:
    """Mutate the fact: an engine for which Fluid would not count PartialReady as ready cannot
    share the family that does."""
    alluxio = ENGINES["alluxio"]
    changed = {**ENGINES, "alluxio": dataclasses.replace(
        alluxio, health=dataclasses.replace(alluxio.health, partial_workers_ready=False))}
    assert disagreements(changed) == ["alluxio: Fluid counts PartialReady workers as ready: False, "
                                      "the runtime family: True"]


@pytest.mark.parametrize(("version", "reconciler"), [("v1.0.8", "TemplateEngine"),
                                                     ("v1.1.0-dev", "EngineOperationReconciler")])
def test_a_data_operation_installs_its_job_or_cron_job_in_the_executing_phase(version: str, reconciler: str) -> None:
    none = body(version, "pkg/ddc/base/operation.go", "reconcileNone")
    assert f"func (t *{reconciler})" in none or f"func (e *{reconciler})" in none
    assert 'opStatus.Duration = "Unfinished"' in none and "opStatus.Phase = common.PhasePending" in none
    assert "OperationComplete = ptr.To(true)" in none  # waiting for the runAfter operation
    pending = body(version, "pkg/ddc/base/operation.go", "reconcilePending")
    assert re.search(r"OperationComplete != nil && \*opStatus.WaitingFor.OperationComplete \{\s+// [^\n]*\n\s+return",
                     pending)
    assert "opStatus.Phase = common.PhaseExecuting" in pending
    executing = body(version, "pkg/ddc/base/operation.go", "reconcileExecuting")
    assert executing.index("InstallDataOperationHelmIfNotExist(") < executing.index("GetOperationStatus(")
    done = body(version, "pkg/controllers/v1alpha1/dataflow/operations.go", "reconcileOperationDataFlow")
    assert "precedingOpStatus.Phase != common.PhaseComplete" in done


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize("kind", ["dataload", "datamigrate"])
def test_a_cron_operation_goes_back_to_pending_with_duration_dash_while_a_run_executes(version: str, kind: str) -> None:
    code = body(version, f"pkg/controllers/v1alpha1/{kind}/status_handler.go", "GetOperationStatus")
    code = body(version, f"pkg/controllers/v1alpha1/{kind}/status_handler.go",
                "GetOperationStatus") if "CronStatusHandler" in code else _cron(version, kind)
    assert re.search(r'result.Phase = common.PhasePending\s+result.Duration = "-"', code)


def _cron(version: str, kind: str) -> str:
    root = tree(version)
    assert root is not None
    text = (root / f"pkg/controllers/v1alpha1/{kind}/status_handler.go").read_text()
    start = text.index("func (c *CronStatusHandler) GetOperationStatus(")
    return text[start:text.index("\n}\n", start)]


@pytest.mark.parametrize(("phase", "duration", "status"), [
    ("Pending", "Unfinished", "Progressing"), ("", "", "Progressing"), ("Executing", "Unfinished", "Healthy"),
    ("Complete", "3m", "Healthy"), ("Pending", "-", "Healthy"), ("Failed", "4m", "Degraded")])
def test_a_cron_operation_is_healthy_once_fluid_has_installed_its_schedule(phase: str, duration: str,
                                                                           status: str) -> None:
    obj = {"kind": "DataLoad", "spec": {"policy": "Cron", "schedule": "0 2 * * *"},
           "status": {"phase": phase, "duration": duration, "conditions": []}}
    assert health(obj).status == status
