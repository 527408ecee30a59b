"""VineyardRuntime: in-memory object sharing between pipeline steps; needs no mounts."""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="vineyard",
    kind="VineyardRuntime",
    doc=__doc__ or "",
    schemes=frozenset(),
    operations=frozenset({"DataProcess"}),
    needs_mounts=False,
)
