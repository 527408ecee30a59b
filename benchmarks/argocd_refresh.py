"""An Argo CD refresh of N fluidgen applications, one of them changed, against `kubectl
kustomize` of the same applications rendered as bases.

Argo CD's cmp-server unpacks every request into a fresh directory (argo-cd
cmpserver/plugin/plugin.go generateManifestGeneric: /tmp/_cmp_server/<uuid>/), then runs the
plugin's generate command there. This script does the same: each application is copied
into a new directory and deploy/argocd/plugin.yaml's own command runs in it, with the
Application's environment (ARGOCD_APP_NAMESPACE). The cache is warm from the previous
refresh, as in a running repo-server; one application changed since, so it compiles.
kustomize renders each application's `fluidgen build -o` base (also from a fresh copy).
Rounds alternate fluidgen and kustomize; the median of the paired ratios is reported.
Usage: python benchmarks/argocd_refresh.py [--apps 30] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from common import ROOT, fluidgen, kubectl

PLUGIN = ROOT / "deploy" / "argocd" / "plugin.yaml"
FLAGSHIP = ROOT / "examples" / "alluxio-imagenet-oss.yaml"


def generate_command() -> list[str]:
    generate = yaml.safe_load(PLUGIN.read_text())["spec"]["generate"]
    return [*generate["command"], *generate["args"]]


def write_app(folder: Path, i: int, replicas: int = 4) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FLAGSHIP.parent / "credentials", folder / "credentials", dirs_exist_ok=True)
    text = FLAGSHIP.read_text().replace("name: imagenet", f"name: imagenet-{i:03d}", 1)
    (folder / "dataset.yaml").write_text(text.replace("replicas: 4", f"replicas: {replicas}"))


def refresh(apps: list[Path], command: list[str], env: dict[str, str], work: Path) -> float:
    """Every application generated in a fresh copy; the time of the commands alone."""
    total = 0.0
    for app in apps:
        fresh = work / os.urandom(8).hex()
        shutil.copytree(app, fresh)
        start = time.perf_counter()
        subprocess.run(command, cwd=fresh, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        total += time.perf_counter() - start
        shutil.rmtree(fresh)
    return total


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    tool, kube = fluidgen(), kubectl()
    command = generate_command()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "PATH": f"{Path(tool).parent}{os.pathsep}{os.environ['PATH']}",
               "FLUIDGEN_CACHE_DIR": str(root / "cache"), "ARGOCD_APP_NAMESPACE": "default"}
        env.pop("FLUIDGEN_NO_CACHE", None)
        apps = [root / "repo" / f"app-{i:03d}" for i in range(args.apps)]
        bases = [root / "bases" / f"app-{i:03d}" for i in range(args.apps)]
        for i, app in enumerate(apps):
            write_app(app, i)
        ours, theirs = [], []
        for round_ in range(args.rounds + 1):  # round 0 fills the cache, as the refresh before did
            changed = round_ % args.apps
            write_app(apps[changed], changed, replicas=5 + round_)
            for app, base in zip(apps, bases, strict=True):  # kustomize gets the same apps as bases
                if base.exists() and app != apps[changed]:
                    continue
                shutil.rmtree(base, ignore_errors=True)
                subprocess.run([tool, "build", "-q", "--gitops", "argocd", str(app / "dataset.yaml"), "-o", str(base),
                                "--write-secrets"], check=True, env=env, stdout=subprocess.DEVNULL)
            f = refresh(apps, command, env, root)
            k = refresh(bases, [kube, "kustomize", "."], env, root)
            if round_:
                ours.append(f)
                theirs.append(k)
        ratio = statistics.median(f / k for f, k in zip(ours, theirs, strict=True))
        print(f"Argo CD refresh of {args.apps} apps, one changed ({args.rounds} paired rounds, medians): "
              f"fluidgen {statistics.median(ours):.2f} s, kustomize {statistics.median(theirs):.2f} s, "
              f"ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
