"""Gathering what a compile reads, whichever front end hands it over.

gather(source, options) -> Inputs: the spec documents, each with its origin (file, key
positions, the file of each key in a spec merged from overlays), and the plain Kubernetes
objects passed through beside them (Argo CD mode, a project environment's `manifests:`) as
data. compile_documents (pipeline.py) compiles Inputs and never reads a path itself, so a
new front end (a KRM function, cluster state) hands over documents, not text.

Sources:
- Paths: files and directories as the command line names them, overlays (-f) and a
  project environment (a single directory with fluidgen.yaml builds its environment).
- InMemory: a spec given as data (the Python API's mapping), made into a Document by
  yamlreader.in_memory: never written as YAML and parsed back.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Tree
from ..base.options import Options
from ..io.inputs import NotBuilt, Reader
from ..io.lists import open_items
from ..io.yamlreader import Document, overlay
from ..spec.spec import is_spec
from . import project

SPEC_MARKER = b"fluidgen.io/"


@dataclass(frozen=True)
class Paths:
    """Spec files and directories, overlay files merged in order (-f), and the environment of
    a project directory to build (--env)."""

    paths: tuple[str, ...] = ()
    overlays: tuple[str, ...] = ()
    environment: str | None = None


@dataclass(frozen=True)
class InMemory:
    """A spec given as data: `document` (yamlreader.in_memory) stands at its file's path, and
    reads what a spec file there may; `rootless`: it stands nowhere, so only the allow list
    lets it read. Overlay files merge onto it in order."""

    document: Document
    rootless: bool = False
    overlays: tuple[str, ...] = ()


Source = Paths | InMemory


@dataclass(frozen=True)
class Passed:
    """The Kubernetes objects of one plain manifest that go to the output unchanged."""

    file: str
    objects: list[Tree]


@dataclass
class Inputs:
    """What a compile reads. `options`: the settings it is built with (a project environment's
    applied); `notes`: what gathering found, reported before the specs' own diagnostics;
    `after`: the problems of the files an environment lists under manifests:, reported after
    them; `complete`: False when gathering failed so that nothing is compiled."""

    options: Options
    reader: Reader
    documents: list[Document] = field(default_factory=list)
    passed: list[Passed] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    after: list[Diagnostic] = field(default_factory=list)
    complete: bool = True
    project: bool = False  # built from a project file's environment


def gather(source: Source, options: Options, reader: Reader | None = None) -> Inputs:
    reader = reader or Reader(allow=options.allow_read)
    if isinstance(source, InMemory):
        return _in_memory(source, options, reader)
    paths = list(source.paths)
    if not source.overlays and len(paths) == 1 and os.path.isfile(os.path.join(paths[0], project.FILE)):
        return _project(paths[0], source.environment, options, reader)
    inputs = Inputs(options, reader)
    if source.environment is not None:
        inputs.notes.append(_not_a_project(paths, source.environment))
        inputs.complete = False
        return inputs
    files, found = reader.find_specs(paths, SPEC_MARKER)
    if options.gitops == "argocd":
        inputs.notes += _pass_through(found, reader, inputs.passed)
    else:
        inputs.notes += [f.note() if isinstance(f, NotBuilt) else f for f in found]
    inputs.documents = _load_specs(files, reader, inputs.notes)
    if source.overlays:
        merged = overlay_files(list(source.overlays), reader, inputs.notes)
        inputs.documents += [merged] if merged else []
    return inputs


def _in_memory(source: InMemory, options: Options, reader: Reader) -> Inputs:
    doc = source.document
    reader.place(doc.file, source.rootless)
    inputs = Inputs(options, reader)
    if source.overlays:
        merged = overlay_files([doc, *source.overlays], reader, inputs.notes)
        inputs.documents = [merged] if merged else []
    elif doc.data in (None, {}):  # what a file holding it would be: no document
        inputs.notes.append(Diagnostic(doc.file, 1, 1, "error", "no spec in this file (it is empty)"))
    else:
        inputs.documents = [doc]
    return inputs


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


def overlay_files(layers: list[Document | str], reader: Reader, diagnostics: list[Diagnostic]) -> Document | None:
    """One spec deep-merged from files given with -f (or a document given in memory and the
    files after it), later layers winning."""
    read: list[Document] = []
    for layer in layers:
        found: list[Document] | None
        if isinstance(layer, Document):
            path, found = layer.file, [layer] if layer.data not in (None, {}) else []
        else:
            path, found = layer, _documents(layer, reader, diagnostics)
        if found is None:
            continue
        if len(found) != 1 or not isinstance(found[0].data, dict):
            diagnostics.append(Diagnostic(path, 1, 1, "error", "an overlay file (-f) holds exactly one mapping"))
            continue
        read += found
    return overlay(read) if read and len(read) == len(layers) else None


def _pass_through(found: list[Diagnostic | NotBuilt], reader: Reader, passed: list[Passed]) -> list[Diagnostic]:
    """In Argo CD mode, plain Kubernetes manifests found beside the specs go to the output
    unchanged, as kustomize would apply them (Argo CD would otherwise show a clean sync of an
    application that never applies them, or prune them). Files that are not all Kubernetes
    objects (values files, kustomize's own configuration) and overlay fragments stay named as
    not built. The notes, in the order found."""
    kept: list[Diagnostic] = []
    for item in found:
        if isinstance(item, Diagnostic):
            kept.append(item)
            continue
        if item.fragment:
            kept.append(item.note())
            continue
        try:
            docs = reader.load(item.path)
        except FluidgenError as exc:
            kept += exc.diagnostics
            continue
        each = [_objects_in(d.data) for d in docs]
        objects = [o for objs in each for o in objs or ()]
        if not objects or None in each:
            kept.append(item.note())
            continue
        passed.append(Passed(item.path, objects))
        kept.append(Diagnostic(item.path, 0, 0, "info", f"passed through unchanged: {len(objects)} Kubernetes "
                                                        f"object{'s' if len(objects) != 1 else ''} (Argo CD mode)"))
    return kept


def _project(directory: str, environment: str | None, options: Options, reader: Reader) -> Inputs:
    inputs = Inputs(options, reader, project=True)
    try:
        selected = project.select(directory, environment, options, reader)
    except FluidgenError as exc:
        inputs.notes += exc.diagnostics
        inputs.complete = False
        return inputs
    inputs.options = selected.options
    notes = selected.unused
    if selected.options.gitops == "argocd":
        notes = _refuse_unlisted(notes, selected.unlisted, reader)
    inputs.notes += notes
    if (too_much := _over_budget(directory, selected, reader)) is not None:
        inputs.notes.append(too_much)
        inputs.complete = False
        return inputs
    for chain in selected.chains:
        if len(chain) > 1:
            merged = overlay_files(list(chain), reader, inputs.notes)
            inputs.documents += [merged] if merged else []
            continue
        inputs.documents += _documents(chain[0], reader, inputs.notes) or []
    inputs.passed = _listed_manifests(selected, reader, inputs.after)
    return inputs


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


def _listed_manifests(selected: project.Selected, reader: Reader, diagnostics: list[Diagnostic]) -> list[Passed]:
    """The objects of the files an environment lists under `manifests:`, unchanged. A listed
    file holds Kubernetes objects only: an empty file, a spec or a values file is an error."""
    passed: list[Passed] = []
    listed = f"listed in environments.{selected.name}.manifests of {project.FILE}"
    for path in selected.manifests:
        docs = _documents(path, reader, diagnostics)
        if docs == []:
            diagnostics.append(Diagnostic(path, 1, 1, "error", f"{listed}, but holds no Kubernetes object"))
        each = [(d, _objects_in(d.data)) for d in docs or []]
        bad = [d for d, objs in each if objs is None]
        diagnostics += [_not_an_object(d, listed) for d in bad]
        if not bad:  # a file is passed through whole or not at all
            passed.append(Passed(path, [o for _, objs in each for o in objs or ()]))
    return passed


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


def _is_object(data: object) -> bool:
    """A Kubernetes object kustomize would apply (not one of kustomize's own files, nor a
    fluidgen spec or project)."""
    meta = data.get("metadata") if isinstance(data, dict) else None
    return (isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and isinstance(data.get("kind"), str)
            and isinstance(meta, dict) and isinstance(meta.get("name"), str)
            and not str(data["apiVersion"]).startswith(("kustomize.config.k8s.io/", SPEC_MARKER.decode())))


def _objects_in(data: object) -> list[Tree] | None:
    """The Kubernetes objects a plain manifest's document holds, as kustomize reads it: itself,
    or the items of a list kind (kind ending in List, such as kubectl's v1 List, with items);
    None when it is not made of objects. Lists inside Lists are opened at every depth
    (io/lists.py open_items), as kustomize does: an inner List is never an object passed on
    whole, with a Secret inside it that no check of top-level objects would see."""
    found = open_items(data)
    return found if found is not None and all(_is_object(o) for o in found) else None
