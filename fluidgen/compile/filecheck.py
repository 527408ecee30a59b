"""`fluidgen validate` and `fluidgen lint` over files: specs are compiled, other documents
are checked as manifests.

Specs are compiled without reading credential values, so checks run anywhere (pre-commit,
CI) without the secrets a real build needs. A file named explicitly must parse; with
`specs_only` (the pre-commit hook) files that parse but hold no spec are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.options import Options
from ..catalog.kinds import table
from ..catalog.objectcheck import check_object
from ..io.crds import CrdSet
from ..io.inputs import Reader
from ..io.lists import open_lists
from ..io.yamlreader import Document, decode, load_text
from ..lint import directive_problems, file_ignores, lint_manifests
from ..spec.spec import is_fragment, is_spec, near_miss
from . import project
from .drift import secret_values
from .pipeline import compile_document

# With specs_only, a file is parsed when it mentions fluidgen at all, so a spec with a
# mistyped apiVersion is still reported rather than skipped.
SPEC_HINTS = (b"fluidgen", b"CachedDataset")


@dataclass(frozen=True)
class Checks:
    fluid_version: str
    crds: CrdSet | None = None
    schema: bool = True  # validate against the API
    lint: bool = False  # run the lint rules
    ignore: frozenset[str] = field(default_factory=frozenset)
    specs_only: bool = False  # check fluidgen specs only (pre-commit passes every YAML file)
    forbid_secret_values: bool = False  # any Secret with data/stringData is an error (files about to be committed)
    namespace: str | None = None
    allow_read: tuple[str, ...] = ()
    gitops: str | None = None
    # objects that exist elsewhere (Kind/namespace/name), so references to them are not findings
    external: tuple[str, ...] = ()


def external_objects(refs: Iterable[str]) -> tuple[list[dict[str, object]], list[Diagnostic]]:
    """`--external Dataset/default/imagenet`: stand-ins for objects outside the files given."""
    objects: list[dict[str, object]] = []
    problems = []
    for ref in refs:
        parts = ref.split("/")
        if len(parts) != 3 or not all(parts):
            problems.append(Diagnostic("<command line>", 0, 0, "error", f'--external "{ref}": expected '
                                                                        "KIND/NAMESPACE/NAME, such as "
                                                                        "Dataset/default/imagenet"))
            continue
        kind, namespace, name = parts
        info = table().get(kind)
        api = info.api_version if info is not None else "v1"
        objects.append({"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": namespace}})
    return objects, problems


def check_paths(paths: Iterable[str], checks: Checks, reader: Reader | None = None) -> list[Diagnostic]:
    """Check every file; lint rules then see the objects of all files together (a DataLoad in
    one file may name the Dataset of another), plus the objects declared --external."""
    reader = reader or Reader(allow=checks.allow_read)
    files, diags = reader.expand(paths)
    context, problems = external_objects(checks.external)
    diags += problems
    manifests: list[tuple[Document, set[str]]] = []
    if checks.forbid_secret_values:
        diags += secret_values(reader, files)
    for path in files:
        try:
            raw = reader.read(path)
            if checks.specs_only and not any(m in raw for m in SPEC_HINTS):
                continue  # clearly no spec (a Helm template, a values file): not ours to parse
            docs, problems = open_lists(load_text(path, decode(path, raw)))  # a kubectl List item by item
        except FluidgenError as exc:
            diags += exc.diagnostics
            continue
        diags += problems
        diags += _check_file(path, decode(path, raw), docs, checks, reader, manifests, context)
    if checks.lint and manifests:
        diags += lint_manifests(manifests, context, checks.fluid_version)
    return diags


def check_documents(docs: Iterable[Document], checks: Checks, reader: Reader | None = None) -> list[Diagnostic]:
    """The checks of check_paths on documents already in memory (the Python API's validate)."""
    reader = reader or Reader(allow=checks.allow_read)
    diags: list[Diagnostic] = []
    manifests: list[tuple[Document, set[str]]] = []
    context: list[dict[str, object]] = []
    for doc in docs:
        diags += _check_file(doc.file, "", [doc], checks, reader, manifests, context)
    if checks.lint and manifests:
        diags += lint_manifests(manifests, context, checks.fluid_version)
    return diags


def _check_file(path: str, text: str, docs: list[Document], checks: Checks, reader: Reader,
                manifests_seen: list[tuple[Document, set[str]]], context: list[dict[str, object]]) -> list[Diagnostic]:
    """Problems of one file; its hand-written manifests join `manifests_seen` (with the rule IDs
    the file silences) and the objects its specs compile to join `context`."""
    diags: list[Diagnostic] = []
    options = Options(fluid_version=checks.fluid_version, namespace=checks.namespace, lint=checks.lint,
                      gitops=checks.gitops,
                      ignore=checks.ignore, read_credentials=False, allow_read=checks.allow_read)
    manifests: list[Document] = []
    for doc in docs:
        diags += _check_document(doc, checks, options, reader, manifests, context)
    if checks.lint:
        diags += directive_problems(path, text)
        ignore = set(checks.ignore) | file_ignores(text)
        manifests_seen += [(doc, ignore) for doc in manifests]
    return diags


def _check_document(doc: Document, checks: Checks, options: Options, reader: Reader, manifests: list[Document],
                    context: list[dict[str, object]]) -> list[Diagnostic]:
    """Problems of one document, by what it is: a spec (compiled; its objects join `context`), a
    project file, a near miss, an overlay fragment, or a hand-written manifest (joins `manifests`)."""
    if is_spec(doc.data):
        try:
            compiled, found = compile_document(doc, options, reader)
        except FluidgenError as exc:
            return exc.diagnostics
        context += compiled
        return found
    if project.is_project(doc.data):
        return project.check(doc)  # fluidgen.yaml: its environments are built by build/plan --env
    if (miss := near_miss(doc.data)) is not None:
        return [doc.diag((miss[0],), miss[1])]
    if checks.specs_only:
        return []
    if is_fragment(doc.data):
        return [doc.diag((), "an overlay fragment (spec keys, no apiVersion): it is checked only merged "
                             "into its spec; check that with fluidgen build -f SPEC -f THIS", "warning")]
    manifests.append(doc)
    return _validate(doc, checks) if checks.schema else []


def _validate(doc: Document, checks: Checks) -> list[Diagnostic]:
    return [doc.diag(f.path, f.message, f.severity, stage="validate")
            for f in check_object(doc.data, checks.fluid_version, checks.crds)]
