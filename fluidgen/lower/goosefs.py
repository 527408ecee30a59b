"""GooseFSRuntime (Fluid v1.0.8 only): Tencent Cloud's Alluxio-derived cache."""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="goosefs",
    kind="GooseFSRuntime",
    doc=__doc__ or "",
    schemes=frozenset({"cos", "cosn", "oss", "s3", "hdfs", "http", "https", "pvc", "local"}),
    operations=frozenset(),
    single_tier=False,
    defaults={"data": {"replicas": 1}},
    versions=frozenset({"v1.0.8"}),
    removed_note="GooseFSRuntime was removed from Fluid after v1.0.8 (fluid-cloudnative/fluid#5703)",
)
