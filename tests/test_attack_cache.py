"""The cache never serves what a fresh build would reject or build differently (issue: stale
or wrong cache output)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT

PROBE = ("import sys; from fluidgen.__main__ import main; rc = main(sys.argv[1:]); "
         "print('COMPILED' if 'pydantic' in sys.modules else 'CACHED', file=sys.stderr); sys.exit(rc)")
SHARED_SECRET = """apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo}
source:
  - name: a
    uri: oss://bucket/a/
    options: {fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}
    credentials: {secretName: shared, fromEnv: {fs.oss.accessKeyId: ID_A, fs.oss.accessKeySecret: KEY}}
  - name: b
    uri: oss://bucket/b/
    options: {fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}
    credentials: {secretName: shared, fromEnv: {fs.oss.accessKeyId: ID_B, fs.oss.accessKeySecret: KEY}}
runtime: {engine: alluxio, replicas: 1}
"""


def _run(cwd: Path, cache: Path, *args: str, pythonpath: str | None = None, **env: str) -> tuple[int, str, str, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("FLUIDGEN_", "OSS_"))}
    full.update({"FLUIDGEN_CACHE_DIR": str(cache), **env})
    if pythonpath:
        full["PYTHONPATH"] = pythonpath
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, env=full,
                          check=False)
    err, _, how = proc.stderr.rstrip("\n").rpartition("\n")
    return proc.returncode, proc.stdout, err, how


def test_sources_that_now_disagree_are_rebuilt_and_reported(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(SHARED_SECRET)
    cache = tmp_path / "cache"
    same = {"ID_A": "id", "ID_B": "id", "KEY": "k"}
    assert _run(tmp_path, cache, "build", "spec.yaml", **same)[0] == 0
    assert _run(tmp_path, cache, "build", "spec.yaml", **same)[3] == "CACHED"
    differ = _run(tmp_path, cache, "build", "spec.yaml", **{**same, "ID_B": "other"})
    assert differ[3] == "COMPILED" and differ[0] == 1 and "two different values" in differ[2]


def test_a_same_size_edit_of_a_bundled_profile_is_seen(tmp_path: Path) -> None:
    root = tmp_path / "install"
    shutil.copytree(ROOT / "fluidgen", root / "fluidgen", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "profiles", root / "profiles")
    app = tmp_path / "app"
    shutil.copytree(EXAMPLES, app)
    cache = tmp_path / "cache"
    first = _run(app, cache, "build", "alluxio-imagenet-oss.yaml", pythonpath=str(root))
    assert first[0] == 0 and "kernel_cache" in first[1]
    profile = root / "profiles" / "alluxio-imagenet.yaml"
    text = profile.read_text()
    edited = text.replace("kernel_cache", "kernel_cachX")
    assert len(edited) == len(text)
    stat = profile.stat()
    profile.write_text(edited)
    os.utime(profile, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time: only the content differs
    second = _run(app, cache, "build", "alluxio-imagenet-oss.yaml", pythonpath=str(root))
    assert second[3] == "COMPILED" and "kernel_cachX" in second[1]


def test_a_directory_build_hits_the_cache(tmp_path: Path) -> None:
    app = tmp_path / "app"
    app.mkdir()
    shutil.copytree(EXAMPLES / "credentials", app / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app / "dataset.yaml")
    (app / "kustomization.yaml").write_text("resources: []\n")
    cache = tmp_path / "cache"
    first = _run(app, cache, "build", "-q", "--namespace", "training", ".")
    second = _run(app, cache, "build", "-q", "--namespace", "training", ".")
    assert first[0] == second[0] == 0 and second[3] == "CACHED"
    assert first[1:3] == second[1:3]
    (app / "more").mkdir()
    shutil.copy(EXAMPLES / "nfs-imagenet-alluxio.yaml", app / "more" / "nfs.yaml")
    third = _run(app, cache, "build", "-q", "--namespace", "training", ".")
    assert third[3] == "COMPILED" and "kind: PersistentVolume" in third[1]


@pytest.mark.parametrize("kind", ["stdin", "fifo"])
def test_pipes_are_never_cached(tmp_path: Path, kind: str) -> None:
    from fluidgen.cache import cacheable_argv

    if kind == "stdin":
        assert not cacheable_argv(["build", "-"])
    else:
        fifo = tmp_path / "spec.yaml"
        os.mkfifo(fifo)
        assert not cacheable_argv(["build", str(fifo)])
        assert not cacheable_argv(["build", "-f", str(fifo)])
