"""The runtime object: built-in defaults < profile chain < spec (replicas, cache, then overrides).

Fields a profile or override writes are checked against the target version's schema. A
field the target lacks but another supported version has is dropped with a warning
(FG001); a field no version has is an error, with the closest real name.
"""

from __future__ import annotations

from typing import Any

from ..base import versions
from ..base.manifest import Tree
from ..base.merge import deep_merge
from ..engines.contract import Engine
from ..model.context import Context
from ..spec import profiles
from . import overrides, runtimekeys


def check(ctx: Context, engine: Engine) -> None:
    if not versions.has(ctx.version, engine.name):
        _not_available(ctx, engine)
    _check_tiers(ctx, engine)
    engine.hooks.check(ctx)


def _not_available(ctx: Context, engine: Engine) -> None:
    """The engine is missing from the target Fluid version: say why, and which versions have it."""
    note = f"; {engine.lowering.removed_note}" if engine.lowering.removed_note else ""
    having = [v for v in versions.NAMES if versions.has(v, engine.name)]
    note += f"; Fluid {', '.join(having)} has it" if having else ""
    ctx.report(("runtime", "engine"), f"engine {engine.name} is not available in Fluid {ctx.version}{note}",
               stage="check")


def _check_tiers(ctx: Context, engine: Engine) -> None:
    """Each cache tier: one quota per path (or one for all), and a path unless it is memory."""
    for i, t in enumerate(ctx.spec.runtime.cache):
        if len(t.quota) > 1 and len(t.quota) != max(len(t.path), 1):
            paths = f"{len(t.path)} path{'' if len(t.path) == 1 else 's'}"
            ctx.report(("runtime", "cache", i, "quota"), f"{len(t.quota)} quotas for {paths}; give one "
                                                         "quota per path, or a single quota to split evenly",
                       stage="check")
        if not t.path and t.medium != "MEM" and (engine.lowering.emptydir_needs_path or t.volumeType != "emptyDir"):
            ctx.report(("runtime", "cache", i), f"a {t.medium} tier needs a path", stage="check")
        if engine.lowering.one_path_per_tier and len(t.path) > 1:
            joined = engine.lowering.path_separator.join(t.path)
            ctx.report(("runtime", "cache", i, "path"), f"{engine.kind} uses a cache tier's path whole, as one "
                       f"directory: these {len(t.path)} paths would be one directory named '{joined}'; give one path",
                       stage="check")


def _profile_layer(ctx: Context, engine: Engine, base: Tree) -> tuple[Tree, list[Any]]:
    ref = ctx.spec.runtime.profile
    if ref is None or ref == profiles.NONE:
        return base, []
    try:
        chain = profiles.chain(ref, engine.name, ctx.doc, ctx.reader)
    except KeyError as exc:
        ctx.report(("runtime", "profile"), str(exc.args[0]), stage="profile")
        return base, []
    # Bundled profiles are the tool's own files, in the cache's fingerprint of the tool
    # (buildinputs.profiles_folder); a profile file of the user's is read through the Reader.
    tree, diags = profiles.apply(chain, ctx.version, engine.kind, base)
    ctx.diagnostics.extend(diags)
    return tree, chain


def runtime(ctx: Context, engine: Engine) -> Tree:
    tree: Tree = deep_merge({}, dict(engine.lowering.defaults))
    tree, chain = _profile_layer(ctx, engine, tree)
    tree = deep_merge(tree, engine.hooks.generate(ctx, engine))
    tree = runtimekeys.apply(ctx, engine, tree)
    tree = overrides.apply(ctx, engine.kind, tree, ctx.spec.runtime.overrides, ("runtime", "overrides"),
                           engine.lowering.computed)
    tree = engine.hooks.finish_runtime(ctx, tree)
    obj = ctx.fluid_object(engine.kind, ctx.name, tree, at=("runtime",), own=ctx.spec.runtime)
    _trace(ctx, obj, chain, engine)
    return obj


def _trace(ctx: Context, obj: Tree, chain: list[Any], engine: Engine) -> None:
    for path, rules in profiles.waived(chain):
        ctx.origins.waive(obj, path, rules)
    for profile in chain:
        for entry in profile.entries:
            if not profile.bundled:
                ctx.trace_file(obj, ("spec", *entry.path), entry.file, entry.line, entry.col)
        if profile.bundled:  # a bundled profile is not the user's to edit: point at the spec's choice
            ctx.trace_all(obj, profiles.spec_paths(profile), ("runtime", "profile"))
    ctx.trace(obj, ("kind",), ("runtime", "engine"))
    runtimekeys.trace(ctx, obj, engine)
    ctx.trace(obj, ("spec", *engine.lowering.replicas_at), ("runtime", "replicas"))
    for i in range(len(ctx.spec.runtime.cache)):
        ctx.trace(obj, ("spec", *engine.lowering.levels_at, i), ("runtime", "cache", i))
    overrides.trace(ctx, obj, ctx.spec.runtime.overrides, ("runtime", "overrides"))

