"""The health rules' Fluid facts, read back from Fluid's code at every version they cite
(../shared/fluid-src): PartialReady workers are ready for Fluid, per engine and version
(issue 35 item 2), a Cron operation's schedule exists from the Executing phase on (item 3),
and waitingFor.operationComplete is true while Fluid waits."""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

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


# Every field and value the health table reads is Fluid's, read from Fluid's Go API types ------------
# (api/v1alpha1/*.go structs and their json tags, the string constants of each field's type, and
# pkg/common/types.go for common.*), for each kind of each Fluid status family, at every version
# whose API has the kind. cases.yaml is data the tests feed the rules; this ties the rules' paths,
# phases and condition types to Fluid itself, so a rule and a case that agree on a wrong name fail.

_STRUCT = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.M | re.S)
_ALIAS = re.compile(r"^type (\w+) ((?:map\[[\w.]+\])?[\w.]+)\s*$", re.M)
_FIELD = re.compile(r"^\s*(?:(\w+)\s+)?([\w.*\[\]]+)\s+`json:\"([^\",]*)", re.M)
_CONST = re.compile(r"^\s*\w+\s+([\w.]+)\s*=\s*\"([^\"]*)\"", re.M)


@dataclasses.dataclass
class _GoTypes:
    structs: dict[str, list[tuple[str, str]]]  # type -> [(json tag or "" when inlined, field type)]
    aliases: dict[str, str]
    consts: dict[str, set[str]]


def _qualify(name: str, package: str) -> str:
    bare = name.lstrip("*").removeprefix("[]").lstrip("*")
    return bare if "." in bare or package == "" else f"{package}.{bare}"


def _go_types(version: str) -> _GoTypes:
    root = tree(version)
    if root is None:
        pytest.skip(missing_reason())
    return _parsed(version)


@functools.cache
def _parsed(version: str) -> _GoTypes:
    root = tree(version)
    assert root is not None
    found = _GoTypes({}, {}, {})
    for folder, package in (("api/v1alpha1", ""), ("pkg/common", "common")):
        for path in sorted((root / folder).glob("*.go")):
            if path.name.endswith("_test.go"):
                continue
            text = path.read_text()
            for name, body in _STRUCT.findall(text):
                found.structs[_qualify(name, package)] = [
                    (tag, _qualify(kind, package)) for _, kind, tag in _FIELD.findall(body)]
            for name, kind in _ALIAS.findall(text):
                found.aliases[_qualify(name, package)] = kind if kind.startswith("map[") else _qualify(kind, package)
            for kind, value in _CONST.findall(text):
                found.consts.setdefault(_qualify(kind, package), set()).add(value)
    return found


def _go_field_type(go: _GoTypes, kind: str, path: str) -> str:
    """The Go type of the field at dotted json `path` from the struct `kind` (lists stepped into,
    a map's key read as a constant of its key type); AssertionError when Fluid has no such field."""
    current = kind
    for seg in path.split("."):
        alias = go.aliases.get(current, "")
        if alias.startswith("map["):
            key, _, element = alias[4:].partition("]")
            assert seg in go.consts.get(_qualify(key, "common" if current.startswith("common.") else ""), set()), \
                (kind, path, seg)
            current = element
            continue
        fields, step = list(go.structs.get(current, [])), None
        while fields:
            tag, kind_of_field = fields.pop(0)
            if tag == "" and kind_of_field in go.structs:  # json:",inline"
                fields.extend(go.structs[kind_of_field])
            elif tag == seg:
                step = kind_of_field
                break
        assert step is not None, f"Fluid's {kind} has no {path} (no json:{seg!r} in {current})"
        current = step
    return current


def _reads(parts: Any) -> list[str]:
    """The field paths a rule's message reads."""
    from fluidgen.catalog.healthcheck import Field, IfSet, Missing

    out: list[str] = []
    for part in parts:
        if isinstance(part, Field):
            out.append(part.path)
        elif isinstance(part, Missing):
            out += [part.wanted, part.ready]
        elif isinstance(part, IfSet):
            out += [part.path, *_reads(part.parts)]
    return out


def _family_facts(name: str) -> tuple[list[tuple[str, tuple[str, ...]]], list[str], list[str]]:
    """(path, values) of every Is predicate, every path a message reads, every condition type read."""
    from fluidgen.catalog.healthcheck import Cond, CondMessage, Is, Not

    tests: list[tuple[str, tuple[str, ...]]] = []
    read: list[str] = []
    conditions: list[str] = []
    for rule in FAMILIES[name].rules:
        for pred in rule.when:
            inner = pred.pred if isinstance(pred, Not) else pred
            if isinstance(inner, Is):
                tests.append((inner.path, inner.values))
            elif isinstance(inner, Cond):
                conditions.append(inner.type)
        read += _reads(rule.message)
        conditions += [p.type for p in rule.message if isinstance(p, CondMessage) and p.type is not None]
    return tests, read, conditions


