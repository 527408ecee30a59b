"""Validate 1000 generated Fluid documents against the real CRDs in one process.

The documents are the output of `fluidgen build` over benchmark specs (a mix of Dataset,
runtimes and DataLoad); validators are compiled once per kind and reused.
Usage: python benchmarks/validate.py [--crds ../shared/fluid-crds/v1.0.8] [--count 1000]
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from common import ROOT, fluidgen
from specs import spec

from fluidgen.io.crds import CrdSet


def main() -> int:
    parser = argparse.ArgumentParser()
    default = os.environ.get("FLUIDGEN_CRDS_DIR", str(ROOT.parent / "shared" / "fluid-crds")) + "/v1.0.8"
    parser.add_argument("--crds", default=default)
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            (Path(tmp) / f"spec-{i:05d}.yaml").write_text(spec(i))
        out = subprocess.run([fluidgen(), "build", "-q", tmp], capture_output=True, text=True, check=True,
                             env={**os.environ, "FLUIDGEN_NO_CACHE": "1"}).stdout
    docs = [d for d in yaml.load_all(out, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            if d["apiVersion"].startswith("data.fluid.io/")]
    step = len(docs) / args.count
    sample = [docs[int(i * step)] for i in range(args.count)]
    start = time.perf_counter()
    crds = CrdSet.load(args.crds)
    loaded = time.perf_counter()
    problems = sum(len(crds.check(d)) for d in sample)
    done = time.perf_counter()
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(collections.Counter(d["kind"] for d in sample).items()))
    print(f"validated {len(sample)} documents ({kinds})")
    print(f"load CRDs: {loaded - start:.3f}s   validate: {done - loaded:.3f}s   problems: {problems}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
