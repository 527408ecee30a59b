"""Argo CD health checks for Fluid's kinds, run the way Argo CD runs a script from argocd-cm:
tests/harness/argocd_lua.py (Lua 5.1 with only the base, table and package libraries, no string
methods, 1 s; argo-cd util/lua/lua.go) against every kind's testdata, as Argo CD's own
health_test.yaml cases run: the object is the global `obj`, the script returns the status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.commands.argocd import cases, config_map, families, tree
from tests.conftest import ROOT

DEPLOY = ROOT / "deploy" / "argocd"
pytest.importorskip("lupa.lua51", reason="lupa (Lua 5.1) is in the test extra: pip install -e '.[test]'")

from tests.harness.argocd_lua import (  # noqa: E402  (after the skip: lupa is optional)
    ARGOCD_GLOBALS,
    LuaScriptError,
    argocd_health,
    globals_given,
    run,
    run_health,
)


def folder(kind: str) -> str:
    """resource_customizations/<group>/<Kind>, the layout of argo-cd's repository."""
    from fluidgen.catalog.kinds import table

    return f"resource_customizations/{table()[kind].api_version.rpartition('/')[0]}/{kind}"


CASES = [(kind, test) for kind in sorted(families())
         for test in yaml.safe_load(tree()[f"{folder(kind)}/health_test.yaml"])["tests"]]


@pytest.fixture(scope="module")
def customizations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree `fluidgen argocd health DIR` writes, read back from disk as Argo CD's tests do."""
    from tests.conftest import run_cli

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
    """Odd but possible objects (no status, empty conditions, unknown phase) give a status, never a
    script error (which Argo CD shows as Unknown)."""
    for kind, family in families().items():
        script = tree()[f"{folder(kind)}/health.lua"]
        for status in ({}, {"phase": "Weird"}, {"conditions": []}, {"masterPhase": "Ready"}, {"worker": {}},
                       {"workerPhase": "PartialReady", "desiredWorkerNumberScheduled": "4", "workerNumberReady": 1.5}):
            result = run_health(script, {"kind": kind, "status": status})
            assert result["status"] in ("Healthy", "Progressing", "Degraded", "Suspended"), (family, status)


# The sandbox is as strict as Argo CD (tests/harness/argocd_lua.py) -------------------------------------

SCRIPTS_THAT_FAIL_IN_ARGOCD = {
    # argo-cd util/lua/lua_test.go TestGetResourceHealth "Disable Lua standard lib" (v3.5.1)
    "string library": 'local hs = {status = "Healthy"} if string.find("x", "x") then return hs end',
    "string method (no string metatable)": 'return {status = ("Healthy"):upper()}',
    "string.gmatch, as fluidgen's old scripts": 'for k in string.gmatch("a.b", "[^.]+") do end return {}',
    "math": "return {status = tostring(math.floor(1))}",
    "os as a global (OpenSafeOs registers under 'table')": "return {status = tostring(os.time())}",
    "io": 'io.write("x") return {}',
    "debug": "debug.sethook() return {}",
    "coroutine": "coroutine.yield() return {}",
    "more than 1 s (context.WithTimeout 1 s)": "while true do end",
}


@pytest.mark.parametrize("name", sorted(SCRIPTS_THAT_FAIL_IN_ARGOCD))
def test_negative_control_a_script_argo_cd_refuses_fails_here(name: str) -> None:
    """Each script fails in Argo CD for an argocd-cm customization; it must fail in the sandbox."""
    with pytest.raises(LuaScriptError):
        run(SCRIPTS_THAT_FAIL_IN_ARGOCD[name], {"status": {}})
    assert argocd_health(SCRIPTS_THAT_FAIL_IN_ARGOCD[name], {"status": {}})["status"] == "Unknown"


def test_the_sandbox_runs_what_argo_cd_allows() -> None:
    """Base, table and require("os") work (a harness that refused everything would prove nothing)."""
    script = """local t = {}
table.insert(t, obj.status.phase)
local os = require("os")
assert(type(os.time()) == "number")
return {status = "Healthy", message = table.concat(t, ",") .. tostring(#t) .. type(pcall)}"""
    assert run_health(script, {"status": {"phase": "Bound"}}) == {"status": "Healthy", "message": "Bound1function"}
    assert run_health('return {status = "Fine"}', {}) == {"status": "Unknown",
                                                         "message": "Lua returned an invalid health status"}


def test_the_sandbox_gives_no_global_argo_cd_lacks() -> None:
    """Every global a script sees here exists in Argo CD's state for an argocd-cm script
    (gopher-lua v1.1.x baselib.go baseFuncs and OpenBase, loadlib.go OpenPackage, tablelib.go;
    argo-cd runLuaWithResourceActionParameters: obj, actionParams)."""
    given = globals_given()
    assert given <= ARGOCD_GLOBALS, sorted(given - ARGOCD_GLOBALS)
    assert not given & {"string", "math", "os", "io", "debug", "coroutine", "gcinfo"}


@pytest.mark.parametrize("kind", sorted(families()))
def test_every_script_needs_only_base_and_table(kind: str) -> None:
    """No script names a library Argo CD does not open for argocd-cm scripts, so none needs
    resource.customizations.useOpenLibs (fluidgen writes none)."""
    script = tree()[f"{folder(kind)}/health.lua"]
    for library in ("string.", "math.", "os.", "io.", "debug.", "coroutine.", ":find(", ":match(", ":gsub(", ":sub("):
        assert library not in script, (kind, library)
    assert "useOpenLibs" not in config_map()
