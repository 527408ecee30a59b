"""The one place the compile stages are wired, in order.

read -> parse spec -> checks only a spec can show -> lower (secrets, volumes, dataset,
runtime, data operations) -> self-check every object against the target API and the
naming rules -> lint rules (reported at the spec values they come from) -> order. Nothing
is written unless no stage reported an error; every stage runs, so all problems show at
once.
"""

from __future__ import annotations

import json
import os
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
from ..io.lists import open_items
from ..io.yamlreader import Document, overlay
from ..lint import IGNORE_ANNOTATION, ignore_annotation, lint_objects
from ..lower import mounts, runtime
from ..lower.dataflow import lower_dataflow
from ..lower.dataset import dataset, merge_secrets, secret
from ..lower.view import spec_view
from ..lower.workloads import lower_workloads, submitter_rbac
from ..model.context import BuiltDataset, Context, Origins, Where
from ..spec.spec import Spec, is_spec, near_miss, parse_spec
from . import project
from .helm import values

SPEC_MARKER = b"fluidgen.io/"


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


def gitops_mode(spec: Any, options: Options) -> str:
    """A spec's own gitops: wins over the setting (flag, environment, project environment)."""
    own = spec.get("gitops") if isinstance(spec, dict) else None
    return own if isinstance(own, str) and own else options.gitops or "none"


def compile_document(doc: Document, options: Options, reader: Reader | None = None,
                     datasets: Mapping[tuple[str, str], BuiltDataset] | None = None,
                     traced: dict[int, tuple[Origins, Document]] | None = None
                     ) -> tuple[list[Manifest], list[Diagnostic]]:
    """One spec's objects and diagnostics; `datasets`: the Datasets the run built already, which a
    dataset:// reference of this spec may name; with `traced`, also where each object's fields
    came from."""
    spec = parse_spec(doc)
    mode = gitops_mode(doc.data, options)
    ctx = _context(spec, doc, options, reader, mode)
    ctx.datasets = datasets or {}
    engine = engine_table.engine(spec.runtime.engine)
    runtime.check(ctx, engine)
    mounts.check(ctx, engine)
    if not versions.has(ctx.version, engine.name):
        return [], ctx.diagnostics  # there is no schema to lower into
    objects = _lower(ctx)
    ctx.diagnostics += _generated_twice(ctx, objects)
    _record_waivers(ctx, objects, spec.lint.ignore)
    _for_gitops(mode, objects)
    if traced is not None:
        traced.update({id(o): (ctx.origins, doc) for o in objects})
    ctx.diagnostics += without_consequences(self_check(ctx, objects), ctx.diagnostics)
    if options.lint:
        ignore = set(spec.lint.ignore) | options.ignore
        ctx.diagnostics += without_consequences(
            lint_objects(objects, ctx.origins, doc, ignore, ctx.version), ctx.diagnostics)
    if options.target == "alluxio-helm" and not errors_in(ctx.diagnostics):
        return _helm(objects, ctx, engine.name)
    return objects, ctx.diagnostics


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


def _context(spec: Spec, doc: Document, options: Options, reader: Reader | None, mode: str) -> Context:
    """The lowering context of one spec: its own settings win over the options'."""
    version = spec.fluid or options.fluid_version or versions.DEFAULT
    namespace = spec.metadata.namespace or options.namespace or "default"
    # A values file never carries credentials, so the Helm target does not read them.
    read = options.read_credentials and options.target == "fluid"
    ctx = Context(spec_view(spec), doc, version, namespace, options.env, reader or Reader(allow=options.allow_read),
                  read, from_env=options.from_env, gitops=mode != "none", spec_validators=spec_validator)
    ctx.hash_names = ctx.gitops if options.hash_names is None else options.hash_names
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


def without_consequences(found: list[Diagnostic], causes: list[Diagnostic]) -> list[Diagnostic]:
    """Drop what an earlier error already explains: an envFile that could not be read leaves its
    mount without the options it holds (their names are in the file), and the checks of the
    generated objects would report them missing although the spec declares them."""
    unread = [d.path for d in causes if d.severity == "error" and d.stage == "credentials" and d.path[-1:] == (
        "envFile",)]
    return [f for f in found if not any(f.path == cause[:len(f.path)] for cause in unread)]


