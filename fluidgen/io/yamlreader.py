"""Read YAML text into plain data plus a map from key paths to file positions.

Everything a user hands fluidgen (specs, manifests, profiles, CRDs) goes through here, so
this module owns the limits that keep hostile input cheap to reject. They are enforced
while the event stream is read, not after a tree is built: a document stops at
MAX_NODES nodes (alias expansions and `<<` merges count by their size), MAX_DEPTH levels,
and DEADLINE seconds. Every failure is a located Diagnostic, never a traceback.

Scalars follow the YAML 1.2 core schema (`on`, `yes` and dates are strings), which is what
editors and ruamel.yaml read; the emitter quotes every string YAML 1.1 would re-type.
Events come from libyaml through PyYAML when it is present (about 20 times faster), else
from ruamel.yaml's parser; both give the same data.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..base.diagnostics import Diagnostic, FluidgenError, PathT, Severity
from ..base.manifest import Tree
from ..base.merge import deep_merge
from .buildinputs import MAX_INPUT_BYTES

MAX_BYTES = MAX_INPUT_BYTES  # a file larger than this is refused (buildinputs: the cache checks it too)
MAX_NODES = 200_000  # scalars + collections per document, alias expansions included
MAX_DEPTH = 100  # nesting levels; real manifests stay well under 30
MAX_INT_DIGITS = 40  # int64 needs 19; longer integers are a mistake (and slow to convert)
DEADLINE = 10.0  # seconds of parsing per file


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
        _, line, col = self.locate(path)
        return line, col

    def locate(self, path: PathT) -> tuple[str, int, int]:
        for end in range(len(path), -1, -1):
            pos = self.positions.get(path[:end])
            if pos is not None:
                return (self.origins.get(path[:end], self.file), *pos)
        return (self.file, 1, 1)

    def diag(self, path: PathT, message: str, severity: Severity = "error", **kw: str) -> Diagnostic:
        file, line, col = self.locate(path)
        return Diagnostic(file, line, col, severity, message, path, **kw)


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


def load_text(name: str, text: str, max_nodes: int = MAX_NODES, seconds: float = DEADLINE) -> list[Document]:
    """Parse every document in YAML text. Empty documents are skipped."""
    composer = _Composer(name, max_nodes, seconds)
    try:
        return composer.documents(_events(text))
    except _ParseError as exc:
        raise FluidgenError([Diagnostic(name, exc.line, exc.col, "error", exc.message, exc.path)]) from None
    except RecursionError:
        raise FluidgenError([Diagnostic(
            name, 1, 1, "error", f"YAML nests deeper than the parser allows (limit {MAX_DEPTH})")]) from None


class _ParseError(Exception):
    def __init__(self, message: str, line: int = 1, col: int = 1, path: PathT = ()) -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.path = message, line, col, path


def _events(text: str) -> Iterator[Any]:
    """YAML events, translating either parser's syntax errors into _ParseError."""
    try:
        import yaml
        from yaml._yaml import CParser  # libyaml; PyYAML wheels carry it on every common platform

        parser: Any = CParser
        errors: tuple[type[Exception], ...] = (yaml.YAMLError,)
    except ImportError:  # pragma: no cover - depends on how PyYAML was built
        parser = None
        errors = ()
    if parser is None:
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        stream: Iterator[Any] = YAML(typ="safe", pure=True).parse(text)
        errors = (*errors, YAMLError)
    else:
        stream = _cparse(parser, text)
    try:
        yield from stream
    except errors as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = " ".join(str(getattr(exc, "problem", None) or getattr(exc, "context", None)
                               or "invalid YAML").split())
        raise _ParseError(f"invalid YAML: {problem}", line, col) from None


def _cparse(parser_class: Any, text: str) -> Iterator[Any]:
    parser = parser_class(text)
    try:
        while parser.check_event():
            yield parser.get_event()
    finally:
        parser.dispose()


_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
# The core schema's numbers, one named group per form, tried in this order (fullmatch).
_NUMBER = re.compile(r"""(?P<int>[-+]?[0-9]+)
  | (?P<oct>0o[0-7]+)
  | (?P<hex>0x[0-9a-fA-F]+)
  | (?P<float>[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)
  | (?P<inf>[-+]?\.(?:inf|Inf|INF))
  | (?P<nan>\.(?:nan|NaN|NAN))""", re.VERBOSE)
