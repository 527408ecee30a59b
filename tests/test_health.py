"""Argo CD health checks for Fluid's kinds, run by a real Lua 5.1 interpreter (lupa.lua51;
Argo CD embeds gopher-lua, a Lua 5.1) against every kind's testdata, the way Argo CD's own
health_test.yaml cases run: the object is the global `obj`, the script returns the status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.argocd import cases, config_map, families, tree

from .conftest import ROOT

DEPLOY = ROOT / "deploy" / "argocd"
lua51 = pytest.importorskip("lupa.lua51", reason="lupa (Lua 5.1) is in the test extra: pip install -e '.[test]'")


def run_health(script: str, obj: dict[str, Any]) -> dict[str, Any]:
    runtime = lua51.LuaRuntime(unpack_returned_tuples=True)
    runtime.globals().obj = runtime.table_from(obj, recursive=True)
    result = runtime.execute(script)
    return {k: result[k] for k in ("status", "message") if result[k] is not None}


def kinds_in(files: dict[str, str]) -> list[str]:
    return sorted({rel.split("/")[2] for rel in files})


CASES = [(kind, test) for kind in kinds_in(tree())
         for test in yaml.safe_load(tree()[f"resource_customizations/data.fluid.io/{kind}/health_test.yaml"])["tests"]]


@pytest.mark.parametrize(("kind", "test"), CASES, ids=[f"{k}-{t['inputPath']}" for k, t in CASES])
def test_health_check(kind: str, test: dict[str, Any]) -> None:
    files = tree()
    base = f"resource_customizations/data.fluid.io/{kind}"
    obj = yaml.safe_load(files[f"{base}/{test['inputPath']}"])
    assert run_health(files[f"{base}/health.lua"], obj) == test["healthStatus"]


def test_every_fluid_kind_with_a_status_has_a_check() -> None:
    from fluidgen.engines import ENGINES
    from fluidgen.fluid.operations import OPERATIONS

    expected = {"Dataset", *(e.kind for e in ENGINES.values()), *OPERATIONS}
    assert set(families()) == expected


@pytest.mark.parametrize("family", sorted(cases()))
def test_each_family_is_tested_healthy_progressing_and_degraded(family: str) -> None:
    seen = {case["expect"]["status"] for case in cases()[family].values()}
    assert {"Healthy", "Progressing", "Degraded"} <= seen


def test_committed_customizations_are_current() -> None:
    """deploy/argocd holds what `fluidgen argocd health deploy/argocd` and `fluidgen argocd cm`
    write; regenerate them when a script, a case or the kind table changes."""
    files = tree()
    committed = {str(p.relative_to(DEPLOY)): p.read_text() for p in (DEPLOY / "resource_customizations").rglob("*")
                 if p.is_file()}
    assert committed == files, "run: fluidgen argocd health deploy/argocd"
    assert (DEPLOY / "argocd-cm-health.yaml").read_text() == config_map(), \
        "run: fluidgen argocd cm > deploy/argocd/argocd-cm-health.yaml"


def test_config_map_scripts_equal_the_tree() -> None:
    data = yaml.safe_load(config_map())["data"]
    files = tree()
    for kind in families():
        assert data[f"resource.customizations.health.data.fluid.io_{kind}"] == \
            files[f"resource_customizations/data.fluid.io/{kind}/health.lua"]


def test_a_script_never_fails_on_odd_status(tmp_path: Path) -> None:
    """Odd but possible objects (no status, empty conditions, unknown phase) give a status."""
    for kind, family in families().items():
        script = tree()[f"resource_customizations/data.fluid.io/{kind}/health.lua"]
        for status in ({}, {"phase": "Weird"}, {"conditions": []}, {"masterPhase": "Ready"}, {"worker": {}}):
            result = run_health(script, {"kind": kind, "status": status})
            assert result["status"] in ("Healthy", "Progressing", "Degraded", "Unknown"), (family, status)
