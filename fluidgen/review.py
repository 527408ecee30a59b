"""Check files without building them: `fluidgen validate` and `fluidgen lint` over paths.

Specs are compiled without reading credential values, so checks run anywhere (pre-commit,
CI) without the secrets a real build needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .crds import CrdSet
from .diagnostics import Diagnostic, FluidgenError
from .pipeline import SPEC_MARKER, Options, compile_document, expand
from .source import Document, decode, load_file, read_bytes
from .spec import is_spec


@dataclass(frozen=True)
class Review:
    fluid_version: str
    crds: CrdSet | None = None
    schema: bool = True  # validate against the API
    lint: bool = False  # run the lint rules
    ignore: frozenset[str] = field(default_factory=frozenset)
    specs_only: bool = False  # skip files that hold no fluidgen spec (pre-commit passes every YAML)


def review_paths(paths: Iterable[str], review: Review) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for path in expand(paths, specs_only=review.specs_only):
        try:
            raw = read_bytes(path)
            if review.specs_only and SPEC_MARKER not in raw:
                continue
            docs = load_file(path) if path != "-" else []
        except FluidgenError as exc:
            diags += exc.diagnostics
            continue
        diags += _review_file(path, raw, docs, review)
    return diags


def _review_file(path: str, raw: bytes, docs: list[Document], review: Review) -> list[Diagnostic]:
    from .lint import file_ignores, lint_manifests
    from .validate import validate_manifest

    diags: list[Diagnostic] = []
    options = Options(fluid_version=review.fluid_version, lint=review.lint, read_credentials=False)
    manifests = [d for d in docs if not is_spec(d.data)]
    for doc in docs:
        if is_spec(doc.data):
            try:
                found = compile_document(doc, options)[1]
            except FluidgenError as exc:
                found = exc.diagnostics
            diags += [d for d in found if d.code not in review.ignore]
        elif review.schema and not review.specs_only:
            diags += validate_manifest(doc, review.fluid_version, review.crds)
    if review.lint and manifests and not review.specs_only:
        diags += lint_manifests(manifests, set(review.ignore) | file_ignores(decode(path, raw)))
    return diags
