"""model/spec_errors.py: pydantic's validation errors as located, actionable diagnostics.

What is held, through `fluidgen build` on broken specs: each error sits at the line and column
of the offending key or value with its key path; an unknown key gets the closest known key, or
else the list of keys allowed there; a bad choice lists the choices and the closest; a wrong type
says what was wanted and what YAML gave (a boolean or number where a string is wanted gets how
to quote it, a number never echoed); a missing key is named at its parent; a bound and an empty
list say so; and the YAML kinds are named as a user writes them (describe_type).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.io.yamlreader import load_text
from fluidgen.model.spec_errors import describe_type
from fluidgen.spec.spec import parse_spec
from tests.conftest import run_cli

HEAD = "apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: demo, namespace: ml}\n"


def errors(tmp_path: Path, body: str) -> tuple[Path, list[str]]:
    """`body` from line 4; the error lines of its build, which must fail."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(HEAD + body)
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == "", result.err
    return spec, result.err.splitlines()


def test_an_unknown_key_gets_the_closest_key_or_the_keys_allowed_there(tmp_path: Path) -> None:
    spec, lines = errors(tmp_path, 'source:\n  - {uri: "https://e.com/d/", zzz: 1}\n'
                                   "runtime:\n  engine: alluxio\n  replcas: 1\n  cache: [{medium: MEM, quota: 1Gi}]\n")
    assert lines[:2] == [
        f"{spec}:5:31: error: source[0].zzz: unknown key; expected one of: credentials, name, nfs, options, path, "
        "readOnly, shared, uri",
        f'{spec}:8:3: error: runtime.replcas: unknown key; did you mean "replicas"?']


def test_a_key_with_an_alias_is_listed_as_written(tmp_path: Path) -> None:
    """A step's `from:` (the model's from_) is among the keys a misspelt one is told to use."""
    _, lines = errors(tmp_path, 'source: [{uri: "https://e.com/d/"}]\n'
                                "runtime: {engine: juicefs, cache: [{medium: MEM, quota: 1Gi}]}\n"
                                "dataflow:\n  - migrate: {from: /a, to: s3://b/c, zzz: 1}\n")
    assert any("dataflow[0].migrate.zzz: unknown key; expected one of: " in line and " from, " in line
               for line in lines), lines


def test_errors_come_in_the_order_of_the_file_not_of_the_model() -> None:
    """runtime is written above source here; the model checks source first."""
    text = HEAD + "runtime: {engine: alluxio, replcas: 1, cache: [{medium: MEM, quota: 1Gi}]}\n" \
                  'source: [{uri: "https://e.com/d/", zzz: 1}]\n'
    with pytest.raises(FluidgenError) as raised:
        parse_spec(load_text("spec.yaml", text)[0])
    assert [(d.line, d.path) for d in raised.value.diagnostics] == [(4, ("runtime", "replcas")),
                                                                     (5, ("source", 0, "zzz"))]


def test_a_bad_choice_lists_the_choices_and_the_closest(tmp_path: Path) -> None:
    spec, lines = errors(tmp_path, 'source: [{uri: "https://e.com/d/"}]\n'
                                   "runtime:\n  engine: alluxio\n  cache: [{medium: SDD, quota: 1Gi}]\n")
    assert lines[0] == (f"{spec}:7:12: error: runtime.cache[0].medium: expected 'MEM', 'SSD' or 'HDD', got 'SDD'; "
                        'did you mean "SSD"?')


def test_a_scalar_where_a_string_is_wanted_says_how_to_quote_it_without_echoing_a_number(tmp_path: Path) -> None:
    spec, lines = errors(tmp_path, 'source: [{uri: "https://e.com/d/", options: {a: true, b: 31337}}]\n'
                                   "runtime: {engine: alluxio, cache: [{medium: MEM, quota: 1Gi}]}\n")
    assert f'{spec}:4:46: error: source[0].options.a: expected a string, found a boolean; quote it: "true"' in lines
    assert (f"{spec}:4:55: error: source[0].options.b: expected a string, found an integer; quote it (write the "
            "number in quotes)") in lines
    assert "31337" not in "\n".join(lines)


