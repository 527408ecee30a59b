"""`plan --against git:REV`: a revision string never acts as a git option, and a revision's
tree cannot crash the plan, leave its directory or cost more than its specs (issue 24)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fluidgen.io import gittree
from tests.conftest import EXAMPLES, run_cli, run_process

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
SPEC = "alluxio-imagenet-oss.yaml"


def commit(repo: Path, message: str = "c") -> None:
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-qm", message], check=True)


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(EXAMPLES / SPEC, root / SPEC)
    shutil.copytree(EXAMPLES / "credentials", root / "credentials")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    commit(root)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        yield root
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("revision", ["--output=victim.txt", "-l", "--remote=ext::sh -c touch% pwned", "-",
                                      "--exec=touch pwned", "HEAD\n--output=victim.txt"])
def test_a_revision_string_never_acts_as_a_git_option(repo: Path, revision: str) -> None:
    victim = repo / "victim.txt"
    victim.write_text("keep me\n")
    run = run_cli("plan", SPEC, "--against", f"git:{revision}")
    assert run.code == 1, run.err
    assert "revision" in run.err
    assert victim.read_text() == "keep me\n"
    assert not (repo / "pwned").exists()


def test_a_revision_is_resolved_to_a_tree_before_use(repo: Path) -> None:
    subprocess.run([*GIT, "-C", str(repo), "tag", "v1"], check=True)
    assert run_cli("plan", SPEC, "--against", "git:v1").code == 0
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    assert run_cli("plan", SPEC, "--against", f"git:{head}").code == 0
    assert gittree.resolve("HEAD", str(repo)) == subprocess.run(
        ["git", "rev-parse", "HEAD^{tree}"], cwd=repo, capture_output=True, text=True).stdout.strip()


@pytest.mark.parametrize("target", ["/etc/passwd", "../../outside", "/", "credentials/../../.."])
def test_a_link_out_of_the_tree_is_reported_not_a_crash(repo: Path, target: str) -> None:
    (repo / "escape.yaml").symlink_to(target)
    commit(repo)
    run = run_cli("plan", SPEC, "--against", "git:HEAD")
    assert run.code == 0, run.err
    assert "escape.yaml: info: left out: a symbolic link" in run.err


def test_a_link_that_leaves_through_another_link_is_dropped(repo: Path) -> None:
    (repo / "a").mkdir()
    (repo / "a" / "d").symlink_to("..")
    (repo / "a" / "e").symlink_to("d/..")
    commit(repo)
    with_tree = gittree.resolve("HEAD", str(repo))
    dest = repo.parent / "copy"
    dest.mkdir()
    copied = gittree.copy(with_tree, str(repo), [""], str(dest))
    assert ("a/e", "left out: a symbolic link that leads outside the repository") in copied.notes
    assert not (dest / "a" / "e").is_symlink() and (dest / "a" / "d").is_symlink()


def test_links_inside_the_tree_still_work(repo: Path) -> None:
    (repo / "linked.yaml").symlink_to(SPEC)
    commit(repo)
    run = run_cli("plan", "linked.yaml", "--against", "git:HEAD")
    assert run.code == 0, run.err


def test_only_the_specs_directories_are_copied_and_large_files_are_never_read(repo: Path, tmp_path: Path) -> None:
    (repo / "specs").mkdir()
    shutil.move(repo / SPEC, repo / "specs" / SPEC)
    shutil.move(repo / "credentials", repo / "specs" / "credentials")
    (repo / "data").mkdir()
    with open(repo / "data" / "zeros.bin", "wb") as fh:  # elsewhere in the repository: never listed
        fh.truncate(100 * 1024 * 1024)
    with open(repo / "specs" / "big.bin", "wb") as fh:  # beside the spec, over the limit: listed, never read
        fh.truncate(100 * 1024 * 1024)
    commit(repo)
    proc = run_process("plan", f"specs/{SPEC}", "--against", "git:HEAD", cwd=repo)
    assert proc.code == 0, proc.err
    assert "git:HEAD:specs/big.bin: info: left out: larger than 4 MiB" in proc.err
    assert "zeros.bin" not in proc.err
    # VmHWM, the child's own peak (conftest PROBE): ru_maxrss would carry over the test process's
    # peak across fork and exec, and say more about the tests that ran before than about plan
    assert proc.peak_kib / 1024 < 200, proc.peak_kib


def test_a_tree_with_too_many_files_is_refused_with_a_way_out(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(12):
        (repo / f"f{i}.txt").write_text(str(i))
    commit(repo)
    monkeypatch.setattr(gittree, "MAX_FILES", 10)
    run = run_cli("plan", SPEC, "--against", "git:HEAD")
    assert run.code == 1 and "more than 10 files" in run.err and "give the spec files of one directory" in run.err


@pytest.mark.parametrize("revision", ["\n", "HEAD\t", "\x1b[31m"])
def test_a_revision_with_control_characters_is_refused_on_one_located_line(repo: Path, revision: str) -> None:
    """Found by the fuzz suite: the message's location held the raw newline."""
    run = run_cli("plan", SPEC, "--against", f"git:{revision}")
    assert run.code == 1 and len(run.err.splitlines()) == 1
    assert run.err.startswith("git:'") and ": error: a revision has no control characters" in run.err
