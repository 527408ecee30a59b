"""fluidgen's built-in model of each Fluid version's API: every kind's schema, assembled
from fluid/ (Dataset, data operations), the engine modules and the version table.

Embedded core types refer to the Kubernetes schemas of the version Fluid builds against
(base/structural/kube.py). The tests check this model against the real CRDs of every version:
field by field, and with a differential test of thousands of generated documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..base import versions
from ..base.diagnostics import Severity, did_you_mean
from ..base.structural import kube
from ..base.structural.dsl import OPEN, STR, Schema, fields
from ..base.structural.validate import Problem, Validator, prune
from ..engines import engine_table
from ..fluid import dataset, operations
from ..fluid.common import GROUP_VERSION


@dataclass(frozen=True)
class FluidKind:
    kind: str
    owner: str  # versions.py names kinds and fields by this: an engine name, or the kind itself
    spec: Schema  # the object's spec, or, for a top-level kind, its fields beside metadata
    namespaced: bool = True
    top_level: bool = False


def _engine_kinds(name: str) -> list[FluidKind]:
    engine = engine_table.engine(name)
    return [FluidKind(engine.kind, engine.name, engine.spec),
            *(FluidKind(x.kind, engine.name, x.spec, x.namespaced, x.top_level) for x in engine.extra_kinds)]


@cache
def _all_kinds() -> tuple[FluidKind, ...]:
    out = [FluidKind(dataset.KIND, dataset.KIND, dataset.SPEC)]
    for name in engine_table.NAMES:
        out += _engine_kinds(name)
    out += [FluidKind(op.kind, op.kind, op.spec) for op in operations.OPERATIONS.values()]
    return tuple(out)


def _unversioned(kind: str) -> FluidKind | None:
    """The kind with every field any version has; an engine's kind imports that engine only."""
    if kind == dataset.KIND:
        return FluidKind(dataset.KIND, dataset.KIND, dataset.SPEC)
    op = operations.OPERATIONS.get(kind)
    if op is not None:
        return FluidKind(op.kind, op.kind, op.spec)
    owner = engine_table.OWNERS.get(kind)
    return next(k for k in _engine_kinds(owner) if k.kind == kind) if owner is not None else None


def _trimmed(version: str, k: FluidKind) -> FluidKind | None:
    """`k` as `version` has it (None when `version` lacks it), its spec trimmed to the fields it has."""
    if not versions.has(version, k.owner):
        return None
    missing = [f for f, present_in in versions.added_fields(k.owner).items() if version not in present_in]
    spec = k.spec
    if missing:
        spec = fields({n: s for n, s in spec["properties"].items() if n not in missing},
                      tuple(spec.get("required", ())))
    return FluidKind(k.kind, k.owner, spec, k.namespaced, k.top_level)


@cache
def kinds(version: str) -> dict[str, FluidKind]:
    """The Fluid kinds `version` has, with their specs trimmed to the fields it has (imports every
    engine: one kind is kind_of)."""
    trimmed = (_trimmed(version, k) for k in _all_kinds())
    return {k.kind: k for k in trimmed if k is not None}


@cache
def kind_of(version: str, kind: str) -> FluidKind | None:
    """One kind as `version` has it, or None (imports the engine that brings it, no other)."""
    k = _unversioned(kind)
    return _trimmed(version, k) if k is not None else None


def known_anywhere(kind: str) -> bool:
    return _unversioned(kind) is not None


def object_schema(kind: FluidKind) -> Schema:
    """A whole Fluid object: the CRD's top level (metadata is checked on its own)."""
    top = {"apiVersion": STR, "kind": STR, "metadata": {"type": "object"}}
    if kind.top_level:
        return fields({**top, **kind.spec["properties"]}, tuple(kind.spec.get("required", ())))
    return fields({**top, "spec": kind.spec, "status": OPEN})


@cache
def spec_validator(version: str, kind: str) -> Validator:
    k = _known(version, kind)
    return kube.embedded_validator(k.spec, versions.get(version).kubernetes)


@cache
def validator(version: str, kind: str) -> Validator:
    k = _known(version, kind)
    return kube.embedded_validator(object_schema(k), versions.get(version).kubernetes)


def _known(version: str, kind: str) -> FluidKind:
    k = kind_of(version, kind)
    if k is None:
        raise KeyError(kind)
    return k


def prune_spec(version: str, kind: str, value: Any) -> Any:
    """`value` (a spec) without the fields `version` does not have."""
    v = spec_validator(version, kind)
    return prune(v, v.schema, value)


def is_fluid(api_version: str) -> bool:
    return api_version == GROUP_VERSION or api_version.startswith("data.fluid.io/")


def fields_elsewhere(version: str, kind: str, path: tuple[str | int, ...]) -> list[str]:
    """The other supported versions whose `kind` spec has a field at `path`."""
    out = []
    for other in versions.NAMES:
        if other == version or kind_of(other, kind) is None:
            continue
        fragment: Any = {}
        for part in reversed(path):
            fragment = {part: fragment} if isinstance(part, str) else [fragment]
        problems = spec_validator(other, kind).problems(fragment)
        if not any(p.unknown_field and tuple(p.path) == tuple(path[:len(p.path)]) for p in problems):
            out.append(other)
    return out


def describe_problem(version: str, kind: str, p: Problem, where: str) -> tuple[Severity, str]:
    """(severity, message) for a schema problem in fields a profile or override writes.

    A field the target lacks but another supported version has is dropped with a warning;
    a field no version has is an error that names the closest real one.
    """
    field = ".".join(map(str, p.path))
    if not p.unknown_field:
        return "error", p.message
    elsewhere = fields_elsewhere(version, kind, p.path)
    if elsewhere:
        return "warning", (f"Fluid {version} {kind} has no field {field} (Fluid {', '.join(elsewhere)} has it); "
                           "it is not emitted")
    return "error", f"{kind} has no field {field}{did_you_mean(str(p.path[-1]), p.choices)} ({where})"


def has_field(version: str, kind: str, path: tuple[str, ...]) -> bool:
    """Whether `kind`'s spec in `version` has the field at `path` (mappings only)."""
    v = spec_validator(version, kind)
    schema = v.resolve(v.schema)
    for key in path:
        props = schema.get("properties") or {}
        if key not in props:
            return False
        schema = v.resolve(props[key])
    return True
