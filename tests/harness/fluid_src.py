"""Fluid's source trees at the commits versions.py targets, for tests that check fluidgen's
facts against Fluid's own code: shared test data beside the repository (../shared/fluid-src,
or $FLUIDGEN_FLUID_SRC; see README and ../shared/fluid-src/SOURCE.md), one folder per commit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import SHARED

# versions.py name -> (directory under the source root, the commit it was unpacked from)
TREES: dict[str, tuple[str, str]] = {"v1.0.8": ("v1.0.8", "de578cd"), "v1.1.0-dev": ("master", "a826600")}
COMMITS: dict[str, str] = {version: commit for version, (_, commit) in TREES.items()}
SRC = Path(os.environ.get("FLUIDGEN_FLUID_SRC", str(SHARED / "fluid-src")))
# The folders of Fluid's repository the shared trees hold (SOURCE.md); a source cited elsewhere
# cannot be checked here.
FOLDERS = ("pkg", "api", "charts", "test", "go.mod")


def tree(version: str) -> Path | None:
    """Fluid's source at `version`, or None when it is not on this machine."""
    path = SRC / TREES[version][0]
    return path if (path / "go.mod").is_file() else None


def missing_reason() -> str:
    """Says "shared": conftest counts the skip as one for want of shared test data (and fails it in CI)."""
    return f"Fluid's source trees (shared test data fluid-src) are not at {SRC} (set FLUIDGEN_FLUID_SRC)"


def need_tree(version: str) -> Path:
    """Fluid's source at `version`; the test skips (fails in CI) when it is not on this machine."""
    root = tree(version)
    if root is None:
        pytest.skip(missing_reason())
    return root
