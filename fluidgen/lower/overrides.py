"""The escape hatch: spec fields of a generated object that the spec has no key for.

`runtime.overrides`, `dataset.overrides` and a step's `overrides` are merged last (an explicit
null deletes). Each is checked against the target version's schema of that kind like a
profile: a field the target lacks but another supported version has is dropped with a warning
(FG001); any other problem is an error at the override's own key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base.diagnostics import PathT
from ..base.manifest import Tree
from ..base.merge import deep_merge, without_nones
from ..catalog.schemas import describe_problem, prune_spec, spec_validator
from ..model.context import Context


def apply(ctx: Context, kind: str, tree: Tree, overrides: Mapping[str, Any], at: PathT,
          computed: Mapping[str, str] | None = None) -> Tree:
    """`tree` with `overrides` merged on top; keys in `computed` name the spec key to use instead."""
    computed = computed or {}
    for key, instead in computed.items():
        if key in overrides:
            ctx.report((*at, key), f"set {instead} instead; it is computed from the spec", stage="resolve")
    given = {k: v for k, v in overrides.items() if k not in computed}
    if not given:
        return tree
    # Overrides are partial: a required field may come from elsewhere; the self-check of the
    # finished object reports one that is still missing.
    # an explicit null deletes what a profile or the spec set: only the values are checked
    for p in [p for p in spec_validator(ctx.version, kind).problems(without_nones(given))
              if p.keyword != "required"]:
        severity, message = describe_problem(ctx.version, kind, p, f"in {'.'.join(map(str, at))}")
        ctx.diagnostics.append(ctx.doc.diag((*at, *p.path), message, severity,
                                            stage="resolve", code="FG001" if severity == "warning" else ""))
    merged: Tree = deep_merge(tree, prune_spec(ctx.version, kind, given))
    return merged


def trace(ctx: Context, obj: Tree, overrides: Mapping[str, Any], at: PathT) -> None:
    for key, value in overrides.items():
        ctx.trace_copy(obj, ("spec", key), (*at, key), value)
