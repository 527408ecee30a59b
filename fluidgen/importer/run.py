"""`fluidgen import` from files to specs and a report: the command's whole job, no I/O of
its own beyond reading the inputs (cli.py prints, output goes where the user said)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic, FluidgenError
from ..filecheck import Checks, check_paths
from ..inputs import Reader
from .files import spec_file as spec_file  # where cli.py finds it
from .files import spec_path
from .objects import Obj, group, objects_of
from .residual import Imported, import_scenario


@dataclass
class ImportRun:
    imported: list[Imported] = field(default_factory=list)
    kept: list[Obj] = field(default_factory=list)  # objects that belong to no Dataset
    diagnostics: list[Diagnostic] = field(default_factory=list)  # reading problems and the input's lint findings

    @property
    def failed(self) -> bool:
        return any(i.failures for i in self.imported) or not self.imported or \
            any(d.severity == "error" and d.stage == "import" for d in self.diagnostics)

    def figures(self) -> dict[str, int]:
        out = {"exact": 0, "overrides": 0, "failed": 0, "invalid": 0, "incomplete": 0}
        for i in self.imported:
            out[i.outcome] += 1
        return out


def read(paths: list[str], reader: Reader) -> tuple[list[Obj], list[Diagnostic]]:
    files, notes = reader.expand(paths)
    objects: list[Obj] = []
    for path in files:
        try:
            found, more = objects_of(reader.load(path))
        except FluidgenError as exc:
            notes += exc.diagnostics
            continue
        objects += found
        notes += more
    return objects, notes


def run(paths: list[str], version: str, reader: Reader | None = None, lint: bool = True,
        output_dir: str | None = None) -> ImportRun:
    """Import every Dataset in `paths`; with `output_dir`, tuning beyond a bundled profile is
    written as a profile file there (else runtime.overrides)."""
    reader = reader or Reader()
    objects, notes = read(paths, reader)
    result = ImportRun(diagnostics=notes)
    scenarios, result.kept = group(objects)
    seen: dict[tuple[str, str], Obj] = {}
    for s in scenarios:
        key = (s.namespace or "default", s.name)
        if key in seen:
            result.diagnostics.append(s.dataset.doc.diag((), (
                f"a second Dataset {key[0]}/{key[1]} (the first is at {seen[key].where()}); import them separately"),
                stage="import"))
            continue
        seen[key] = s.dataset
        result.imported.append(import_scenario(s, version, spec_path(s.name, s.namespace, output_dir), output_dir))
    if not scenarios and not any(d.severity == "error" for d in notes):
        result.diagnostics.append(Diagnostic(
            paths[0] if paths else "-", 1, 1, "error",
            "no Fluid Dataset in the input: a spec is made per Dataset (a PersistentVolume and claim become its nfs "
            "source when given together with the Dataset that mounts them)", stage="import"))
    if lint:
        result.diagnostics += _lint(paths, version, reader)
    return result


def _lint(paths: list[str], version: str, reader: Reader) -> list[Diagnostic]:
    """The input's own findings (schema and lint), as warnings: they explain what import left out."""
    found = check_paths(paths, Checks(version, lint=True), reader)
    return [Diagnostic(d.file, d.line, d.col, "warning" if d.severity == "error" else d.severity, d.message,
                       d.path, stage="input", code=d.code) for d in found]


def report(result: ImportRun) -> str:
    lines = []
    for i in result.imported:
        verdict = {"exact": "round trip exact", "overrides": "round trip exact through overrides",
                   "failed": "FAILED: not written", "invalid": "the input is not valid: not written",
                   "incomplete": "no runtime in the input: not written"}[i.outcome]
        lines.append(f"{i.scenario.dataset.where()}: Dataset {i.scenario.name}: {verdict}")
        lines += [f"  became: {n}" for n in i.notes]
        lines += [f"  override: {n}" for n in i.overrides]
        lines += [f"  dropped: {n}" for n in i.dropped]
        lines += [f"  failed: {n}" for n in i.failures]
    for o in result.kept:
        what = "not imported: a Secret's values never leave the cluster's secret store" if o.is_secret \
            else "kept as it is (it belongs to no Dataset in the input)"
        lines.append(f"{o.where()}: {o.kind} {o.name}: {what}")
    figures = result.figures()
    lines.append(f"fluidgen import: {len(result.imported)} spec(s): {figures['exact']} exact, "
                 f"{figures['overrides']} through overrides, {figures['failed']} failed, "
                 f"{figures['invalid']} invalid input, {figures['incomplete']} without a runtime; "
                 f"{len(result.kept)} object(s) outside any spec")
    return "\n".join(lines) + "\n"


def kept_documents(result: ImportRun) -> list[dict[str, Any]]:
    """Objects that belong to no spec, to keep beside the specs (Secrets never: their values stay out)."""
    return [o.data for o in result.kept if not o.is_secret]
