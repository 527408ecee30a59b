"""The cache never serves what a fresh build would reject or build differently (issue: stale
or wrong cache output)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, run_process

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
    from fluidgen.io.cache import cacheable_argv

    if kind == "stdin":
        assert not cacheable_argv(["build", "-"])
    else:
        fifo = tmp_path / "spec.yaml"
        os.mkfifo(fifo)
        assert not cacheable_argv(["build", str(fifo)])
        assert not cacheable_argv(["build", "-f", str(fifo)])


# --- the hit path trusts no input and no entry (issue 24) ---------------------------------------

def _cached_app(tmp_path: Path) -> tuple[Path, Path]:
    app = tmp_path / "app"
    app.mkdir()
    shutil.copytree(EXAMPLES / "credentials", app / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app / "dataset.yaml")
    cache = tmp_path / "cache"
    assert run_process("build", ".", cwd=app, cache=cache).code == 0
    assert run_process("build", ".", cwd=app, cache=cache).how == "CACHED"
    return app, cache


def test_an_input_replaced_by_a_fifo_is_a_miss_not_a_hang(tmp_path: Path) -> None:
    app, cache = _cached_app(tmp_path)
    (app / "dataset.yaml").unlink()
    os.mkfifo(app / "dataset.yaml")
    again = run_process("build", ".", cwd=app, cache=cache, timeout=60)
    assert again.how != "CACHED" and again.code == 1
    assert "dataset.yaml: warning: skipped: not a regular file" in again.err and "Traceback" not in again.err


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom"])
def test_an_input_replaced_by_a_link_to_a_device_is_a_miss_without_reading_it(tmp_path: Path, target: str) -> None:
    app, cache = _cached_app(tmp_path)
    (app / "dataset.yaml").unlink()
    (app / "dataset.yaml").symlink_to(target)
    again = run_process("build", ".", cwd=app, cache=cache, timeout=60)
    assert again.how != "CACHED" and again.code == 1 and "Traceback" not in again.err
    assert again.peak_kib == 0 or again.peak_kib < 300 * 1024


def test_an_input_grown_past_the_limit_is_a_miss(tmp_path: Path) -> None:
    from fluidgen.io import buildinputs, cache

    app, _ = _cached_app(tmp_path)
    big = app / "dataset.yaml"
    with open(big, "ab") as fh:
        fh.truncate(buildinputs.MAX_INPUT_BYTES + 10)
    assert cache._file_digest(str(big)) == "!"
    assert buildinputs.read_regular(str(big)) is None


def _rewrite(cache_dir: Path, payload: bytes, digest: bool = True) -> None:
    import hashlib

    from fluidgen.io.cache import _MAGIC

    [entry] = list(cache_dir.glob("*.entry"))
    head = hashlib.sha256(payload).hexdigest().encode() if digest else b"0" * 64
    entry.write_bytes(_MAGIC + head + b"\n" + payload)


@pytest.mark.parametrize("recipe", [["env"], [], ["file"], ["envfile", "x"], ["nonsense", "a"], [1, 2]])
def test_an_entry_with_a_short_or_strange_recipe_is_a_miss_without_traceback(tmp_path: Path,
                                                                             recipe: list[object]) -> None:
    import marshal

    app, cache = _cached_app(tmp_path)
    [entry] = list(cache.glob("*.entry"))
    data = marshal.loads(entry.read_bytes().split(b"\n", 2)[2])
    data["slots"][0] = [recipe]
    _rewrite(cache, marshal.dumps(data))
    again = run_process("build", ".", cwd=app, cache=cache)
    assert again.code == 0 and again.how == "COMPILED" and "Traceback" not in again.err


@pytest.mark.parametrize("digest", [True, False])
def test_a_marshal_bomb_entry_is_a_quick_miss(tmp_path: Path, digest: bool) -> None:
    import time

    app, cache = _cached_app(tmp_path)
    bomb = b"[" + (2**31 - 1).to_bytes(4, "little")  # a list header claiming 2**31 items
    _rewrite(cache, bomb, digest)
    start = time.monotonic()
    again = run_process("build", ".", cwd=app, cache=cache)
    assert again.code == 0 and again.how == "COMPILED" and "Traceback" not in again.err
    if not digest:  # a damaged entry is never unmarshalled
        assert time.monotonic() - start < 5


def test_credential_files_are_not_recorded_by_a_digest_of_their_content(tmp_path: Path) -> None:
    import hashlib

    app, cache = _cached_app(tmp_path)
    blob = b"".join(p.read_bytes() for p in cache.iterdir())
    secret = (app / "credentials" / "imagenet-oss.env").read_bytes()
    assert hashlib.sha256(secret).hexdigest().encode() not in blob
    # recorded by key set and recipe, relative to the build root
    assert b"credentials/imagenet-oss.env" in blob and str(app).encode() not in blob
    (app / "credentials" / "imagenet-oss.env").write_bytes(secret.replace(b"=", b"=x", 1))
    again = run_process("build", ".", cwd=app, cache=cache)
    assert again.how == "CACHED" and again.code == 0  # the same keys: the value is read again on the hit


QUOTA = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus}\nspec: {hard: {pods: '8'}}\n"


@pytest.mark.parametrize("linked", ["vendor", "quota.yaml"])
def test_a_skipped_link_later_replaced_by_a_copy_is_a_miss(tmp_path: Path, linked: str) -> None:
    """The walk skips a link that leads outside (and says "copy the files in"); a directory's
    listing records names only, so after the link was replaced by that copy the entry was
    served: Argo CD got the old output without the copy's objects, and pruned them."""
    app = tmp_path / "app"
    app.mkdir()
    shutil.copytree(EXAMPLES / "credentials", app / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app / "dataset.yaml")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "quota.yaml").write_text(QUOTA)
    (app / linked).symlink_to(shared if linked == "vendor" else shared / "quota.yaml")
    cache = tmp_path / "cache"
    args = ("build", "--gitops", "argocd", ".")
    first = run_process(*args, cwd=app, cache=cache)
    assert first.code == 0 and "ResourceQuota" not in first.out and "leads outside" in first.err
    (app / linked).unlink()
    if linked == "vendor":
        shutil.copytree(shared, app / "vendor")
    else:
        shutil.copy(shared / "quota.yaml", app / "quota.yaml")
    again = run_process(*args, cwd=app, cache=cache)
    assert again.how == "COMPILED" and again.code == 0 and "kind: ResourceQuota" in again.out
