"""The largest project file fluidgen accepts (issue 38): wall time and peak memory of one
`fluidgen build DIR` over it, so the caps of compile/project.py (MAX_SPECS specs per
environment, MAX_OVERLAYS files per chain, no entry twice) can be held against README's
promise (10 s, 300 MB on a 2-core machine).

Shapes (each at the caps, every chain distinct, so none is refused as a repeat):
- flagship: MAX_SPECS chains, each the ImageNet example under its own name plus
  MAX_OVERLAYS - 1 shared overlays (merged in every chain): every spec compiles, lint on.
- permuted: the fewest files: MAX_OVERLAYS files, each chain a different order of them (all
  chains build the same objects, so the build ends in clash errors after compiling them all).
- heavy: large overlays shared by every chain, just under MAX_NODES values counted per use:
  ten chains, each the ImageNet example under its own name plus MAX_OVERLAYS - 1 overlays of
  annotations (which land on every object the spec makes); every spec compiles.
Runs each shape in a fresh process with the cache off; reports the median wall and CPU time
(user + system: what a quiet machine's wall time would be) of --runs, and the child's peak RSS.
Usage: python benchmarks/project_caps.py [--runs 3] [--shape flagship|permuted]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, fluidgen

sys.path.insert(0, str(ROOT))
from fluidgen.compile.project import MAX_NODES, MAX_OVERLAYS, MAX_SPECS

FLAGSHIP = ROOT / "examples" / "alluxio-imagenet-oss.yaml"
OVERLAYS = ["runtime:\n  replicas: {n}\n", "placement:\n  gpu: Tesla-V100-SXM2-16GB\n",
            "metadata:\n  labels:\n    tier{n}: gold\n", "metadata:\n  annotations:\n    note{n}: overlay\n"]


def flagship(folder: Path) -> None:
    (folder / "credentials").mkdir()
    (folder / "credentials" / "imagenet-oss.env").write_text((ROOT / "examples" / "credentials" /
                                                              "imagenet-oss.env").read_text())
    overlays = []
    for n in range(MAX_OVERLAYS - 1):
        name = f"o{n}.yaml"
        (folder / name).write_text(OVERLAYS[n % len(OVERLAYS)].format(n=n + 1))
        overlays.append(name)
    chains = []
    for i in range(MAX_SPECS):
        name = f"spec-{i:04d}.yaml"
        (folder / name).write_text(FLAGSHIP.read_text().replace("name: imagenet", f"name: imagenet-{i:04d}", 1))
        chains.append([name, *overlays])
    _project(folder, chains)


def permuted(folder: Path) -> None:
    (folder / "credentials").mkdir()
    (folder / "credentials" / "imagenet-oss.env").write_text((ROOT / "examples" / "credentials" /
                                                              "imagenet-oss.env").read_text())
    (folder / "base.yaml").write_text(FLAGSHIP.read_text())
    overlays = []
    for n in range(MAX_OVERLAYS - 1):
        name = f"o{n}.yaml"
        (folder / name).write_text(OVERLAYS[n % len(OVERLAYS)].format(n=n + 1))
        overlays.append(name)
    orders = itertools.islice(itertools.permutations(overlays), MAX_SPECS)
    _project(folder, [["base.yaml", *order] for order in orders])


def heavy(folder: Path) -> None:
    (folder / "credentials").mkdir()
    (folder / "credentials" / "imagenet-oss.env").write_text((ROOT / "examples" / "credentials" /
                                                              "imagenet-oss.env").read_text())
    chains_count = 10
    per_overlay = (MAX_NODES // chains_count - 200) // (MAX_OVERLAYS - 1) - 4
    overlays = []
    for n in range(MAX_OVERLAYS - 1):
        name = f"big{n}.yaml"
        (folder / name).write_text("metadata:\n  annotations:\n" + "".join(
            f"    o{n}-{i}.example.com/note: v{i}\n" for i in range(per_overlay)))
        overlays.append(name)
    chains = []
    for i in range(chains_count):
        name = f"spec-{i:04d}.yaml"
        (folder / name).write_text(FLAGSHIP.read_text().replace("name: imagenet", f"name: imagenet-{i:04d}", 1))
        chains.append([name, *overlays])
    _project(folder, chains)


def _project(folder: Path, chains: list[list[str]]) -> None:
    lines = ["apiVersion: fluidgen.io/v1alpha1", "kind: Project", "environments:", "  prod:", "    specs:"]
    lines += [f"      - [{', '.join(chain)}]" for chain in chains]
    (folder / "fluidgen.yaml").write_text("\n".join(lines) + "\n")


def run_once(folder: Path) -> tuple[float, int, int, float]:
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); u = resource.getrusage(resource.RUSAGE_CHILDREN); "
             "print(p.returncode, u.ru_maxrss, u.ru_utime + u.ru_stime)")
    env = {**os.environ, "FLUIDGEN_NO_CACHE": "1"}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", probe, fluidgen(), "build", "-q", str(folder)], env=env,
                         capture_output=True, text=True, check=True)
    code, peak, cpu = out.stdout.split()
    return time.perf_counter() - start, int(peak), int(code), float(cpu)


SHAPES = {"flagship": flagship, "permuted": permuted, "heavy": heavy}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shape", choices=list(SHAPES), action="append")
    args = parser.parse_args()
    print(f"caps: MAX_SPECS={MAX_SPECS} MAX_OVERLAYS={MAX_OVERLAYS} MAX_NODES={MAX_NODES}; "
          f"load average {os.getloadavg()[0]:.1f}")
    for shape in args.shape or list(SHAPES):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            SHAPES[shape](folder)
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            runs = [run_once(folder) for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[3] for r in runs)
            peak = max(r[1] for r in runs) / 1024
            print(f"{shape}: {len(list(folder.glob('*.yaml')))} files, {size / 1024:.0f} KiB; exit {runs[0][2]}; "
                  f"median {wall:.2f} s wall, {cpu:.2f} s CPU, peak {peak:.0f} MB "
                  f"(wall per run: {', '.join(f'{r[0]:.2f}' for r in runs)})")


if __name__ == "__main__":
    main()
