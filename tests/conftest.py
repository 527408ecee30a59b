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


def pytest_terminal_summary(terminalreporter: Any) -> None:
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
        from .golden import fold_versions

        fold_versions()


def crds_root() -> Path | None:
    """Real Fluid CRDs: $FLUIDGEN_CRDS_DIR, else ../shared/fluid-crds beside the repo."""
    env = os.environ.get("FLUIDGEN_CRDS_DIR")
    for candidate in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "fluid-crds"]:
        if (candidate / "v1.0.8").is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def crds() -> Iterator[dict[str, object]]:
    root = crds_root()
    if root is None:
        pytest.skip("Fluid CRDs not found: set FLUIDGEN_CRDS_DIR or put them in ../shared/fluid-crds")
    from fluidgen.structural.crds import CrdSet

    yield {v: CrdSet.load(root / v) for v in ("v1.0.8", "v1.1.0-dev")}


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(*args: str, env: dict[str, str] | None = None) -> Run:
    """Run the CLI in-process, the way the console script does."""
    from fluidgen.cli import run

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        with redirect_stdout(out), redirect_stderr(err):
            code = run(list(args))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli() -> object:
    return run_cli
