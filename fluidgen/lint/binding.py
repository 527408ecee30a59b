"""Which engine a runtime object is, read through the engine table (lint reads the table;
the rules find bound objects through the run's ManifestIndex, fluidgen/base/manifest_index.py)."""

from __future__ import annotations

from ..base.manifest import Manifest, kind_of
from ..engines.contract import Engine
from ..engines.engine_table import by_kind


def engine_of(obj: Manifest) -> Engine | None:
    return by_kind(kind_of(obj))
