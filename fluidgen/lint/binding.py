"""Which engine a runtime object is, read through the engine table (lint reads the table;
the rules find bound objects through the run's ManifestIndex, fluidgen/manifest_index.py)."""

from __future__ import annotations

from ..contract import Engine
from ..engine_table import BY_KIND
from ..manifest import Manifest, kind_of


def engine_of(obj: Manifest) -> Engine | None:
    return BY_KIND.get(kind_of(obj))