def _helm(objects: list[Manifest], ctx: Context, engine: str) -> tuple[list[Manifest], list[Diagnostic]]:
    if engine != "alluxio":
        return [], [*ctx.diagnostics, ctx.doc.diag(("runtime", "engine"), f"--target alluxio-helm needs engine "
                                                                          f"alluxio, not {engine}", stage="helm")]
    chart_values, diags = values(objects, ctx.doc)
    return ([chart_values] if not errors_in(diags) else []), [*ctx.diagnostics, *diags]


def compile_paths(paths: Iterable[str], options: Options, overlays: Iterable[str] = (),
                  reader: Reader | None = None, environment: str | None = None) -> CompileResult:
    """Compile every spec in every file (or one spec merged from overlay files, in order);
    collect all problems, then order the output. A single directory with a project file
    (fluidgen.yaml) builds the chosen environment of it instead."""
    reader = reader or Reader(allow=options.allow_read)
    result = CompileResult(inputs=reader.inputs)
    paths = list(paths)
    if not overlays and len(paths) == 1 and os.path.isfile(os.path.join(paths[0], project.FILE)):
        return _compile_project(paths[0], environment, options, reader, result)
    if environment is not None:
        result.diagnostics.append(_not_a_project(paths, environment))
        return result
    files, notes = reader.expand(paths, marker=SPEC_MARKER)
    passed: list[dict[str, Any]] = []
    if options.gitops == "argocd":
        notes, passed = _pass_through(notes, reader)
    result.diagnostics += notes
    docs = _load_specs(files, reader, result.diagnostics)
    layers = list(overlays)
    if layers:
        merged = overlay_files(layers, reader, result.diagnostics)
        docs += [merged] if merged else []
    _compile_all(docs, options, result, reader)
    _add_passed(result, passed, options.namespace)
    if options.target != "fluid" and result.specs > 1:
        result.diagnostics.append(Diagnostic(docs[-1].file, 1, 1, "error", f"--target {options.target} writes one "
                                             f"values file; give one spec, not {result.specs}"))
    _warnings_as_errors(result, options)
    return result


def _not_a_project(paths: list[str], environment: str) -> Diagnostic:
    """--env given for paths that are not one directory with a project file."""
    where = paths[0] if len(paths) == 1 else "the paths given"
    return Diagnostic(where, 0, 0, "error", f"environment {environment!r} was asked for, "
                                            f"but {where} is not a directory with a {project.FILE}")


def _load_specs(files: list[str], reader: Reader, diagnostics: list[Diagnostic]) -> list[Document]:
    """The documents of every file; a file that cannot be read or holds none is reported."""
    docs: list[Document] = []
    for path in files:
        found = _documents(path, reader, diagnostics)
        if found == []:
            diagnostics.append(Diagnostic(path, 1, 1, "error", "no spec in this file (it is empty)"))
        docs += found or []
    return docs


def _documents(path: str, reader: Reader, diagnostics: list[Diagnostic]) -> list[Document] | None:
    """A file's documents, or None when it cannot be read (the reason added to diagnostics)."""
    try:
        return reader.load(path)
    except FluidgenError as exc:
        diagnostics += exc.diagnostics
        return None


def _warnings_as_errors(result: CompileResult, options: Options) -> None:
    if options.warnings_as_errors:
        result.diagnostics = [replace(d, severity="error") if d.severity == "warning" else d
                              for d in result.diagnostics]


NOT_A_SPEC = "not built: holds no fluidgen spec"


def _pass_through(notes: list[Diagnostic], reader: Reader) -> tuple[list[Diagnostic], list[dict[str, Any]]]:
    """In Argo CD mode, plain Kubernetes manifests found beside the specs go to the output
    unchanged, as kustomize would apply them (Argo CD would otherwise show a clean sync of an
    application that never applies them, or prune them). Files that are not all Kubernetes
    objects (values files, kustomize's own configuration) stay named as not built."""
    kept: list[Diagnostic] = []
    objects: list[dict[str, Any]] = []
    for note in notes:
        if note.severity != "info" or not note.message.startswith(NOT_A_SPEC):
            kept.append(note)
            continue
        try:
            docs = reader.load(note.file)
        except FluidgenError as exc:
            kept += exc.diagnostics
            continue
        each = [_objects_in(d.data) for d in docs]
        found = [o for objs in each for o in objs or ()]
        if not found or None in each:
            kept.append(note)
            continue
        objects += found
        kept.append(Diagnostic(note.file, 0, 0, "info", f"passed through unchanged: {len(found)} Kubernetes "
                                                        f"object{'s' if len(found) != 1 else ''} (Argo CD mode)"))
    return kept, objects


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


