"""Argo CD health checks for Fluid's kinds, run by a real Lua 5.1 interpreter (lupa.lua51;
Argo CD embeds gopher-lua, a Lua 5.1) against every kind's testdata, the way Argo CD's own
health_test.yaml cases run: the object is the global `obj`, the script returns the status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.commands.argocd import cases, config_map, families, tree

from .conftest import ROOT

DEPLOY = ROOT / "deploy" / "argocd"
lua51 = pytest.importorskip("lupa.lua51", reason="lupa (Lua 5.1) is in the test extra: pip install -e '.[test]'")


def run_health(script: str, obj: dict[str, Any]) -> dict[str, Any]:
    runtime = lua51.LuaRuntime(unpack_returned_tuples=True)
    runtime.globals().obj = runtime.table_from(obj, recursive=True)
    result = runtime.execute(script)
    return {k: result[k] for k in ("status", "message") if result[k] is not None}


def folder(kind: str) -> str:
    """resource_customizations/<group>/<Kind>, the layout of argo-cd's repository."""
    from fluidgen.catalog.kinds import table

    return f"resource_customizations/{table()[kind].api_version.rpartition('/')[0]}/{kind}"


CASES = [(kind, test) for kind in sorted(families())
         for test in yaml.safe_load(tree()[f"{folder(kind)}/health_test.yaml"])["tests"]]


@pytest.fixture(scope="module")
def customizations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree `fluidgen argocd health DIR` writes, read back from disk as Argo CD's tests do."""
    from .conftest import run_cli

    out = tmp_path_factory.mktemp("argocd")
    result = run_cli("argocd", "health", str(out))
    assert result.code == 0, result.err
    return out


@pytest.mark.parametrize(("kind", "test"), CASES, ids=[f"{k}-{t['inputPath']}" for k, t in CASES])
def test_health_check(kind: str, test: dict[str, Any], customizations: Path) -> None:
    here = customizations / folder(kind)
    listed = yaml.safe_load((here / "health_test.yaml").read_text())["tests"]
    assert test in listed
    obj = yaml.safe_load((here / test["inputPath"]).read_text())
    assert run_health((here / "health.lua").read_text(), obj) == test["healthStatus"]


def test_every_fluid_kind_with_a_status_has_a_check() -> None:
    from fluidgen.engines.engine_table import ENGINES
    from fluidgen.fluid.jobkinds import WORKLOADS
    from fluidgen.fluid.operations import OPERATIONS

    expected = {"Dataset", *(e.kind for e in ENGINES.values()), *OPERATIONS,
                *(w.kind for w in WORKLOADS.values() if w.kind != "Job")}  # Argo CD checks batch/v1 Job itself
    assert set(families()) == expected


@pytest.mark.parametrize("family", sorted(cases()))
def test_each_family_is_tested_healthy_progressing_and_degraded(family: str) -> None:
    from fluidgen.commands.argocd import FAMILIES

    assert family in FAMILIES
    seen = {case["expect"]["status"] for case in cases()[family].values()}
    assert {"Healthy", "Progressing", "Degraded"} <= seen


def test_committed_config_map_is_current() -> None:
    """deploy/argocd/argocd-cm-health.yaml is what `fluidgen argocd cm` prints; regenerate it
    when a script, a case or the kind table changes."""
    assert (DEPLOY / "argocd-cm-health.yaml").read_text() == config_map(), \
        "run: fluidgen argocd cm > deploy/argocd/argocd-cm-health.yaml"


def test_tree_on_disk_is_the_layout_argo_cd_reads(customizations: Path) -> None:
    found = sorted(str(p.parent.relative_to(customizations)) for p in customizations.rglob("health.lua"))
    assert found == sorted(folder(k) for k in families())
    for kind in families():
        assert {p.name for p in (customizations / folder(kind)).iterdir()} == {"health.lua", "health_test.yaml",
                                                                              "testdata"}


def test_config_map_scripts_equal_the_tree() -> None:
    data = yaml.safe_load(config_map())["data"]
    files = tree()
    for kind in families():
        group = folder(kind).split("/")[1]
        assert data[f"resource.customizations.health.{group}_{kind}"] == files[f"{folder(kind)}/health.lua"]


def test_a_script_never_fails_on_odd_status() -> None:
    """Odd but possible objects (no status, empty conditions, unknown phase) give a status."""
    for kind, family in families().items():
        script = tree()[f"{folder(kind)}/health.lua"]
        for status in ({}, {"phase": "Weird"}, {"conditions": []}, {"masterPhase": "Ready"}, {"worker": {}}):
            result = run_health(script, {"kind": kind, "status": status})
            assert result["status"] in ("Healthy", "Progressing", "Degraded", "Suspended", "Unknown"), (family, status)
