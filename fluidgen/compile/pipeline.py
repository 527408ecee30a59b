"""The one place the compile stages are wired, in order.

gather (gather.py: the documents and the objects passed through) -> parse spec (its settings
read once, onto the context) -> checks only a spec can show -> lower (secrets, volumes, dataset,
runtime, data operations) -> self-check every object against the target API and the
naming rules -> lint rules (reported at the spec values they come from) -> order. Nothing
is written unless no stage reported an error; every stage runs, so all problems show at
once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..base import versions
from ..base.diagnostics import Diagnostic, FluidgenError, errors_in, format_path
from ..base.manifest import Manifest, Tree
from ..base.options import Options
from ..base.uri import is_reference
from ..catalog import kinds
from ..catalog.kinds import FLUX_FORCE_ANNOTATION, FLUX_SUBSTITUTE_ANNOTATION, SYNC_WAVE_ANNOTATION, sync_wave
from ..catalog.objectcheck import check_object
from ..catalog.schemas import spec_validator
from ..engines import engine_table
from ..fluid.jobkinds import WORKLOADS as JOB_KINDS
from ..fluid.updates import fixed_when_written
from ..io.buildinputs import BuildInputs
from ..io.inputs import Reader
from ..io.lists import start
from ..io.yamlreader import Document
from ..lint import IGNORE_ANNOTATION, ignore_annotation, lint_objects
from ..lower import mounts, runtime
from ..lower.dataflow import lower_dataflow
from ..lower.dataset import dataset, merge_secrets, secret
from ..lower.view import spec_view
from ..lower.workloads import lower_workloads, submitter_rbac
from ..model.context import BuiltDataset, Context, Origins, Where
from ..spec.spec import Spec, is_spec, near_miss, parse_spec
from .gather import Inputs, Paths, gather
from .helm import values


@dataclass
class CompileResult:
    objects: list[Manifest] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    specs: int = 0
    inputs: BuildInputs = field(default_factory=BuildInputs)
    gitops: set[str] = field(default_factory=set)  # the GitOps modes the specs were built in
    fluid_versions: set[str] = field(default_factory=set)  # the Fluid versions they target
    # (kind, namespace, name) of each built object -> the Fluid version its spec was built for
    # (its fluid:, else the setting): `plan` and `diff` judge its edits at that version
    built_for: dict[tuple[str, str, str], str] = field(default_factory=dict)
    # id(generated object) -> where its fields came from and its spec (for `fluidgen diagnose`,
    # which reports what the cluster shows at the spec line that made the field)
    traced: dict[int, tuple[Origins, Document]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not errors_in(self.diagnostics)

    @property
    def flux(self) -> bool:
        return "flux" in self.gitops

    def locate(self, obj: Manifest, path: tuple[str | int, ...]) -> Where | None:
        """The spec (or profile) place the field at `path` of the generated `obj` came from, as
        the self-check and the lint rules report it; None for an object no spec generated."""
        traced = self.traced.get(id(obj))
        if traced is None:
            return None
        origins, doc = traced
        return origins.locate(obj, path) or (doc.file, 1, 1, ())

    def spec_of(self, obj: Manifest) -> Document | None:
        """The spec document that generated `obj` (None: not generated here)."""
        traced = self.traced.get(id(obj))
        return traced[1] if traced is not None else None


def compile_document(doc: Document, options: Options, reader: Reader | None = None,
                     datasets: Mapping[tuple[str, str], BuiltDataset] | None = None,
                     traced: dict[int, tuple[Origins, Document]] | None = None
                     ) -> tuple[list[Manifest], list[Diagnostic]]:
    """One spec's objects and diagnostics; `datasets`: the Datasets the run built already, which a
    dataset:// reference of this spec may name; with `traced`, also where each object's fields
    came from."""
    objects, diagnostics, _ = compile_spec(parse_spec(doc), doc, options, reader, datasets, traced)
    return objects, diagnostics


def compile_spec(spec: Spec, doc: Document, options: Options, reader: Reader | None = None,
                 datasets: Mapping[tuple[str, str], BuiltDataset] | None = None,
                 traced: dict[int, tuple[Origins, Document]] | None = None
                 ) -> tuple[list[Manifest], list[Diagnostic], Context]:
    """compile_document of a spec parsed already, with the context it was built in (its
    settings: Fluid version, GitOps mode, namespace, resolved once from the spec and options)."""
    ctx = _context(spec, doc, options, reader)
    ctx.datasets = datasets or {}
    engine = engine_table.engine(spec.runtime.engine)
    runtime.check(ctx, engine)
    mounts.check(ctx, engine)
    if not versions.has(ctx.version, engine.name):
        return [], ctx.diagnostics, ctx  # there is no schema to lower into
    objects = _lower(ctx)
    ctx.diagnostics += _generated_twice(ctx, objects)
    _record_waivers(ctx, objects, spec.lint.ignore)
    _for_gitops(ctx.gitops_mode, objects)
    if traced is not None:
        traced.update({id(o): (ctx.origins, doc) for o in objects})
    ctx.diagnostics += without_consequences(said_already(self_check(ctx, objects), ctx.diagnostics), ctx.diagnostics)
    if options.lint:
        ignore = set(spec.lint.ignore) | options.ignore
        ctx.diagnostics += without_consequences(
            lint_objects(objects, ctx.origins, doc, ignore, ctx.version), ctx.diagnostics)
    if options.target == "alluxio-helm" and not errors_in(ctx.diagnostics):
        return (*_helm(objects, ctx, engine.name), ctx)
    return objects, ctx.diagnostics, ctx


def _record_waivers(ctx: Context, objects: list[Manifest], ignore: Iterable[str]) -> None:
    """The spec's lint.ignore and its profiles' waivers, written on each object they concern
    (lint.IGNORE_ANNOTATION): `validate --lint` of the output then stays as quiet as the build."""
    rules = sorted(set(ignore))
    for obj in objects:
        waived = ctx.origins.waivers(obj)
        meta = obj.get("metadata")
        if not (rules or waived) or not isinstance(meta, dict):
            continue
        annotations = meta.setdefault("annotations", {})
        annotations[IGNORE_ANNOTATION] = ignore_annotation(str(annotations.get(IGNORE_ANNOTATION, "")), rules, waived)


def _context(spec: Spec, doc: Document, options: Options, reader: Reader | None) -> Context:
    """The lowering context of one spec: its own settings (the parsed spec's fluid:, gitops:,
    metadata.namespace) win over the options'."""
    version = spec.fluid or options.fluid_version or versions.DEFAULT
    mode = spec.gitops or options.gitops or "none"
    namespace = spec.metadata.namespace or options.namespace or "default"
    # A values file never carries credentials, so the Helm target does not read them.
    read = options.read_credentials and options.target == "fluid"
    ctx = Context(spec_view(spec), doc, version, namespace, options.env, reader or Reader(allow=options.allow_read),
                  read, from_env=options.from_env, gitops=mode != "none", spec_validators=spec_validator,
                  gitops_mode=mode)
    ctx.hash_names = ctx.gitops if options.hash_names is None else options.hash_names
    ctx.keys_compared = options.keys_compared
    pinned = spec.metadata.namespace
    if pinned and options.namespace and options.namespace != pinned and options.namespace_from:
        ctx.report(("metadata", "namespace"), f"this spec pins namespace {pinned}: its objects go there, not to "
                                              f"{options.namespace} from {options.namespace_from} (a spec's own "
                                              "metadata.namespace wins; remove it to follow the setting)", "warning")
    return ctx


