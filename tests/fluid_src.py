"""Fluid's source trees at the commits versions.py targets, for tests that check fluidgen's
facts against Fluid's own code (read-only test data beside the repository; see README)."""

from __future__ import annotations

import os
from pathlib import Path

from .conftest import ROOT

# versions.py name -> (directory under the source root, the commit it was unpacked from)
TREES: dict[str, tuple[str, str]] = {"v1.0.8": ("v1.0.8", "de578cd"), "v1.1.0-dev": ("master", "a826600")}
COMMITS: dict[str, str] = {version: commit for version, (_, commit) in TREES.items()}
SRC = Path(os.environ.get("FLUIDGEN_FLUID_SRC", str(ROOT.parent / "fluid-src")))


def tree(version: str) -> Path | None:
    """Fluid's source at `version`, or None when it is not on this machine."""
    path = SRC / TREES[version][0]
    return path if (path / "go.mod").is_file() else None


def missing_reason() -> str:
    return f"Fluid's source trees are not at {SRC} (set FLUIDGEN_FLUID_SRC)"