_FLUID_FAMILIES = ("dataset", "runtime", "fuse-only", "components", "operation")


@pytest.mark.parametrize("name", _FLUID_FAMILIES)
def test_every_field_phase_and_condition_a_health_rule_reads_is_fluids(name: str) -> None:
    from fluidgen.catalog.healthcheck import family_of

    tests, read, conditions = _family_facts(name)
    kinds = [kind for kind, family in family_of().items() if family == name]
    assert kinds and tests, name
    checked, found = 0, set()
    for version in ("v1.0.8", "v1.1.0-dev"):
        go = _go_types(version)
        for kind in kinds:
            if kind not in go.structs:
                continue  # this Fluid has no such kind (GooseFS left, CacheRuntime came)
            checked += 1
            for path, values in tests:
                try:
                    leaf = _go_field_type(go, kind, path)
                except AssertionError:
                    # a kind without the field (DataBackup has no spec.policy): the test reads "" there,
                    # so it must not hold for "" (the rule is for the kinds that have it)
                    assert "" not in values, (version, kind, path, values)
                    continue
                found.add(path)
                if leaf in go.consts:  # a phase, a policy: every value a rule tests is one of Fluid's
                    assert set(values) - {""} <= go.consts[leaf], (version, kind, path, values, leaf)
                    if path == "status.phase":  # a Dataset or operation phase Fluid sets is named by a rule
                        named = {v for p, vs in tests if p == path for v in vs}
                        assert go.consts[leaf] - {""} <= named, (version, kind, path, go.consts[leaf] - named)
                elif leaf in ("bool", "*bool"):
                    assert set(values) <= {"true", "false", ""}, (version, kind, path, values)
                else:  # setupDuration, duration: plain strings (duration "-" is checked above, from the code)
                    assert leaf == "string", (version, kind, path, leaf)
            for path in read:
                _go_field_type(go, kind, path)
            condition_type = _go_field_type(go, kind, "status.conditions.type")
            assert set(conditions) <= go.consts[condition_type], (version, kind, conditions, condition_type)
    assert checked, f"no Fluid version has a kind of the {name} family"
    assert found == {path for path, _ in tests}, f"no kind of the {name} family has these fields in Fluid"


def test_negative_control_a_field_or_phase_fluid_lacks_fails() -> None:
    go = _go_types("v1.0.8")
    assert go.consts[_go_field_type(go, "Dataset", "status.phase")] >= {"Bound", "NotBound", "Failed"}
    assert _go_field_type(go, "AlluxioRuntime", "status.masterPhase") == "RuntimePhase"
    assert _go_field_type(go, "Dataset", "status.cacheStates.cachedPercentage") == "string"
    for kind, path in (("Dataset", "status.phases"), ("AlluxioRuntime", "status.masterPhase.x"),
                       ("Dataset", "status.cacheStates.percentage"), ("DataLoad", "spec.polcy")):
        with pytest.raises(AssertionError):
            _go_field_type(go, kind, path)


def _fields(tree: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """(dotted path, leaf value) of every leaf of a status or spec, list items stepped into."""
    if isinstance(tree, dict):
        return [leaf for key, sub in tree.items() for leaf in _fields(sub, f"{prefix}.{key}" if prefix else key)]
    if isinstance(tree, list):
        return [leaf for item in tree for leaf in _fields(item, prefix)]
    return [(prefix, tree)]


@pytest.mark.parametrize("name", _FLUID_FAMILIES)
def test_every_status_case_is_an_object_fluid_can_write(name: str) -> None:
    """The cases the renderings are judged on (catalog/health/cases.yaml) use Fluid's field names and,
    for a field of an enum type (phases, condition types), one of its values, for a kind of the family."""
    from fluidgen.catalog.healthcheck import family_of
    from fluidgen.commands.argocd import cases

    kinds = [kind for kind, family in family_of().items() if family == name]
    wrong = []
    for case, body in cases()[name].items():
        for part in ("spec", "status"):
            for path, leaf in _fields(body.get(part) or {}):
                ok = []
                for version in ("v1.0.8", "v1.1.0-dev"):
                    go = _go_types(version)
                    for kind in (k for k in kinds if k in go.structs):
                        try:
                            kind_of_field = _go_field_type(go, kind, f"{part}.{path}")
                        except AssertionError:
                            continue
                        ok.append(str(leaf).lower() if isinstance(leaf, bool) else str(leaf)) \
                            if kind_of_field not in go.consts or str(leaf) in go.consts[kind_of_field] else None
                if not ok:
                    wrong.append(f"{case}: {part}.{path} = {leaf!r}")
    assert wrong == [], f"no Fluid kind of the {name} family can have these"
