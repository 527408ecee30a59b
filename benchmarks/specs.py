"""Write N distinct, valid specs (all engines, profiles, tiers, dataflow) for benchmarks."""

from __future__ import annotations

import sys
from pathlib import Path

OSS = "fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com"
OSS_KEYS = "[fs.oss.accessKeyId, fs.oss.accessKeySecret]"
ENGINES = [
    ("alluxio", "oss://bucket-{i}/data/", "  profile: alluxio-imagenet\n", OSS, OSS_KEYS),
    ("alluxio", "hdfs://namenode:8020/d{i}/", "  profile: alluxio-default\n", "", ""),
    ("jindo", "oss://bucket-{i}/data/", "  profile: jindo-default\n", OSS, OSS_KEYS),
    ("juicefs", "juicefs:///d{i}", "  profile: juicefs-default\n", "bucket: https://b{i}.s3.amazonaws.com",
     "[metaurl, access-key, secret-key]"),
    ("efc", "nfs://f{i}.cn-hangzhou.nas.aliyuncs.com:/share/", "", "", ""),
]


def spec(i: int) -> str:
    engine, uri, profile, option, keys = ENGINES[i % len(ENGINES)]
    options = f"    options: {{{option.format(i=i)}}}\n" if option else ""
    if keys:  # a Secret that exists in the cluster: no credential values in the benchmark
        options += f"    credentials: {{existingSecret: {{name: creds-{i}, keys: {keys}}}}}\n"
    load = "dataflow:\n  - load: {paths: [/]}\n" if engine != "efc" else ""
    return (f"apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata:\n  name: ds-{i}\n"
            f"  namespace: team-{i % 7}\n  labels: {{team: t{i % 7}}}\nsource:\n  - uri: {uri.format(i=i)}\n"
            f"{options}placement:\n  gpu: Tesla-V100-SXM2-16GB\nruntime:\n  engine: {engine}\n"
            f"  replicas: {1 + i % 8}\n  cache:\n    - {{medium: MEM, quota: {1 + i % 16}Gi}}\n{profile}{load}")


def main() -> int:
    count, folder = int(sys.argv[1]), Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"spec-{i:05d}.yaml").write_text(spec(i))
    return 0


if __name__ == "__main__":
    sys.exit(main())
