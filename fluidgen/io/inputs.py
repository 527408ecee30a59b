"""Reading the files a user names: once, within limits, and only where allowed.

- Standard input (`-`), FIFOs and other special files are read once and remembered, so a
  command that looks at a spec twice never waits on a drained pipe.
- Every read stops at source.MAX_BYTES; a directory argument never reads a file whole.
- Directory arguments are walked in sorted order, following symbolic links only when their
  real path stays inside the real path of the argument (each real directory once, so link
  loops end); a link that leaves is reported and not followed. Hidden entries are skipped,
  and so is anything that is not a regular file, with a note saying so; a build that skipped
  such an entry is not cached (its name could later hold a copy the entry never read).
- Files a spec refers to (credentials, scripts, profiles) must lie inside the spec's own
  directory tree, symbolic links resolved, unless the user allows more roots
  (`--allow-read DIR`, or FLUIDGEN_ALLOW_READ): a spec cannot pull another application's
  secrets into a build.

Everything read is recorded in the build's BuildInputs for the cache.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..base.diagnostics import Diagnostic, FluidgenError, PathT
from .buildinputs import YAML_SUFFIXES, BuildInputs
from .yamlreader import MAX_BYTES, Document, decode, load_text

# Top-level keys only a fluidgen spec has: a file with them and no apiVersion is an overlay
FRAGMENT = re.compile(rb"(?m)^(source|runtime|dataflow|workloads|placement|sharedOptions|accessModes):")

class Reader:
    def __init__(self, inputs: BuildInputs | None = None, allow: Iterable[str] = ()) -> None:
        self.inputs = inputs if inputs is not None else BuildInputs()
        self.allow = tuple(os.path.realpath(a) for a in allow)
        self._once: dict[str, bytes] = {}
        # One build sees one state of each file: a batch of specs sharing an env file or a
        # script reads and checks it once (and cannot see it change half-way through).
        self._regular: dict[str, bytes] = {}
        self._recorded: set[str] = set()
        self._real: dict[str, str] = {}
        self._allowed: dict[tuple[str, str | None, str, tuple[str, ...]], Path] = {}
        self._rootless: set[str] = set()  # in-memory documents whose directory is no root to read from

    def provide(self, path: str, raw: bytes) -> None:
        """Content for a file not written yet (`fluidgen import` proves a spec and the profile
        beside it before writing either)."""
        self._once[path] = raw
        self.inputs.uncacheable()

    def place(self, path: str, rootless: bool) -> None:
        """A document given in memory (the Python API's mapping) stands at `path`: the files it
        names are read as a spec's at that path would be. `rootless`: it stands nowhere (a
        mapping without base_dir), so its directory lets it read nothing, only the allow list
        does. Nothing read from memory can be re-checked, so the build is not cacheable."""
        self.inputs.uncacheable()
        if rootless:
            self._rootless.add(path)

    # -- plain reads --------------------------------------------------------------------

    def read(self, path: str, limit: int = MAX_BYTES, record: bool = True) -> bytes:
        """A file's bytes (or stdin's for '-'), refusing anything over `limit`. With
        `record=False` (credential files) the content is not recorded for the cache, which
        re-reads such files through their recipes instead."""
        if path in self._once:
            return self._once[path]
        if path in self._regular:
            return self._remembered(path, limit, record)
        if path == "-":
            raw = self._read_stream(path, sys.stdin.buffer, limit)
            self._once[path] = raw
            self.inputs.uncacheable()
            return raw
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            raise FluidgenError([Diagnostic(path, 0, 0, "error", f"cannot read: {exc.strerror}")]) from exc
        if stat.S_ISDIR(mode):
            raise FluidgenError([Diagnostic(path, 0, 0, "error", "is a directory; give a file")])
        try:
            with open(path, "rb") as fh:
                raw = self._read_stream(path, fh, limit)
        except OSError as exc:
            raise FluidgenError([Diagnostic(path, 0, 0, "error", f"cannot read: {exc.strerror}")]) from exc
        if not stat.S_ISREG(mode):  # a FIFO or device: it cannot be read again, nor re-checked
            self._once[path] = raw
            self.inputs.uncacheable()
            return raw
        self._regular[path] = raw
        return self._remembered(path, limit, record)

    def _remembered(self, path: str, limit: int, record: bool) -> bytes:
        """A regular file read before in this build, under this read's limit and recording."""
        raw = self._regular[path]
        if len(raw) > limit:
            raise _too_large(path, limit)
        if record and path not in self._recorded:
            self._recorded.add(path)
            self.inputs.file(path, raw)
        return raw

    @staticmethod
    def _read_stream(path: str, stream: object, limit: int) -> bytes:
        raw: bytes = stream.read(limit + 1)  # type: ignore[attr-defined]
        if len(raw) > limit:
            raise _too_large(path, limit)
        return raw

    def text(self, path: str) -> str:
        return decode(path, self.read(path))

    def load(self, path: str) -> list[Document]:
        """Every non-empty YAML document in a file."""
        return load_text(path, self.text(path))

    # -- directory arguments ------------------------------------------------------------

    def expand(self, paths: Iterable[str]) -> tuple[list[str], list[Diagnostic]]:
        """Files as given; a directory becomes its YAML files (see the module docstring)."""
        files, found = self._expand(paths, None)
        return files, [f for f in found if isinstance(f, Diagnostic)]

    def find_specs(self, paths: Iterable[str], marker: bytes) -> tuple[list[str], list[Diagnostic | NotBuilt]]:
        """As expand, but a file found in a directory is kept only when it contains `marker`;
        each other one comes back as a NotBuilt, in order among the notes (files named
        explicitly are always kept)."""
        return self._expand(paths, marker)

    def _expand(self, paths: Iterable[str], marker: bytes | None) -> tuple[list[str], list[Diagnostic | NotBuilt]]:
        files: list[str] = []
        notes: list[Diagnostic | NotBuilt] = []
        for p in paths:
            if p == "-" or not os.path.isdir(p):
                files.append(p)
                continue
            found, skipped = self._walk(p)
            notes += skipped
            for f in found:
                if marker is None:
                    files.append(f)
                    continue
                try:
                    head = self.read(f)
                except FluidgenError as exc:
                    notes += exc.diagnostics
                    continue
                if marker in head:
                    files.append(f)
                else:
                    notes.append(NotBuilt(f, _fragment(head)))
        return files, notes

    def _walk(self, top: str) -> tuple[list[str], list[Diagnostic]]:
        """YAML files below `top`. A symbolic link (to a file or a directory) is followed only
        when its real path stays inside the real path of `top`; every other one is reported,
        so a planted `vendor -> ../other-app` or `-> /` reads nothing outside the argument."""
        found: list[str] = []
        notes: list[Diagnostic] = []
        seen: set[str] = set()
        root = os.path.realpath(top)
        for folder, dirnames, names in os.walk(top, followlinks=True):
            real = os.path.realpath(folder)
            if real in seen:
                dirnames[:] = []
                notes.append(Diagnostic(folder, 0, 0, "info", "skipped: a link back to a directory already read"))
                continue
            seen.add(real)
            dirnames[:] = _subfolders(folder, dirnames, root, top, notes)
            self.inputs.listing(folder)
            for name in sorted(names):
                if name.startswith(".") or not name.endswith(YAML_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                if (note := _unread(path, root, top)) is not None:
                    notes.append(note)
                else:
                    found.append(path)
        if notes:  # a listing records names only: a skipped entry later made readable would not be seen
            self.inputs.uncacheable()
        return found, notes

    # -- files a spec refers to ---------------------------------------------------------

    def referenced(self, doc: Document, at: PathT, target: str, relative_to: str | None = None) -> Path:
        """The path a spec's file reference stands for, if it is allowed; else FluidgenError.

        `target` is relative to the spec (or to `relative_to`, a file the spec led to, such
        as a profile that extends another); it must lie inside the spec's directory tree.
        """
        # In a spec merged from overlays, a path is relative to the file that set it, and may
        # lie below the directory of any of the merged files.
        written_in = doc.locate(at)[0]
        layers = {doc.file, *doc.origins.values()} - {"-"}
        key = (written_in, relative_to, target, tuple(sorted(layers)))
        if key not in self._allowed:  # a batch of specs beside one env file asks the same
            self._allowed[key] = self._allowed_path(doc, at, target, written_in, relative_to, layers)
        return self._allowed[key]

    def _allowed_path(self, doc: Document, at: PathT, target: str, written_in: str, relative_to: str | None,
                      layers: set[str]) -> Path:
        if "\0" in target:  # os.stat and realpath raise ValueError on it: refused here, at the key
            raise FluidgenError([doc.diag(at, "this file name holds a NUL character (\\0), which no file name can "
                                              "hold; write the path of the file", stage="inputs")])
        spec_dir = Path(written_in).parent if written_in != "-" else Path(".")
        base = Path(relative_to).parent if relative_to else spec_dir
        path = Path(target) if Path(target).is_absolute() else base / target
        if str(path) == "-":  # a file named "-" beside a spec in ".", never standard input
            path = Path(os.path.abspath(path))
        real = self._realpath(path)
        # A spec in the filesystem root (a container's working directory, a spec given as a
        # mapping or on stdin there) would reach every file below it: the service account's
        # token, the host's keys. Its directory is no root for what it may read.
        homes = [] if written_in in self._rootless else [spec_dir]
        homes += [Path(f).parent for f in sorted(layers) if f not in self._rootless]
        own = [r for r in (self._realpath(home) for home in homes) if r != os.path.abspath(os.sep)]
        if not any(inside(real, root) for root in (*own, *self.allow)):
            why = _unrooted(target) if written_in in self._rootless else _outside(target, spec_dir, bool(own))
            raise FluidgenError([doc.diag(at, why, stage="inputs")])
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return path  # missing: the reader reports it where it is read
        if not stat.S_ISREG(mode):
            raise FluidgenError([doc.diag(at, f"{target} is not a regular file; fluidgen reads only regular files "
                                              "a spec refers to (a FIFO or device could block or never end)",
                                          stage="inputs")])
        return path

    def _realpath(self, path: Path) -> str:
        """os.path.realpath, once per path in a build (a batch of specs shares directories)."""
        key = str(path)
        if key not in self._real:
            self._real[key] = os.path.realpath(path)
        return self._real[key]


def _too_large(path: str, limit: int) -> FluidgenError:
    return FluidgenError([Diagnostic(
        path, 1, 1, "error", f"file is larger than {limit // (1024 * 1024)} MiB; refusing to read it")])


def _outside(target: str, spec_dir: Path, rooted: bool) -> str:
    allow = "allow its directory with --allow-read DIR (FLUIDGEN_ALLOW_READ; the Python API: allow_read=)"
    if not rooted:
        return (f"{target}: the spec is in the filesystem root ({spec_dir}), where it could read any file; "
                f"fluidgen reads files a spec names only below its own directory. Put the spec in a directory "
                f"of its own (the Python API: base_dir=), or {allow}")
    return (f"{target} is outside the spec's directory ({spec_dir}); fluidgen reads only files below it. "
            f"Move the file there, or {allow}")


def _unrooted(target: str) -> str:
    return (f"{target}: a spec given as a mapping reads no file unless told where it may: give base_dir= "
            "(the directory its files are in) or allow_read= (directories it may read)")


def inside(real: str, root: str) -> bool:
    """A real path at or below a real root directory."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _fragment(head: bytes) -> bool:
    """Whether a file's text looks like an overlay fragment: spec keys, no apiVersion."""
    return bool(FRAGMENT.search(head)) and not re.search(rb"(?m)^apiVersion:", head)


NOT_BUILT = "not built: holds no fluidgen spec (a plain manifest or a values file)"
FRAGMENT_NOT_BUILT = ("not built: this looks like an overlay fragment (spec keys, no apiVersion). Merge it into its "
                      "spec with -f, or list it in fluidgen.yaml")


@dataclass(frozen=True)
class NotBuilt:
    """A file found in a directory without the spec marker: what it is, as data (the Argo CD
    pass-through picks plain manifests from these), and the note that names it."""

    path: str
    fragment: bool  # looks like an overlay fragment: likely meant to be built, so a warning

    def note(self) -> Diagnostic:
        if self.fragment:
            return Diagnostic(self.path, 0, 0, "warning", FRAGMENT_NOT_BUILT)
        return Diagnostic(self.path, 0, 0, "info", NOT_BUILT)


def _subfolders(folder: str, dirnames: list[str], root: str, top: str, notes: list[Diagnostic]) -> list[str]:
    """The folders of `folder` to walk into, sorted: not hidden, and a link only when it stays
    inside `root` (one that leaves is noted)."""
    kept = []
    for name in sorted(d for d in dirnames if not d.startswith(".")):
        path = os.path.join(folder, name)
        if os.path.islink(path) and not inside(os.path.realpath(path), root):
            notes.append(_leaves(path, top))
        else:
            kept.append(name)
    return kept


def _unread(path: str, root: str, top: str) -> Diagnostic | None:
    """Why a YAML file found in a directory is skipped (None to read it): a link that leaves
    `root`, or not a regular file."""
    if os.path.islink(path) and not inside(os.path.realpath(path), root):
        return _leaves(path, top)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return Diagnostic(path, 0, 0, "warning", f"skipped: cannot read ({exc.strerror})")
    if not stat.S_ISREG(mode):
        return Diagnostic(path, 0, 0, "warning", "skipped: not a regular file")
    return None


def _leaves(path: str, top: str) -> Diagnostic:
    return Diagnostic(path, 0, 0, "warning", f"skipped: a symbolic link that leads outside {top}; fluidgen "
                                             "follows links only within the directory it was given (copy the "
                                             "files in, or name the other directory on the command line)")
