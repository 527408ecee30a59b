"""A small seeded sample of mutated Fluid facts, run in CI (issue 42): the fact tests must fail
under each. The full mutation run (mutmut over the fact modules) stays out of CI: see
tests/mutation/README.md. Each mutant here is one a test once survived, or one that a test
comparing a fixture with itself would let through."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import pytest

from fluidgen.engines import alluxio, engine_table, jindo
from fluidgen.fluid import fluidbase
from fluidgen.fluid.fields import FieldRead
from tests.engines import test_alluxio, test_contract, test_jindo
from tests.features import test_fluid_fixtures as fixtures
from tests.features import test_traces
from tests.fluid import test_fields, test_fluidbase
from tests.fluid import test_sync as plan_sync


def _engine(monkeypatch: pytest.MonkeyPatch, name: str, **parts: Any) -> None:
    """Engine `name` with its record's parts replaced (each a mapping of fields to new values)."""
    engine = engine_table.ENGINES[name]
    changed = dataclasses.replace(engine, **{part: dataclasses.replace(getattr(engine, part), **fields)
                                             for part, fields in parts.items()})
    monkeypatch.setitem(engine_table.ENGINES, name, changed)
    monkeypatch.setitem(engine_table.BY_KIND, engine.kind, changed)


def _cases(kind: str) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
    return [(c["given"], c["expect"], v) for _, c, _ in fixtures.CASES if c["kind"] == kind for v in c["tests"]]


def _some_case_fails(kind: str) -> bool:
    """Whether a mined case of `kind`, or a test of the same fact's edges (EDGES), fails."""
    failed = False
    check = fixtures.CHECKS.get(kind)  # a kind with edge tests only (no mined case) has no check
    checks: list[Callable[[], None]] = [] if check is None else [
        functools.partial(check, given, expect, version) for given, expect, version in _cases(kind)]
    for run in [*checks, *EDGES.get(kind, ())]:
        try:
            run()
        except AssertionError:
            failed = True
    return failed


_CHARTS = test_contract.test_every_chart_object_fluidgen_expects_is_named_as_fluids_chart_names_it
_FUSE_MEMORY = test_alluxio.test_the_fuse_memory_budget_pairs_fluids_default_jvm_with_its_zero_limit
_JINDO_STORAGE = test_jindo.test_each_storages_names_are_the_ones_transform_reads_for_its_scheme
_JINDO_NO_SYMLINK = test_jindo.test_no_symlink_follows_the_defaults_as_each_version_adds_it
EDGES: dict[str, tuple[Callable[[], None], ...]] = {
    "mount-path": (fixtures.test_mount_path_edges,),
    "alluxio-root-ufs": (fixtures.test_alluxio_root_ufs_edges,),
    # kinds found by the mutation runs (tests/mutation/README.md): edge tests only
    "fastest-level": (fixtures.test_fastest_level_edges, test_fluidbase.test_hdd_is_a_medium_fluid_ranks),
    "mount-delta": (fixtures.test_is_native_and_mount_delta_edges,
                    test_fluidbase.test_a_remount_is_decided_by_the_mounts_path_not_its_name),
    "replicas": tuple(functools.partial(plan_sync.test_a_replicas_edit_scales_the_worker_statefulset, kind, version)
                      for kind in plan_sync.SCALING for version in ("v1.0.8", "v1.1.0-dev")),
    # the engines' records against Fluid's charts, API types and Go code (tests/engines/, issue 42's mutation run)
    "created-names": tuple(
        functools.partial(_CHARTS, engine, version)
        for engine, version in (("juicefs", "v1.0.8"), ("jindo", "v1.1.0-dev"))),
    "field-selectors": (lambda: test_fields.test_every_go_selector_is_its_field_in_fluids_api_types("jindo"),),
    "alluxio-fuse-memory": (lambda: _FUSE_MEMORY("v1.0.8"),),
    # stop 52's runs (thin.py, jindo.py)
    "jindo-storage": tuple(functools.partial(_JINDO_STORAGE, version, "obs") for version in ("v1.0.8", "v1.1.0-dev")),
    "jindo-no-symlink": (functools.partial(_JINDO_NO_SYMLINK, "v1.0.8", None, 2),),
    "traces": (functools.partial(test_traces.test_every_trace_names_a_key_the_spec_can_have, "cache-curvine",
                                 "v1.1.0-dev"),),
}


def _renamed(objects: tuple[tuple[str, str], ...], old: str, new: str) -> tuple[tuple[str, str], ...]:
    return tuple((kind, new if name == old else name) for kind, name in objects)


def _selector(engine: str, field: str, go: str) -> tuple[FieldRead, ...]:
    cells = engine_table.ENGINES[engine].fields.dataset
    return tuple(dataclasses.replace(c, go=go) if c.field == field else c for c in cells)


