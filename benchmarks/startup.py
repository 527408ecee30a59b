"""Cold single-spec `fluidgen build` vs `kubectl kustomize` rendering the same output.

Each trial starts fresh processes, interleaved (fluidgen, kustomize, fluidgen, ...), and the
median of the paired ratios is reported, for two cases:
  cache hit  - what Argo CD and pre-commit see on every refresh of unchanged inputs;
  no cache   - FLUIDGEN_NO_CACHE=1: the full compile, every time.
Usage: python benchmarks/startup.py [--runs 31] [SPEC]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from common import fluidgen, kustomize_of, paired_table, spec_and_runs, timed


def main() -> int:
    args = spec_and_runs(31)
    tool = fluidgen()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "FLUIDGEN_CACHE_DIR": str(Path(tmp) / "cache")}
        theirs = kustomize_of(tool, args.spec, Path(tmp) / "base", env)
        ours = [tool, "build", args.spec]
        timed(ours, env)  # fill the cache and warm the OS file cache; not measured
        timed(theirs)
        paired_table({"cache hit": (ours, env), "no cache": (ours, {**env, "FLUIDGEN_NO_CACHE": "1"})}, theirs,
                     args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
