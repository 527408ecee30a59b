"""JindoRuntime (JindoCache): C++ cache for OSS and friends; reads only the first tier."""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="jindo",
    kind="JindoRuntime",
    doc=__doc__ or "",
    schemes=frozenset({"oss", "s3", "cos", "obs", "hdfs", "dls", "pvc", "local"}),
    operations=frozenset({"DataLoad", "DataProcess"}),
    secret_keys={
        scheme: frozenset({f"fs.{scheme}.accessKeyId", f"fs.{scheme}.accessKeySecret"})
        for scheme in ("oss", "s3", "cos", "obs", "dls")
    },
    # Jindo's controller refuses an oss:// mount without its endpoint.
    required_options={"oss": ("fs.oss.endpoint",)},
)
