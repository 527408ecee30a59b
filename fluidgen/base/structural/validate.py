"""Check a value against a Kubernetes structural schema and report every problem.

This covers the OpenAPI v3 subset that CRDs and the Kubernetes API use: types (with
`x-kubernetes-int-or-string`), closed objects (`additionalProperties: false`, as kubectl's
strict field validation treats them), required keys, enums, patterns, lengths, bounds,
item counts, `int32`/`int64`/`byte` formats, `anyOf`/`oneOf`/`allOf`, local `$ref`s and
`x-kubernetes-preserve-unknown-fields`. `null` is refused where the schema does not say
`nullable: true`: fluidgen never means to send one.

It is written here rather than taken from the jsonschema package for two reasons: the
problems need Kubernetes semantics (unknown fields with their siblings for "did you
mean", quantities, integer ranges), and importing jsonschema alone costs more than a whole
cached build. The tests check it against jsonschema as an independent oracle.
"""

from __future__ import annotations

import base64
import binascii
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..diagnostics import Severity, quote_hint
from ..manifest import Tree
from ..quantity import QUANTITY_RE, quantity_hint, to_bytes

PathT = tuple[str | int, ...]
Schema = Mapping[str, Any]
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class Problem:
    path: PathT
    message: str
    keyword: str = ""  # the schema keyword that failed; "unknown" for a field the schema lacks
    choices: tuple[str, ...] = ()  # for unknown fields: the fields that exist there
    severity: Severity = "error"

    @property
    def unknown_field(self) -> bool:
        return self.keyword == "unknown"


@lru_cache(maxsize=512)
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "a mapping", list: "a list", str: "a string", int: "an integer",
            float: "a number"}.get(type(value), type(value).__name__)


def _has_error(problems: list[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


def _is_int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


_TYPE_TEST: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_int,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}
_TYPE_WORD = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
              "object": "a mapping", "array": "a list"}


