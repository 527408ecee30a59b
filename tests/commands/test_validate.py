"""fluidgen/commands/validate.py: `fluidgen validate FILES` and the `checks`/`finish` it shares
with lint: FILES and an existing --crds are required (usage errors, exit 2); the target version
defaults to v1.0.8; diagnostics as text on stderr or JSON on stdout, and exit 1 only when one
of them is an error (a warning alone exits 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fluidgen.base.diagnostics import Diagnostic
from fluidgen.commands.validate import checks, finish
from tests.conftest import EXAMPLES, run_cli

WARNING = Diagnostic("a.yaml", 3, 5, "warning", "something to look at")
ERROR = Diagnostic("a.yaml", 4, 1, "error", "something wrong")


@pytest.mark.parametrize(("args", "last_line"), [
    ((), "Error: Missing argument 'FILES...'."),
    (("--fluid-version", "v9", "spec.yaml"),
     "Error: --fluid-version: unsupported Fluid version 'v9'; choose one of v1.0.8, v1.1.0-dev"),
    (("--crds", "no-such-crds", "spec.yaml"), "Error: Invalid value for '--crds': Path 'no-such-crds' does not exist."),
])
def test_usage_errors(args: tuple[str, ...], last_line: str, tmp_path: Path) -> None:
    result = run_cli("validate", *args, cwd=tmp_path)
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == last_line


def test_the_target_version_defaults_to_the_oldest_supported() -> None:
    assert checks(None, None, (), None).fluid_version == "v1.0.8"  # README: `v1.0.8` (default)
    assert checks("v1.1.0-dev", None, (), None).fluid_version == "v1.1.0-dev"


def test_a_warning_alone_exits_0_and_goes_to_stderr_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert finish([WARNING], "text") == 0
    out, err = capsys.readouterr()
    assert out == "" and err == "a.yaml:3:5: warning: something to look at\n"


def test_an_error_exits_1_and_json_goes_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert finish([WARNING, ERROR], "json") == 1
    out, err = capsys.readouterr()
    assert err == ""
    report = json.loads(out)
    assert (report["errors"], report["warnings"]) == (1, 1)
    assert [d["message"] for d in report["diagnostics"]] == ["something to look at", "something wrong"]


def test_a_clean_file_is_silent_as_text_and_counts_nothing_as_json() -> None:
    spec = str(EXAMPLES / "jindo-imagenet-oss.yaml")
    text = run_cli("validate", spec, env={})
    assert (text.code, text.out, text.err) == (0, "", "")
    as_json = run_cli("validate", "--format", "json", spec, env={})
    assert as_json.code == 0 and as_json.err == ""
    assert json.loads(as_json.out) == {"diagnostics": [], "errors": 0, "warnings": 0}