def _is_object(data: Any) -> bool:
    """A Kubernetes object kustomize would apply (not one of kustomize's own files, nor a
    fluidgen spec or project)."""
    meta = data.get("metadata") if isinstance(data, dict) else None
    return (isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and isinstance(data.get("kind"), str)
            and isinstance(meta, dict) and isinstance(meta.get("name"), str)
            and not str(data["apiVersion"]).startswith(("kustomize.config.k8s.io/", SPEC_MARKER.decode())))


def _identity(obj: dict[str, Any]) -> tuple[str, str, str]:
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return str(obj.get("kind")), str(meta.get("namespace") or ""), str(meta.get("name"))


def _compile_project(directory: str, environment: str | None, options: Options, reader: Reader,
                     result: CompileResult) -> CompileResult:
    try:
        selected = project.select(directory, environment, options, reader)
    except FluidgenError as exc:
        result.diagnostics += exc.diagnostics
        return result
    notes = selected.unused
    if selected.options.gitops == "argocd":
        notes = _refuse_unlisted(notes, selected.unlisted, reader)
    result.diagnostics += notes
    if (too_much := _over_budget(directory, selected, reader)) is not None:
        result.diagnostics.append(too_much)
        return result
    docs: list[Document] = []
    for chain in selected.chains:
        if len(chain) > 1:
            merged = overlay_files(chain, reader, result.diagnostics)
            docs += [merged] if merged else []
            continue
        docs += _documents(chain[0], reader, result.diagnostics) or []
    _compile_all(docs, selected.options, result, reader)
    _add_passed(result, _listed_manifests(selected, reader, result.diagnostics), selected.options.namespace)
    _warnings_as_errors(result, selected.options)
    return result


def _over_budget(directory: str, selected: project.Selected, reader: Reader) -> Diagnostic | None:
    """An error when the environment's chains hold more than project.MAX_NODES values, each
    file counted every time a chain uses it (it is parsed, merged and compiled that often):
    the caps on specs and overlays bound the count of entries, this bounds their size, so a
    large overlay shared by every chain buys no more work than one file may. Files that cannot
    be read count nothing here; the build reports them."""
    sizes: dict[str, int] = {}
    total = 0
    for chain in selected.chains:
        for path in chain:
            if path not in sizes:
                try:
                    sizes[path] = sum(len(d.positions) + 1 for d in reader.load(path))
                except FluidgenError:
                    sizes[path] = 0
            total += sizes[path]
    if total <= project.MAX_NODES:
        return None
    return Diagnostic(os.path.join(directory, project.FILE), 1, 1, "error",
                      f'environment "{selected.name}" builds {total} values counting each file once per chain '
                      f"that uses it; at most {project.MAX_NODES} (the work of one large spec file): build fewer "
                      "or smaller specs per environment, or share less through overlays")


def _listed_manifests(selected: project.Selected, reader: Reader, diagnostics: list[Diagnostic]) -> list[Tree]:
    """The objects of the files an environment lists under `manifests:`, unchanged. A listed
    file holds Kubernetes objects only: an empty file, a spec or a values file is an error."""
    objects: list[Tree] = []
    listed = f"listed in environments.{selected.name}.manifests of {project.FILE}"
    for path in selected.manifests:
        docs = _documents(path, reader, diagnostics)
        if docs == []:
            diagnostics.append(Diagnostic(path, 1, 1, "error", f"{listed}, but holds no Kubernetes object"))
        each = [(d, _objects_in(d.data)) for d in docs or []]
        bad = [d for d, objs in each if objs is None]
        diagnostics += [_not_an_object(d, listed) for d in bad]
        if not bad:  # a file is passed through whole or not at all
            objects += [o for _, objs in each for o in objs or ()]
    return objects


def _not_an_object(doc: Document, listed: str) -> Diagnostic:
    """At the document's first line (its first key), not at a key path: the whole document is wrong."""
    file, line, col = doc.locate(next(iter(doc.positions), ()))
    hint = "; a fluidgen spec goes under specs" if is_spec(doc.data) else ""
    return Diagnostic(file, line, col, "error", f"{listed}, but its document {doc.index + 1} is not a Kubernetes "
                                                f"object (apiVersion, kind, metadata.name) or a list of them{hint}")


