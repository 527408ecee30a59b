"""ThinRuntime: any FUSE program, described by a cluster-scoped ThinRuntimeProfile."""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="thin",
    kind="ThinRuntime",
    doc=__doc__ or "",
    schemes=None,  # the profile's FUSE program interprets the mountPoint
    operations=frozenset({"DataProcess"}),
)
