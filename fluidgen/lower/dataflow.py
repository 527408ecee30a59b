"""Data operations, chained in order: each one runs after the previous completes."""

from __future__ import annotations

from ..base import versions
from ..base.diagnostics import FluidgenError, PathT
from ..base.manifest import Manifest, Tree
from ..base.uri import scheme_of
from ..catalog.schemas import has_field
from ..engines.contract import Engine
from ..fluid.operations import BY_STEP, SEVERITY, decide
from ..model.context import Context
from ..model.specparts import Backup, Load, Migrate, Process, Step
from . import overrides
from .credentials import SecretPlan, deliver


def step_name(ctx: Context, index: int, step: Step) -> str:
    return step.name or f"{ctx.name}-step{index + 1}-{step.op}"


def hashed_name(name: str, kind: str, spec: Tree) -> str:
    """`name-<8 hex>` from the operation's kind and spec (its runAfter included, so a step after
    an edited one runs again too): Fluid runs an operation once, so an edited step needs a new
    name to run again under GitOps, and an unchanged one keeps its name."""
    import hashlib
    import json

    digest = hashlib.sha256(json.dumps([kind, spec], sort_keys=True).encode("utf-8")).hexdigest()
    return f"{name}-{digest[:8]}"


def lower_dataflow(ctx: Context, engine: Engine) -> tuple[list[Manifest], list[SecretPlan]]:
    objects: list[Manifest] = []
    secrets: list[SecretPlan] = []
    previous: Tree | None = None
    by_name: dict[str, Tree] = {}
    for i, step in enumerate(ctx.spec.dataflow):
        kind, at = BY_STEP[step.op].kind, ("dataflow", i, step.op)
        if kind not in engine.operations:
            supported = ", ".join(sorted(engine.operations)) or "none"
            ctx.report(at, f"{engine.kind} does not support {kind} (it supports: {supported})")
        name = step_name(ctx, i, step)
        spec = _spec(ctx, step, at, name, secrets)
        _placement(ctx, step, kind, ("dataflow", i), spec)
        _run_after(ctx, step, i, _after(ctx, step, i, previous, by_name), spec)
        _ttl(ctx, step, i, kind, spec)
        spec = overrides.apply(ctx, kind, spec, step.overrides, ("dataflow", i, "overrides"), _COMPUTED)
        if ctx.hash_names:
            name = hashed_name(name, kind, spec)
        previous = ctx.fluid_object(kind, name, spec, at=("dataflow", i), own=step)
        ctx.trace(previous, ("spec",), at)
        _trace_keys(ctx, previous, kind, step, i)
        overrides.trace(ctx, previous, step.overrides, ("dataflow", i, "overrides"))
        if kind in engine.operations:
            _check_fields(ctx, engine, kind, previous, i)
        if step.name is not None:
            ctx.trace(previous, ("metadata", "name"), ("dataflow", i, "name"))
            by_name[step.name] = previous
        objects.append(previous)
    return objects, secrets


# Operation fields the steps compute, and the step key to use instead of overrides.
_COMPUTED = {"runAfter": "after and affinityStrategy", "dataset": "the spec's dataset",
             "ttlSecondsAfterFinished": "ttlSecondsAfterFinished", "target": "load.paths"}
_PLACEMENT = ("nodeSelector", "affinity", "tolerations", "schedulerName")