def _lower(ctx: Context) -> list[Manifest]:

    engine = engine_table.engine(ctx.spec.runtime.engine)
    mount_list, plans = mounts.lower_mounts(ctx)
    shared = mounts.shared_credentials(ctx)
    plans += [shared.secret] if shared is not None and shared.secret is not None else []
    operations, operation_plans = lower_dataflow(ctx, engine)
    objects = [secret(ctx, p) for p in merge_secrets(ctx, plans + operation_plans)]
    # the Dataset first: what reads its access modes (FUSE ro/rw, the jobs' volumes) reads it as built
    built = dataset(ctx, mount_list, shared.encrypt_options if shared else None)
    objects += mounts.nfs_objects(ctx)
    objects += engine.hooks.extra_objects(ctx)
    objects += [built, runtime.runtime(ctx, engine), *submitter_rbac(ctx), *operations, *lower_workloads(ctx, engine)]
    return objects


def _for_gitops(mode: str, objects: list[Manifest]) -> None:
    """argocd: a sync wave on every object; flux: Flux's ${VAR} substitution turned off where
    an object's text holds `${` (a DataProcess script, a job's command), and Flux's recreate marker
    on a training job whose written fields no update may change (a Job's pod template, a TrainJob's
    trainer: fluid/updates.py), so an edited job is re-created instead of failing every apply.
    Argo CD gets no marker: Replace=true,Force=true deletes and re-creates the object on every sync
    that applies it, edited or not (argo-cd v3.5.1 gitops-engine/pkg/sync/sync_context.go
    applyObject), which would rerun training; workloads[].nameHash is its way."""
    for obj in objects:
        if mode == "argocd":
            obj["metadata"].setdefault("annotations", {})[SYNC_WAVE_ANNOTATION] = str(sync_wave(obj["kind"]))
            continue
        if mode != "flux":
            continue
        if "${" in json.dumps(obj, ensure_ascii=False):
            obj["metadata"].setdefault("annotations", {})[FLUX_SUBSTITUTE_ANNOTATION] = "disabled"
        if obj["kind"] in JOB_KINDS and fixed_when_written(obj):
            obj["metadata"].setdefault("annotations", {})[FLUX_FORCE_ANNOTATION] = "enabled"


