"""What strict embedded Kubernetes types cost `fluidgen validate` at start-up.

Fresh processes validate one AlluxioRuntime, interleaved: once without embedded Kubernetes
types (nothing but Fluid's own fields) and once with resources, volumes, volumeMounts and
imagePullSecrets, which makes the validator read the strict definitions of
the Kubernetes minor the Fluid version embeds and walk the ones the document uses. The
median difference is the cold-start cost. In-process figures follow: reading the
definitions file, and how many of its definitions a document of each shape walks.
Usage: python benchmarks/embedded.py [--runs 31]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import fluidgen, timed

PLAIN = """\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: d, namespace: default}
spec:
  replicas: 2
  properties: {alluxio.user.block.size.bytes.default: 256MB}
  tieredstore:
    levels: [{mediumtype: SSD, path: /cache, quota: 100Gi, high: "0.95", low: "0.7"}]
"""
EMBEDDED = PLAIN + """\
  imagePullSecrets: [{name: regcred}]
  volumes: [{name: cache, hostPath: {path: /mnt/cache, type: DirectoryOrCreate}}]
  master:
    resources: {requests: {cpu: "2", memory: 8Gi}, limits: {memory: 16Gi}}
  worker:
    volumeMounts: [{name: cache, mountPath: /mnt/cache}]
    nodeSelector: {gpu: v100}
  fuse:
    resources: {limits: {cpu: "4", memory: 16Gi}}
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    tool = fluidgen()
    with tempfile.TemporaryDirectory() as tmp:
        plain, embedded = Path(tmp) / "plain.yaml", Path(tmp) / "embedded.yaml"
        plain.write_text(PLAIN)
        embedded.write_text(EMBEDDED)
        timed([tool, "validate", str(embedded)])  # warm the OS file cache; not measured
        pairs = [(timed([tool, "validate", str(plain)]), timed([tool, "validate", str(embedded)]))
                 for _ in range(args.runs)]
    base = statistics.median(p for p, _ in pairs)
    with_types = statistics.median(e for _, e in pairs)
    delta = statistics.median(e - p for p, e in pairs)
    print(f"validate, Fluid fields only:        {base * 1000:6.1f} ms   ({args.runs} runs, median)")
    print(f"validate, with embedded core types: {with_types * 1000:6.1f} ms")
    print(f"cold-start cost of strict embedded types: {delta * 1000:+.1f} ms (median of paired differences)")

    from fluidgen.base import versions
    from fluidgen.base.structural import kube

    minor = versions.get(versions.DEFAULT).kubernetes
    start = time.perf_counter()
    defs = kube.definitions(minor)
    read = time.perf_counter() - start
    print(f"in process: reading the Kubernetes {minor} strict definitions: {read * 1000:.1f} ms "
          f"({len(defs)} definitions; only those a document refers to are walked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
