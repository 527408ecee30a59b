"""A revision's files for `plan --against git:REV`, treated as hostile (the module docstring):
REV never reaches git as an option, entry names that could leave the copy are refused, a link
is recreated only when it stays inside, nothing is written through a planted link, and
`git cat-file` answers are checked. git's own formats: `git ls-tree -l -z` prints
"<mode> SP <type> SP <object> SP <size> TAB <path> NUL" (size "-" for a non-blob), and
`git cat-file --batch` answers "<object> SP <type> SP <size> LF <contents> LF" (git-ls-tree(1),
git-cat-file(1))."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from fluidgen.io import gittree
from fluidgen.io.gittree import Copied, TreeError
from fluidgen.io.yamlreader import MAX_BYTES

OID = "a" * 40


def test_a_revision_like_an_option_or_empty_is_refused_before_git_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_git(*args: object, **kwargs: object) -> None:
        raise AssertionError("git ran")

    monkeypatch.setattr(subprocess, "run", no_git)
    for revision in ("-x", "--output=/tmp/x", ""):
        with pytest.raises(TreeError) as caught:
            gittree.resolve(revision, ".")
        assert str(caught.value) == (f"{revision!r} is not a revision (a revision never starts with '-'); give a "
                                     "branch, tag or commit, e.g. git:HEAD~1")
    with pytest.raises(TreeError) as control:
        gittree.resolve("HEAD\x00", ".")
    assert str(control.value) == "a revision has no control characters; give a branch, tag or commit"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_an_unknown_revision_is_named_with_what_to_give(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    with pytest.raises(TreeError) as caught:
        gittree.resolve("no-such-branch", str(tmp_path))
    assert str(caught.value) == "git cannot read revision no-such-branch: no such branch, tag or commit"


def test_names_that_could_leave_the_copy_are_left_out_with_a_note() -> None:
    listing = "\0".join([
        f"100644 blob {OID} 12\tspec.yaml", f"100644 blob {OID} 3\t../escape.yaml", f"100644 blob {OID} 3\t/etc/x",
        f"100644 blob {OID} 3\ta/.git/config", f"100644 blob {OID} 3\ta//b", f"100644 blob {OID} 3\t./c",
        f"160000 commit {OID} -\tvendor/sub", f"100644 blob {OID} -\tweird", f"100644 blob {OID} 3\ta/..b/.gitignore",
    ]) + "\0"
    out = Copied("/top")
    blobs = list(gittree._blobs(listing, out))
    assert blobs == [("100644", OID, "spec.yaml", 12), ("100644", OID, "weird", MAX_BYTES + 1),
                     ("100644", OID, "a/..b/.gitignore", 3)]
    assert out.notes == [(name, "left out: not a name a checkout can hold")
                         for name in ("../escape.yaml", "/etc/x", "a/.git/config", "a//b", "./c")]


def test_files_over_the_input_limit_are_listed_not_read_and_the_total_is_capped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    files, links, too_large = gittree._within_limits([
        ("100644", "1", "a", 10), ("120000", "2", "l", 10**9), ("100644", "3", "big", MAX_BYTES + 1)])
    assert (files, links, too_large) == ([("1", "a")], [("2", "l")], ["big"])
    monkeypatch.setattr(gittree, "MAX_TOTAL", 15)
    with pytest.raises(TreeError) as caught:
        gittree._within_limits([("100644", "1", "a", 10), ("100644", "2", "b", 10)])
    assert str(caught.value) == ("the specs' directories hold more than 0 MiB at this revision; give the spec files "
                                 "of one directory, or plan against a rendered file")


@pytest.mark.parametrize("target", ["/etc/passwd", "..", "../x", "a/../../x", "", "x\0y"])
def test_a_link_whose_target_leaves_the_tree_is_not_made(tmp_path: Path, target: str) -> None:
    out = Copied("/top")
    assert not gittree._link(str(tmp_path), "link", target, out)
    assert out.notes == [("link", f"left out: a symbolic link to {target!r}, outside the repository")]
    assert not os.path.lexists(tmp_path / "link")


def test_a_link_inside_the_tree_is_made_as_written(tmp_path: Path) -> None:
    out = Copied("/top")
    assert gittree._link(str(tmp_path), "d/e/link", "../../spec.yaml", out)
    assert os.readlink(tmp_path / "d" / "e" / "link") == "../../spec.yaml" and out.notes == []


def test_nothing_is_written_through_a_link_already_in_place(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    dest = tmp_path / "copy"
    dest.mkdir()
    (dest / "spec.yaml").symlink_to(victim)
    with pytest.raises(OSError):
        gittree._write(str(dest), "spec.yaml", b"overwritten\n")
    assert victim.read_text() == "keep me\n"
    gittree._write(str(dest), "a/b/new.yaml", b"x")
    assert (dest / "a" / "b" / "new.yaml").read_bytes() == b"x"
    assert (dest / "a" / "b" / "new.yaml").stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(("answer", "message"), [
    (f"{OID} missing\n".encode(), "git cat-file gave an unexpected answer"),
    (f"{OID} tree 10\n".encode(), "git cat-file gave an unexpected answer"),
    (f"{OID} blob ten\n".encode(), "git cat-file gave an unexpected answer"),
    (f"{OID} blob {MAX_BYTES + 1}\n".encode(), "a blob is larger than git ls-tree said"),
])
def test_a_cat_file_answer_that_is_not_a_blob_within_the_limit_is_refused(answer: bytes, message: str) -> None:
    with pytest.raises(TreeError) as caught:
        gittree._cat(io.BytesIO(), io.BytesIO(answer), OID)
    assert str(caught.value) == message
    assert gittree._cat(io.BytesIO(), io.BytesIO(f"{OID} blob 3\nabc\n".encode()), OID) == b"abc"