def self_check(ctx: Context, objects: list[Manifest]) -> list[Diagnostic]:
    """Every generated object must pass the target API and its naming rules. A problem in a
    name or value the spec supplied is the user's to fix, reported at that value."""
    out = []
    for obj in objects:
        for f in check_object(obj, ctx.version):
            if f.severity == "info":
                continue
            file, line, col, at = ctx.origins.locate(obj, f.path) or (ctx.doc.file, 1, 1, ())
            where = f'{obj["kind"]}/{obj["metadata"]["name"]}'
            out.append(Diagnostic(file, line, col, f.severity, f"generated {where} {'.'.join(map(str, f.path))}: "
                                                               f"{f.message}", at, stage="self-check"))
    return out


def said_already(found: list[Diagnostic], earlier: list[Diagnostic]) -> list[Diagnostic]:
    """Drop a check of the generated objects that lands on a spec key an earlier error is already
    about (a defined class's field refused by its schema is refused again by its CRD): the key is
    said once, in the spec's words, and the build fails either way."""
    refused = {(d.file, d.path) for d in earlier if d.severity == "error" and d.path}
    return [f for f in found if not (f.path and (f.file, f.path) in refused)]


def without_consequences(found: list[Diagnostic], causes: list[Diagnostic]) -> list[Diagnostic]:
    """Drop what an earlier diagnostic already explains: an envFile that could not be read (an
    error) or is not here (an info line: its keys are unknown to a check) leaves its mount without
    the options it holds (their names are in the file), and the checks of the generated objects
    would report them missing although the spec declares them. A finding with no path (one the
    origins cannot place) is no consequence of any: () is a prefix of every path."""
    unread = [d.path for d in causes if d.stage == "credentials" and d.path[-1:] == ("envFile",)]
    return [f for f in found if not (f.path and any(f.path == cause[:len(f.path)] for cause in unread))]


def _helm(objects: list[Manifest], ctx: Context, engine: str) -> tuple[list[Manifest], list[Diagnostic]]:
    if engine != "alluxio":
        return [], [*ctx.diagnostics, ctx.doc.diag(("runtime", "engine"), f"--target alluxio-helm needs engine "
                                                                          f"alluxio, not {engine}", stage="helm")]
    chart_values, diags = values(objects, ctx.doc)
    return ([chart_values] if not errors_in(diags) else []), [*ctx.diagnostics, *diags]


def compile_paths(paths: Iterable[str], options: Options, overlays: Iterable[str] = (),
                  reader: Reader | None = None, environment: str | None = None) -> CompileResult:
    """The command line's front end: gather the spec files (or one spec merged from overlay
    files, in order; a single directory with a project file (fluidgen.yaml): the chosen
    environment of it), then compile the documents."""
    return compile_documents(gather(Paths(tuple(paths), tuple(overlays), environment), options, reader))