def test_a_missing_key_is_named_at_its_parent(tmp_path: Path) -> None:
    spec, lines = errors(tmp_path, 'source: [{uri: "https://e.com/d/"}]\n'
                                   "runtime: {cache: [{medium: MEM, quota: 1Gi}]}\n")
    assert lines[0] == f'{spec}:5:1: error: runtime: missing required key "engine"'


def test_a_bound_and_an_empty_list_are_said_with_the_value(tmp_path: Path) -> None:
    spec, lines = errors(tmp_path, 'source:\n  - uri: "https://e.com/d/"\n    credentials:\n'
                                   "      externalSecret: {store: vault, remoteKey: k, properties: []}\n"
                                   "runtime: {engine: alluxio, masters: -1, cache: [{medium: MEM, quota: 1Gi}]}\n")
    assert f"{spec}:7:52: error: source[0].credentials.externalSecret.properties: must not be empty" in lines, lines
    assert f"{spec}:8:28: error: runtime.masters: must be at least 1, got -1" in lines, lines


def test_an_existing_secret_without_keys_is_refused_at_its_keys(tmp_path: Path) -> None:
    """`keys: []` wired no option to the Secret: the Dataset was built reading nothing from it,
    and the mount then failed on the cluster for want of credentials."""
    spec, lines = errors(tmp_path, 'source:\n  - uri: "oss://b/d/"\n    credentials:\n'
                                   "      existingSecret: {name: creds, keys: []}\n"
                                   "runtime: {engine: alluxio, cache: [{medium: MEM, quota: 1Gi}]}\n")
    assert lines[0] == f"{spec}:7:37: error: source[0].credentials.existingSecret.keys: must not be empty", lines


def test_an_upper_bound_an_empty_string_and_too_many_items_are_said_plainly(tmp_path: Path) -> None:
    """No pydantic wording ("Input should be less than or equal to", "String should have at least
    1 character", "List should have at most 10 items") reaches a person."""
    spec, lines = errors(tmp_path, 'source:\n  - uri: "https://e.com/d/"\n    credentials:\n'
                                   "      externalSecret: {store: vault, remoteKey: '', properties: [a]}\n"
                                   "runtime: {engine: alluxio, replicas: 3000000000}\n")
    assert lines[:2] == [f"{spec}:7:38: error: source[0].credentials.externalSecret.remoteKey: must not be empty",
                         f"{spec}:8:28: error: runtime.replicas: must be at most 2147483647, got 3000000000"]
    (tmp_path / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                            "  prod: {specs: [[" + ", ".join(["a.yaml"] * 11) + "]]}\n")
    result = run_cli("validate", str(tmp_path / "fluidgen.yaml"))
    assert result.code == 1 and "environments.prod.specs[0]: has 11 items; at most 10 are allowed" in result.err, \
        result.err


@pytest.mark.parametrize(("value", "said"), [({}, "a mapping"), ([], "a list"), ("x", "a string"),
                                             (True, "a boolean"), (1, "an integer"), (1.5, "a number"),
                                             (None, "nothing"), (b"x", "a value")])
def test_yaml_kinds_are_named_as_a_user_writes_them(value: object, said: str) -> None:
    assert describe_type(value) == said


def test_a_value_that_fits_no_member_of_a_union_is_said_once_with_every_kind_it_takes(tmp_path: Path) -> None:
    """A step's `after` is 'previous', 'none' or a step's name: pydantic gives one error per member;
    the user reads one line at the key naming all three kinds, then the summary."""
    spec, lines = errors(tmp_path, 'source: [{uri: "https://e.com/d/"}]\n'
                                   "runtime: {engine: alluxio, cache: [{medium: MEM, quota: 1Gi}]}\n"
                                   "dataflow:\n  - load: {paths: [/]}\n    after: []\n")
    assert lines == [f"{spec}:8:5: error: dataflow[0].after: expected 'previous' or 'none' or a string, found a list",
                     "fluidgen: 1 error; nothing was written"]
