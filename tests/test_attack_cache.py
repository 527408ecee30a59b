"""The cache never serves what a fresh build would reject or build differently (issue: stale
or wrong cache output)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT, run_process

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


def test_sources_that_now_disagree_are_rebuilt_and_reported(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(SHARED_SECRET)
    cache = tmp_path / "cache"
    same = {"ID_A": "id", "ID_B": "id", "KEY": "k"}
    assert run_process("build", "spec.yaml", cwd=tmp_path, cache=cache, env=same).code == 0
    assert run_process("build", "spec.yaml", cwd=tmp_path, cache=cache, env=same).how == "CACHED"
    differ = run_process("build", "spec.yaml", cwd=tmp_path, cache=cache, env={**same, "ID_B": "other"})
    assert differ.how == "COMPILED" and differ.code == 1 and "two different values" in differ.err


def test_a_same_size_edit_of_a_bundled_profile_is_seen(tmp_path: Path) -> None:
    root = tmp_path / "install"
    shutil.copytree(ROOT / "fluidgen", root / "fluidgen", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "profiles", root / "profiles")
    app = tmp_path / "app"
    shutil.copytree(EXAMPLES, app)
    cache = tmp_path / "cache"
    first = run_process("build", "alluxio-imagenet-oss.yaml", cwd=app, cache=cache, pythonpath=str(root))
    assert first.code == 0 and "kernel_cache" in first.out
    profile = root / "profiles" / "alluxio-imagenet.yaml"
    text = profile.read_text()
    edited = text.replace("kernel_cache", "kernel_cachX")
    assert len(edited) == len(text)
    stat = profile.stat()
    profile.write_text(edited)
    os.utime(profile, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time: only the content differs
    second = run_process("build", "alluxio-imagenet-oss.yaml", cwd=app, cache=cache, pythonpath=str(root))
    assert second.how == "COMPILED" and "kernel_cachX" in second.out


def test_a_directory_build_hits_the_cache(tmp_path: Path) -> None:
    app = tmp_path / "app"
    app.mkdir()
    shutil.copytree(EXAMPLES / "credentials", app / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app / "dataset.yaml")
    (app / "kustomization.yaml").write_text("resources: []\n")
    cache = tmp_path / "cache"
    first = run_process("build", "-q", "--namespace", "training", ".", cwd=app, cache=cache)
    second = run_process("build", "-q", "--namespace", "training", ".", cwd=app, cache=cache)
    assert first.code == second.code == 0 and second.how == "CACHED"
    assert (first.out, first.err) == (second.out, second.err)
    (app / "more").mkdir()
    shutil.copy(EXAMPLES / "nfs-imagenet-alluxio.yaml", app / "more" / "nfs.yaml")
    third = run_process("build", "-q", "--namespace", "training", ".", cwd=app, cache=cache)
    assert third.how == "COMPILED" and "kind: PersistentVolume" in third.out


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
