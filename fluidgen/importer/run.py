"""`fluidgen import` from files to specs and a report: the command's whole job, no I/O of
its own beyond reading the inputs (cli.py prints, output goes where the user said)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Manifest
from ..compile.filecheck import Checks, check_documents
from ..io.inputs import Reader
from ..io.lists import open_lists
from ..io.yamlreader import Document, decode, load_text
from ..lint import file_ignores
from .files import KEPT, spec_path
from .files import spec_file as spec_file  # where cli.py finds it
from .objects import Obj, Scenario, group, objects_of
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


# Import is a local command run by a platform team on its own cluster's dump, not a shared
# sidecar: its caps are fixed counts sized for a cluster of 1,000 Datasets (`kubectl get -A -o
# yaml` of Datasets, runtimes, operations, Secrets, volumes, claims), measured within 60 s and
# 1 GB (README, "From existing manifests"); above them the input is refused before any work.
MAX_DATASETS = 1000  # Datasets per import: each costs a build per candidate profile
MAX_OBJECTS = 10 * MAX_DATASETS  # objects per import (every input together)
MAX_OPERATIONS = 100  # data operations per Dataset (real dataflows have a handful)
MAX_INPUT_BYTES = 64 * 1024 * 1024  # per input file (a build's inputs stay at 4 MiB: yamlreader.MAX_BYTES)
MAX_INPUT_NODES = 100 * MAX_OBJECTS  # YAML nodes per document (a kubectl List is one document)
PARSE_SECONDS = 60.0  # per input file (a build's: yamlreader.DEADLINE)


@dataclass
class Input:
    """What was read of the input: its objects, the documents they came from (the input's lint
    checks those, never reading or parsing a file twice), the rule IDs its files silence."""

    objects: list[Obj] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    ignore: set[str] = field(default_factory=set)


def read(paths: list[str], reader: Reader) -> Input:
    """The objects of every input, a file at a time and a document at a time; reading stops
    once the input is over MAX_OBJECTS (run refuses it: reading on would only cost)."""
    files, notes = reader.expand(paths)
    got = Input(notes=notes)
    for path in files:
        try:
            text = decode(path, reader.read(path, limit=MAX_INPUT_BYTES))
            docs = load_text(path, text, max_nodes=MAX_INPUT_NODES, seconds=PARSE_SECONDS)
        except FluidgenError as exc:
            got.notes += exc.diagnostics
            continue
        got.ignore |= file_ignores(text)
        for doc in docs:
            found, more = objects_of([doc])
            got.notes += more
            got.objects += found
            got.documents += open_lists([doc])[0]
            if len(got.objects) > MAX_OBJECTS:
                return got
    return got


def run(paths: list[str], version: str, reader: Reader | None = None, lint: bool = True,
        output_dir: str | None = None, progress: Callable[[int, int], None] | None = None) -> ImportRun:
    """Import every Dataset in `paths`; with `output_dir`, tuning beyond a bundled profile is
    written as a profile file there (else runtime.overrides). `progress(done, total)` is told
    how many Datasets are done before each and once after the last."""
    reader = reader or Reader()
    got = read(paths, reader)
    objects, notes = got.objects, got.notes
    result = ImportRun(diagnostics=notes)
    if len(objects) > MAX_OBJECTS:
        result.diagnostics.append(_input_error(
            paths, f"{len(objects)} objects in the input; an import reads at most {MAX_OBJECTS}: import in parts, "
            "for example one namespace at a time (kubectl get ... -n NAMESPACE -o yaml)"))
        return result  # nothing is compared or linted: the cost of an input stays bounded
    scenarios, result.kept = group(objects)
    if len(scenarios) > MAX_DATASETS:
        result.diagnostics.append(scenarios[MAX_DATASETS].dataset.diag(
            f"{len(scenarios)} Datasets in the input; an import makes at most {MAX_DATASETS} specs at a time: import "
            "in parts (one file or namespace at a time)"))
        return result
    seen: dict[tuple[str, str], Obj] = {}
    for done, s in enumerate(scenarios):
        if progress is not None:
            progress(done, len(scenarios))
        refused = _refused(s, seen)
        if refused is not None:
            result.diagnostics.append(refused)
            continue
        result.imported.append(import_scenario(s, version, spec_path(s.name, s.namespace, output_dir), output_dir))
    if progress is not None:
        progress(len(scenarios), len(scenarios))
    result.diagnostics += collisions(result, output_dir is not None)
    if not scenarios and not any(d.severity == "error" for d in notes):
        result.diagnostics.append(_input_error(
            paths, "no Fluid Dataset in the input: a spec is made per Dataset (a PersistentVolume and claim become "
            "its nfs source when given together with the Dataset that mounts them)"))
    if lint:
        result.diagnostics += _input_findings(result.diagnostics, got, version, reader)
    return result


def _input_error(paths: list[str], message: str) -> Diagnostic:
    """An import error about the input as a whole, at its first path."""
    return Diagnostic(paths[0] if paths else "-", 1, 1, "error", message, stage="import")


def _refused(s: Scenario, seen: dict[tuple[str, str], Obj]) -> Diagnostic | None:
    """Why a Dataset is not imported: a second one of its namespace and name (the first is
    remembered in `seen`), or more data operations than an import takes."""
    key = (s.namespace or "default", s.name)
    if key in seen:
        return s.dataset.diag(f"a second Dataset {key[0]}/{key[1]} (the first is at {seen[key].where()}); import "
                              "them separately")
    seen[key] = s.dataset
    if len(s.operations) > MAX_OPERATIONS:
        return s.dataset.diag(f"Dataset {key[0]}/{key[1]} has {len(s.operations)} data operations; an import takes "
                              f"at most {MAX_OPERATIONS} per Dataset (import the operations in parts, or as they are "
                              "with kubectl)")
    return None


def _input_findings(said: list[Diagnostic], got: Input, version: str, reader: Reader) -> list[Diagnostic]:
    """The input's findings, each once (reading problems are already said as errors)."""
    known = {(d.file, d.line, d.col, d.message) for d in said}
    return [d for d in _lint(got, version, reader) if (d.file, d.line, d.col, d.message) not in known]


def collisions(result: ImportRun, to_directory: bool) -> list[Diagnostic]:
    """Every file name two things would be written to (specs always: stdout joins them by name;
    with -o also the generated profiles and kept.yaml), compared as a case-insensitive file
    system would. Each is an error at the Dataset that comes second: no spec is ever lost."""
    owners: dict[str, str] = {}
    if to_directory and kept_documents(result):
        owners[KEPT] = "the objects outside any spec"
    out = []
    for i in result.imported:
        s = i.scenario
        me = f"Dataset {s.namespace or 'default'}/{s.name} ({s.dataset.where()})"
        names = [spec_file(s.name, s.namespace), *([i.profile_file] if to_directory and i.profile_file else [])]
        for name in names:
            first = owners.setdefault(name.casefold(), me)
            if first != me:
                out.append(s.dataset.diag(f"{me.split(' (')[0]} would be written to {name}, as {first}; nothing "
                                          "is written: import them separately, each into its own -o directory"))
    return out


def _lint(got: Input, version: str, reader: Reader) -> list[Diagnostic]:
    """The input's own findings (schema and lint), as warnings: they explain what import left out."""
    found = check_documents(got.documents, Checks(version, lint=True, ignore=frozenset(got.ignore)), reader)
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


def kept_documents(result: ImportRun) -> list[Manifest]:
    """Objects that belong to no spec, to keep beside the specs (Secrets never: their values stay out)."""
    return [o.data for o in result.kept if not o.is_secret]