def compile_documents(inputs: Inputs) -> CompileResult:
    """Compile every spec document gathered, in the settings gathered with them (a project
    environment's), collect all problems, then order the output with the objects passed
    through. Nothing here reads a path of its own."""
    options = inputs.options
    result = CompileResult(inputs=inputs.reader.inputs)
    result.diagnostics += inputs.notes
    if not inputs.complete:
        return result
    _compile_all(inputs.documents, options, result, inputs.reader)
    result.diagnostics += inputs.after
    _add_passed(result, [o for p in inputs.passed for o in p.objects], options.namespace)
    if not inputs.project and options.target != "fluid" and result.specs > 1:
        # said at the second spec given (its first key): the first one the values file cannot hold
        second = [doc for doc in inputs.documents if is_spec(doc.data)][1]
        result.diagnostics.append(_at_start(second, f"--target {options.target} writes one values file; "
                                                    f"give one spec, not {result.specs}"))
    _warnings_as_errors(result, options)
    return result


def _warnings_as_errors(result: CompileResult, options: Options) -> None:
    if options.warnings_as_errors:
        result.diagnostics = [replace(d, severity="error") if d.severity == "warning" else d
                              for d in result.diagnostics]


def _add_passed(result: CompileResult, passed: list[dict[str, Any]], namespace: str | None) -> None:
    """The passed-through objects among the built ones, in kustomize's order by kind (a stable
    sort: the built objects keep theirs); one also generated from a spec is an error. A plain
    manifest without metadata.namespace lands in the namespace the build puts objects in (-n,
    which the Argo CD plugin sets to the destination namespace), so it is compared there as
    well as without one (cluster-scoped kinds)."""
    if not passed:
        return
    shadowed, twice = _clashes({_identity(o) for o in result.objects}, passed, namespace)
    result.diagnostics += [_clash(key, "both generated from a spec and in a plain manifest beside it")
                           for key in sorted(shadowed)]
    # kustomize refuses a second object of one identity; Argo CD would apply one of them
    result.diagnostics += [_clash(key, "in more than one plain manifest beside the specs") for key in sorted(twice)]
    result.objects = sorted([*result.objects, *passed], key=lambda o: kinds.rank(str(o.get("kind", ""))))


def _clashes(built: set[tuple[str, str, str]], passed: list[dict[str, Any]], namespace: str | None
             ) -> tuple[set[tuple[str, str, str]], set[tuple[str, str, str]]]:
    """The passed-through objects a spec also generates, and those passed through twice."""
    shadowed: set[tuple[str, str, str]] = set()
    seen: set[tuple[str, str, str]] = set()
    twice: set[tuple[str, str, str]] = set()
    for obj in passed:
        kind, ns, name = _identity(obj)
        shadowed |= built & {(kind, ns, name), (kind, ns or namespace or "", name)}
        where = (kind, ns or namespace or "", name)
        (twice if where in seen else seen).add(where)
    return shadowed, twice


def _clash(key: tuple[str, str, str], problem: str) -> Diagnostic:
    kind, ns, name = key
    return Diagnostic("<directory>", 0, 0, "error", f"{kind} {ns + '/' if ns else ''}{name} is {problem}")


def _identity(obj: dict[str, Any]) -> tuple[str, str, str]:
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return str(obj.get("kind")), str(meta.get("namespace") or ""), str(meta.get("name"))


