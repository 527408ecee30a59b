"""The one place the compile stages are wired, in order.

load -> parse spec -> controller checks -> lower (secrets, volumes, dataset, runtime,
dataflow) -> self-check against the target API -> lint -> order. Nothing is written
unless no stage reported an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import DEFAULT_FLUID_VERSION, api, deps
from .diagnostics import Diagnostic, FluidgenError, errors_in
from .source import MAX_BYTES, Document, load_file

if TYPE_CHECKING:
    from .lower.base import Context

# Apply order inside the output. DO NOT CHANGE without a reason: Secrets and volumes
# must exist before the Dataset that mounts them, the Dataset before its runtime, and
# data operations last (they keep their pipeline order among themselves).
KIND_RANK = {
    "Secret": 0, "PersistentVolume": 1, "PersistentVolumeClaim": 2, "ThinRuntimeProfile": 3,
    "Dataset": 4, "AlluxioRuntime": 5, "JindoRuntime": 5, "JuiceFSRuntime": 5, "EFCRuntime": 5,
    "ThinRuntime": 5, "VineyardRuntime": 5, "GooseFSRuntime": 5, "DataMigrate": 6,
    "DataProcess": 6, "DataLoad": 6, "DataBackup": 6,
}


@dataclass(frozen=True)
class Options:
    """Every knob the pipeline accepts."""

    fluid_version: str | None = None  # used when a spec does not pin `fluid:`
    namespace: str | None = None  # used when a spec does not set metadata.namespace
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    target: str = "fluid"  # or "alluxio-helm": values for the upstream Alluxio chart
    warnings_as_errors: bool = False
    lint: bool = True
    read_credentials: bool = True  # False for validate/lint: check a spec without its secrets


@dataclass
class CompileResult:
    objects: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    specs: int = 0

    @property
    def ok(self) -> bool:
        return not errors_in(self.diagnostics)


SPEC_MARKER = b"fluidgen.io/"


def expand(paths: Iterable[str], specs_only: bool = False) -> list[str]:
    """Files as given; directories become their *.yaml / *.yml files, sorted, hidden ones skipped.

    With specs_only, a directory contributes only files that mention fluidgen.io/, so
    an application directory may also hold plain manifests, kustomizations or values
    files; a broken spec still mentions its apiVersion and is still reported.
    """
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if not path.is_dir():
            out.append(p)
            continue
        candidates = deps.yaml_files(str(path))
        deps.RECORDER.listing(str(path), candidates)
        for f in candidates:
            if specs_only:
                head = Path(f).read_bytes()[:MAX_BYTES]
                deps.RECORDER.file(f, head)
                if SPEC_MARKER not in head:
                    continue
            out.append(f)
    return out


def compile_document(doc: Document, options: Options) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    from .checks import check_spec
    from .lower import ENGINES
    from .lower.base import Context
    from .lower.dataflow import lower_dataflow
    from .lower.dataset import dataset, lower_mounts, merge_secrets, nfs_objects, secret
    from .lower.runtime import runtime, thin_profile
    from .spec import parse_spec

    spec = parse_spec(doc)
    version = spec.fluid or options.fluid_version or DEFAULT_FLUID_VERSION
    namespace = spec.metadata.namespace or options.namespace or "default"
    # A values file never carries credentials, so the Helm target does not read them.
    read = options.read_credentials and options.target == "fluid"
    ctx = Context(spec, doc, version, namespace, options.env, read)
    engine = ENGINES[spec.runtime.engine]
    check_spec(ctx, engine)
    if errors_in(ctx.diagnostics):
        return [], ctx.diagnostics
    mounts, plans = lower_mounts(ctx)
    ops, op_plans = lower_dataflow(ctx, engine)
    objects = [secret(ctx, p) for p in merge_secrets(ctx, plans + op_plans)]
    objects += nfs_objects(ctx)
    profile = thin_profile(ctx)
    objects += [profile] if profile else []
    objects += [dataset(ctx, mounts), runtime(ctx, engine), *ops]
    ctx.diagnostics += self_check(doc, version, objects)
    if options.lint and not errors_in(ctx.diagnostics):
        from .lint import lint_objects

        ctx.diagnostics += lint_objects(objects, doc, set(spec.lint.ignore))
    if options.target == "alluxio-helm" and not errors_in(ctx.diagnostics):
        return _helm(objects, ctx, engine.name)
    return objects, ctx.diagnostics


def _helm(objects: list[dict[str, Any]], ctx: Context, engine: str) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    from .helm import values

    if engine != "alluxio":
        return [], [*ctx.diagnostics, ctx.doc.diag(("runtime", "engine"), f"--target alluxio-helm needs engine "
                                                                          f"alluxio, not {engine}", stage="helm")]
    chart_values, diags = values(objects, ctx.doc)
    return [chart_values], [*ctx.diagnostics, *diags]


def self_check(doc: Document, version: str, objects: list[dict[str, Any]]) -> list[Diagnostic]:
    """Every generated Fluid object must fit the target API; anything else is our bug."""
    diags = []
    for obj in objects:
        model = api.spec_model(version, obj["kind"])
        if model is None:
            continue
        for p in api.check(model, obj["spec"], ("spec",)):
            where = f'{obj["kind"]}/{obj["metadata"]["name"]}'
            diags.append(doc.diag((), f"generated {where} {'.'.join(map(str, p.path))}: "
                                      f"{p.message}", stage="self-check"))
    return diags


def compile_paths(paths: Iterable[str], options: Options, overlays: Iterable[str] = ()) -> CompileResult:
    """Compile every spec in every file (or one spec merged from overlay files, in order);
    collect all problems, then order the output."""
    result = CompileResult()
    docs: list[Document] = []
    for path in expand(paths, specs_only=True):
        try:
            found = load_file(path)
        except FluidgenError as exc:
            result.diagnostics += exc.diagnostics
            continue
        if not found:
            result.diagnostics.append(Diagnostic(path, 1, 1, "error", "no spec in this file (it is empty)"))
        docs += found
    layers = list(overlays)
    if layers:
        merged = _overlay(layers, result)
        docs += [merged] if merged else []
    _compile_all(docs, options, result)
    if options.target != "fluid" and result.specs > 1:
        result.diagnostics.append(Diagnostic(docs[-1].file, 1, 1, "error", f"--target {options.target} writes one "
                                             f"values file; give one spec, not {result.specs}"))
    if options.warnings_as_errors:
        result.diagnostics = [_promote(d) for d in result.diagnostics]
    return result


def _overlay(files: list[str], result: CompileResult) -> Document | None:
    """One spec deep-merged from files given with -f, later files winning."""
    from .source import overlay

    layers: list[Document] = []
    for path in files:
        try:
            found = load_file(path)
        except FluidgenError as exc:
            result.diagnostics += exc.diagnostics
            continue
        if len(found) != 1 or not isinstance(found[0].data, dict):
            result.diagnostics.append(Diagnostic(path, 1, 1, "error", "an overlay file (-f) holds exactly one mapping"))
            continue
        layers += found
    return overlay(layers) if layers and len(layers) == len(files) else None


def _compile_all(docs: list[Document], options: Options, result: CompileResult) -> None:
    from .spec import is_spec

    ranked: list[tuple[int, int, int, dict[str, Any]]] = []
    origin: dict[int, Document] = {}
    for doc in docs:
        if not is_spec(doc.data):
            result.diagnostics.append(doc.diag((), "not a fluidgen spec (expected apiVersion: "
                                                   "fluidgen.io/v1alpha1, kind: CachedDataset)"))
            continue
        try:
            objects, diags = compile_document(doc, options)
        except FluidgenError as exc:
            result.diagnostics += exc.diagnostics
            continue
        result.diagnostics += diags
        result.specs += 1
        origin.update({id(o): doc for o in objects})
        ranked += [(KIND_RANK.get(o.get("kind", ""), 9), result.specs, i, o) for i, o in enumerate(objects)]
    ranked.sort(key=lambda r: r[:3])
    result.objects = [r[3] for r in ranked]
    result.diagnostics += _duplicates(result.objects, origin)


def _promote(d: Diagnostic) -> Diagnostic:
    from dataclasses import replace

    return replace(d, severity="error") if d.severity == "warning" else d


def _duplicates(objects: list[dict[str, Any]], origin: dict[int, Document]) -> list[Diagnostic]:
    first: dict[tuple[str, str, str], Document] = {}
    out = []
    for o in objects:
        if "metadata" not in o:  # a Helm values document
            continue
        key = (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])
        doc = origin[id(o)]
        if key in first:
            name = "/".join(k for k in key[1:] if k)
            out.append(doc.diag(("metadata", "name"), f"{key[0]} {name} is also generated by "
                                                      f"{first[key].file}; object names must be unique"))
        first.setdefault(key, doc)
    return out
