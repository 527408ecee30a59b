"""Fluid controller rules, checked on the spec before lowering (Fluid has no webhook)."""

from __future__ import annotations

from collections import Counter

from .lower.base import Context, Engine, scheme_of
from .lower.dataset import mount_name


def check_spec(ctx: Context, engine: Engine) -> None:
    _version(ctx, engine)
    _mounts(ctx, engine)
    _reference(ctx, engine)
    _tiers(ctx, engine)


def _version(ctx: Context, engine: Engine) -> None:
    if ctx.version not in engine.versions:
        note = f"; {engine.removed_note}" if engine.removed_note else ""
        ctx.diagnostics.append(ctx.doc.diag(
            ("runtime", "engine"), f"engine {engine.name} is not available in Fluid "
                                   f"{ctx.version}{note}", stage="check"))


def _mounts(ctx: Context, engine: Engine) -> None:
    source = ctx.spec.source
    if engine.needs_mounts and not source:
        ctx.diagnostics.append(ctx.doc.diag(("source",), f"{engine.kind} needs at least one mount",
                                            stage="check"))
    if not engine.needs_mounts and source:
        ctx.diagnostics.append(ctx.doc.diag(("source",), f"{engine.kind} takes no mounts",
                                            stage="check"))
    if engine.single_mount and len(source) > 1:
        ctx.diagnostics.append(ctx.doc.diag(
            ("source", 1), f"{engine.kind} uses only the first mount; split the data into "
                           "several datasets", stage="check"))
    schemes = [("pvc" if m.nfs is not None else scheme_of(m.uri or "")) for m in source]
    for i, scheme in enumerate(schemes):
        at = ("source", i, "nfs" if source[i].nfs is not None else "uri")
        if scheme == "dataset":
            if len(source) > 1:
                ctx.diagnostics.append(ctx.doc.diag(
                    at, "a dataset:// mount must be the only mount of its dataset", stage="check"))
            continue
        if not scheme:
            ctx.diagnostics.append(ctx.doc.diag(at, "expected a URI with a scheme, such as "
                                                    "oss://bucket/dir/ or pvc://claim", stage="check"))
        elif engine.schemes is not None and scheme not in engine.schemes:
            accepted = ", ".join(f"{s}://" for s in sorted(engine.schemes)) or "no mounts"
            ctx.diagnostics.append(ctx.doc.diag(
                at, f"{engine.kind} cannot mount {scheme}:// (it accepts {accepted})",
                stage="check"))
        for option in engine.required_options.get(scheme, ()):
            if option not in source[i].options and option not in ctx.spec.sharedOptions:
                ctx.diagnostics.append(ctx.doc.diag(
                    ("source", i), f'{engine.kind} needs option "{option}" for {scheme}:// mounts',
                    stage="check"))
    _unique_mounts(ctx)
    if engine.name == "alluxio":
        roots = [i for i, m in enumerate(source) if m.path and not m.path.strip("/")]
        if roots and len(source) > 1:
            ctx.diagnostics.append(ctx.doc.diag(
                ("source", roots[0], "path"), 'path "/" is only honoured for a single mount; '
                                              "Alluxio mounts the others under /underFSStorage",
                stage="check"))


def is_reference(ctx: Context) -> bool:
    """Only dataset:// sources: this Dataset points at another one (Fluid's reference mode). A
    dataset:// mixed with other mounts is reported by _mounts; judging the runtime too would
    give advice that no longer holds once that is fixed."""
    source = ctx.spec.source
    return bool(source) and all(m.uri is not None and scheme_of(m.uri) == "dataset" for m in source)


def _reference(ctx: Context, engine: Engine) -> None:
    """Reference mode: Fluid serves the data through the referenced dataset's own runtime and
    drives this Dataset's ThinRuntime itself, ignoring its spec; say so instead of dropping it."""
    rt = ctx.spec.runtime
    if not is_reference(ctx):
        if engine.name == "thin" and rt.thin is None:
            ctx.diagnostics.append(ctx.doc.diag(
                ("runtime",), "engine thin needs a thin: section (profileName or fileSystemType), "
                              "unless the source is a dataset:// reference", stage="check"))
        return
    if engine.name != "thin":
        ctx.diagnostics.append(ctx.doc.diag(
            ("runtime", "engine"), f"a dataset:// reference is served by a ThinRuntime that Fluid "
                                   f"manages, so engine must be thin; {engine.kind} cannot mount it",
            stage="check"))
        return
    ignored = [k for k in ("thin", "profile") if getattr(rt, k) is not None]
    ignored += [k for k in ("cache", "overrides") if getattr(rt, k)]
    ignored += ["replicas"] if "replicas" in rt.model_fields_set else []
    for key in ignored:
        ctx.diagnostics.append(ctx.doc.diag(
            ("runtime", key), "does not apply to a dataset:// reference: Fluid ignores "
                              "the ThinRuntime spec of a reference dataset (the referenced dataset's "
                              "runtime serves the data); remove it", stage="check"))


def _unique_mounts(ctx: Context) -> None:
    names = [mount_name(ctx, i, m) for i, m in enumerate(ctx.spec.source)]
    paths = [m.path or f"/{n}" for m, n in zip(ctx.spec.source, names, strict=True)]
    for label, values in (("name", names), ("path", paths)):
        for value, count in Counter(values).items():
            if count > 1:
                i = len(values) - 1 - values[::-1].index(value)
                ctx.diagnostics.append(ctx.doc.diag(
                    ("source", i), f'mount {label} "{value}" is used by {count} mounts',
                    stage="check"))


def _tiers(ctx: Context, engine: Engine) -> None:
    tiers = ctx.spec.runtime.cache
    if engine.single_tier and len(tiers) > 1:
        ctx.diagnostics.append(ctx.doc.diag(
            ("runtime", "cache", 1), f"{engine.kind} uses only the first cache tier; put extra "
                                     "directories in that tier's path list", stage="check"))
    for i, t in enumerate(tiers):
        at = ("runtime", "cache", i)
        if len(t.quota) > 1 and len(t.quota) != max(len(t.path), 1):
            ctx.diagnostics.append(ctx.doc.diag(
                (*at, "quota"), f"{len(t.quota)} quotas for {len(t.path)} paths; give one quota "
                                "per path, or a single quota to split evenly", stage="check"))
        if not t.path and t.medium != "MEM":
            ctx.diagnostics.append(ctx.doc.diag((*at,), f"a {t.medium} tier needs a path",
                                                stage="check"))
        if t.high is not None and t.low is not None and float(t.high) <= float(t.low):
            ctx.diagnostics.append(ctx.doc.diag(
                (*at, "low"), f"low watermark {t.low} must be below high watermark {t.high}",
                stage="check"))
    media = [t.medium for t in tiers]
    for medium, count in Counter(media).items():
        if count > 1:
            ctx.diagnostics.append(ctx.doc.diag(
                ("runtime", "cache"), f"{count} tiers use {medium}; each medium may appear once",
                stage="check"))
