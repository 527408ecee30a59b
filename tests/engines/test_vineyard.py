"""engines/vineyard.py: master.networkMode means what it says only when the worker's network agrees
(the cell's `when`, _same_network), as FG140 reports it.

Fluid's facts (../shared/fluid-src, both commits):
- pkg/ddc/vineyard/transform.go transformMasters: `value.Master.HostNetwork =
  datav1alpha1.IsHostNetwork(runtime.Spec.Worker.NetworkMode)`: the master pod's network is the worker's.
- api/v1alpha1/container_network.go IsHostNetwork, by its own table (container_network_test.go
  TestIsHostNetwork): HostNetwork and "" are host network, ContainerNetwork is not. A mode left
  out is "" (json omitempty).
So master.networkMode is honoured exactly when IsHostNetwork(master) == IsHostNetwork(worker)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.base.versions import NAMES
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree
from tests.lint.test_lint import runtime

TIERS = "tieredstore: {levels: [{mediumtype: MEM, quota: 1Gi}]}\n"


def _is_host_network(root: Path) -> dict[str, bool]:
    """Mode -> host network, from the rows of Fluid's TestIsHostNetwork (constants resolved)."""
    api = root / "api/v1alpha1"
    consts = dict(re.findall(r'^\s*(\w+)\s+NetworkMode\s*=\s*"([^"]*)"', (api / "container_network.go").read_text(),
                             re.M))
    rows = re.findall(r"n:\s*(\w+|\"[^\"]*\"),\s*want:\s*(true|false)", (api / "container_network_test.go").read_text())
    return {consts[n] if n in consts else n.strip('"'): want == "true" for n, want in rows}


@pytest.mark.parametrize("version", NAMES)
def test_the_master_network_follows_the_worker_in_fluid(version: str) -> None:
    root = need_tree(version)
    assert _is_host_network(root) == {"HostNetwork": True, "": True, "ContainerNetwork": False}
    text = (root / "pkg/ddc/vineyard/transform.go").read_text()
    body = text.split("func (e *VineyardEngine) transformMasters(", 1)[1].split("\n}\n", 1)[0]
    assert "value.Master.HostNetwork = datav1alpha1.IsHostNetwork(runtime.Spec.Worker.NetworkMode)" in body


@pytest.mark.parametrize("version", NAMES)
def test_fg140_reports_master_network_mode_exactly_when_the_worker_disagrees(version: str, tmp_path: Path) -> None:
    host = _is_host_network(need_tree(version))
    manifest = tmp_path / "m.yaml"
    for master in host:
        for worker in (*host, None):  # None: worker.networkMode left out, read as ""
            spec = TIERS + f"master: {{networkMode: '{master}'}}\n"
            if worker is not None:
                spec += f"worker: {{networkMode: '{worker}'}}\n"
            manifest.write_text(runtime("VineyardRuntime", spec))
            result = run_cli("lint", "--fluid-version", version, str(manifest))
            assert result.code in (0, 1), result.err
            disagree = host[master] != host[worker or ""]
            found = "[FG140]: spec.master.networkMode: VineyardRuntime does not apply master.networkMode" in result.err
            assert found is disagree, (master, worker, result.err)


@pytest.mark.parametrize("version", NAMES)
def test_a_vineyard_spec_without_a_cache_tier_is_refused_with_fluids_own_words(version: str, tmp_path: Path) -> None:
    """transformTieredStore fails a runtime without levels ("the tieredstore is empty"): the build
    says so at runtime.cache, with Fluid's words, its source and the tier to add."""
    go = (need_tree(version) / "pkg/ddc/vineyard/transform.go").read_text()
    body = go[go.index("func (e *VineyardEngine) transformTieredStore"):]
    assert '"the tieredstore is empty"' in body[:body.index("\n}\n")]
    spec = tmp_path / "spec.yaml"
    text = (Path(__file__).parents[2] / "golden" / "ok" / "vineyard-shared-memory" / "spec.yaml").read_text()
    spec.write_text(text.replace("  cache: [{medium: MEM, quota: 20Gi}]\n", ""))
    result = run_cli("build", "--fluid-version", version, str(spec))
    assert result.code == 1, result.err
    assert (f"{spec}:4:1: error: runtime.cache: a VineyardRuntime needs a cache tier: Fluid fails one without "
            '("the tieredstore is empty", pkg/ddc/vineyard/transform.go transformTieredStore (every version)); '
            "add cache: [{medium: MEM, quota: 4Gi}]") in result.err, result.err
