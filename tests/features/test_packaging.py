"""Bundled profiles live in the top-level profiles/ and ship inside the wheel; an installed
wheel (outside the checkout) and an editable install both find them by name."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from fluidgen.spec import profiles
from tests.conftest import ROOT

pytestmark = pytest.mark.slow
BUNDLED = sorted(p.stem for p in (ROOT / "profiles").glob("*.yaml"))


def test_profiles_are_at_the_top_level() -> None:
    assert BUNDLED and "alluxio-imagenet" in BUNDLED
    assert not (ROOT / "fluidgen" / "profiles").exists()
    assert profiles.bundled_names() == BUNDLED


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{proc.stderr}")
    return next(out.glob("fluidgen-*.whl"))


def test_wheel_contains_every_bundled_profile(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for profile in BUNDLED:
        assert f"fluidgen/bundled_profiles/{profile}.yaml" in names
    assert "fluidgen/py.typed" in names
    assert "fluidgen/bundled_schemas/fluidgen-spec.v1alpha1.json" in names  # explain reads it


def _venv(path: Path) -> Path:
    """A fresh virtual environment with its own pip (so installing into it never touches the
    environment running the tests) that also sees this one's packages for the dependencies:
    fluidgen itself must come from what is installed into it, not from the checkout."""
    venv.EnvBuilder(system_site_packages=False, with_pip=True).create(path)
    site = next(path.glob("lib/python*/site-packages"))
    here = [p for p in sys.path if p.endswith("site-packages")]
    (site / "zz-deps.pth").write_text("\n".join(here) + "\n")
    return path / "bin" / "python"


def _pip(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "-q", *args], capture_output=True,
                          text=True, check=False)


def _fluidgen(python: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    return subprocess.run([str(python), "-m", "fluidgen", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          check=False)


def test_installed_wheel_finds_profiles_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv")
    installed = _pip(python, str(wheel))
    assert installed.returncode == 0, installed.stderr
    where = subprocess.run([str(python), "-c", "import fluidgen; print(fluidgen.__file__)"], capture_output=True,
                           text=True, cwd=tmp_path, check=True).stdout
    assert where.startswith(str(tmp_path / "venv")), where
    listed = _fluidgen(python, tmp_path, "profiles", "list")
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()] == BUNDLED
    shown = _fluidgen(python, tmp_path, "profiles", "show", "alluxio-imagenet")
    assert shown.returncode == 0 and "alluxio.master.metastore: ROCKS" in shown.stdout
    explained = _fluidgen(python, tmp_path, "explain", "runtime.cache.quota")
    checkout = _fluidgen(Path(sys.executable), ROOT, "explain", "runtime.cache.quota")
    assert explained.returncode == 0 and explained.stdout == checkout.stdout, explained.stderr


def test_editable_install_finds_profiles(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv")
    proc = _pip(python, "-e", str(ROOT))
    if proc.returncode != 0:
        pytest.fail(f"editable install failed:\n{proc.stderr}")
    listed = _fluidgen(python, tmp_path, "profiles", "list")
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()] == BUNDLED
