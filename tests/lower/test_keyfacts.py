"""lower/keyfacts.py: explain's FLUID block per spec key, and the generated catalog/explain_index.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.commands import explain
from fluidgen.fluid.fields import FieldRead
from fluidgen.lower import keyfacts
from fluidgen.lower.runtimekeys import KEYS

INDEX_FILE = Path(keyfacts.__file__).parent.parent / "catalog" / "explain_index.py"
ALL_KEYS = [("runtime", *k.key) for k in KEYS] + list(keyfacts.DATASET_KEYS)


def test_the_explain_index_is_what_the_cells_say(update_golden: bool) -> None:
    """explain_index.py is generated from the engines' cells: a changed cell changes it."""
    text = keyfacts.explain_index_source()
    if update_golden:
        INDEX_FILE.write_text(text)
    assert INDEX_FILE.read_text() == text, "run `python -m fluidgen.lower.keyfacts` to regenerate it"


def test_a_changed_cell_changes_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control for the test above: a cell that says something else gives another file."""
    monkeypatch.setattr(FieldRead, "says", lambda self: "read by nobody")
    assert keyfacts.explain_index_source() != INDEX_FILE.read_text()


@pytest.mark.parametrize("key", ALL_KEYS, ids=".".join)
def test_explain_prints_each_keys_lines_from_the_cells(key: tuple[str, ...]) -> None:
    lines = keyfacts.fluid_lines(key)
    assert lines, key  # every key sets a field some engine has a cell for
    assert "\n".join(lines) in explain.explain(".".join(key))


def test_explain_reads_the_schema_schemas_holds_and_builds_it_without(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    """explain reads schemas/ (no spec model built); with no schemas/ beside it, it builds the schema
    from the model and says the same."""
    read = explain.explain("runtime.cache")
    monkeypatch.setattr(explain, "schemas_folder", lambda: str(tmp_path))
    assert explain.explain("runtime.cache") == read