def _compile_all(docs: list[Document], options: Options, result: CompileResult, reader: Reader) -> None:
    """Every spec, those whose source is a dataset:// reference after the others, so that a
    reference sees the layout of a Dataset the same run builds; objects and diagnostics keep the
    order of the specs. Each spec is parsed once: its settings and its first source are read
    from the parsed spec, never from the raw document."""
    ranked: list[tuple[int, int, int, Tree]] = []
    origin: dict[int, Document] = {}
    said: dict[int, list[Diagnostic]] = {}
    built: dict[tuple[str, str], BuiltDataset] = {}
    parsed: dict[int, Spec] = {}
    for at, doc in enumerate(docs):
        if not is_spec(doc.data):
            said[at] = [_not_a_spec(doc)]
            continue
        try:
            parsed[at] = parse_spec(doc)
        except FluidgenError as exc:
            said[at] = exc.diagnostics
    for at in sorted(parsed, key=lambda i: _references_a_dataset(parsed[i])):
        doc = docs[at]
        try:
            objects, diags, ctx = compile_spec(parsed[at], doc, options, reader, built, result.traced)
        except FluidgenError as exc:
            said[at] = exc.diagnostics
            continue
        said[at] = diags
        result.specs += 1
        result.gitops.add(ctx.gitops_mode)
        result.fluid_versions.add(ctx.version)
        result.built_for.update({_identity(o): ctx.version for o in objects if isinstance(o.get("metadata"), dict)})
        built.update(_built_datasets(objects))
        origin.update({id(o): doc for o in objects})
        ranked += [(kinds.rank(str(o.get("kind", ""))), at, i, o) for i, o in enumerate(objects)]
    result.diagnostics += [d for at in sorted(said) for d in said[at]]
    ranked.sort(key=lambda r: r[:3])
    result.objects = [r[3] for r in ranked]
    result.diagnostics += _duplicates(result.objects, origin)


def _references_a_dataset(spec: Spec) -> bool:
    return bool(spec.source) and is_reference(spec.source[0].uri)


def _built_datasets(objects: list[Manifest]) -> dict[tuple[str, str], BuiltDataset]:
    """The Dataset among one spec's objects, as a reference sees it: its runtime's data layout
    and its mounts as built."""
    runtimes = [e for e in (engine_table.by_kind(str(o.get("kind"))) for o in objects) if e is not None]
    out = {}
    for obj in objects:
        if obj.get("kind") == "Dataset" and runtimes and isinstance(obj.get("spec"), dict):
            mounts = [m for m in obj["spec"].get("mounts") or [] if isinstance(m, dict)]
            _, namespace, name = _identity(obj)
            out[(namespace, name)] = BuiltDataset(runtimes[0].workloads.data_layout,
                                                  tuple((m.get("name"), m.get("path")) for m in mounts))
    return out


def _not_a_spec(doc: Document) -> Diagnostic:
    miss = near_miss(doc.data)
    if miss is not None:
        return doc.diag((miss[0],), miss[1])
    return _at_start(doc, "not a fluidgen spec (expected apiVersion: fluidgen.io/v1alpha1, kind: CachedDataset)")


def _at_start(doc: Document, message: str) -> Diagnostic:
    """A problem of a whole document, said where the document starts (its first key), not at
    line 1 of its file: a file may hold several documents."""
    file, line, col = doc.locate(start(doc))
    return Diagnostic(file, line, col, "error", message)


def _generated_twice(ctx: Context, objects: list[Manifest]) -> list[Diagnostic]:
    """Two objects of one spec with one kind, namespace and name (two data steps named alike):
    reported at the second one's name where the spec gives it, naming the first's key."""
    first: dict[tuple[str, str, str], Where] = {}
    out = []
    for o in objects:
        meta = o.get("metadata")
        if not isinstance(meta, dict):  # a Helm values document
            continue
        key = (str(o.get("kind")), str(meta.get("namespace", "")), str(meta.get("name")))
        where = ctx.origins.locate(o, ("metadata", "name")) or (ctx.doc.file, 1, 1, ())
        if key in first:
            file, line, _, at = first[key]
            name = "/".join(k for k in key[1:] if k)
            out.append(Diagnostic(where[0], where[1], where[2], "error",
                                  f"{key[0]} {name} is generated twice: {format_path(at) if at else 'the spec'} "
                                  f"({file}:{line}) makes it too; object names must be unique", where[3]))
        first.setdefault(key, where)
    return out


def _duplicates(objects: list[Manifest], origin: dict[int, Document]) -> list[Diagnostic]:
    """Objects of different specs with one kind, namespace and name (one spec's own: _generated_twice)."""
    first: dict[tuple[str, str, str], Document] = {}
    out = []
    for o in objects:
        if "metadata" not in o:  # a Helm values document
            continue
        key = (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])
        doc = origin[id(o)]
        if key in first and first[key] is not doc:
            name = "/".join(k for k in key[1:] if k)
            out.append(doc.diag(("metadata", "name"), f"{key[0]} {name} is also generated by {first[key].file}; "
                                                      "object names must be unique"))
        first.setdefault(key, doc)
    return out
