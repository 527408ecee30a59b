"""AlluxioRuntime: multi-tier cache with JVM master/worker/FUSE, tuned through profiles."""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="alluxio",
    kind="AlluxioRuntime",
    doc=__doc__ or "",
    # Anything Alluxio's UFS layer understands; these are the documented ones.
    schemes=frozenset({"oss", "s3", "s3a", "hdfs", "gs", "cos", "obs", "http", "https", "pvc",
                       "local"}),
    operations=frozenset({"DataLoad", "DataBackup", "DataProcess"}),
    single_tier=False,
    # One copy of each block across workers unless the spec asks for more.
    defaults={"data": {"replicas": 1}},
    secret_keys={
        "oss": frozenset({"fs.oss.accessKeyId", "fs.oss.accessKeySecret"}),
        "s3": frozenset({"aws.accessKeyId", "aws.secretKey"}),
        "s3a": frozenset({"aws.accessKeyId", "aws.secretKey"}),
    },
)
