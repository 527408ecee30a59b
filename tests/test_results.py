"""results.py: the Python API's result types. A Diagnostic prints as one line, file:line:column:
severity [rule]: path: message, with <spec> for a spec given as a mapping and no location when
there is no line; FluidgenError carries every diagnostic and its message lists the errors (all
diagnostics when none is an error); a Build is ok unless a diagnostic is an error, its yaml() is
the objects as `fluidgen build` writes them, and raise_for_errors raises only then. Importing
the module loads no more of fluidgen than the YAML writer (held in a fresh interpreter)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from fluidgen.results import Build, Diagnostic, FluidgenError

ERROR = Diagnostic("error", "quota must be positive", "spec.yaml", 7, 12, "runtime.cache.quota", "FG112")
WARNING = Diagnostic("warning", "direct_io bypasses the page cache", "spec.yaml", 3)
INFO = Diagnostic("info", "not built")


@pytest.mark.parametrize(("diagnostic", "line"), [
    (ERROR, "spec.yaml:7:12: error [FG112]: runtime.cache.quota: quota must be positive"),
    (WARNING, "spec.yaml:3:1: warning: direct_io bypasses the page cache"),
    (INFO, "<spec>: info: not built"),
    (Diagnostic("error", "m", None, 2, 5, "a.b"), "<spec>:2:5: error: a.b: m"),
    (Diagnostic("error", "m", "f.yaml", None, 5, None, "FG101"), "f.yaml: error [FG101]: m"),
    (Diagnostic("error", "m", "f.yaml", 0, 5), "f.yaml: error: m"),
])
def test_a_diagnostic_prints_as_one_line_with_what_it_knows_of_where(diagnostic: Diagnostic, line: str) -> None:
    assert str(diagnostic) == line


def test_a_diagnostic_and_a_build_are_values_that_cannot_be_changed() -> None:
    assert Diagnostic("error", "quota must be positive", "spec.yaml", 7, 12, "runtime.cache.quota", "FG112") == ERROR
    with pytest.raises(dataclasses.FrozenInstanceError):
        ERROR.message = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Build().objects = []  # type: ignore[misc]


def test_an_errors_message_lists_its_errors_and_it_carries_every_diagnostic() -> None:
    exc = FluidgenError((WARNING, ERROR, INFO, ERROR))
    assert exc.diagnostics == [WARNING, ERROR, INFO, ERROR]
    assert str(exc) == "\n".join([str(ERROR)] * 2)


def test_an_error_without_errors_lists_every_diagnostic() -> None:
    assert str(FluidgenError([WARNING, INFO])) == f"{WARNING}\n{INFO}"
    assert str(FluidgenError([])) == ""


def test_a_build_is_ok_unless_a_diagnostic_is_an_error_and_raises_only_then() -> None:
    assert Build() == Build([], [])
    fine = Build([{"kind": "Dataset"}], [WARNING, INFO])
    assert fine.ok is True
    fine.raise_for_errors()
    failed = Build([], [WARNING, ERROR])
    assert failed.ok is False
    with pytest.raises(FluidgenError) as caught:
        failed.raise_for_errors()
    assert caught.value.diagnostics == [WARNING, ERROR]
    assert str(caught.value) == str(ERROR)


def test_a_builds_yaml_is_its_objects_as_documents_in_order() -> None:
    build = Build([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "b"}},
                   {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}}])
    assert build.yaml() == ("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: b\n---\n"
                            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n")
    assert Build().yaml() == ""


def test_importing_the_results_loads_only_the_yaml_writer_of_fluidgen() -> None:
    code = ("import sys, fluidgen.results; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fluidgen', 'pydantic', 'click', 'ruamel')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        0, "['fluidgen', 'fluidgen.base', 'fluidgen.base.emit', 'fluidgen.results']\n", "")


def test_a_diagnostic_is_one_line_whatever_its_file_path_or_message_holds() -> None:
    """A file or key name from a repository may hold a newline (a forged diagnostic line in a log
    that prints FluidgenError) or a terminal escape: each control character prints as \\xNN, as the
    command line's diagnostics do (base/diagnostics.py _CONTROLS); the fields keep what was given."""
    forged = Diagnostic("error", "bad\x1b[2J", "a.yaml:1:1: error: forged\nb.yaml", 1, 1, "k\r\x85", "FG101")
    assert str(forged) == "a.yaml:1:1: error: forged\\x0ab.yaml:1:1: error [FG101]: k\\x0d\\x85: bad\\x1b[2J"
    assert str(FluidgenError([forged])).count("\n") == 0
    assert forged.file == "a.yaml:1:1: error: forged\nb.yaml"
