"""Runtime settings with a spec key of their own, the same for every engine that has the field.

One table, read by lowering (spec key -> runtime spec paths) and by `fluidgen import` (the
paths back to the key). Whether an engine has a field in a Fluid version follows from its
schema there: a key the runtime lacks is an error naming the engine and version. What the
engine's Fluid does with a field it has follows its runtime-fields cell (fluid/fields.py): a
field it ignores is not written, and a key all of whose fields it ignores, or that sets one on
a condition the value does not meet, is an error that says what Fluid does and what works.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base.manifest import Tree
from ..base.merge import set_path
from ..catalog.schemas import has_field
from ..engines.contract import Engine
from ..fluid.fields import IGNORED, RUNTIME
from ..model.context import Context


@dataclass(frozen=True)
class RuntimeKey:
    key: tuple[str, ...]  # where it sits under `runtime:` in a spec
    paths: tuple[tuple[str, ...], ...]  # the runtime spec fields it sets (those the kind has)


# Fluid's meaning of each field (api/v1alpha1): runAs is a User (common.go); master.replicas is
# how Fluid's own high-availability sample runs 3 masters (docs/zh/samples/master_high_avaliability.md);
# networkMode is HostNetwork, ContainerNetwork or "" for host (kubebuilder enum in
# alluxioruntime_types.go); management.metadataSyncPolicy.autoSync defaults to true
# (common.go AutoSyncEnabled); fuse.cleanPolicy OnDemand or OnRuntimeDeleted, the default
# (alluxioruntime_types.go CleanPolicy).
KEYS = (
    RuntimeKey(("runAs",), (("runAs",),)),
    RuntimeKey(("masters",), (("master", "replicas"),)),
    # The Jindo engine has one `networkmode` (so spelt) for all its components (jindocache transformNetworkMode).
    RuntimeKey(("networkMode",), (("master", "networkMode"), ("worker", "networkMode"), ("networkmode",))),
    RuntimeKey(("metadataSync",), (("management", "metadataSyncPolicy", "autoSync"),)),
    RuntimeKey(("fuse", "nodeSelector"), (("fuse", "nodeSelector"),)),
    RuntimeKey(("fuse", "cleanPolicy"), (("fuse", "cleanPolicy"),)),
    RuntimeKey(("fuse", "networkMode"), (("fuse", "networkMode"),)),
)


def value_of(settings: Any, key: tuple[str, ...]) -> Any:
    for part in key:
        if settings is None:
            return None
        settings = settings.get(part) if isinstance(settings, dict) else getattr(settings, part, None)
    if hasattr(settings, "model_dump"):
        return settings.model_dump()
    return dict(settings) if isinstance(settings, dict) else settings


def present(version: str, kind: str, key: RuntimeKey) -> list[tuple[str, ...]]:
    return [p for p in key.paths if has_field(version, kind, p)]


def written(version: str, engine: Engine, key: RuntimeKey) -> list[tuple[str, ...]]:
    """The key's fields the runtime has and its Fluid does not ignore (its runtime-fields cells)."""
    return [p for p in present(version, engine.kind, key) if not _ignored(version, engine, p)]


def _ignored(version: str, engine: Engine, path: tuple[str, ...]) -> bool:
    cell = engine.fields.cell(RUNTIME, path, version)
    return cell is not None and cell.how == IGNORED


def apply(ctx: Context, engine: Engine, tree: Tree) -> Tree:
    kind = engine.kind
    for key in KEYS:
        value = value_of(ctx.spec.runtime, key.key)
        if value is None or value == {}:
            continue
        paths = present(ctx.version, kind, key)
        if not paths:
            ctx.report(("runtime", *key.key), f"{kind} has no {' or '.join('.'.join(p) for p in key.paths)} in Fluid "
                                              f"{ctx.version}")
            continue
        kept = written(ctx.version, engine, key)
        if not kept:
            cell = engine.fields.cell(RUNTIME, paths[0], ctx.version)
            ctx.report(("runtime", *key.key), cell.message(kind) if cell else f"{kind} ignores {key.key}")
            continue
        for path in kept:
            tree = set_path(tree, path, value)
        _check_conditions(ctx, engine, key, kept, tree)
    return tree


def _check_conditions(ctx: Context, engine: Engine, key: RuntimeKey, paths: list[tuple[str, ...]], tree: Tree) -> None:
    """A key whose value Fluid would not apply as written (a condition unmet) is an error at the key."""
    for path in paths:
        cell = engine.fields.cell(RUNTIME, path, ctx.version)
        if cell is not None and not cell.holds(tree):
            ctx.report(("runtime", *key.key), cell.message(engine.kind))
            return


def trace(ctx: Context, obj: Tree, engine: Engine) -> None:
    for key in KEYS:
        if value_of(ctx.spec.runtime, key.key) is not None:
            for path in written(ctx.version, engine, key):
                ctx.trace(obj, ("spec", *path), ("runtime", *key.key))


def imported(version: str, engine: Engine, spec: Tree) -> Tree:
    """The keys a runtime spec's fields make: a key whose written fields all hold the same value."""
    out: Tree = {}
    for key in KEYS:
        paths = written(version, engine, key)
        values = [_at(spec, p) for p in paths]
        if not paths or any(v is None for v in values) or any(v != values[0] for v in values):
            continue
        target = out
        for part in key.key[:-1]:
            target = target.setdefault(part, {})
        target[key.key[-1]] = values[0]
    return out


def _at(tree: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(tree, dict) or part not in tree:
            return None
        tree = tree[part]
    return tree
