"""The engine table: one module per Fluid runtime, looked up by engine name.

Every list of runtime kinds elsewhere is derived from ENGINES. To add an engine, write its
module (engines/base.py says what it declares) and add one line here.
"""

from __future__ import annotations

from . import alluxio, cache, efc, goosefs, jindo, juicefs, thin, vineyard
from .base import Engine, ExtraKind, Storage

ENGINES: dict[str, Engine] = {m.ENGINE.name: m.ENGINE for m in (
    alluxio, jindo, juicefs, efc, thin, vineyard, goosefs, cache,
)}
BY_KIND: dict[str, Engine] = {e.kind: e for e in ENGINES.values()}
RUNTIME_KINDS: frozenset[str] = frozenset(BY_KIND)

__all__ = ["BY_KIND", "ENGINES", "RUNTIME_KINDS", "Engine", "ExtraKind", "Storage"]
