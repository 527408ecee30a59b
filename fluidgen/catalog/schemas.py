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
from ..engines.engine_table import ENGINES
from ..fluid import dataset, operations
from ..fluid.common import GROUP_VERSION


@dataclass(frozen=True)
class FluidKind:
    kind: str
    owner: str  # versions.py names kinds and fields by this: an engine name, or the kind itself
    spec: Schema  # the object's spec, or, for a top-level kind, its fields beside metadata
    namespaced: bool = True
    top_level: bool = False


@cache
def _all_kinds() -> tuple[FluidKind, ...]:
    out = [FluidKind(dataset.KIND, dataset.KIND, dataset.SPEC)]
    for engine in ENGINES.values():
        out.append(FluidKind(engine.kind, engine.name, engine.spec))
        out += [FluidKind(x.kind, engine.name, x.spec, x.namespaced, x.top_level) for x in engine.extra_kinds]
    out += [FluidKind(op.kind, op.kind, op.spec) for op in operations.OPERATIONS.values()]
    return tuple(out)


@cache
def kinds(version: str) -> dict[str, FluidKind]:
    """The Fluid kinds `version` has, with their specs trimmed to the fields it has."""
    out = {}
    for k in _all_kinds():
        if not versions.has(version, k.owner):
            continue
        missing = [f for f, present_in in versions.added_fields(k.owner).items() if version not in present_in]
        spec = k.spec
        if missing:
            spec = fields({n: s for n, s in spec["properties"].items() if n not in missing},
                          tuple(spec.get("required", ())))
        out[k.kind] = FluidKind(k.kind, k.owner, spec, k.namespaced, k.top_level)
    return out


def known_anywhere(kind: str) -> bool:
    return any(k.kind == kind for k in _all_kinds())


def object_schema(kind: FluidKind) -> Schema:
    """A whole Fluid object: the CRD's top level (metadata is checked on its own)."""
    top = {"apiVersion": STR, "kind": STR, "metadata": {"type": "object"}}
    if kind.top_level:
        return fields({**top, **kind.spec["properties"]}, tuple(kind.spec.get("required", ())))
    return fields({**top, "spec": kind.spec, "status": OPEN})


@cache
def spec_validator(version: str, kind: str) -> Validator:
    k = kinds(version)[kind]
    return kube.embedded_validator(k.spec, versions.get(version).kubernetes)


@cache
def validator(version: str, kind: str) -> Validator:
    k = kinds(version)[kind]
    return kube.embedded_validator(object_schema(k), versions.get(version).kubernetes)


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
        if other == version or kind not in kinds(other):
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
