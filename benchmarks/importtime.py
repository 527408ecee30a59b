"""Start-up import profile (python -X importtime) of the cache-hit path and the compile path.

Prints the heaviest modules (cumulative microseconds) for each path.
Usage: python benchmarks/importtime.py [--top 12]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from common import fresh_bytecode

PATHS = {
    "cache-hit path (fluidgen.__main__ + fluidgen.io.cache)": "import fluidgen.__main__, fluidgen.io.cache",
    "compile path (cli, spec models, YAML, lowering)": (
        "import fluidgen.cli, fluidgen.compile.pipeline, fluidgen.spec.spec, fluidgen.io.yamlreader, "
        "fluidgen.lower.runtime, fluidgen.lint, ruamel.yaml"),
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    fresh_bytecode()
    for title, code in PATHS.items():
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
                             check=True).stderr
        rows = []
        for line in err.splitlines():
            if line.startswith("import time:") and "|" in line and "cumulative" not in line:
                _, cumulative, name = line[len("import time:"):].split("|")
                rows.append((int(cumulative), name[1:].rstrip()))  # indentation marks nesting
        top_level = [r for r in rows if not r[1].startswith(" ")]
        total = sum(c for c, _ in top_level)
        print(f"\n{title}: {total / 1000:.1f} ms of imports")
        for cumulative, name in sorted(rows, reverse=True)[: args.top]:
            print(f"  {cumulative / 1000:7.1f} ms  {name.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
