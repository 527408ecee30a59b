"""EFCRuntime: Alibaba Cloud NAS / CPFS client cache; one mount, first tier, first path."""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="efc",
    kind="EFCRuntime",
    doc=__doc__ or "",
    schemes=frozenset({"nfs", "cpfs"}),
    operations=frozenset({"DataProcess"}),
    single_mount=True,
    secret_keys={"nfs": frozenset({"efc.nas.accessKeyId", "efc.nas.accessKeySecret"}),
                 "cpfs": frozenset({"efc.nas.accessKeyId", "efc.nas.accessKeySecret"})},
)
