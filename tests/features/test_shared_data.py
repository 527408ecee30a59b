"""The test run says when it is not a full run: a missing ../shared folder fails CI before any
test runs, and elsewhere ends in one line naming what was missing (never a quiet green run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED_FOLDERS

ONE_SHARED_TEST = "tests/features/test_examples.py::test_jindo_matches_reference"


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "FLUIDGEN_CRDS_DIR")}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", ONE_SHARED_TEST],
                          capture_output=True, text=True, cwd=ROOT, check=False,
                          env={**clean, "FLUIDGEN_SHARED_DIR": str(tmp_path / "nowhere"), **env})


def test_ci_fails_at_once_when_shared_data_is_missing(tmp_path: Path) -> None:
    run = _pytest(tmp_path, CI="true")
    assert run.returncode == 1
    assert "CI needs the shared test data" in run.stdout + run.stderr
    assert all(folder in run.stdout + run.stderr for folder in SHARED_FOLDERS)


def test_a_developer_run_without_shared_data_says_it_is_not_a_full_run(tmp_path: Path) -> None:
    run = _pytest(tmp_path)
    assert run.returncode == 0, run.stdout
    assert "NOT A FULL RUN: 1 tests skipped for want of shared test data" in run.stdout


def test_readme_names_every_shared_folder_the_tests_read() -> None:
    readme = (ROOT / "README.md").read_text()
    assert all(f"shared/{folder}" in readme for folder in SHARED_FOLDERS)


def test_the_fluid_source_check_reads_the_shared_fluid_trees(tmp_path: Path) -> None:
    """Issue 42 (8): the check that every cited Fluid source exists reads ../shared/fluid-src (it
    looked beside the repository and skipped, so it never ran); where the trees are missing, CI
    fails at once and a developer run names them in its NOT A FULL RUN line."""
    from tests.conftest import SHARED

    check = "tests/base/test_fluidsource.py::test_every_cited_source_exists_in_fluid"
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "FLUIDGEN_FLUID_SRC", "FLUIDGEN_SHARED_DIR")}

    def run(shared: Path, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", check],
                              capture_output=True, text=True, cwd=ROOT, check=False,
                              env={**clean, "FLUIDGEN_SHARED_DIR": str(shared), **env})

    if not (SHARED / "fluid-src" / "master" / "go.mod").is_file():
        pytest.skip(f"shared test data fluid-src is not under {SHARED}")
    ran = run(SHARED)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout
    partial = tmp_path / "shared"
    for folder in SHARED_FOLDERS:
        if not folder.startswith("fluid-src/"):
            (partial / folder).mkdir(parents=True)
    skipped = run(partial)
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout
    assert "NOT A FULL RUN" in skipped.stdout and "fluid-src/v1.0.8, fluid-src/master" in skipped.stdout
    in_ci = run(partial, CI="true")
    assert in_ci.returncode == 1 and "fluid-src/v1.0.8" in in_ci.stdout + in_ci.stderr
