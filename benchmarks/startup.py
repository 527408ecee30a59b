"""Cold single-spec `fluidgen build` vs `kubectl kustomize` rendering the same output.

Each trial starts fresh processes, interleaved (fluidgen, kustomize, fluidgen, ...), and the
median of the paired ratios is reported, for two cases:
  cache hit  - what Argo CD and pre-commit see on every refresh of unchanged inputs;
  no cache   - FLUIDGEN_NO_CACHE=1: the full compile, every time.
Usage: python benchmarks/startup.py [--runs 31] [SPEC]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, fluidgen, kubectl, timed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("spec", nargs="?", default=str(ROOT / "examples" / "alluxio-imagenet-oss.yaml"))
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    tool, kube = fluidgen(), kubectl()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        env = {**os.environ, "FLUIDGEN_CACHE_DIR": str(Path(tmp) / "cache")}
        # The Secret goes to a private secrets.yaml beside the kustomization, as -o requires
        subprocess.run([tool, "build", args.spec, "-o", str(base), "--write-secrets"], check=True, env=env)
        theirs = [kube, "kustomize", str(base)]
        ours = [tool, "build", args.spec]
        cases = {"cache hit": env, "no cache": {**env, "FLUIDGEN_NO_CACHE": "1"}}
        timed(ours, env)  # fill the cache and warm the OS file cache; not measured
        timed(theirs)
        print(f"{'case':<10} {'fluidgen':>10} {'kustomize':>10} {'ratio':>7}   ({args.runs} paired runs, medians)")
        for name, case_env in cases.items():
            pairs = [(timed(ours, case_env), timed(theirs)) for _ in range(args.runs)]
            f, k = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
            ratio = statistics.median(p[0] / p[1] for p in pairs)
            print(f"{name:<10} {f * 1000:>8.1f}ms {k * 1000:>8.1f}ms {ratio:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
