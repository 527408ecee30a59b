"""What an uncached `fluidgen build` cannot go below with the chosen stack, against kustomize.

Fresh processes, interleaved, medians of the paired ratios to `kubectl kustomize` of the
same output:
  python        - the interpreter alone (`python -c pass`, site included);
  libraries     - importing what every build needs before it reads a spec: pydantic
                  (BaseModel, Field, one strict frozen model built), click and PyYAML (libyaml),
                  then leaving as the console script does (os._exit, no teardown);
  no cache      - `fluidgen build` of the ImageNet example with FLUIDGEN_NO_CACHE=1.
The libraries row is the floor of issue 29's uncached goal: fluidgen's own work is the
difference between the last two rows.
Usage: python benchmarks/floor.py [--runs 21] [SPEC]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from common import fluidgen, kustomize_of, paired_table, spec_and_runs, timed

LIBRARIES = ("from pydantic import BaseModel, ConfigDict, Field\nimport click, yaml\n"
             "class M(BaseModel):\n    model_config = ConfigDict(extra='forbid', frozen=True, strict=True)\n"
             "    name: str = Field(min_length=1)\n"
             "import os\nos._exit(0)\n")


def main() -> int:
    args = spec_and_runs(21)
    tool = fluidgen()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "FLUIDGEN_NO_CACHE": "1", "PYDANTIC_DISABLE_PLUGINS": "__all__"}
        theirs = kustomize_of(tool, args.spec, Path(tmp) / "base", env)
        cases = {"python": [sys.executable, "-c", "pass"], "libraries": [sys.executable, "-c", LIBRARIES],
                 "no cache": [tool, "build", args.spec]}
        for cmd in (*cases.values(), theirs):  # warm the OS file cache; not measured
            timed(cmd, env)
        paired_table({name: (cmd, env) for name, cmd in cases.items()}, theirs, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