@dataclass
class Validator:
    """A schema plus the definitions its `$ref`s point at (`#/$defs/<name>`).

    `overlay` replaces definitions by name without copying them (for example the open
    ObjectMeta that CRDs embed). `redact` names paths whose values must never be quoted in
    a message (Secret data).
    """

    schema: Schema
    defs: Mapping[str, Any] = field(default_factory=dict)
    overlay: Mapping[str, Any] = field(default_factory=dict)
    redact: Callable[[PathT], bool] = lambda _path: False

    def problems(self, value: Any, path: PathT = ()) -> list[Problem]:
        out: list[Problem] = []
        self._check(self.schema, value, path, out)
        return out

    def valid(self, value: Any) -> bool:
        return not _has_error(self.problems(value))

    def resolve(self, schema: Schema) -> Schema:
        seen = 0
        while "$ref" in schema:
            ref = str(schema["$ref"])
            name = ref.rsplit("/", 1)[-1]
            target = self.overlay.get(name) or self.defs.get(name)
            if target is None:
                raise KeyError(f"unresolvable schema reference {ref}")
            schema = target
            seen += 1
            if seen > 64:
                raise KeyError(f"schema reference loop at {ref}")
        return schema

    # -- the walk ---------------------------------------------------------------------

    def _show(self, path: PathT, value: Any) -> str:
        return "(value hidden)" if self.redact(path) else repr(value)

    def _check(self, schema: Schema, value: Any, path: PathT, out: list[Problem]) -> None:
        schema = self.resolve(schema)
        if value is None:
            self._null(schema, path, out)
            return
        self._combined(schema, value, path, out)
        types = self._types(schema)
        if types and not any(_TYPE_TEST[t](value) for t in types):
            out.append(self._type_problem(types, value, path))
            return
        if "enum" in schema and value not in schema["enum"]:
            out.append(self._enum_problem(schema["enum"], value, path))
        self._by_type(schema, value, path, out)

    @staticmethod
    def _null(schema: Schema, path: PathT, out: list[Problem]) -> None:
        # The API server drops a null it may not keep (apiextensions-apiserver
        # customresource_handler.go: PruneNonNullableNullsWithoutDefaults; a built-in type
        # decodes it as the zero value), so it is accepted, not stored.
        if not schema.get("nullable") and schema:
            out.append(Problem(path, "null: the API server drops this key, as if it were not given; remove "
                                     "it or give a value", "null", severity="warning"))

    def _combined(self, schema: Schema, value: object, path: PathT, out: list[Problem]) -> None:
        """`anyOf`, `oneOf` and `allOf`."""
        for key in ("anyOf", "oneOf"):
            if key in schema:
                self._alternatives(schema, key, value, path, out)
        for sub in schema.get("allOf", ()):
            self._check(sub, value, path, out)

    def _by_type(self, schema: Schema, value: object, path: PathT, out: list[Problem]) -> None:
        """The keywords of the value's own type (lengths, bounds, fields, items)."""
        if isinstance(value, dict):
            self._object(schema, value, path, out)
        elif isinstance(value, list):
            self._array(schema, value, path, out)
        elif isinstance(value, str):
            self._string(schema, value, path, out)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            self._number(schema, value, path, out)

    @staticmethod
    def _types(schema: Schema) -> tuple[str, ...]:
        kind = schema.get("type")
        if kind is None:
            return ("integer", "string") if schema.get("x-kubernetes-int-or-string") and "anyOf" not in schema \
                else ()
        kinds = kind if isinstance(kind, list) else [kind]
        return tuple(k for k in kinds if k in _TYPE_TEST)

    def _type_problem(self, types: tuple[str, ...], value: Any, path: PathT) -> Problem:
        wanted = " or ".join(_TYPE_WORD[t] for t in types)
        hint = ""
        if "string" in types and isinstance(value, bool | int | float) and not self.redact(path):
            hint = quote_hint(value)
        return Problem(path, f"expected {wanted}, found {describe(value)}{hint}", "type")

    def _enum_problem(self, enum: Sequence[object], value: object, path: PathT) -> Problem:
        choices = ", ".join(repr(e) for e in enum)
        return Problem(path, f"must be one of {choices}, got {self._show(path, value)}", "enum",
                       tuple(str(e) for e in enum))

    def _alternatives(self, schema: Schema, key: str, value: Any, path: PathT, out: list[Problem]) -> None:
        results: list[list[Problem]] = []
        for branch in schema[key]:
            found: list[Problem] = []
            self._check(branch, value, path, found)
            results.append(found)
        clean = [r for r in results if not _has_error(r)]
        if clean and (key == "anyOf" or len(clean) == 1):
            out.extend(clean[0])  # its warnings
        elif clean:
            out.append(Problem(path, "matches more than one of the allowed forms", "oneOf"))
        else:
            out.extend(self._nearest_branch(schema[key], results, value, path))

    def _nearest_branch(self, branches: list[Schema], results: list[list[Problem]], value: object,
                        path: PathT) -> list[Problem]:
        """What to report when no branch fits: the fewest problems of a branch the value has
        the type of, else the types the branches take."""
        typed = [r for r in results if not any(p.keyword == "type" and p.path == path for p in r)]
        if typed:
            return min(typed, key=len)
        words = dict.fromkeys(_TYPE_WORD[t] for branch in branches for t in self._types(self.resolve(branch)))
        return [Problem(path, f"expected {' or '.join(words) or 'another form'}, found {describe(value)}", "type")]

    def _object(self, schema: Schema, value: Tree, path: PathT, out: list[Problem]) -> None:
        props: Mapping[str, Any] = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        open_ = _open_object(schema, props, extra)
        embedded = schema.get("x-kubernetes-embedded-resource")
        for key, item in value.items():
            child = (*path, key)
            if not isinstance(key, str):
                out.append(Problem(child, "mapping keys must be strings", "type"))
            elif key in props:
                self._check(props[key], item, child, out)
            elif isinstance(extra, Mapping):
                self._check(extra, item, child, out)
            elif not (open_ or (embedded and key in _EMBEDDED_KEYS)):
                out.append(Problem(child, "unknown field", "unknown", tuple(sorted(props))))
        self._required(schema, props, value, path, out)
        _sizes(schema, len(value), path, _OBJECT_SIZES, out)

    def _required(self, schema: Schema, props: Mapping[str, Any], value: Tree, path: PathT,
                  out: list[Problem]) -> None:
        """Required fields; null counts as missing unless nullable."""
        for key in schema.get("required", ()):
            if key not in value or (value[key] is None and not self.resolve(props.get(key) or {}).get("nullable")):
                out.append(Problem(path, f'missing required field "{key}"', "required"))

    def _array(self, schema: Schema, value: list[Any], path: PathT, out: list[Problem]) -> None:
        items = schema.get("items")
        if isinstance(items, Mapping):
            for i, item in enumerate(value):
                self._check(items, item, (*path, i), out)
        _sizes(schema, len(value), path, _ARRAY_SIZES, out)
        if schema.get("uniqueItems") or schema.get("x-kubernetes-list-type") == "set":
            _repeats(value, path, out)

    def _string(self, schema: Schema, value: str, path: PathT, out: list[Problem]) -> None:
        _sizes(schema, len(value), path, _STRING_SIZES, out)
        pattern = schema.get("pattern")
        if pattern == QUANTITY_RE.pattern:
            self._quantity(value, path, out)
        elif pattern is not None and not _pattern(str(pattern)).search(value):
            out.append(Problem(path, f"{self._show(path, value)} does not match the required format {pattern}",
                               "pattern"))
        if schema.get("format") == "byte" and not _base64(value):
            out.append(Problem(path, "is not base64 data (data values of a Secret are base64-encoded)", "format"))

    def _quantity(self, value: str, path: PathT, out: list[Problem]) -> None:
        """A Kubernetes quantity: its form, then its size (the API server keeps quantities below 2^63)."""
        if not _pattern(QUANTITY_RE.pattern).search(value):
            message = "(value hidden) is not a Kubernetes quantity" if self.redact(path) else quantity_hint(value)
            out.append(Problem(path, message, "pattern"))
            return
        try:
            to_bytes(value)
        except ValueError as exc:
            out.append(Problem(path, str(exc), "format"))

    def _number(self, schema: Schema, value: float, path: PathT, out: list[Problem]) -> None:
        bounds = {"int32": INT32, "int64": INT64}.get(str(schema.get("format")))
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            bits = schema["format"][3:]
            out.append(Problem(path, f"{self._show(path, value)} does not fit a {bits}-bit integer", "format"))
            return
        self._range(schema, value, path, out)
        step = schema.get("multipleOf")
        if step and (value / step) % 1:
            out.append(Problem(path, f"must be a multiple of {step}", "multipleOf"))

    def _range(self, schema: Schema, value: float, path: PathT, out: list[Problem]) -> None:
        """`minimum` and `maximum`, each exclusive when `exclusiveMinimum`/`exclusiveMaximum` is true."""
        for keyword, beyond, word in (("minimum", operator.lt, "least"), ("maximum", operator.gt, "most")):
            bound = schema.get(keyword)
            exclusive = schema.get(f"exclusive{keyword.capitalize()}") is True
            if bound is not None and (beyond(value, bound) or (value == bound and exclusive)):
                out.append(Problem(path, f"must be at {word} {bound}, got {self._show(path, value)}", keyword))


