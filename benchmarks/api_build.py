"""Time per call of the Python API's build of the flagship example, in process.

`fluidgen.build(path)` and `fluidgen.build(mapping)` (the spec parsed once by the caller,
as a pipeline holds it) of examples/alluxio-imagenet-oss.yaml, warm: each process builds
once before timing, then times ITER calls of each, interleaved. Paired comparison of two
checkouts: run it with --compare OTHER_CHECKOUT; the processes of the two alternate, and the
median of the per-pair differences is reported with the medians.

Usage: python benchmarks/api_build.py [--iterations 200] [--pairs 10] [--compare DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAGSHIP = ROOT / "examples" / "alluxio-imagenet-oss.yaml"
ENV = {"OSS_ACCESS_KEY_ID": "id", "OSS_ACCESS_KEY_SECRET": "secret"}

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import yaml
import fluidgen
path, iterations, env = sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
assert fluidgen.__file__.startswith(sys.argv[1]), fluidgen.__file__
spec = yaml.safe_load(open(path).read())
base = path.rsplit("/", 1)[0]
assert fluidgen.build(path, env=env).ok and fluidgen.build(spec, env=env, base_dir=base).ok
out = {"path": [], "mapping": []}
calls = {"path": lambda: fluidgen.build(path, env=env), "mapping": lambda: fluidgen.build(spec, env=env, base_dir=base)}
for _ in range(iterations):
    for kind, call in calls.items():
        t = time.perf_counter()
        call()
        out[kind].append(time.perf_counter() - t)
print(json.dumps({k: sorted(v)[len(v) // 2] for k, v in out.items()}))
"""


def run(checkout: Path, iterations: int) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(checkout), str(FLAGSHIP), str(iterations),
                           json.dumps(ENV)], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--compare", type=Path, help="another checkout (before), timed in alternation")
    args = parser.parse_args()
    this: list[dict[str, float]] = []
    other: list[dict[str, float]] = []
    for _ in range(args.pairs):
        if args.compare:
            other.append(run(args.compare.resolve(), args.iterations))
        this.append(run(ROOT, args.iterations))
    for kind in ("path", "mapping"):
        mine = [r[kind] * 1000 for r in this]
        line = f"build({kind}): {statistics.median(mine):.2f} ms per call (median of {args.pairs} processes)"
        if other:
            theirs = [r[kind] * 1000 for r in other]
            diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
            line += (f"; other {statistics.median(theirs):.2f} ms; paired difference "
                     f"{statistics.median(diffs):+.2f} ms (min {min(diffs):+.2f}, max {max(diffs):+.2f})")
        print(line)
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    print(f"({started}; {args.iterations} calls of each per process)")


if __name__ == "__main__":
    main()
