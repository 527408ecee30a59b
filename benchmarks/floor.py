"""What an uncached `fluidgen build` cannot go below with the chosen stack, against kustomize.

Fresh processes, interleaved, medians of the paired ratios to `kubectl kustomize` of the
same output:
  python        - the interpreter alone (`python -c pass`, site included);
  libraries     - importing what every build needs before it reads a spec: pydantic
                  (BaseModel, Field, one strict frozen model built), click and PyYAML (libyaml);
  no cache      - `fluidgen build` of the ImageNet example with FLUIDGEN_NO_CACHE=1.
The libraries row is the floor of issue 29's uncached goal: fluidgen's own work is the
difference between the last two rows.
Usage: python benchmarks/floor.py [--runs 21] [SPEC]
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

LIBRARIES = ("from pydantic import BaseModel, ConfigDict, Field\nimport click, yaml\n"
             "class M(BaseModel):\n    model_config = ConfigDict(extra='forbid', frozen=True, strict=True)\n"
             "    name: str = Field(min_length=1)\n")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("spec", nargs="?", default=str(ROOT / "examples" / "alluxio-imagenet-oss.yaml"))
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    tool, kube = fluidgen(), kubectl()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        env = {**os.environ, "FLUIDGEN_NO_CACHE": "1", "PYDANTIC_DISABLE_PLUGINS": "__all__"}
        subprocess.run([tool, "build", args.spec, "-o", str(base), "--write-secrets"], check=True, env=env)
        cases = {"python": [sys.executable, "-c", "pass"], "libraries": [sys.executable, "-c", LIBRARIES],
                 "no cache": [tool, "build", args.spec]}
        theirs = [kube, "kustomize", str(base)]
        for cmd in (*cases.values(), theirs):  # warm the OS file cache; not measured
            timed(cmd, env)
        print(f"{'case':<10} {'time':>9} {'kustomize':>10} {'ratio':>7}   ({args.runs} paired runs, medians)")
        for name, cmd in cases.items():
            pairs = [(timed(cmd, env), timed(theirs)) for _ in range(args.runs)]
            mine, kust = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
            ratio = statistics.median(p[0] / p[1] for p in pairs)
            print(f"{name:<10} {mine * 1000:>7.1f}ms {kust * 1000:>8.1f}ms {ratio:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