_EMBEDDED_KEYS = ("apiVersion", "kind", "metadata")  # an embedded resource's own, never unknown


def _open_object(schema: Schema, props: Mapping[str, object], extra: object) -> bool:
    """Whether a mapping here may hold fields its schema does not name."""
    return bool(schema.get("x-kubernetes-preserve-unknown-fields") or extra is True or (extra is None and not props))


# The size keywords of each type: (keyword, whether a size breaks a bound, the message for a bound).
_SizeRule = tuple[str, Callable[[int, int], bool], Callable[[int], str]]
_OBJECT_SIZES: tuple[_SizeRule, ...] = (
    ("minProperties", operator.lt, lambda n: f"needs at least {n} entries"),
    ("maxProperties", operator.gt, lambda n: f"takes at most {n} entries"),
)
_ARRAY_SIZES: tuple[_SizeRule, ...] = (
    ("minItems", operator.lt, lambda n: f"needs at least {n} item{'s' if n != 1 else ''}"),
    ("maxItems", operator.gt, lambda n: f"takes at most {n} items"),
)
_STRING_SIZES: tuple[_SizeRule, ...] = (
    ("minLength", operator.lt, lambda n: "must not be empty" if n == 1 else f"must be at least {n} characters long"),
    ("maxLength", operator.gt, lambda n: f"must be at most {n} characters long"),
)


def _sizes(schema: Schema, size: int, path: PathT, rules: tuple[_SizeRule, ...], out: list[Problem]) -> None:
    for keyword, breaks, message in rules:
        if keyword in schema and breaks(size, schema[keyword]):
            out.append(Problem(path, message(schema[keyword]), keyword))


def _repeats(value: list[object], path: PathT, out: list[Problem]) -> None:
    seen: list[object] = []
    for i, item in enumerate(value):
        if item in seen:
            out.append(Problem((*path, i), "repeats an earlier item; items must be unique", "uniqueItems"))
        seen.append(item)


def _base64(text: str) -> bool:
    """Base64 as the API server decodes a []byte (Go base64.StdEncoding: padded, and "\r" and "\n" ignored)."""
    try:
        base64.b64decode(text.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def prune(validator: Validator, schema: Schema, value: Any) -> Any:
    """`value` without the fields a closed object in `schema` does not know."""
    schema = validator.resolve(schema)
    if isinstance(value, dict):
        return _prune_object(validator, schema, value)
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [prune(validator, schema["items"], v) for v in value]
    return value


def _prune_object(validator: Validator, schema: Schema, value: Tree) -> Tree:
    props: Mapping[str, Any] = schema.get("properties") or {}
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping):
        return {k: prune(validator, extra, v) for k, v in value.items()}
    closed = extra is False and not schema.get("x-kubernetes-preserve-unknown-fields")
    return {k: prune(validator, props[k], v) if k in props else v for k, v in value.items()
            if k in props or not closed}
