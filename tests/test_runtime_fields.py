"""The runtime-fields matrix (fluidgen/fluid/fields.py, each engine's `fields`) checked against Fluid's code,
cell by cell: an applied field is read by the function its source names (the Go selector is in that
function's body, comments stripped), an ignored one by no code of the engine (its package, its API type's
methods, its case of pkg/ddc/base GetRuntimeInfo), and the chart text a cell rests on is there (or not).
Each cell is also checked flipped (read <-> ignored): the check must then fail, so a changed cell fails.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest

from fluidgen.base import versions
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid.fields import CONDITION, IGNORED, PARTS, READ, FieldRead, Fields

from .fluid_src import missing_reason, tree

_COMMENT = re.compile(r"(^|[ \t])//.*$", re.M)


@cache
def _text(path: Path) -> str:
    text = path.read_text(errors="replace")
    return _COMMENT.sub(r"\1", text) if path.suffix == ".go" else text


def _body(text: str, function: str) -> str | None:
    """A Go function's (or method's) text, from its `func` line to the closing brace at column 0."""
    m = re.search(rf"^func (?:\([^)]*\) )?{re.escape(function)}\(.*?^}}", text, re.M | re.S)
    return m.group(0) if m else None


def _selector(fields: Fields, cell: FieldRead) -> re.Pattern[str]:
    if cell.source.path == "pkg/ddc/base/runtime.go" and fields.base_var:
        return re.compile(rf"\b{re.escape(fields.base_var)}\.{re.escape(cell.go)}\b")
    return re.compile(rf"\.{re.escape(cell.go)}\b")


def _readers(root: Path, fields: Fields, go: str) -> list[str]:
    """Every place the engine's code reads the selector: its package, its API type, its base case."""
    pattern = re.compile(rf"\.{re.escape(go)}\b")
    found = []
    package = root / fields.package
    for f in sorted(package.rglob("*.go")):
        if not f.name.endswith("_test.go") and pattern.search(_text(f)):
            found.append(str(f.relative_to(root)))
    if fields.types and pattern.search(_text(root / fields.types)):
        found.append(fields.types)
    base = _text(root / "pkg/ddc/base/runtime.go")
    if fields.base_var and re.search(rf"\b{re.escape(fields.base_var)}\.{re.escape(go)}\b", base):
        found.append("pkg/ddc/base/runtime.go")
    return found


def cell_problems(fields: Fields, cell: FieldRead, version: str, root: Path) -> list[str]:
    """What in Fluid's code at `version` contradicts the cell (empty: it holds)."""
    where = f"{cell.field} ({cell.how}) at {version}"
    path = root / cell.source.path
    if not path.is_file():
        return [f"{where}: {cell.source.path} does not exist"]
    text = _text(path)
    body = _body(text, cell.source.function) if path.suffix == ".go" else text
    if body is None or (path.suffix != ".go" and cell.source.function not in text):
        return [f"{where}: {cell.source.path} has no {cell.source.function}"]
    problems = []
    if cell.go:
        pattern = _selector(fields, cell)
        if cell.how == IGNORED:
            readers = _readers(root, fields, cell.go)
            if readers:
                problems.append(f"{where}: said ignored, but {cell.go} is read in {', '.join(readers)}")
        elif not pattern.search(body):
            problems.append(f"{where}: {cell.source.path} {cell.source.function} does not read {cell.go}")
    for file, snippet, present in cell.evidence:
        there = (root / file).is_file() and snippet in _text(root / file)
        if there != present:
            problems.append(f"{where}: {file} {'lacks' if present else 'has'} {snippet!r}")
    return problems


def _cells() -> list[tuple[str, str, FieldRead]]:
    return [(name, part, cell) for name, engine in sorted(ENGINES.items()) for part in PARTS
            for cell in engine.fields.cells(part)]


def _id(value: object) -> str:
    return value.field if isinstance(value, FieldRead) else str(value)


def _roots(cell: FieldRead) -> list[tuple[str, Path]]:
    found = [(v, tree(v)) for v in cell.source.versions]
    roots = [(v, r) for v, r in found if r is not None]
    if not roots:
        pytest.skip(missing_reason())
    return roots


@pytest.mark.parametrize(("engine", "part", "cell"), _cells(), ids=_id)
def test_the_cell_holds_in_fluids_code(engine: str, part: str, cell: FieldRead) -> None:
    fields = ENGINES[engine].fields
    problems = [p for version, root in _roots(cell) for p in cell_problems(fields, cell, version, root)]
    assert not problems, "\n".join(problems)


def _flipped(cell: FieldRead) -> FieldRead:
    """The cell with the opposite verdict: an applied field said ignored, an ignored one said read."""
    if cell.how == IGNORED:
        return dataclasses.replace(cell, how=READ, instead="", evidence=tuple(
            (f, s, not present) for f, s, present in cell.evidence))
    return dataclasses.replace(cell, how=IGNORED, when=None, evidence=tuple(
        (f, s, not present) for f, s, present in cell.evidence))


@pytest.mark.parametrize(("engine", "part", "cell"), _cells(), ids=_id)
def test_a_flipped_cell_fails_the_check(engine: str, part: str, cell: FieldRead) -> None:
    """The check above is not kind: the same cell with the opposite verdict is contradicted by the code."""
    fields = ENGINES[engine].fields
    flipped = _flipped(cell)
    for version, root in _roots(cell):
        assert cell_problems(fields, flipped, version, root), f"{engine} {cell.field}: flipping it goes unnoticed"


def test_every_cell_is_one_per_field_and_version() -> None:
    """At most one cell decides a field at a version, and a condition is stated and checkable."""
    for name, engine in ENGINES.items():
        for part in PARTS:
            for field in engine.fields.fields(part):
                for version in versions.NAMES:
                    holding = [c for c in engine.fields.cells(part) if c.field == field and c.source.holds_for(version)]
                    assert len(holding) <= 1, f"{name} {part}.{field}: {len(holding)} cells at {version}"
            for cell in engine.fields.cells(part):
                assert cell.how != CONDITION or (cell.when is not None and cell.note)
