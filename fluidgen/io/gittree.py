"""The files of a git revision that a plan needs, copied into a private directory.

`plan --against git:REV` compiles the specs as they were at REV. A revision string and the
tree it names come from the repository, so both are treated as hostile:

- REV is never passed to git as an option: one starting with `-` is refused, and it is
  resolved first (`git rev-parse --verify --end-of-options REV^{tree}`); only the resulting
  object id reaches the other git commands.
- Only the directories the specs live in are copied (a spec's references must lie below
  its own directory anyway), listed with their sizes before any content is read
  (`git ls-tree -r -l`): at most MAX_FILES entries and MAX_TOTAL bytes, and a file larger
  than the limit every input has (source.MAX_BYTES) is left out with a note, never read.
- Contents are streamed one blob at a time (`git cat-file --batch`), so memory stays at one
  file. Entry names that could leave the directory (`..`, absolute, `.git`) are refused; a
  symbolic link is recreated only when its target stays inside the copied tree, every other
  one is reported and left out.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from .yamlreader import MAX_BYTES

MAX_FILES = 10_000
MAX_TOTAL = 64 * 1024 * 1024
TIMEOUT_S = 120


class TreeError(Exception):
    """The revision or its tree cannot be used; the message says why and what to do."""


@dataclass
class Copied:
    top: str  # the working tree's top directory
    notes: list[tuple[str, str]] = field(default_factory=list)  # (path in the tree, what happened)


def _git(args: list[str], cwd: str | None = None, timeout: float = 30) -> str:
    try:
        done = subprocess.run(["git", *args], capture_output=True, check=False, timeout=timeout, cwd=cwd)
    except FileNotFoundError:
        raise TreeError("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise TreeError("git did not answer in time") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip()
        raise TreeError(why.splitlines()[-1] if why else f"git {args[0]} failed (exit {done.returncode})")
    return done.stdout.decode("utf-8", "surrogateescape")


def resolve(revision: str, top: str) -> str:
    """The tree object id REV names; never lets REV act as an option."""
    if not revision or revision.startswith("-"):
        raise TreeError(f"{revision!r} is not a revision (a revision never starts with '-'); give a branch, tag "
                        "or commit, e.g. git:HEAD~1")
    if not revision.isprintable():
        raise TreeError("a revision has no control characters; give a branch, tag or commit")
    try:
        return _git(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{tree}"], top).strip()
    except TreeError:
        raise TreeError(f"git cannot read revision {revision}: no such branch, tag or commit") from None


def toplevel() -> str:
    return _git(["rev-parse", "--show-toplevel"]).strip()


def _safe_name(rel: str) -> bool:
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and all(p not in ("", ".", "..", ".git") for p in parts)


def copy(tree: str, top: str, folders: Iterable[str], dest: str) -> Copied:
    """Copy the blobs of `tree` below `folders` (relative to `top`, '' for all) into `dest`."""
    out = Copied(top)
    wanted = sorted(set(folders))
    if "" in wanted:
        wanted = [""]
    listing = _git(["ls-tree", "-r", "-l", "-z", "--full-tree", tree, "--", *[w for w in wanted if w]], top,
                   timeout=TIMEOUT_S)
    blobs, links, too_large = _within_limits(_blobs(listing, out))
    out.notes += [(rel, f"left out: larger than {MAX_BYTES // (1024 * 1024)} MiB") for rel in too_large]
    targets = _stream(top, blobs, [oid for oid, _ in links], dest)
    made = [rel for oid, rel in links if _link(dest, rel, targets.get(oid, ""), out)]
    _drop_escaping_links(dest, made, out)
    return out


def _blobs(listing: str, out: Copied) -> Iterator[tuple[str, str, str, int]]:
    """(mode, object id, path, size) of each blob in `git ls-tree -r -l -z` output, as it is
    read; an entry whose name a checkout cannot hold is noted in `out` and left out."""
    for record in listing.split("\0"):
        if not record:
            continue
        meta, _, rel = record.partition("\t")
        fields = meta.split()
        if len(fields) != 4 or not _safe_name(rel):
            out.notes.append((rel, "left out: not a name a checkout can hold"))
            continue
        mode, kind, oid, size = fields
        if kind == "blob":  # not submodules: their content is not in this repository
            yield mode, oid, rel, int(size) if size.isdigit() else MAX_BYTES + 1


def _within_limits(blobs: Iterable[tuple[str, str, str, int]]
                   ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]:
    """The files to copy as (object id, path) and the symbolic links, and the paths of files
    too large to read; more than MAX_FILES entries or MAX_TOTAL bytes is a TreeError."""
    files: list[tuple[str, str]] = []
    links: list[tuple[str, str]] = []
    too_large: list[str] = []
    total = 0
    for mode, oid, rel, length in blobs:
        if len(files) + len(links) >= MAX_FILES:
            raise TreeError(f"the specs' directories hold more than {MAX_FILES} files at this revision; give the "
                            "spec files of one directory, or plan against a rendered file instead")
        if mode == "120000":
            links.append((oid, rel))
        elif length > MAX_BYTES:
            too_large.append(rel)
        else:
            total += length
            if total > MAX_TOTAL:
                raise TreeError(f"the specs' directories hold more than {MAX_TOTAL // (1024 * 1024)} MiB at this "
                                "revision; give the spec files of one directory, or plan against a rendered file")
            files.append((oid, rel))
    return files, links, too_large


def _stream(top: str, blobs: list[tuple[str, str]], texts_of: list[str], dest: str) -> dict[str, str]:
    """Write every blob of `blobs` to its path below `dest`; return the text of the blobs in
    `texts_of` (symbolic link targets)."""
    paths: dict[str, list[str]] = {}
    for oid, rel in blobs:
        paths.setdefault(oid, []).append(rel)
    order = [*paths, *(o for o in dict.fromkeys(texts_of) if o not in paths)]
    texts: dict[str, str] = {}
    if not order:
        return texts
    proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=top, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(TIMEOUT_S, proc.kill)
    timer.start()
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for oid in order:
            data = _cat(proc.stdin, proc.stdout, oid)
            for rel in paths.get(oid, ()):
                _write(dest, rel, data)
            if oid in texts_of:
                texts[oid] = data.decode("utf-8", "surrogateescape")
        return texts
    except (OSError, ValueError) as exc:
        raise TreeError(f"cannot copy the revision's files: {exc}") from None
    finally:
        timer.cancel()
        proc.stdin.close()
        proc.kill()
        proc.wait()
        proc.stdout.close()


def _cat(stdin: IO[bytes], stdout: IO[bytes], oid: str) -> bytes:
    """One blob's content from `git cat-file --batch`, refused unless it is a blob within MAX_BYTES."""
    stdin.write(oid.encode("ascii", "replace") + b"\n")
    stdin.flush()
    header = stdout.readline().split()
    if len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
        raise TreeError("git cat-file gave an unexpected answer")
    size = int(header[2])
    if size > MAX_BYTES:
        raise TreeError("a blob is larger than git ls-tree said")
    return stdout.read(size + 1)[:size]


