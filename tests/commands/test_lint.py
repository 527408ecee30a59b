"""fluidgen/commands/lint.py: `fluidgen lint FILES`: files are required unless --rules; findings
as text on stderr or as JSON on stdout, exit 1 on an error finding; --external declares an
object applied elsewhere, so a reference to it is no finding, and a malformed --external is
itself an error."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import EXAMPLES, run_cli

DATALOAD = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: warm, namespace: default}\n"
            "spec:\n  dataset: {name: imagenet, namespace: default}\n")


def load(tmp_path: Path) -> str:
    path = tmp_path / "load.yaml"
    path.write_text(DATALOAD)
    return str(path)


def test_no_files_and_no_rules_is_a_usage_error() -> None:
    result = run_cli("lint")
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == "Error: give at least one spec or manifest file (or --rules)"


def test_an_external_dataset_satisfies_an_operations_reference(tmp_path: Path) -> None:
    alone = run_cli("lint", load(tmp_path), env={})
    assert alone.code == 1 and alone.out == ""
    assert alone.err.startswith(f"{tmp_path / 'load.yaml'}:5:3: error [FG125]: spec.dataset: no Dataset named "
                                "imagenet in namespace default among the files given")
    declared = run_cli("lint", "--external", "Dataset/default/imagenet", load(tmp_path), env={})
    assert (declared.code, declared.out, declared.err) == (0, "", "")


def test_a_malformed_external_is_an_error_as_text_on_stderr_or_json_on_stdout() -> None:
    message = '--external "Dataset/imagenet": expected KIND/NAMESPACE/NAME, such as Dataset/default/imagenet'
    spec = str(EXAMPLES / "jindo-imagenet-oss.yaml")  # no finding of its own
    text = run_cli("lint", "--external", "Dataset/imagenet", spec, env={})
    assert text.code == 1 and text.out == ""
    assert text.err == f"<command line>: error: {message}\n"
    as_json = run_cli("lint", "--format", "json", "--external", "Dataset/imagenet", spec, env={})
    assert as_json.code == 1 and as_json.err == ""
    report = json.loads(as_json.out)
    assert report["errors"] == 1 and [d["message"] for d in report["diagnostics"]] == [message]