def _refuse_unlisted(notes: list[Diagnostic], unlisted: list[str], reader: Reader) -> list[Diagnostic]:
    """In Argo CD mode, a file of plain Kubernetes objects in a project's directory that no
    environment lists is an error, not a note: the application's output would lack its objects,
    so Argo CD would never apply them and would prune those it applied before."""
    orphans = [f for f in unlisted if _holds_objects_only(f, reader)]
    refused = [Diagnostic(f, 1, 1, "error", f"plain Kubernetes objects that no environment of {project.FILE} "
                                            "lists: Argo CD would not apply them, and would prune those it applied "
                                            "before. List the file under an environment's manifests:, or move it "
                                            "out of the application's directory") for f in orphans]
    return [*refused, *(n for n in notes if n.file not in orphans)]


def _holds_objects_only(path: str, reader: Reader) -> bool:
    try:
        docs = reader.load(path)
    except FluidgenError:
        return False  # named by its note, as any file not built
    return bool(docs) and all(_objects_in(d.data) is not None for d in docs)


def _objects_in(data: Any) -> list[Tree] | None:
    """The Kubernetes objects a plain manifest's document holds, as kustomize reads it: itself,
    or the items of a list kind (kind ending in List, such as kubectl's v1 List, with items);
    None when it is not made of objects. Lists inside Lists are opened at every depth
    (io/lists.py open_items), as kustomize does: an inner List is never an object passed on
    whole, with a Secret inside it that no check of top-level objects would see."""
    found = open_items(data)
    return found if found is not None and all(_is_object(o) for o in found) else None


def overlay_files(files: list[str], reader: Reader, diagnostics: list[Diagnostic]) -> Document | None:
    """One spec deep-merged from files given with -f, later files winning."""
    layers: list[Document] = []
    for path in files:
        found = _documents(path, reader, diagnostics)
        if found is None:
            continue
        if len(found) != 1 or not isinstance(found[0].data, dict):
            diagnostics.append(Diagnostic(path, 1, 1, "error", "an overlay file (-f) holds exactly one mapping"))
            continue
        layers += found
    return overlay(layers) if layers and len(layers) == len(files) else None


def _compile_all(docs: list[Document], options: Options, result: CompileResult, reader: Reader) -> None:
    """Every spec, those whose source is a dataset:// reference after the others, so that a
    reference sees the layout of a Dataset the same run builds; objects and diagnostics keep the
    order of the specs."""
    ranked: list[tuple[int, int, int, Tree]] = []
    origin: dict[int, Document] = {}
    said: dict[int, list[Diagnostic]] = {}
    built: dict[tuple[str, str], BuiltDataset] = {}
    for at in sorted(range(len(docs)), key=lambda i: _references_a_dataset(docs[i].data)):
        doc = docs[at]
        if not is_spec(doc.data):
            said[at] = [_not_a_spec(doc)]
            continue
        try:
            objects, diags = compile_document(doc, options, reader, built, result.traced)
        except FluidgenError as exc:
            said[at] = exc.diagnostics
            continue
        said[at] = diags
        result.specs += 1
        result.gitops.add(gitops_mode(doc.data, options))
        version = _fluid_version(doc.data, options)
        result.fluid_versions.add(version)
        result.built_for.update({_identity(o): version for o in objects if isinstance(o.get("metadata"), dict)})
        built.update(_built_datasets(objects))
        origin.update({id(o): doc for o in objects})
        ranked += [(kinds.rank(str(o.get("kind", ""))), at, i, o) for i, o in enumerate(objects)]
    result.diagnostics += [d for at in sorted(said) for d in said[at]]
    ranked.sort(key=lambda r: r[:3])
    result.objects = [r[3] for r in ranked]
    result.diagnostics += _duplicates(result.objects, origin)


def _references_a_dataset(spec: Any) -> bool:
    source = spec.get("source") if isinstance(spec, dict) else None
    first = source[0] if isinstance(source, list) and source else None
    return isinstance(first, dict) and is_reference(first.get("uri"))


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
    hint = near_miss(doc.data)
    return doc.diag(("apiVersion",) if hint else (), hint or (
        "not a fluidgen spec (expected apiVersion: fluidgen.io/v1alpha1, kind: CachedDataset)"))


def _fluid_version(spec: Any, options: Options) -> str:
    """A spec's own fluid: wins over the setting (flag, environment, project environment)."""
    pinned = spec.get("fluid")
    return pinned if isinstance(pinned, str) and pinned else options.fluid_version or versions.DEFAULT


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
