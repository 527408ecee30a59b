"""fluidgen/base/diagnostics.py: how a problem is located and shown to users (the key path as
written in a spec, the one-line rendering, the JSON form), the "did you mean" suffix, the
quoting hint for YAML scalars, and the ordering and filtering of diagnostics."""

from __future__ import annotations

import pytest

from fluidgen.base.diagnostics import (
    Diagnostic,
    FluidgenError,
    PathT,
    did_you_mean,
    errors_in,
    format_path,
    quote_hint,
    sort_diagnostics,
)


@pytest.mark.parametrize(("path", "shown"), [
    ((), "(document)"),
    (("runtime", "cache", 0, "quota"), "runtime.cache[0].quota"),
    ((0,), "[0]"),
    ((0, "spec"), "[0].spec"),
    (("spec", "mounts", 1, 2), "spec.mounts[1][2]"),
    (("fuse", "clean_policy-x"), "fuse.clean_policy-x"),  # "_" and "-" keep a key plain
    (("metadata", "labels", "app.kubernetes.io/name"), 'metadata.labels["app.kubernetes.io/name"]'),
    (("options", "a b"), 'options["a b"]'),
    (("options", ""), 'options[""]'),
    (("options", 'say "hi"'), 'options["say \\"hi\\""]'),  # quoted as a JSON string
    (("a.b", "c"), "a.b.c"),  # the first key is written as it is
])
def test_a_path_is_written_the_way_users_write_keys(path: PathT, shown: str) -> None:
    assert format_path(path) == shown


@pytest.mark.parametrize(("word", "choices", "suffix"), [
    ("replica", ["master", "replicas", "worker"], '; did you mean "replicas"?'),
    ("tieredstor", ["tieredstore", "tieredStore"], '; did you mean "tieredstore"?'),  # the closest only
    ("TIEREDSTORE", ["tieredstore", "fuse"], '; did you mean "tieredstore"?'),  # same word, other case
    ("FG1O3", ["FG103", "FG135"], '; did you mean "FG103"?'),  # a letter O for the digit 0
    ("FGl04", ["FG104", "FG140"], '; did you mean "FG104"?'),  # l for 1
    ("Replicas", ["replica", "replicas"], '; did you mean "replicas"?'),  # the case alone before the closest
    ("ab", ["abcd"], '; did you mean "abcd"?'),  # similarity 2*2/6 = 0.67, over the 0.6 cutoff
    ("ab", ["abcde"], ""),  # 2*2/7 = 0.57: too far
    ("zzz", ["master", "worker"], ""),
    ("x", [], ""),
])
def test_did_you_mean_names_one_close_choice_or_nothing(word: str, choices: list[str], suffix: str) -> None:
    """difflib's ratio is 2*M/T (M matching characters, T the two lengths together); a word
    that differs only in case, or has a letter for a digit it looks like, comes first."""
    assert did_you_mean(word, choices) == suffix


def test_a_diagnostic_renders_file_line_column_severity_code_path_and_message() -> None:
    diag = Diagnostic("spec.yaml", 12, 3, "error", "must be at least 1", ("runtime", "replicas"), "FG001")
    assert diag.render() == "spec.yaml:12:3: error [FG001]: runtime.replicas: must be at least 1"


@pytest.mark.parametrize(("diag", "shown"), [
    (Diagnostic("a.yaml", 0, 0, "warning", "no namespace"), "a.yaml: warning: no namespace"),  # no line
    (Diagnostic("a.yaml", 4, 1, "info", "kept"), "a.yaml:4:1: info: kept"),  # no code, no path
    (Diagnostic("-", 1, 1, "error", "bad", ("spec",), ""), "-:1:1: error: spec: bad"),
])
def test_what_a_diagnostic_lacks_is_left_out_of_its_line(diag: Diagnostic, shown: str) -> None:
    assert diag.render() == shown


@pytest.mark.parametrize(("text", "shown"), [
    ("tab\there", "tab\\x09here"), ("nul\x00", "nul\\x00"), ("us\x1f", "us\\x1f"), ("del\x7f", "del\\x7f"),
    ("nel\x85", "nel\\x85"), ("csi\x9b2J", "csi\\x9b2J"), ("apc\x9f", "apc\\x9f"),
    ("nbsp\xa0é ok", "nbsp\xa0é ok"),  # past the C1 block: printable, kept
])
def test_every_c0_and_c1_control_and_del_is_escaped_so_a_diagnostic_stays_one_line(text: str, shown: str) -> None:
    """C0 is U+0000-U+001F, DEL U+007F, C1 U+0080-U+009F (ECMA-48 / ISO 6429); NEL (U+0085) ends
    a line and CSI (U+009B) starts a terminal command."""
    assert Diagnostic(text, 1, 1, "error", text, (text, "k")).render() == \
        f"{shown}:1:1: error: {shown}.k: {shown}"


def test_the_json_form_writes_the_path_as_users_write_it() -> None:
    diag = Diagnostic("a.yaml", 2, 5, "warning", "m", ("spec", "mounts", 0), "FG010", "lint")
    assert diag.as_json() == {"file": "a.yaml", "line": 2, "col": 5, "severity": "warning", "message": "m",
                              "path": "spec.mounts[0]", "code": "FG010", "stage": "lint"}
    assert Diagnostic("a.yaml", 0, 0, "info", "m").as_json()["path"] == ""  # not "(document)"


def test_sorting_goes_by_file_line_column_then_message_and_drops_repeats() -> None:
    a2 = Diagnostic("a.yaml", 2, 1, "info", "z")
    a10 = Diagnostic("a.yaml", 10, 1, "error", "a")
    a2b = Diagnostic("a.yaml", 2, 1, "error", "b")  # same place: by message, not severity
    a2c3 = Diagnostic("a.yaml", 2, 3, "error", "a")
    b1 = Diagnostic("b.yaml", 1, 1, "error", "a")
    assert sort_diagnostics([b1, a10, a2, a2c3, a2b, a2, b1]) == [a2b, a2, a2c3, a10, b1]


def test_only_errors_are_errors() -> None:
    diags = [Diagnostic("a", 1, 1, s, "m") for s in ("warning", "error", "info", "error")]
    assert errors_in(diags) == [diags[1], diags[3]]


def test_a_fluidgen_error_carries_its_diagnostics_and_reads_as_their_lines() -> None:
    first = Diagnostic("a.yaml", 1, 1, "error", "one")
    second = Diagnostic("a.yaml", 2, 1, "warning", "two\nlines")
    error = FluidgenError((first, second))
    assert error.diagnostics == [first, second]
    assert str(error) == "a.yaml:1:1: error: one\na.yaml:2:1: warning: two\\x0alines"


@pytest.mark.parametrize(("value", "hint"), [
    (True, '; quote it: "true"'), (False, '; quote it: "false"'),  # YAML's spelling, not Python's
    (123456, "; quote it (write the number in quotes)"),  # a number is never repeated: it may be a password
    (0.5, "; quote it (write the number in quotes)"),
])
def test_the_quoting_hint_shows_a_boolean_and_never_a_number(value: bool | int | float, hint: str) -> None:
    assert quote_hint(value) == hint
