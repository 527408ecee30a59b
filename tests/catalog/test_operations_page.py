"""fluidgen/catalog/operations_page.py: the data operations page's helpers (tests/fluid/
test_operations.py holds the committed page fresh and its counts). The engines that run each
operation are the engines whose Fluid code handles the operation type (dataoperation.<Op>Type in
pkg/ddc/<engine>/, GetDataOperationValueFile or operate.go, less a generate<Op>ValueFile that
returns NewNotSupported: the CacheRuntime's DataMigrate and DataBackup), read at both versions;
cells are expanded per engine only for the fields the version has; the cells' text is escaped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.catalog import operations_page as page_module
from fluidgen.catalog.operations_page import engines_running, expanded, page
from fluidgen.fluid.operations import CELLS
from tests.harness.fluid_src import TREES, need_tree

# fluidgen's engine name -> Fluid's pkg/ddc folders (the jindo engine is Fluid's jindofsx and jindocache)
FOLDERS = {"alluxio": ("alluxio",), "goosefs": ("goosefs",), "jindo": ("jindofsx", "jindocache"),
           "juicefs": ("juicefs",), "efc": ("efc",), "thin": ("thin",), "vineyard": ("vineyard",), "cache": ("cache",)}


def handled(folder: Path, kind: str) -> bool:
    """Whether Fluid's engine folder takes the operation: names its type, and does not refuse it."""
    text = "\n".join(p.read_text() for p in sorted(folder.rglob("*.go")) if not p.name.endswith("_test.go"))
    if f"dataoperation.{kind}Type" not in text:
        return False
    refused = re.search(rf"func \(e \*\w+\) generate{kind}ValueFile\([^)]*\) \([^)]*\) {{\s*return \"\", "
                        r"fluiderrors\.NewNotSupported\(", text)
    return refused is None


@pytest.mark.parametrize("version", sorted(TREES))
@pytest.mark.parametrize("kind", ["DataLoad", "DataBackup", "DataMigrate", "DataProcess"])
def test_the_engines_running_an_operation_are_those_fluid_lets_run_it(version: str, kind: str) -> None:
    ddc = need_tree(version) / "pkg/ddc"
    fluid = sorted(name for name, folders in FOLDERS.items()
                   if any((ddc / f).is_dir() and handled(ddc / f, kind) for f in folders))
    assert engines_running(kind, version) == fluid


def test_the_engines_literally() -> None:
    """The same, as read by hand (pkg/ddc at de578cd and a826600)."""
    assert engines_running("DataLoad", "v1.0.8") == ["alluxio", "goosefs", "jindo", "juicefs"]
    assert engines_running("DataLoad", "v1.1.0-dev") == ["alluxio", "cache", "jindo", "juicefs"]
    assert engines_running("DataBackup", "v1.1.0-dev") == ["alluxio"]
    assert engines_running("DataMigrate", "v1.0.8") == ["juicefs"]
    assert engines_running("NoSuchOperation", "v1.0.8") == []


def test_expanded_keeps_a_cell_only_at_its_versions_and_engines() -> None:
    for version in ("v1.0.8", "v1.1.0-dev"):
        rows = expanded(version)
        assert rows and len(rows) == len(set((id(c), e) for c, e in rows))
        for cell, engine in rows:
            assert version in cell.versions and engine in engines_running(cell.kind, version)
    alluxio_only = {e for c, e in expanded("v1.0.8") if c.kind == "DataLoad" and c.engines == ("alluxio",)}
    assert alluxio_only == {"alluxio"}  # an Alluxio row is not repeated for jindo, juicefs, goosefs
    goosefs = [c for c, e in expanded("v1.1.0-dev") if e == "goosefs"]
    assert goosefs == []  # Fluid v1.1.0-dev has no GooseFS engine


def test_cell_text_is_escaped_and_conditions_quoted() -> None:
    assert page_module._esc("a|b<c>") == "a\\|b&lt;c&gt;"
    by_when = {c.when: page_module._when(c) for c in CELLS if c.when}
    assert by_when[(("policy", "|Once"),)] == "`policy` matches `\\|Once`"
    assert by_when[(("", "OnEvent"),)] == "`value` matches `OnEvent`"


def test_the_page_opens_with_its_provenance_and_has_a_section_per_operation() -> None:
    text = page()
    assert text.splitlines()[0] == (
        "<!-- Generated from fluidgen/fluid/operations.py by fluidgen/catalog/operations_page.py; regenerate: "
        "pytest tests/fluid/test_operations.py --update-golden -->")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Cells per operation, engine and version", "## What each operation renders",
                        "## DataLoad", "## DataBackup", "## DataMigrate", "## DataProcess"]
    assert "| operation | engine | version | cells | read | ignored | refused | broken | gated |" in text
    assert text.endswith("\n") and not text.endswith("\n\n")