def _write(dest: str, rel: str, data: bytes) -> None:
    path = os.path.join(dest, *rel.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _link(dest: str, rel: str, target: str, out: Copied) -> bool:
    where = os.path.dirname(rel)
    resolved = os.path.normpath(os.path.join(where, target))
    if not target or os.path.isabs(target) or resolved == ".." or resolved.startswith("../") or "\0" in target:
        out.notes.append((rel, f"left out: a symbolic link to {target!r}, outside the repository"))
        return False
    path = os.path.join(dest, *rel.split("/"))
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(target, path)
    except OSError as exc:
        out.notes.append((rel, f"left out: cannot recreate the symbolic link ({exc.strerror})"))
        return False
    return True


def _drop_escaping_links(dest: str, made: list[str], out: Copied) -> None:
    """A link whose target looks inside may still leave through another link (a/d -> ..,
    a/e -> d/../..): check where each one really leads, until none leaves."""
    root = os.path.realpath(dest)
    left = list(made)
    while True:
        leaving = [rel for rel in left
                   if not _inside(os.path.realpath(os.path.join(dest, *rel.split("/"))), root)]
        if not leaving:
            return
        for rel in leaving:
            os.unlink(os.path.join(dest, *rel.split("/")))
            out.notes.append((rel, "left out: a symbolic link that leads outside the repository"))
            left.remove(rel)


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)
