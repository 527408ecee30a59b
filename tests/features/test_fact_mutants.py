"""A small seeded sample of mutated Fluid facts, run in CI (issue 42): the fact tests must fail
under each. The full mutation run (mutmut over the fact modules) stays out of CI: see
tests/mutation/README.md. Each mutant here is one a test once survived, or one that a test
comparing a fixture with itself would let through."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from fluidgen.engines import engine_table
from fluidgen.fluid import fluidbase
from tests.features import test_fluid_fixtures as fixtures


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
    check = fixtures.CHECKS[kind]
    checks: list[Callable[[], None]] = [
        (lambda g=given, e=expect, v=version: check(g, e, v)) for given, expect, version in _cases(kind)]
    for run in [*checks, *EDGES.get(kind, ())]:
        try:
            run()
        except AssertionError:
            failed = True
    return failed


EDGES: dict[str, tuple[Callable[[], None], ...]] = {
    "mount-path": (fixtures.test_mount_path_edges,),
    "alluxio-root-ufs": (fixtures.test_alluxio_root_ufs_edges,),
}


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
    "mount path keeps a relative path": ("mount-path", lambda mp: mp.setattr(
        fluidbase, "mount_path", lambda name, path: path or "/" + (name or "").lstrip("/"))),
    "a second mount at / is the root": ("alluxio-root-ufs", lambda mp: mp.setattr(
        fluidbase, "alluxio_root_ufs", lambda mounts: (mounts[0][1], 0) if mounts and mounts[0][2] == "/"
        else (fluidbase.LOCAL_STORAGE_ROOT, None))),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_fact_tests_kill_a_seeded_mutant(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, apply = MUTANTS[mutant]
    assert not _some_case_fails(kind), f"the {kind} cases fail before the mutant is applied"
    apply(monkeypatch)
    assert _some_case_fails(kind), f"no {kind} case fails with the mutant: {mutant}"