# The step key (below dataflow[i]) each operation field is written from, for messages and for
# `fluidgen explain`; a step's overrides are traced to their own keys.
STEP_KEYS: dict[str, dict[str, PathT]] = {
    "DataLoad": {"target": ("load", "paths"), "loadMetadata": ("load", "metadata"), "options": ("load", "options"),
                 "policy": ("load", "policy"), "schedule": ("load", "schedule")},
    "DataMigrate": {"from": ("migrate", "from"), "to": ("migrate", "to"), "image": ("migrate", "image"),
                    "imageTag": ("migrate", "imageTag"), "parallelism": ("migrate", "parallelism"),
                    "parallelOptions": ("migrate", "sshSecretName"), "options": ("migrate", "options"),
                    "policy": ("migrate", "policy"), "schedule": ("migrate", "schedule")},
    "DataProcess": {"dataset.mountPath": ("process", "mountPath"), "dataset.subPath": ("process", "subPath"),
                    "processor.serviceAccountName": ("process", "serviceAccount"),
                    "processor.job": ("process", "job"), "processor.script.image": ("process", "image"),
                    "processor.script.imageTag": ("process", "imageTag"),
                    "processor.script.command": ("process", "command"),
                    "processor.script.source": ("process", "script"), "processor.script.env": ("process", "env"),
                    "processor.script.restartPolicy": ("process", "restartPolicy"),
                    "policy": ("process", "policy"), "schedule": ("process", "schedule")},
    "DataBackup": {"backupPath": ("backup", "path"), "runAs": ("backup", "runAs")},
}
COMMON_STEP_KEYS: dict[str, PathT] = {
    **{key: (key,) for key in (*_PLACEMENT, "ttlSecondsAfterFinished")},
    "runAfter": ("after",), "runAfter.affinityStrategy": ("affinityStrategy",)}
_PROBLEM = {"ignored": "is ignored", "refused": "is refused", "broken": "breaks the operation",
            "gated": "is off by default"}


def step_keys(kind: str) -> dict[str, PathT]:
    """Operation field -> the step key it is written from."""
    return {**COMMON_STEP_KEYS, **STEP_KEYS[kind]}


def _trace_keys(ctx: Context, obj: Tree, kind: str, step: Step, index: int) -> None:
    """Each operation field the step wrote comes from its own step key (when the spec gives it)."""
    for field, key in step_keys(kind).items():
        path = tuple(field.split("."))
        node: object = obj["spec"]
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None and ctx.doc.positions.get(("dataflow", index, *key)) is not None:
            ctx.trace(obj, ("spec", *path), ("dataflow", index, *key))


