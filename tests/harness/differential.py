"""Documents generated from a CRD's schema: valid ones, and single mutations of them.

Used to compare fluidgen's built-in model of the Fluid API with the real CRDs: both must
give every document the same verdict.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

QUANTITIES = ("1Gi", "500Mi", "100", "2", "0.5", "1.5G", "250m", "1e3", "+4Ki")
BAD_QUANTITIES = ("100GB", "1.2.3", "Gi", "10 Gi", "ten")
QUOTA_LISTS = ("1Gi,2Gi", "100Gi,50Gi,1", "3G,4")
BAD_QUOTA_LISTS = ("100Gi", "100Gi, 50Gi", "100Gi,", "100,50Gi")
MUTATIONS = ("unknown", "required", "type", "enum", "pattern", "minimum", "int32", "minItems", "minLength")


@dataclass(frozen=True)
class Mutated:
    kind: str  # which mutation
    path: tuple[str | int, ...]
    document: Any


def _types(schema: dict[str, Any]) -> set[str]:
    if "anyOf" in schema:
        return {t for b in schema["anyOf"] for t in _types(b)}
    kind = schema.get("type")
    if kind is None and schema.get("x-kubernetes-int-or-string"):
        return {"integer", "string"}
    return {kind} if isinstance(kind, str) else set(kind or ())


class Generator:
    def __init__(self, seed: int, max_depth: int = 9) -> None:
        self.rng = random.Random(seed)
        self.max_depth = max_depth

    # -- valid documents -----------------------------------------------------------------

    def value(self, schema: dict[str, Any], depth: int = 0) -> Any:
        types = _types(schema)
        if "enum" in schema:
            return self.rng.choice(schema["enum"])
        if types == {"integer", "string"}:
            return self.rng.choice([self.rng.randint(0, 64), self.rng.choice(QUANTITIES)])
        kind = next(iter(types)) if types else "object"
        if kind == "object":
            return self._object(schema, depth)
        if kind == "array":
            return self._array(schema, depth)
        if kind == "string":
            return self._string(schema)
        if kind == "integer":
            low = schema.get("minimum", 0)
            return self.rng.randint(int(low), int(low) + 100)
        if kind == "number":
            return self.rng.choice([0.5, 2, 7.25])
        if kind == "boolean":
            return self.rng.choice([True, False])
        return "x"

    def _string(self, schema: dict[str, Any]) -> str:
        pattern = schema.get("pattern")
        if pattern is not None:
            return self.rng.choice(QUOTA_LISTS if pattern.startswith("^((") else QUANTITIES)
        length = max(schema.get("minLength", 0), self.rng.randint(1, 8))
        return "".join(self.rng.choice("abcdefghij-/.") for _ in range(length))

    def _object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        props = schema.get("properties") or {}
        required = set(schema.get("required", ()))
        chance = max(0.04, 0.55 - 0.09 * depth) if depth < self.max_depth else 0.0
        out: dict[str, Any] = {}
        for name in sorted(props):
            if name in required or self.rng.random() < chance:
                out[name] = self.value(props[name], depth + 1)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and depth < self.max_depth:
            for i in range(self.rng.randint(0, 2)):
                out[f"key{i}.example/x"] = self.value(extra, depth + 1)
        return out

    def _array(self, schema: dict[str, Any], depth: int) -> list[Any]:
        low = schema.get("minItems", 0)
        count = low + (self.rng.randint(0, 2) if depth < self.max_depth else 0)
        return [self.value(schema.get("items") or {}, depth + 1) for _ in range(count)]

    # -- mutations -----------------------------------------------------------------------

    def mutate(self, schema: dict[str, Any], document: Any) -> Mutated | None:
        """One random single change of `document` that breaks `schema` at some depth."""
        by_kind: dict[str, list[tuple[tuple[str | int, ...], dict[str, Any]]]] = {}
        for kind, path, sub in self._sites(schema, document, ()):
            by_kind.setdefault(kind, []).append((path, sub))
        kinds = sorted(by_kind)
        self.rng.shuffle(kinds)  # each kind of mutation as likely as the others
        for kind in kinds:
            sites = by_kind[kind]
            self.rng.shuffle(sites)
            for path, sub in sites:
                changed = self._apply(kind, sub, document, path)
                if changed is not None:
                    return Mutated(kind, path, changed)
        return None

    def _sites(self, schema: dict[str, Any], value: Any, path: tuple[str | int, ...]
               ) -> Iterator[tuple[str, tuple[str | int, ...], dict[str, Any]]]:
        for kind in MUTATIONS:
            yield kind, path, schema
        if isinstance(value, dict):
            props = schema.get("properties") or {}
            extra = schema.get("additionalProperties")
            for key, item in value.items():
                sub = props.get(key) if key in props else (extra if isinstance(extra, dict) else None)
                if sub is not None:
                    yield from self._sites(sub, item, (*path, key))
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                yield from self._sites(schema["items"], item, (*path, i))

    def _apply(self, kind: str, schema: dict[str, Any], document: Any, path: tuple[str | int, ...]) -> Any:
        doc = copy.deepcopy(document)
        parent, key = _parent(doc, path)
        current = parent[key] if parent is not None else doc
        types = _types(schema)
        replacement: Any
        if kind == "unknown" and isinstance(current, dict) and schema.get("additionalProperties") is False:
            current["zzUnknownField"] = "x"
            return doc
        if kind == "required" and isinstance(current, dict):
            present = [r for r in schema.get("required", ()) if r in current]
            if not present:
                return None
            del current[self.rng.choice(present)]
            return doc
        if kind == "type" and types and parent is not None:
            wrong = [v for t, v in (("string", 12.5), ("integer", "twelve"), ("boolean", "yes"), ("object", "x"),
                                    ("array", {"a": "b"})) if t in types]
            wrong = [v for v in wrong if not _accepts(types, v)]
            if not wrong:
                return None
            replacement = self.rng.choice(wrong)
        elif kind == "enum" and "enum" in schema and parent is not None:
            replacement = "NotOneOfTheEnumValues"
        elif kind == "pattern" and "pattern" in schema and parent is not None:
            replacement = self.rng.choice(BAD_QUOTA_LISTS if schema["pattern"].startswith("^((") else BAD_QUANTITIES)
        elif kind == "minimum" and "minimum" in schema and parent is not None:
            replacement = int(schema["minimum"]) - 1
        elif kind == "int32" and schema.get("format") == "int32" and parent is not None:
            replacement = 2**31
        elif kind == "minItems" and schema.get("minItems", 0) > 0 and parent is not None:
            replacement = []
        elif kind == "minLength" and schema.get("minLength", 0) > 0 and parent is not None:
            replacement = "x" * (schema["minLength"] - 1)
        else:
            return None
        parent[key] = replacement  # type: ignore[index]
        return doc


def _accepts(types: set[str], value: Any) -> bool:
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "number": lambda v: isinstance(v, int | float),
    }
    return any(checks[t](value) for t in types if t in checks)


def _parent(doc: Any, path: tuple[str | int, ...]) -> tuple[Any, str | int]:
    if not path:
        return None, ""
    node = doc
    for part in path[:-1]:
        node = node[part]
    return node, path[-1]
