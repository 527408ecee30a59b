"""What a build read, as the cache re-checks it: regular files only and within the limit
(never blocking on a FIFO or reading a device), directory listings by the names that matter,
and env files by their key set, never by value."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from fluidgen.io import buildinputs
from fluidgen.io.buildinputs import BuildInputs, digest, folder_listing, read_regular

EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # FIPS 180-4 test vector


class Watched:
    """The os module as buildinputs sees it, with os.open refused (or os.lstat replaced)."""

    def __init__(self, lstat_as: Path | None = None) -> None:
        self.lstat_as, self.opened, self.asked = lstat_as, 0, 0

    def __getattr__(self, name: str) -> object:
        return getattr(os, name)

    def open(self, path: str, flags: int, *args: int) -> int:
        self.opened += 1
        if self.lstat_as is None:
            raise AssertionError(f"{path} was opened")
        return os.open(path, flags, *args)

    def lstat(self, path: str) -> os.stat_result:
        return os.lstat(self.lstat_as if self.lstat_as is not None else path)

    def read(self, fd: int, size: int) -> bytes:
        self.asked += size
        return os.read(fd, size)


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "directory", "link to a device", "over the limit"])
def test_read_regular_never_opens_a_special_or_oversized_file(tmp_path: Path, kind: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """README: a FIFO or device is never opened (a FIFO without a writer would block an open,
    /dev/zero would never end), and no input over the limit is read."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    path = tmp_path / "input.yaml"
    if kind == "fifo":
        path = fifo
    elif kind == "link to a fifo":
        path.symlink_to(fifo)
    elif kind == "directory":
        path.mkdir()
    elif kind == "link to a device":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b"x" * 11)
    watched = Watched()
    monkeypatch.setattr(buildinputs, "os", watched)
    assert read_regular(str(path), limit=10) is None
    assert watched.opened == 0


@pytest.mark.parametrize("now", ["fifo", "grown"])
def test_read_regular_refuses_a_file_swapped_or_grown_after_it_was_checked(tmp_path: Path, now: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    checked = tmp_path / "checked"
    checked.write_bytes(b"x")  # what the lstat saw: a small regular file
    path = tmp_path / "input.yaml"
    if now == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(b"x" * 1000)
    watched = Watched(lstat_as=checked)
    monkeypatch.setattr(buildinputs, "os", watched)
    assert read_regular(str(path), limit=10) is None
    assert watched.opened == 1 and watched.asked <= 11  # never more than limit + 1 bytes asked for


def test_read_regular_reads_up_to_the_limit(tmp_path: Path) -> None:
    exact = tmp_path / "exact"
    exact.write_bytes(b"x" * 10)
    assert read_regular(str(exact), limit=10) == b"x" * 10
    linked = tmp_path / "linked"
    linked.symlink_to(exact)  # a link to a regular file is read: the callers confine where links lead
    assert read_regular(str(linked), limit=10) == b"x" * 10
    with pytest.raises(FileNotFoundError):
        read_regular(str(tmp_path / "missing"))


def test_folder_listing_holds_yaml_files_and_folders_not_hidden_ones(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.yml", ".hidden.yaml", "notes.txt", "spec.json"):
        (tmp_path / name).write_text("x")
    for name in ("sub", ".git"):
        (tmp_path / name).mkdir()
    assert folder_listing(str(tmp_path)) == ["a.yml", "b.yaml", "sub/"]
    assert folder_listing(str(tmp_path / "missing")) == []


def test_an_env_file_is_recorded_by_its_key_set_never_its_values(tmp_path: Path) -> None:
    first, second = BuildInputs(), BuildInputs()
    first.envfile(str(tmp_path / "a.env"), ["SECRET_KEY", "ACCESS_ID"])
    second.envfile(str(tmp_path / "a.env"), ["ACCESS_ID", "SECRET_KEY"])
    expected = hashlib.sha256(b"ACCESS_ID\nSECRET_KEY").hexdigest()
    assert first.envfiles == second.envfiles == {str(tmp_path / "a.env"): expected}
    assert first.files == {}  # the file's content is never recorded


def test_a_file_is_recorded_by_absolute_path_and_a_missing_one_as_empty(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    inputs = BuildInputs()
    inputs.file("spec.yaml", b"")
    inputs.file("gone.yaml", None)
    assert inputs.files == {str(tmp_path / "spec.yaml"): EMPTY_SHA256, str(tmp_path / "gone.yaml"): ""}
    assert digest(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # FIPS 180-4


def test_a_secret_slot_lists_each_source_once_in_order() -> None:
    inputs = BuildInputs()
    for recipe in (("env", "A"), ("file", "/x"), ("env", "A")):
        inputs.secret("ns", "s", "k", recipe)
    assert inputs.secrets == {("ns", "s", "k"): [("env", "A"), ("file", "/x")]}
    assert inputs.cacheable
    inputs.uncacheable()
    assert not inputs.cacheable