def _dotted(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


def _check_fields(ctx: Context, engine: Engine, kind: str, obj: Tree, index: int) -> None:
    """Every field the operation sets that Fluid ignores, refuses, breaks on or gates on this
    engine and version (fluid/operations.py CELLS): a warning or an error at the spec key."""
    for path, cell in decide(kind, obj["spec"], engine.name, ctx.version):
        where = ctx.origins.locate(obj, ("spec", *path))
        at = where[3] if where is not None and where[3] else ("dataflow", index)
        cites = "; ".join(s.cite() for s in cell.sources)
        ctx.report(at, f"{kind} spec.{_dotted(path)} {_PROBLEM[cell.verdict]} on {engine.name} in Fluid "
                       f"{ctx.version}: {cell.what} ({cites})", severity="error" if SEVERITY[cell.verdict] == "error"
                   else "warning")


def _after(ctx: Context, step: Step, index: int, previous: Tree | None,
           by_name: dict[str, Tree]) -> Tree | None:
    """The operation this step runs after: the previous one, a named earlier one, or none."""
    if step.after == "none":
        return None
    if step.after == "previous":
        return previous
    if step.after not in by_name:
        earlier = ", ".join(sorted(by_name)) or "none has a name"
        ctx.report(("dataflow", index, "after"), f'no earlier step is named "{step.after}" (named earlier steps: '
                                                 f"{earlier})")
        return None
    return by_name[step.after]


def _run_after(ctx: Context, step: Step, index: int, after: Tree | None, spec: Tree) -> None:
    """spec.runAfter: the operation this step runs after, with the step's affinityStrategy."""
    if after is None:
        if step.affinityStrategy is not None:
            ctx.report(("dataflow", index, "affinityStrategy"), "affinityStrategy places pods near the step this one "
                                                                "runs after, and this step runs after none")
        return
    spec["runAfter"] = {"kind": after["kind"], "name": after["metadata"]["name"], "namespace": ctx.namespace}
    if step.affinityStrategy is not None:  # gated: a warning from its cell (_check_fields)
        spec["runAfter"]["affinityStrategy"] = dict(step.affinityStrategy)


def _ttl(ctx: Context, step: Step, index: int, kind: str, spec: Tree) -> None:
    """spec.ttlSecondsAfterFinished, refused in GitOps mode (a deleted operation is made again)."""
    if step.ttlSecondsAfterFinished is None:
        return
    if ctx.gitops:
        ctx.report(("dataflow", index, "ttlSecondsAfterFinished"),
                   f"Fluid deletes a finished {kind} after ttlSecondsAfterFinished; Argo CD or Flux then "
                   "finds it missing, creates it again, and it runs again, forever. In GitOps mode operations are "
                   "kept: remove ttlSecondsAfterFinished (to run it again, give the step a new name)")
    else:
        spec["ttlSecondsAfterFinished"] = step.ttlSecondsAfterFinished


def _placement(ctx: Context, step: Step, kind: str, at: PathT, spec: Tree) -> None:
    """Where the operation's pods run: nodeSelector, affinity, tolerations, schedulerName."""
    for key in _PLACEMENT:
        value = getattr(step, key)
        if not value:
            continue
        if not has_field(ctx.version, kind, (key,)):
            ctx.report((*at, key), f"{kind} has no {key} in Fluid {ctx.version}; place its pods through "
                                   f"{'the processor pod spec' if kind == 'DataProcess' else 'the runtime'}")
            continue
        if key == "tolerations":
            spec[key] = [t.model_dump(exclude_none=True) for t in step.tolerations]
        else:
            spec[key] = dict(value) if isinstance(value, dict) else value


def _spec(ctx: Context, step: Step, at: PathT, name: str, secrets: list[SecretPlan]) -> Tree:
    if step.migrate is not None:
        return _migrate(ctx, step.migrate, at, name, secrets)
    if step.process is not None:
        return _process(ctx, step.process, at)
    if step.load is not None:
        return _load(ctx, step.load, at)
    assert step.backup is not None
    return _backup(ctx, step.backup, at)


def _scheduling(ctx: Context, op: Migrate | Process | Load, at: PathT, out: Tree) -> None:
    if op.policy is not None:
        out["policy"] = op.policy
    if op.schedule is not None:
        out["schedule"] = op.schedule
    if op.policy == "Cron" and not op.schedule:
        ctx.report((*at, "policy"), "policy Cron needs a schedule")


def _migrate(ctx: Context, m: Migrate, at: PathT, name: str, secrets: list[SecretPlan]) -> Tree:
    sides = {"from": m.from_, "to": m.to}
    external = [k for k, v in sides.items() if scheme_of(v)]
    if len(external) != 1:
        ctx.report(at, "a migration moves data between this dataset (a path such as /raw) and external storage "
                       "(a URI such as oss://bucket/dir/): give exactly one of each")
    spec: Tree = {side: _migrate_end(ctx, m, value, at, name, secrets) for side, value in sides.items()}
    for key in ("image", "imageTag", "parallelism"):
        if getattr(m, key) is not None:
            spec[key] = getattr(m, key)
    if m.options:
        spec["options"] = dict(m.options)
    if m.parallelism and m.parallelism > 1:
        _parallel(ctx, m, at, spec)
    _scheduling(ctx, m, at, spec)
    return spec


def _parallel(ctx: Context, m: Migrate, at: PathT, spec: Tree) -> None:
    """A parallel migration's workers talk over SSH: parallelOptions names their Secret."""
    if not m.sshSecretName:
        ctx.report((*at, "parallelism"), "parallelism above 1 needs sshSecretName (Fluid runs the parallel "
                                         "workers over SSH)")
    else:
        spec["parallelOptions"] = {"sshSecretName": m.sshSecretName}


def _migrate_end(ctx: Context, m: Migrate, value: str, at: PathT, name: str, secrets: list[SecretPlan]) -> Tree:
    """One side of a migration: external storage (a URI, with the step's credentials) or a
    path in this dataset."""
    if not scheme_of(value):
        return {"dataset": {"name": ctx.name, "namespace": ctx.namespace, "path": value}}
    end: Tree = {"uri": value}
    if m.credentials is not None:
        got = deliver(ctx, m.credentials, f"{name}-credentials", (*at, "credentials"))
        end["encryptOptions"] = got.encrypt_options
        if got.secret is not None:
            secrets.append(got.secret)
    return {"externalStorage": end}


def _process(ctx: Context, p: Process, at: PathT) -> Tree:
    dataset: Tree = {"name": ctx.name, "namespace": ctx.namespace, "mountPath": p.mountPath}
    if p.subPath is not None:
        dataset["subPath"] = p.subPath
    processor: Tree = {}
    if p.serviceAccount:
        processor["serviceAccountName"] = p.serviceAccount
    if p.job is not None:
        processor["job"] = {"podSpec": p.job}
    else:
        processor["script"] = _script(ctx, p, at)
    spec: Tree = {"dataset": dataset, "processor": processor}
    if p.policy is not None or p.schedule is not None:
        if not versions.has(ctx.version, "DataProcess", "policy"):
            since = versions.first_with("DataProcess", "policy")
            ctx.report((*at, "policy" if p.policy is not None else "schedule"),
                       f"DataProcess has no policy/schedule in Fluid {ctx.version} (added in {since})")
        else:
            _scheduling(ctx, p, at, spec)
    return spec


def _script(ctx: Context, p: Process, at: PathT) -> Tree:
    image, tag = _image_and_tag(ctx, p, at)
    script: Tree = {"image": image, "command": list(p.command), "source": _script_source(ctx, p, at)}
    if tag:
        script["imageTag"] = tag
    if p.env:
        script["env"] = [{"name": k, "value": p.env[k]} for k in sorted(p.env)]
    if p.restartPolicy:
        script["restartPolicy"] = p.restartPolicy
    return script


def _image_and_tag(ctx: Context, p: Process, at: PathT) -> tuple[str, str]:
    """The script processor's image and imageTag. Fluid runs image + ":" + imageTag (the cells of
    processor.script.image), so an image given with its tag is split, and an untagged one gets
    the tag a container runtime gives it, latest; a digest cannot be said that way."""
    image = p.image or ""
    if p.imageTag:
        return image, p.imageTag
    if "@" in image:
        ctx.report((*at, "image"), f'"{image}" is a digest reference, but Fluid runs the script image as '
                                   "image:imageTag (pkg/dataprocess/processor_types.go TransformDataProcessValues): "
                                   "give the image by name and tag (image and imageTag)")
        return image, ""
    repository, colon, tag = image.rpartition(":")
    if colon and "/" not in tag:
        return repository, tag
    return image, "latest"


def _script_source(ctx: Context, p: Process, at: PathT) -> str:
    """The script's text: given inline, or read from scriptFile ('' when it cannot be read)."""
    if p.scriptFile is None:
        return p.script or ""
    try:
        path = ctx.reader.referenced(ctx.doc, (*at, "scriptFile"), p.scriptFile)
        return ctx.reader.read(str(path)).decode("utf-8")
    except FluidgenError as exc:
        ctx.diagnostics += [ctx.doc.diag((*at, "scriptFile"), d.message, stage="lower") for d in exc.diagnostics]
    except UnicodeDecodeError:
        ctx.report((*at, "scriptFile"), f"{p.scriptFile} is not UTF-8 text")
    return p.script or ""


def _load(ctx: Context, load: Load, at: PathT) -> Tree:
    targets = []
    for entry in load.paths:
        target: Tree = {"path": entry.path}
        count = entry.replicas if entry.replicas is not None else load.replicas
        if count is not None:
            target["replicas"] = count
        targets.append(target)
    spec: Tree = {"dataset": {"name": ctx.name, "namespace": ctx.namespace}}
    if targets:  # none: the loader gets no path (metadata only, with loadMetadata); see spec.Load
        spec["target"] = targets
    if load.metadata is not None:
        spec["loadMetadata"] = load.metadata
    if load.options:
        spec["options"] = dict(load.options)
    _scheduling(ctx, load, at, spec)
    return spec


def _backup(ctx: Context, b: Backup, at: PathT) -> Tree:
    if not b.path.startswith(("pvc://", "local://")):
        ctx.report((*at, "path"), "backup path must be pvc://<claim>/<subpath>/ or local:///<path>/")
    spec: Tree = {"dataset": ctx.name, "backupPath": b.path}
    if b.runAs is not None:
        spec["runAs"] = b.runAs.model_dump()
    return spec
