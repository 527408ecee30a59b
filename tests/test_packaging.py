"""Bundled data (profiles) ship inside the wheel and load from an installed copy."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fluidgen import profiles

from .conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                           str(ROOT)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{proc.stderr}")
    return next(out.glob("fluidgen-*.whl"))


def test_wheel_contains_every_bundled_profile(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for profile in profiles.bundled_names():
        assert f"fluidgen/profiles/{profile}.yaml" in names
    assert "fluidgen/py.typed" in names


def test_installed_wheel_lists_profiles(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(wheel)], check=True)
    code = ("import fluidgen, fluidgen.profiles as p; "
            f"assert fluidgen.__file__.startswith({str(target)!r}), fluidgen.__file__; "
            "print(len(p.bundled_names()))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(target)}, cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) == len(profiles.bundled_names())
