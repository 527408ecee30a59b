"""Read YAML files into plain data plus a map from key paths to file positions.

Everything a user hands us goes through here, so this module owns the limits that
keep hostile input (alias bombs, deep nesting, huge files, binary junk) cheap to
reject: every failure becomes a located Diagnostic, never a traceback.
"""

from __future__ import annotations

import datetime
import sys
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
    """Parse with ruamel's YAML 1.2 parser into nodes, then convert with positions.

    The plain (non round-trip) parser is used: fluidgen needs every node's line and column,
    which nodes carry, but not the comments the round-trip scanner spends its time on.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="safe", pure=True)
    docs: list[Document] = []
    try:
        for index, node in enumerate(yaml.compose_all(text)):
            if node is None:
                continue
            conv = _Converter(name, yaml.constructor)
            data = conv.convert(node, (), 0)
            if data is not None:
                docs.append(Document(name, index, data, conv.positions))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        raise FluidgenError([Diagnostic(name, line, col, "error", f"invalid YAML: {problem}")]) from exc
    except YAMLError as exc:
        raise FluidgenError([Diagnostic(name, 1, 1, "error", f"invalid YAML: {exc}")]) from exc
    except RecursionError as exc:
        raise FluidgenError([Diagnostic(
            name, 1, 1, "error", f"YAML nests deeper than the parser allows (limit {MAX_DEPTH})")]) from exc
    return docs


MERGE_TAG = "tag:yaml.org,2002:merge"


class _Converter:
    """Composed YAML nodes -> plain dict/list/str/int/float/bool/None, with positions.

    Owns the rules a loader would otherwise apply: duplicate keys are errors (values are
    never echoed), keys must be strings, `<<` merge keys work, and aliases are expanded
    within a node budget so alias bombs stop early.
    """

    def __init__(self, name: str, constructor: Any) -> None:
        self.name = name
        self.constructor = constructor
        self.positions: dict[PathT, tuple[int, int]] = {}
        self.budget = MAX_NODES

    def _fail(self, node: Any, path: PathT, message: str) -> FluidgenError:
        mark = getattr(node, "start_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return FluidgenError([Diagnostic(self.name, line, col, "error", message, path)])

    def convert(self, node: Any, path: PathT, depth: int) -> Any:
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        self.budget -= 1
        if self.budget < 0:
            raise self._fail(node, path, f"document expands to more than {MAX_NODES} nodes "
                                         "(YAML aliases nested too deeply?)")
        if depth > MAX_DEPTH:
            raise self._fail(node, path, f"nesting deeper than {MAX_DEPTH} levels")
        if isinstance(node, MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, SequenceNode):
            out = []
            for i, item in enumerate(node.value):
                self.positions[(*path, i)] = (item.start_mark.line + 1, item.start_mark.column + 1)
                out.append(self.convert(item, (*path, i), depth + 1))
            return out
        return self._scalar(node, path)

    def _mapping(self, node: Any, path: PathT, depth: int) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        own: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE_TAG:
                merged = {**self._merge_sources(value_node, path, depth), **merged}
                continue
            key = self._scalar(key_node, path) if not hasattr(key_node.value, "__iter__") or \
                isinstance(key_node.value, str) else None
            if not isinstance(key, str):
                raise self._fail(key_node, path, "mapping keys must be strings; quote this key")
            if key in own:
                raise self._fail(key_node, (*path, key),
                                 f'invalid YAML: duplicate key "{key}"; each key may appear once in a mapping')
            child = (*path, key)
            self.positions[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            own[key] = self.convert(value_node, child, depth + 1)
        return {**merged, **own}

    def _merge_sources(self, node: Any, path: PathT, depth: int) -> dict[str, Any]:
        sources = node.value if isinstance(node.value, list) and node.tag.endswith(":seq") else [node]
        out: dict[str, Any] = {}
        for source in reversed(sources):  # earlier sources win
            value = self.convert(source, path, depth + 1)
            if not isinstance(value, dict):
                raise self._fail(source, path, "a << merge key needs a mapping or a list of mappings")
            out.update(value)
        return out

    def _scalar(self, node: Any, path: PathT) -> Any:
        from ruamel.yaml.error import YAMLError

        try:
            value = self.constructor.construct_object(node, deep=True)
        except YAMLError as exc:
            problem = str(getattr(exc, "problem", "") or "unsupported value")
            raise self._fail(node, path, f"invalid YAML: {' '.join(problem.split())}") from exc
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, datetime.date | datetime.datetime):
            raise self._fail(node, path, "unquoted date/time value; quote it to make it a string")
        raise self._fail(node, path, f"unsupported YAML value (tag {node.tag})")


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
