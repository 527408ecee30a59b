"""Read YAML files into plain data plus a map from key paths to file positions.

Everything a user hands us goes through here, so this module owns the limits that
keep hostile input (alias bombs, deep nesting, huge files, binary junk) cheap to
reject: every failure becomes a located Diagnostic, never a traceback.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, FluidgenError, PathT, Severity

MAX_BYTES = 4 * 1024 * 1024  # a spec or manifest file larger than this is refused
MAX_NODES = 200_000  # scalars + collections after alias expansion, per file
MAX_DEPTH = 100  # nesting levels; real manifests stay well under 30


@dataclass(frozen=True)
class Document:
    """One YAML document: its data and where each key/value came from."""

    file: str
    index: int
    data: Any
    positions: dict[PathT, tuple[int, int]] = field(default_factory=dict)
    # For overlays: which file each key path came from (default: `file`).
    origins: dict[PathT, str] = field(default_factory=dict)

    def where(self, path: PathT) -> tuple[int, int]:
        """Line and column (1-based) of the deepest known node on `path`."""
        _, line, col = self._locate(path)
        return line, col

    def _locate(self, path: PathT) -> tuple[str, int, int]:
        for end in range(len(path), -1, -1):
            pos = self.positions.get(path[:end])
            if pos is not None:
                return (self.origins.get(path[:end], self.file), *pos)
        return (self.file, 1, 1)

    def diag(self, path: PathT, message: str, severity: Severity = "error", **kw: str) -> Diagnostic:
        file, line, col = self._locate(path)
        return Diagnostic(file, line, col, severity, message, path, **kw)


def read_bytes(path: str) -> bytes:
    """Read a file (or '-' for stdin), refusing anything over MAX_BYTES."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise FluidgenError([Diagnostic(path, 0, 0, "error", f"cannot read: {exc.strerror}")]) from exc
    from . import deps

    deps.RECORDER.file(path, raw)
    if len(raw) > MAX_BYTES:
        raise FluidgenError([Diagnostic(
            path, 1, 1, "error",
            f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB; refusing to parse it")])
    return raw


def decode(name: str, raw: bytes) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FluidgenError([Diagnostic(
            name, line, col, "error", f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})")]) from exc
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        raise FluidgenError([Diagnostic(name, line, 1, "error", "binary data (NUL byte) in a YAML file")])
    return text


def load_file(path: str) -> list[Document]:
    """Parse every document in a YAML file. Empty documents are skipped."""
    return load_text(path, decode(path, read_bytes(path)))


def load_text(name: str, text: str) -> list[Document]:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    docs: list[Document] = []
    try:
        for index, node in enumerate(yaml.load_all(text)):
            if node is None:
                continue
            conv = _Converter(name)
            data = conv.convert(node, (), 0)
            docs.append(Document(name, index, data, conv.positions))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if type(exc).__name__ == "DuplicateKeyError":
            problem = _duplicate_message(exc)
        else:
            problem = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        raise FluidgenError([Diagnostic(name, line, col, "error", f"invalid YAML: {problem}")]) from exc
    except YAMLError as exc:
        raise FluidgenError([Diagnostic(name, 1, 1, "error", f"invalid YAML: {exc}")]) from exc
    except RecursionError as exc:
        raise FluidgenError([Diagnostic(
            name, 1, 1, "error", f"YAML nests deeper than the parser allows (limit {MAX_DEPTH})")]) from exc
    return docs


def _duplicate_message(exc: Exception) -> str:
    """Name the key and where it first appeared; never echo values (they may be secrets)."""
    import re

    text = str(getattr(exc, "problem", "") or exc)
    key = re.search(r'duplicate key "([^"]*)"', text)
    name = f' "{key.group(1)}"' if key else ""
    return f"duplicate key{name}; each key may appear once in a mapping"


class _Converter:
    """ruamel round-trip nodes -> plain dict/list/str/int/float/bool/None."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.positions: dict[PathT, tuple[int, int]] = {}
        self.budget = MAX_NODES

    def _fail(self, path: PathT, message: str) -> FluidgenError:
        line, col = self._nearest(path)
        return FluidgenError([Diagnostic(self.name, line, col, "error", message, path)])

    def _nearest(self, path: PathT) -> tuple[int, int]:
        for end in range(len(path), -1, -1):
            if path[:end] in self.positions:
                return self.positions[path[:end]]
        return (1, 1)

    def convert(self, node: Any, path: PathT, depth: int) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise self._fail(path, f"document expands to more than {MAX_NODES} nodes "
                                   "(YAML aliases nested too deeply?)")
        if depth > MAX_DEPTH:
            raise self._fail(path, f"nesting deeper than {MAX_DEPTH} levels")
        if isinstance(node, dict):
            return dict(self._mapping(node, path, depth))
        if isinstance(node, list):
            return [self._item(node, i, v, path, depth) for i, v in enumerate(node)]
        return self._scalar(node, path)

    def _mapping(self, node: Any, path: PathT, depth: int) -> Iterator[tuple[str, Any]]:
        lc = getattr(node, "lc", None)
        for key, value in node.items():
            if not isinstance(key, str):
                raise self._fail(path, f"mapping key {key!r} is not a string; quote it")
            child = (*path, key)
            if lc is not None:
                try:
                    line, col = lc.key(key)
                    self.positions[child] = (line + 1, col + 1)
                except (KeyError, TypeError):
                    pass
            yield str(key), self.convert(value, child, depth + 1)

    def _item(self, node: Any, i: int, value: Any, path: PathT, depth: int) -> Any:
        lc = getattr(node, "lc", None)
        if lc is not None:
            try:
                line, col = lc.item(i)
                self.positions[(*path, i)] = (line + 1, col + 1)
            except (KeyError, TypeError, IndexError):
                pass
        return self.convert(value, (*path, i), depth + 1)

    def _scalar(self, node: Any, path: PathT) -> Any:
        if node is None or isinstance(node, bool):
            return node
        if isinstance(node, int):
            return bool(node) if type(node).__name__ == "ScalarBoolean" else int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, str):
            return str(node)
        if isinstance(node, datetime.date | datetime.datetime):
            raise self._fail(path, "unquoted date/time value; quote it to make it a string")
        tag = getattr(getattr(node, "tag", None), "value", None)
        raise self._fail(path, f"unsupported YAML value{f' with tag {tag}' if tag else ''}")


def resolve_relative(base_file: str, target: str) -> Path:
    """Resolve a path written in a spec relative to the spec's own directory."""
    p = Path(target)
    if p.is_absolute() or base_file == "-":
        return p
    return Path(base_file).parent / p


def overlay(docs: list[Document]) -> Document:
    """Deep-merge documents in order (maps merge, lists replace, null deletes), keeping for
    every key the file and position of the layer that set it last."""
    from .merge import deep_merge

    data: Any = {}
    positions: dict[PathT, tuple[int, int]] = {}
    origins: dict[PathT, str] = {}
    for doc in docs:
        data = deep_merge(data, doc.data)
        for path, pos in doc.positions.items():
            positions[path] = pos
            origins[path] = doc.file
    # Drop positions of keys a later layer deleted or replaced with a shorter list.
    live = {p: pos for p, pos in positions.items() if _exists(data, p)}
    return Document(docs[-1].file, 0, data, live, {p: origins[p] for p in live})


def _exists(data: Any, path: PathT) -> bool:
    for part in path:
        in_map = isinstance(data, dict) and isinstance(part, str) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if not (in_map or in_list):
            return False
        data = data[part]
    return True
