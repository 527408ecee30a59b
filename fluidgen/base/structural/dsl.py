"""Helpers that write structural schemas (the OpenAPI v3 subset of CRDs) compactly.

Objects are closed (`additionalProperties: false`), the way kubectl's strict field
validation treats a structural schema.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..manifest import Tree
from ..quantity import QUANTITY_RE
from . import kube

Schema = Tree

STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
INT: Schema = {"type": "integer"}
STR_MAP: Schema = {"type": "object", "additionalProperties": STR}
INT_MAP: Schema = {"type": "object", "additionalProperties": INT}
STR_LIST: Schema = {"type": "array", "items": STR}
QUANTITY: Schema = kube.QUANTITY_SCHEMA
OPEN: Schema = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def string(*, enum: tuple[str, ...] | None = None, pattern: str | None = None,
           min_length: int | None = None) -> Schema:
    out: Schema = {"type": "string"}
    if enum is not None:
        out["enum"] = list(enum)
    if pattern is not None:
        out["pattern"] = pattern
    if min_length is not None:
        out["minLength"] = min_length
    return out


def int32(minimum: int | None = None, maximum: int | None = None) -> Schema:
    out: Schema = {"type": "integer", "format": "int32"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def int64(minimum: int | None = None) -> Schema:
    out: Schema = {"type": "integer", "format": "int64"}
    if minimum is not None:
        out["minimum"] = minimum
    return out


def fields(props: Mapping[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    """A closed object with these properties (for names that are not Python identifiers)."""
    out: Schema = {"type": "object", "properties": dict(props), "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def obj(required: tuple[str, ...] = (), **props: Schema) -> Schema:
    return fields(props, required)


def extend(base: Schema, **props: Schema) -> Schema:
    return fields({**base["properties"], **props}, tuple(base.get("required", ())))


def array(items: Schema, min_items: int | None = None) -> Schema:
    out: Schema = {"type": "array", "items": items}
    if min_items is not None:
        out["minItems"] = min_items
    return out


def map_of(values: Schema) -> Schema:
    return {"type": "object", "additionalProperties": values}


def k8s(name: str) -> Schema:
    """A core Kubernetes type as CRDs embed it, e.g. k8s("core.v1.Toleration")."""
    return kube.ref(f"api.{name}")


def k8s_list(name: str) -> Schema:
    return array(k8s(name))


QUANTITY_PATTERN = QUANTITY_RE.pattern
