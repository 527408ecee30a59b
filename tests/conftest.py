from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED = Path(os.environ.get("FLUIDGEN_SHARED_DIR", str(ROOT.parent / "shared")))
# Figures a suite measures (counts of generated cases and the like), printed at the end of the run.
RESULTS: dict[str, dict[str, object]] = {}


# Every folder of ../shared the tests read (the README names them too). In CI (`CI` set) a missing
# one fails the run before any test; elsewhere the tests that need it skip, and one summary line
# says which folders were missing and how many tests that skipped.
SHARED_FOLDERS = (
    "fluid-crds/v1.0.8", "fluid-crds/v1.1.0-dev", "kubeflow-crds/mpi-operator-v0.8.2",
    "kubeflow-crds/training-operator-v1.9.4", "kubeflow-crds/trainer-v2.3.0", "external-secrets-crds/v2.9.0",
    "flux-crds/kustomize-controller-v1.9.4", "reference", "fluid-src/v1.0.8", "fluid-src/master",
)
SHARED_SKIPS: dict[str, int] = {}


def missing_shared() -> list[str]:
    crds = os.environ.get("FLUIDGEN_CRDS_DIR")
    src = os.environ.get("FLUIDGEN_FLUID_SRC")
    missing = []
    for folder in SHARED_FOLDERS:
        if folder.startswith("fluid-crds/") and crds and (Path(crds) / folder.split("/", 1)[1]).is_dir():
            continue
        if folder.startswith("fluid-src/") and src and (Path(src) / folder.split("/", 1)[1]).is_dir():
            continue
        if not (SHARED / folder).is_dir():
            missing.append(folder)
    return missing


def pytest_sessionstart(session: pytest.Session) -> None:
    missing = missing_shared()
    if missing and os.environ.get("CI"):
        pytest.exit(f"CI needs the shared test data, missing under {SHARED}: {', '.join(missing)} "
                    "(set FLUIDGEN_SHARED_DIR, or put shared/ beside the repository)", returncode=1)


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    return str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and ("shared" in _skip_reason(report) or str(SHARED) in _skip_reason(report)):
        if os.environ.get("CI"):  # a shared file the session check did not list: still never a quiet skip
            report.outcome = "failed"
            report.longrepr = f"CI must not skip for want of shared data: {_skip_reason(report)}"
        else:
            SHARED_SKIPS[item.nodeid] = 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    missing = missing_shared()
    if missing or SHARED_SKIPS:
        terminalreporter.write_line(
            f"fluidgen: NOT A FULL RUN: {len(SHARED_SKIPS)} tests skipped for want of shared test data "
            f"(missing under {SHARED}: {', '.join(missing) or 'files inside the folders'}); CI fails instead",
            yellow=True, bold=True)
    for title, rows in sorted(RESULTS.items()):
        terminalreporter.write_sep("-", f"fluidgen: {title}")
        for name, value in sorted(rows.items()):
            terminalreporter.write_line(f"{name}: {value}")


def pytest_configure(config: pytest.Config) -> None:
    # Builds run through the console entry point use the build cache; keep it out of $HOME.
    import tempfile

    os.environ["FLUIDGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="fluidgen-test-cache-")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite golden/ expected files from the current output.")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    if session.config.getoption("--update-golden"):
        from tests.harness.golden import fold_versions

        fold_versions()


def crds_root() -> Path | None:
    """Real Fluid CRDs: $FLUIDGEN_CRDS_DIR, else ../shared/fluid-crds beside the repo."""
    env = os.environ.get("FLUIDGEN_CRDS_DIR")
    for candidate in ([Path(env)] if env else []) + [SHARED / "fluid-crds"]:
        if (candidate / "v1.0.8").is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def crds() -> Iterator[dict[str, object]]:
    root = crds_root()
    if root is None:
        pytest.skip("Fluid CRDs not found: set FLUIDGEN_CRDS_DIR or put them in ../shared/fluid-crds")
    from fluidgen.io.crds import CrdSet

    yield {v: CrdSet.load(root / v) for v in ("v1.0.8", "v1.1.0-dev")}


@dataclass
class Run:
    """One fluidgen run: exit code, stdout, stderr; for a child process also whether the
    cache served it ("CACHED") or it compiled ("COMPILED"), and its peak memory."""

    code: int
    out: str
    err: str
    how: str = ""
    peak_kib: int = 0


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Run:
    """Run the CLI in-process, the way the console script does (without its cache)."""
    from fluidgen.cli import run

    out, err = io.StringIO(), io.StringIO()
    saved, here = dict(os.environ), os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            code = run(list(args))
    finally:
        os.chdir(here)
        os.environ.clear()
        os.environ.update(saved)
    return Run(code, out.getvalue(), err.getvalue())


# The console script in a fresh interpreter; the last stderr line says how it ran and its own
# peak memory in KiB. That is VmHWM, the peak of this process image: Linux keeps ru_maxrss across
# execve, so a child of a large test process would report its parent's peak (ru_maxrss only where
# /proc is missing).
PROBE = ("import resource, sys; from fluidgen.__main__ import main; rc = main(sys.argv[1:]); "
         "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
         "try:\n"
         "    peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
         "except (OSError, StopIteration):\n"
         "    pass\n"
         "print('COMPILED' if 'pydantic' in sys.modules else 'CACHED', peak, file=sys.stderr); sys.exit(rc)")


def run_process(*args: str, cwd: Path = ROOT, cache: Path | None = None, env: dict[str, str] | None = None,
                clean: bool = True, pythonpath: str | None = None, stdin: str | None = None,
                timeout: float = 120) -> Run:
    """Run the console script (`python -m fluidgen`, with its cache) in a child process.

    clean: without the caller's FLUIDGEN_* and OSS_* variables; cache: the cache directory
    (else the cache is off); env: variables added on top."""
    import subprocess
    import sys

    full = {k: v for k, v in os.environ.items() if not (clean and k.startswith(("FLUIDGEN_", "OSS_")))}
    full.update({"FLUIDGEN_CACHE_DIR": str(cache)} if cache is not None else {"FLUIDGEN_NO_CACHE": "1"})
    full.update({"PYTHONPATH": pythonpath} if pythonpath else {})
    full.update(env or {})
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, env=full,
                          input=stdin, timeout=timeout, check=False)
    err, _, probe = proc.stderr.rstrip("\n").rpartition("\n")
    if " " not in probe:  # the interpreter died before the probe line
        return Run(proc.returncode, proc.stdout, proc.stderr)
    how, _, peak = probe.partition(" ")
    return Run(proc.returncode, proc.stdout, err + ("\n" if err else ""), how, int(peak))


@pytest.fixture
def cli() -> object:
    return run_cli
