"""Fluid's own end-to-end manifests as a regression corpus (issue 42): test/gha-e2e at both commits
(shared test data, ../shared/fluid-src/{v1.0.8,master}) holds what Fluid's CI applies to a real
cluster, one folder per engine. Manifests that work on a cluster get no error from
`validate --lint` at the version they target, and every Dataset among them imports to a spec
that builds back to it (`import --check`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from fluidgen.base.versions import NAMES
from tests.conftest import run_cli
from tests.harness.fluid_src import TREES, need_tree

FOLDERS = {"v1.0.8": ("alluxio", "jindo", "juicefs"), "v1.1.0-dev": ("alluxio", "curvine", "jindo", "juicefs")}
CASES = [(version, folder) for version in NAMES for folder in FOLDERS[version]]


def _files(version: str, folder: str) -> list[str]:
    """The folder's manifests, all applied together by its test.sh."""
    root = need_tree(version) / "test" / "gha-e2e"
    assert sorted(p.name for p in root.iterdir() if p.is_dir()) == sorted(FOLDERS[version]), \
        f"test/gha-e2e at {TREES[version][1]} has other folders: list them in FOLDERS"
    return [str(p) for p in sorted((root / folder).glob("*.yaml"))]


@pytest.mark.parametrize(("version", "folder"), CASES)
def test_fluids_e2e_manifests_lint_without_errors(version: str, folder: str) -> None:
    result = run_cli("validate", "--lint", "--fluid-version", version, *_files(version, folder), env={})
    assert result.code == 0, result.err
    assert not re.search(r": error\b", result.err), result.err


@pytest.mark.parametrize(("version", "folder"), CASES)
def test_every_dataset_of_fluids_e2e_manifests_imports_and_round_trips(version: str, folder: str) -> None:
    files = _files(version, folder)
    datasets = sum(1 for f in files for d in yaml.safe_load_all(Path(f).read_text())
                   if isinstance(d, dict) and d.get("kind") == "Dataset")
    assert datasets, f"{folder} at {version} holds no Dataset"
    result = run_cli("import", "--check", "--fluid-version", version, *files, env={})
    assert result.code == 0, result.err
    summary = re.search(r"fluidgen import: (\d+) spec\(s\): (\d+) exact, (\d+) through overrides, 0 failed, "
                        r"0 invalid input, 0 without a runtime", result.err)
    assert summary is not None, result.err
    assert int(summary.group(1)) == datasets == int(summary.group(2)) + int(summary.group(3))
