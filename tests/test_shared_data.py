"""The test run says when it is not a full run: a missing ../shared folder fails CI before any
test runs, and elsewhere ends in one line naming what was missing (never a quiet green run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT, SHARED_FOLDERS

ONE_SHARED_TEST = "tests/test_examples.py::test_jindo_matches_reference"


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
