"""No input can hang a run or make it grow without bound (issue: hangs and unbounded cost).

Each case runs in a child process with a time limit, and its peak memory is read back.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, SHARED, Run, run_process

LIMIT_S, LIMIT_MIB = 15, 400


def _bounded(args: list[str], cwd: Path) -> Run:
    start = time.monotonic()
    result = run_process(*args, cwd=cwd, clean=False, timeout=60)
    elapsed = time.monotonic() - start
    assert "Traceback" not in result.err
    assert elapsed < LIMIT_S and result.peak_kib / 1024 < LIMIT_MIB, (args, elapsed, result.peak_kib)
    return result


def _spec_with(tmp_path: Path, runtime_text: str) -> Path:
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials", dirs_exist_ok=True)
    spec = tmp_path / "spec.yaml"
    base = (EXAMPLES / "alluxio-imagenet-oss.yaml").read_text()
    spec.write_text(base.replace("  profile: alluxio-imagenet\n", "  profile: alluxio-imagenet\n" + runtime_text))
    return spec


@pytest.mark.parametrize("command", ["build", "validate", "lint"])
def test_an_astronomic_memory_limit_is_refused_quickly(command: str, tmp_path: Path) -> None:
    spec = _spec_with(tmp_path, "  overrides:\n    fuse:\n      resources: {limits: {memory: '1e999999999'}}\n")
    proc = _bounded([command, str(spec)], tmp_path)
    assert proc.code == 1 and "2^63" in proc.err


def test_a_huge_flat_file_stops_at_the_node_limit(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("items:\n" + "".join(f"  - {{a: {i}, b: x{i}}}\n" for i in range(140_000)))
    assert spec.stat().st_size < 4 * 1024 * 1024
    proc = _bounded(["build", str(spec)], tmp_path)
    assert proc.code == 1 and "more than 200000 nodes" in proc.err


def test_thirty_thousand_merge_keys_are_cheap(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("base: &b {" + ", ".join(f"k{i}: {i}" for i in range(40)) + "}\n"
                    + "".join(f"m{i}:\n  <<: *b\n" for i in range(30_000)))
    proc = _bounded(["build", str(spec)], tmp_path)
    assert proc.code == 1 and "nodes" in proc.err


def test_a_directory_never_reads_a_huge_file_whole(tmp_path: Path) -> None:
    app = tmp_path / "app"
    app.mkdir()
    with (app / "huge.yaml").open("wb") as fh:  # sparse: 2 GiB on paper, nothing on disk
        fh.truncate(2 * 1024**3)
    proc = _bounded(["build", str(app)], tmp_path)
    assert proc.code == 1 and "larger than 4 MiB" in proc.err


def test_an_alias_bomb_in_crds_is_bounded(tmp_path: Path) -> None:
    bomb = tmp_path / "crds.yaml"
    bomb.write_text("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefghi", "bcdefghij", strict=True)))
    proc = _bounded(["validate", "--crds", str(bomb), str(EXAMPLES / "jindo-imagenet-oss.yaml")], tmp_path)
    assert proc.code == 1 and "nodes" in proc.err


@pytest.mark.parametrize("command", ["build", "validate", "lint"])
def test_a_fifo_spec_is_read_once_and_never_hangs(command: str, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    text = (EXAMPLES / "jindo-imagenet-oss.yaml").read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as fh:  # opens once: a second read would wait forever
            fh.write(text)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    # the cache must not drain the pipe first
    proc = run_process(command, str(fifo), cwd=tmp_path, cache=tmp_path / "cache", timeout=30)
    writer.join(5)
    assert proc.code == 0, proc.err
    if command == "build":
        assert "kind: JindoRuntime" in proc.out


@pytest.mark.parametrize("command", ["validate", "lint"])
def test_stdin_is_read_and_checked(command: str) -> None:
    bad = (SHARED / "reference" / "alluxio-imagenet-oss.yaml")
    if not bad.exists():
        pytest.skip(f"reference manifests missing at {SHARED / 'reference'} (../shared)")
    proc = run_process(command, "-", stdin=bad.read_text(), clean=False, timeout=30)
    assert proc.code == 1 and "-:" in proc.err  # checked, and located in "-"
