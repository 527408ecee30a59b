"""Cold single-spec build vs `kubectl kustomize` rendering the same output.

Runs N paired, interleaved trials (fresh processes each time) and prints the median
wall times and their ratio. Usage: python benchmarks/startup.py [--runs 21] [SPEC]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("spec", nargs="?", default=str(ROOT / "examples" / "alluxio-imagenet-oss.yaml"))
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    fluidgen = shutil.which("fluidgen")
    kubectl = shutil.which("kubectl")
    if not fluidgen or not kubectl:
        print("needs `fluidgen` (pip install .) and `kubectl` on PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run([fluidgen, "build", args.spec, "-o", str(base)], check=True)
        ours = [fluidgen, "build", args.spec]
        theirs = [kubectl, "kustomize", str(base)]
        for cmd in (ours, theirs):  # warm the OS file cache once, not measured
            timed(cmd)
        pairs = [(timed(ours), timed(theirs)) for _ in range(args.runs)]
    f = statistics.median(p[0] for p in pairs)
    k = statistics.median(p[1] for p in pairs)
    ratios = statistics.median(p[0] / p[1] for p in pairs)
    print(f"runs={args.runs}  fluidgen build: {f * 1000:.1f} ms  kubectl kustomize: {k * 1000:.1f} ms  "
          f"median paired ratio: {ratios:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
