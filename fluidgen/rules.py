"""What a rule is: a check over one object (with every object of the set beside it).

Rules run on compiled output, where each finding is reported at the spec value it came
from, and on hand-written manifests (`fluidgen lint`). Engine modules define the rules that
only concern their runtime; fluidgen/lint holds the rest and the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .diagnostics import PathT, Severity

Object = dict[str, Any]


@dataclass(frozen=True)
class Finding:
    path: PathT
    message: str


Check = Callable[[Object, list[Object]], Iterator[Finding]]


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    summary: str
    check: Check


def kind_of(obj: Object) -> str:
    return str(obj.get("kind", ""))


def meta(obj: Object) -> dict[str, Any]:
    value = obj.get("metadata")
    return value if isinstance(value, dict) else {}


def spec_of(obj: Object) -> dict[str, Any]:
    value = obj.get("spec")
    return value if isinstance(value, dict) else {}


def same_place(a: Object, b: Object) -> bool:
    """Same namespace and name (how Fluid binds a runtime to its Dataset)."""
    return (meta(a).get("name"), meta(a).get("namespace")) == (meta(b).get("name"), meta(b).get("namespace"))


def walk_strings(value: Any, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_strings(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_strings(v, (*path, i))
    elif isinstance(value, str):
        yield path, value
