"""Runtime registry: one module per Fluid runtime, looked up by engine name."""

from __future__ import annotations

from . import alluxio, efc, goosefs, jindo, juicefs, thin, vineyard
from .base import Engine

ENGINES: dict[str, Engine] = {
    m.ENGINE.name: m.ENGINE for m in (alluxio, jindo, juicefs, efc, thin, vineyard, goosefs)
}