# A number longer than MAX_INT_DIGITS stays a string: not one a manifest can hold.
_NUMBER_VALUE: dict[str, Callable[[str], int | float | str]] = {
    "int": lambda text: text if len(text.lstrip("+-")) > MAX_INT_DIGITS else int(text),
    "oct": lambda text: text if len(text) > MAX_INT_DIGITS else int(text[2:], 8),
    "hex": lambda text: text if len(text) > MAX_INT_DIGITS else int(text[2:], 16),
    "float": float,
    "inf": lambda text: -math.inf if text.startswith("-") else math.inf,
    "nan": lambda _text: math.nan,
}
# What a !!int, !!float, !!bool or !!null value must resolve to (exact types: bool is no int).
_TAGGED: dict[str, tuple[type, ...]] = {"int": (int,), "float": (float, int), "bool": (bool,),
                                        "null": (type(None),)}
CORE = "tag:yaml.org,2002:"
MERGE = "<<"


class _Composer:
    """YAML events -> plain dict/list/str/int/float/bool/None, with positions and budgets.

    Owns the rules a loader would otherwise apply: duplicate keys are errors (values are
    never echoed), keys must be strings, `<<` merge keys work, custom tags are refused,
    and aliases cost the size of what they stand for.
    """

    def __init__(self, name: str, max_nodes: int, seconds: float = DEADLINE) -> None:
        self.name = name
        self.max_nodes = max_nodes
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.ticks = 0

    def documents(self, events: Iterator[Any]) -> list[Document]:
        docs: list[Document] = []
        self.events = events
        index = 0
        for event in events:
            kind = type(event).__name__
            if kind != "DocumentStartEvent":
                continue
            self.budget = self.max_nodes
            self.anchors: dict[str, tuple[Any, int, tuple[int, int]]] = {}
            self.positions: dict[PathT, tuple[int, int]] = {}
            data, _ = self._node(self._next(), (), 0)
            end = self._next()
            if type(end).__name__ != "DocumentEndEvent":  # pragma: no cover - parsers guarantee it
                raise self._fail(end, (), "invalid YAML: expected the end of the document")
            if data is not None:
                docs.append(Document(self.name, index, data, self.positions))
            index += 1
        return docs

    def _next(self) -> Any:
        self.ticks += 1
        if self.ticks % 1024 == 0 and time.monotonic() > self.deadline:
            raise _ParseError(f"parsing took longer than {self.seconds:g} s; refusing this file")
        return next(self.events)

    def _fail(self, event: Any, path: PathT, message: str) -> _ParseError:
        mark = getattr(event, "start_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return _ParseError(message, line, col, path)

    def _spend(self, event: Any, path: PathT, cost: int) -> None:
        self.budget -= cost
        if self.budget < 0:
            raise self._fail(event, path, f"document expands to more than {self.max_nodes} nodes "
                                          "(YAML aliases or merge keys nested too deeply?)")

    def _node(self, event: Any, path: PathT, depth: int) -> tuple[Any, int]:
        """The value an event starts, and how many nodes it holds."""
        kind = type(event).__name__
        if depth > MAX_DEPTH:
            raise self._fail(event, path, f"nesting deeper than {MAX_DEPTH} levels")
        if kind == "AliasEvent":
            if event.anchor not in self.anchors:
                raise self._fail(event, path, f"invalid YAML: unknown alias *{event.anchor}")
            value, size, _ = self.anchors[event.anchor]
            self._spend(event, path, size)
            return value, size
        self._spend(event, path, 1)
        if kind == "ScalarEvent":
            value, size = self._scalar(event, path), 1
        elif kind == "SequenceStartEvent":
            self._collection_tag(event, path, "seq")
            value, size = self._sequence(path, depth)
        elif kind == "MappingStartEvent":
            self._collection_tag(event, path, "map")
            value, size = self._mapping(path, depth)
        else:  # pragma: no cover - parsers only start nodes with the events above
            raise self._fail(event, path, "invalid YAML: unexpected event")
        if getattr(event, "anchor", None):
            mark = event.start_mark
            self.anchors[event.anchor] = (value, size, (mark.line + 1, mark.column + 1))
        return value, size

    def _collection_tag(self, event: Any, path: PathT, kind: str) -> None:
        tag = getattr(event, "tag", None)
        if tag not in (None, "!", CORE + kind):
            raise self._fail(event, path, f"unsupported YAML tag {tag}; remove it")

    def _sequence(self, path: PathT, depth: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        size = 1
        while True:
            event = self._next()
            if type(event).__name__ == "SequenceEndEvent":
                return out, size
            child = (*path, len(out))
            self.positions[child] = (event.start_mark.line + 1, event.start_mark.column + 1)
            value, n = self._node(event, child, depth + 1)
            out.append(value)
            size += n

    def _mapping(self, path: PathT, depth: int) -> tuple[Tree, int]:
        own: Tree = {}
        merged: Tree = {}
        size = 1
        while True:
            event = self._next()
            if type(event).__name__ == "MappingEndEvent":
                return ({**merged, **own} if merged else own), size
            key = self._key(event, path)
            value_event = self._next()
            if key == MERGE and getattr(event, "style", None) in (None, ""):
                extra, n = self._merge(value_event, path, depth)
                self._spend(value_event, path, len(extra))
                merged = {**extra, **merged}  # earlier merge keys win
                size += n
                continue
            child = (*path, key)
            if key in own:
                raise self._fail(event, child, f'invalid YAML: duplicate key "{key}"; '
                                               "each key may appear once in a mapping")
            self.positions[child] = (event.start_mark.line + 1, event.start_mark.column + 1)
            own[key], n = self._node(value_event, child, depth + 1)
            size += n

    def _key(self, event: Any, path: PathT) -> str:
        if type(event).__name__ != "ScalarEvent":
            raise self._fail(event, path, "mapping keys must be strings; a key here is a "
                                          f"{'mapping' if 'Mapping' in type(event).__name__ else 'list or alias'}")
        key = self._scalar(event, path)
        if not isinstance(key, str):
            raise self._fail(event, path, f"mapping keys must be strings; quote the key {event.value!r}")
        return key

    def _merge(self, event: Any, path: PathT, depth: int) -> tuple[Tree, int]:
        """The mappings a `<<` key merges in (a mapping, an alias, or a list of them)."""
        value, size = self._node(event, path, depth + 1)
        sources = value if isinstance(value, list) else [value]
        out: Tree = {}
        for source in reversed(sources):  # earlier sources win
            if not isinstance(source, dict):
                raise self._fail(event, path, "a << merge key needs a mapping or a list of mappings")
            out.update(source)
        return out, size

    def _scalar(self, event: Any, path: PathT) -> Any:
        value: str = event.value
        tag = event.tag
        if tag is None:
            return _resolve_plain(value) if event.style in (None, "") else value
        if tag == "!":  # the non-specific tag: a string, however it looks
            return value
        if not tag.startswith(CORE):
            raise self._fail(event, path, f"unsupported YAML tag {tag}; remove it")
        return self._tagged(event, path, tag[len(CORE):])

    def _tagged(self, event: Any, path: PathT, name: str) -> object:
        """A scalar with a core tag (!!str, !!int, ...): the plain value, if it is of that type."""
        value: str = event.value
        if name == "str":
            return value
        accepted = _TAGGED.get(name)
        if accepted is None:
            raise self._fail(event, path, f"unsupported YAML tag !!{name}; write a plain value")
        resolved = _resolve_plain(value)
        if type(resolved) not in accepted:
            raise self._fail(event, path, f"invalid YAML: {value!r} is not a valid !!{name}")
        return float(resolved) if name == "float" else resolved


def _resolve_plain(text: str) -> Any:
    """A plain scalar under the YAML 1.2 core schema."""
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    number = _NUMBER.fullmatch(text)
    if number is None:
        return text
    return _NUMBER_VALUE[str(number.lastgroup)](text)


def overlay(docs: list[Document]) -> Document:
    """Deep-merge documents in order (maps merge, lists replace, null deletes), keeping for
    every key the file and position of the layer that set it last."""
    data: Any = {}
    positions: dict[PathT, tuple[int, int]] = {}
    origins: dict[PathT, str] = {}
    for doc in docs:
        data = deep_merge(data, doc.data)
        for path, pos in doc.positions.items():
            positions[path] = pos
            origins[path] = doc.origins.get(path, doc.file)
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


NO_LINE = (0, 0)  # the position of a value given in memory: it has a key path, no line


def in_memory(file: str, data: Any) -> Document:
    """Data given in memory (the Python API's mapping) as the Document a compile reads, named
    `file`, without writing it as YAML and parsing it back. Every key path is known, at no line:
    a problem is located by its key path alone, and an overlay merged onto it attributes each
    key to the layer that set it."""
    positions: dict[PathT, tuple[int, int]] = {}
    _key_paths(data, (), positions)
    return Document(file, 0, data, positions)


def _key_paths(data: Any, path: PathT, out: dict[PathT, tuple[int, int]]) -> None:
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        child = (*path, key)
        out[child] = NO_LINE
        _key_paths(value, child, out)