MUTANTS: dict[str, tuple[str, Callable[[pytest.MonkeyPatch], None]]] = {
    "juicefs cache dirs joined with ','": ("juicefs-cache-dirs", lambda mp: _engine(
        mp, "juicefs", lowering={"path_separator": ","})),
    "vineyard accepts a runtime without a tier": ("vineyard-tiers", lambda mp: _engine(
        mp, "vineyard", hooks={"finish_runtime": lambda ctx, tree: tree})),
    "vineyard writes /dev/shm for a MEM level": ("vineyard-tiers", lambda mp: _engine(
        mp, "vineyard", lowering={"mem_default_path": "/dev/shm"})),
    "alluxio writes JVM defaults of its own": ("alluxio-jvm", lambda mp: _engine(
        mp, "alluxio", lowering={"defaults": {"master": {"jvmOptions": ["-Xmx16G"]},
                                              "worker": {"jvmOptions": ["-Xmx12G"]}}})),
    "juicefs worker script ConfigMap renamed": ("created-names", lambda mp: _engine(
        mp, "juicefs", created={"objects": _renamed(engine_table.ENGINES["juicefs"].created.objects,
                                                    "{full}-worker-script", "{full}-worker-scripts")})),
    "jindo objects named after the runtime alone": ("created-names", lambda mp: _engine(
        mp, "jindo", created={"chart_fullname": "{name}"})),
    "an ignored Dataset field names no API field": ("field-selectors", lambda mp: _engine(
        mp, "jindo", fields={"dataset": _selector("jindo", "owner", "Spec.Owners")})),
    "the FUSE memory budget finds no heap size": ("alluxio-fuse-memory", lambda mp: mp.setattr(
        alluxio, "_heap_and_direct", lambda jvm_options: None)),
    "mount path keeps a relative path": ("mount-path", lambda mp: mp.setattr(
        fluidbase, "mount_path", lambda name, path: path or "/" + (name or "").lstrip("/"))),
    "a second mount at / is the root": ("alluxio-root-ufs", lambda mp: mp.setattr(
        fluidbase, "alluxio_root_ufs", lambda mounts: (mounts[0][1], 0) if mounts and mounts[0][2] == "/"
        else (fluidbase.LOCAL_STORAGE_ROOT, None))),
    # mutants of the full run (tests/mutation/README.md) that once survived it
    "HDD is not a medium Fluid ranks": ("fastest-level", lambda mp: mp.setattr(
        fluidbase, "MEDIUM_ORDER", ("MEM", "SSD", "XXHDDXX"))),
    "a remount is keyed by the mount's name": ("mount-delta", lambda mp: mp.setattr(
        fluidbase, "_remounted_paths", lambda mounts: [
            fluidbase.mount_path(m.get("name"), None) for m in mounts
            if isinstance(m, dict) and not fluidbase.is_native(m.get("mountPoint"))])),
    "jindo reads obs credentials under another name": ("jindo-storage", lambda mp: mp.setitem(
        jindo.STORAGE, "obs", jindo._keys("obj", suggested={"fs.obs.endpoint": "<OBS_ENDPOINT>"}))),
    "jindo at v1.0.8 keeps symlinks for several mounts": ("jindo-no-symlink", lambda mp: mp.setattr(
        jindo, "NO_SYMLINK_ANY_MOUNTS",
        tuple(dataclasses.replace(f, value=False) for f in jindo.NO_SYMLINK_ANY_MOUNTS))),
    "cache replicas traced to a field its CRD lacks": ("traces", lambda mp: _engine(
        mp, "cache", lowering={"replicas_at": ("replicas",)})),
    "alluxio leaves a replicas edit to a re-created runtime": ("replicas", lambda mp: _engine(
        mp, "alluxio", edits={"runtime": tuple(
            f for f in engine_table.ENGINES["alluxio"].edits.runtime if f.prefix != "replicas")})),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_fact_tests_kill_a_seeded_mutant(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, apply = MUTANTS[mutant]
    assert not _some_case_fails(kind), f"the {kind} cases fail before the mutant is applied"
    apply(monkeypatch)
    assert _some_case_fails(kind), f"no {kind} case fails with the mutant: {mutant}"


# The health table (fluidgen/catalog/healthcheck.py): a rule that reads a phase, a condition type or a
# field Fluid never writes must fail the table's Go-type test, whatever the status cases say (a rule and
# a case that agree on a wrong name pass every rendering).

def _health_rule(monkeypatch: pytest.MonkeyPatch, family: str, index: int, rule: Any) -> None:
    from fluidgen.catalog import healthcheck

    changed = dataclasses.replace(healthcheck.FAMILIES[family], rules=tuple(
        rule if i == index else r for i, r in enumerate(healthcheck.FAMILIES[family].rules)))
    monkeypatch.setitem(healthcheck.FAMILIES, family, changed)


def _bound_misspelled(mp: pytest.MonkeyPatch) -> None:
    from fluidgen.catalog.healthcheck import DATASET, is_

    _health_rule(mp, "dataset", 0, dataclasses.replace(DATASET.rules[0], when=(is_("status.phase", "Bond"),)))


def _master_condition_renamed(mp: pytest.MonkeyPatch) -> None:
    from fluidgen.catalog.healthcheck import RUNTIME, CondMessage

    rule = RUNTIME.rules[3]
    _health_rule(mp, "runtime", 3, dataclasses.replace(rule, message=(
        CondMessage("MasterIsReady", "The master is not ready"), *rule.message[1:])))


def _setup_duration_renamed(mp: pytest.MonkeyPatch) -> None:
    from fluidgen.catalog.healthcheck import FUSE_ONLY, set_

    rule = FUSE_ONLY.rules[1]
    _health_rule(mp, "fuse-only", 1, dataclasses.replace(rule, when=(*rule.when[:3], set_("status.setupTime"))))


HEALTH_MUTANTS: dict[str, tuple[str, Callable[[pytest.MonkeyPatch], None]]] = {
    "a Dataset is healthy in phase Bond": ("dataset", _bound_misspelled),
    "a lost master says the MasterIsReady condition's message": ("runtime", _master_condition_renamed),
    "a fuse-only ThinRuntime reads status.setupTime": ("fuse-only", _setup_duration_renamed),
}


@pytest.mark.parametrize("mutant", sorted(HEALTH_MUTANTS))
def test_the_health_table_test_kills_a_seeded_mutant(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.features.test_health_fluid import (
        test_every_field_phase_and_condition_a_health_rule_reads_is_fluids as check,
    )

    family, apply = HEALTH_MUTANTS[mutant]
    check(family)
    apply(monkeypatch)
    with pytest.raises(AssertionError):
        check(family)
