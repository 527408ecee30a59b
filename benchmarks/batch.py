"""One `fluidgen build` call over N distinct specs: wall time, peak memory, cost per spec.

Runs each size in a fresh process with the cache off, a few times, and reports the median
wall time, the peak RSS of the child, and the marginal cost per spec relative to the
smallest size (flat when there is no super-linear work).
--flagship builds N copies of examples/alluxio-imagenet-oss.yaml instead (the full ImageNet
profile, credentials from an env file, lint on), each under its own name.
--kustomize also renders the same output as a kustomize base (`build -o --write-secrets`)
and times `kubectl kustomize` of it in paired runs (median ratio).
Usage: python benchmarks/batch.py [--sizes 10 100 300 1000] [--runs 3] [--flagship] [--kustomize]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, fluidgen, kubectl
from specs import spec

FLAGSHIP = ROOT / "examples" / "alluxio-imagenet-oss.yaml"


def flagship(i: int) -> str:
    return FLAGSHIP.read_text().replace("name: imagenet", f"name: imagenet-{i:05d}", 1)


def run_once(tool: str, folder: Path) -> tuple[float, int]:
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    env = {**os.environ, "FLUIDGEN_NO_CACHE": "1"}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", probe, tool, "build", "-q", str(folder)], env=env,
                         capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(out.stdout)


def kustomize_once(kube: str, base: Path) -> tuple[float, int]:
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", probe, kube, "kustomize", str(base)], capture_output=True, text=True,
                         check=True)
    return time.perf_counter() - start, int(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 300, 1000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--flagship", action="store_true", help="copies of the ImageNet example")
    parser.add_argument("--kustomize", action="store_true", help="also kubectl kustomize of the same output")
    args = parser.parse_args()
    tool = fluidgen()
    print(f"{'specs':>6} {'wall':>8} {'peak RSS':>9} {'per spec (marginal)':>20}")
    first: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            folder = Path(tmp) / str(size)
            folder.mkdir()
            if args.flagship:  # its env file, beside every copy as in the example
                (folder / "credentials").mkdir()
                for f in (FLAGSHIP.parent / "credentials").iterdir():
                    (folder / "credentials" / f.name).write_text(f.read_text())
            for i in range(size):
                (folder / f"spec-{i:05d}.yaml").write_text(flagship(i) if args.flagship else spec(i))
            base = Path(tmp) / f"base-{size}"
            if args.kustomize:
                subprocess.run([tool, "build", "-q", str(folder), "-o", str(base), "--write-secrets"], check=True,
                               env={**os.environ, "FLUIDGEN_NO_CACHE": "1"}, stdout=subprocess.DEVNULL)
            samples, theirs = [], []
            for _ in range(args.runs):  # paired: fluidgen, then kustomize of its output
                samples.append(run_once(tool, folder))
                theirs += [kustomize_once(kubectl(), base)] if args.kustomize else []
            wall = statistics.median(s[0] for s in samples)
            rss = max(s[1] for s in samples)
            marginal = "" if first is None else f"{(wall - first[1]) / (size - first[0]) * 1000:.2f} ms"
            first = first or (size, wall)
            vs = ""
            if theirs:
                ratio = statistics.median(f[0] / k[0] for f, k in zip(samples, theirs, strict=True))
                vs = (f"   kustomize {statistics.median(k[0] for k in theirs):.2f}s "
                      f"{max(k[1] for k in theirs) / 1024:.0f}MB, ratio {ratio:.2f}")
            print(f"{size:>6} {wall:>7.2f}s {rss / 1024:>7.0f}MB {marginal:>20}{vs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
