"""fluidgen/commands/schema.py: `fluidgen schema` prints the spec's JSON Schema on stdout and
nothing else; with -o FILE it writes the file, says so on stderr, and a file it cannot write is a
user error (exit 1) said in one line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli


def test_the_schema_goes_to_stdout_and_nothing_to_stderr() -> None:
    result = run_cli("schema")
    assert result.code == 0 and result.err == ""
    schema = json.loads(result.out)
    assert schema["$id"] == "https://fluidgen.io/schemas/fluidgen-spec.v1alpha1.json"
    assert {"apiVersion", "metadata", "source", "runtime"} <= set(schema["properties"])


def test_writing_to_a_file_says_where_on_stderr(tmp_path: Path) -> None:
    target = tmp_path / "fluidgen-spec.v1alpha1.json"
    result = run_cli("schema", "-o", str(target))
    assert result.code == 0 and result.out == ""
    assert result.err == f"fluidgen: wrote {target}\n"
    assert json.loads(target.read_text())["$id"] == "https://fluidgen.io/schemas/fluidgen-spec.v1alpha1.json"


def test_a_file_in_a_missing_directory_is_a_one_line_user_error(tmp_path: Path) -> None:
    result = run_cli("schema", "-o", str(tmp_path / "nope" / "schema.json"))
    assert result.code == 1 and result.out == ""
    assert result.err == f"fluidgen: error: {tmp_path / 'nope'}: No such file or directory\n"
    assert not (tmp_path / "nope").exists()
