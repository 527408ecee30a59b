"""The runtime object: built-in defaults < profile chain < spec (cache, replicas, overrides)."""

from __future__ import annotations

from typing import Any

from .. import api, profiles
from ..diagnostics import did_you_mean
from ..merge import deep_merge
from ..spec import CacheTier
from .base import Context, Engine, fluid_object

# Keys the spec computes itself; setting them again in overrides is ambiguous.
COMPUTED = ("replicas", "tieredstore")
MEM_DEFAULT_PATH = "/dev/shm"


def tier(engine: Engine, t: CacheTier) -> dict[str, Any]:
    paths = list(t.path) or ([MEM_DEFAULT_PATH] if t.medium == "MEM" else [])
    level: dict[str, Any] = {"mediumtype": t.medium}
    if paths:
        level["path"] = engine.path_separator.join(p.rstrip("/") or "/" for p in paths)
    if len(t.quota) == 1:
        level["quota"] = t.quota[0]
    else:
        level["quotaList"] = ",".join(t.quota)
    for key in ("high", "low", "volumeType"):
        if getattr(t, key) is not None:
            level[key] = getattr(t, key)
    return level


def generated(ctx: Context, engine: Engine) -> dict[str, Any]:
    if engine.name == "thin" and ctx.spec.runtime.thin is None:
        return {}  # a dataset:// reference: Fluid ignores the spec (checks.py rejects settings)
    out: dict[str, Any] = {"replicas": ctx.spec.runtime.replicas}
    if ctx.spec.runtime.cache:
        out["tieredstore"] = {"levels": [tier(engine, t) for t in ctx.spec.runtime.cache]}
    if engine.name == "thin":
        assert ctx.spec.runtime.thin is not None
        out["profileName"] = ctx.spec.runtime.thin.profileName or thin_profile_name(ctx)
    return out


def thin_profile_name(ctx: Context) -> str:
    """ThinRuntimeProfiles are cluster-scoped: two namespaces may both have a dataset named
    imagenet, so the namespace is part of the name. A dot cannot occur in either label, so
    team-a.imagenet and team.a-imagenet never collide."""
    return f"{ctx.namespace}.{ctx.name}"


def profile_layer(ctx: Context, engine: Engine, base: dict[str, Any]) -> dict[str, Any]:
    ref = ctx.spec.runtime.profile
    if ref is None or ref == profiles.NONE:
        return base
    at = ("runtime", "profile")
    try:
        chain = profiles.chain(ref, engine.name, ctx.doc.file)
    except KeyError as exc:
        ctx.diagnostics.append(ctx.doc.diag(at, str(exc.args[0]), stage="profile"))
        return base
    tree, diags = profiles.apply(chain, ctx.version, base)
    ctx.diagnostics.extend(diags)
    return tree


def override_layer(ctx: Context, engine: Engine, tree: dict[str, Any]) -> dict[str, Any]:
    overrides = ctx.spec.runtime.overrides
    at = ("runtime", "overrides")
    for key in COMPUTED:
        if key in overrides:
            ctx.diagnostics.append(ctx.doc.diag(
                (*at, key), f"set runtime.{'cache' if key == 'tieredstore' else key} instead; "
                            "it is computed from the spec", stage="resolve"))
    model = api.spec_model(ctx.version, engine.kind)
    assert model is not None
    for p in api.check(model, overrides):
        path = (*at, *p.path)
        if p.unknown_field:
            hint = did_you_mean(str(p.path[-1]), p.choices)
            ctx.diagnostics.append(ctx.doc.diag(
                path, f"Fluid {ctx.version} {engine.kind} has no field "
                      f"{'.'.join(map(str, p.path))}; it is not emitted{hint}",
                "warning", stage="resolve", code="FG001"))
        else:
            ctx.diagnostics.append(ctx.doc.diag(path, p.message, stage="resolve"))
    pruned = api.prune(model, {k: v for k, v in overrides.items() if k not in COMPUTED})
    merged: dict[str, Any] = deep_merge(tree, pruned)
    return merged


def runtime(ctx: Context, engine: Engine) -> dict[str, Any]:
    tree: dict[str, Any] = deep_merge({}, dict(engine.defaults))
    tree = profile_layer(ctx, engine, tree)
    tree = deep_merge(tree, generated(ctx, engine))
    tree = override_layer(ctx, engine, tree)
    return fluid_object(ctx, engine.kind, ctx.name, tree)


def thin_profile(ctx: Context) -> dict[str, Any] | None:
    thin = ctx.spec.runtime.thin
    if thin is None or thin.fileSystemType is None:
        return None
    spec: dict[str, Any] = deep_merge({"fileSystemType": thin.fileSystemType}, thin.profile)
    keep_read_only(ctx, spec)
    model = api.spec_model(ctx.version, "ThinRuntimeProfile")
    assert model is not None
    at = ("runtime", "thin", "profile")
    for p in api.check(model, spec):
        message = p.message
        if p.unknown_field:
            hint = did_you_mean(str(p.path[-1]), p.choices)
            message = f"ThinRuntimeProfile has no field {'.'.join(map(str, p.path))}{hint}"
        # fileSystemType comes from thin.fileSystemType; everything else from thin.profile.
        where = ("runtime", "thin", "fileSystemType") if p.path[:1] == ("fileSystemType",) else (*at, *p.path)
        ctx.diagnostics.append(ctx.doc.diag(where, message, stage="resolve"))
    return fluid_object(ctx, "ThinRuntimeProfile", thin_profile_name(ctx), spec, namespaced=False)


def keep_read_only(ctx: Context, profile_spec: dict[str, Any]) -> None:
    """Fluid adds `ro` to a ThinRuntime FUSE program's MOUNT_OPTIONS when the Dataset is
    ReadOnlyMany (the default), but a profile with fuse.options replaces that set instead of
    adding to it, so the read-only dataset would be mounted read-write. Put `ro` back."""
    fuse = profile_spec.get("fuse")
    options = fuse.get("options") if isinstance(fuse, dict) else None
    modes = ctx.spec.accessModes or ["ReadOnlyMany"]
    if isinstance(options, dict) and "ReadOnlyMany" in modes and not {"ro", "rw"} & set(options):
        options["ro"] = ""
