"""The engine table: every Fluid runtime fluidgen knows, looked up by engine name or kind.

It sits above the engine modules (fluidgen/engines/*.py, one per runtime, which declare an
Engine of fluidgen/engines/contract.py) and below everything that reads the list: kinds, the Fluid
API model, lint, the spec's engine sections, profiles, lowering. Every list of runtime kinds
is derived from ENGINES; an engine module is listed here once.
"""

from __future__ import annotations

from . import alluxio, cacheruntime, efc, goosefs, jindo, juicefs, thin, vineyard
from .contract import Engine

ENGINES: dict[str, Engine] = {m.ENGINE.name: m.ENGINE for m in (
    alluxio, jindo, juicefs, efc, thin, vineyard, goosefs, cacheruntime,
)}
BY_KIND: dict[str, Engine] = {e.kind: e for e in ENGINES.values()}
RUNTIME_KINDS: frozenset[str] = frozenset(BY_KIND)
# The runtime a dataset:// reference Dataset gets (exactly one engine says `references`).
REFERENCE_ENGINE: Engine = next(e for e in ENGINES.values() if e.mounts.references)
