"""fluidgen/base/structural/validate.py: a value against a Kubernetes structural schema. Every problem
is reported at its path with its keyword and a whole message: types (and int-or-string), nulls (a
warning: the API server drops them), required keys, enums, patterns (a quantity by Kubernetes'
grammar and 2^63 bound), lengths, bounds (exclusive or not), item counts, unique items, int32/int64
and base64 formats, anyOf/oneOf/allOf, local $refs (with overlays), closed and open objects; values
under `redact` are never quoted; prune drops what a closed object does not know. The agreement
with the jsonschema package over Fluid's CRDs is held by tests/catalog/test_schemas.py; here each
keyword is pinned on its own."""

from __future__ import annotations

from typing import Any

import pytest

from fluidgen.base.quantity import QUANTITY_RE
from fluidgen.base.structural.validate import Problem, Validator, describe, prune

STR = {"type": "string"}
INT = {"type": "integer"}


def _found(schema: dict[str, Any], value: Any, **kw: Any) -> list[Problem]:
    return Validator(schema, **kw).problems(value)


def test_a_fitting_value_has_no_problem_and_is_valid() -> None:
    schema = {"type": "object", "properties": {"a": STR, "n": INT}, "required": ["a"], "additionalProperties": False}
    assert _found(schema, {"a": "x", "n": 1}) == []
    assert Validator(schema).valid({"a": "x"}) and not Validator(schema).valid({"n": 1})


@pytest.mark.parametrize(("value", "word"), [
    (None, "null"), (True, "a boolean"), ({}, "a mapping"), ([], "a list"), ("", "a string"), (1, "an integer"),
    (1.5, "a number"), (b"", "bytes"),
])
def test_each_value_is_described_by_its_yaml_kind(value: Any, word: str) -> None:
    assert describe(value) == word


# --- types ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("schema", "value", "message"), [
    (STR, 1, "expected a string, found an integer; quote it (write the number in quotes)"),
    (STR, True, 'expected a string, found a boolean; quote it: "true"'),
    (INT, "1", "expected an integer, found a string"),
    (INT, True, "expected an integer, found a boolean"),  # YAML true is no integer
    (INT, 1.5, "expected an integer, found a number"),
    ({"type": "number"}, False, "expected a number, found a boolean"),
    ({"type": "boolean"}, "true", "expected true or false, found a string"),
    ({"type": "object"}, [], "expected a mapping, found a list"),
    ({"type": "array"}, {}, "expected a list, found a mapping"),
    ({"x-kubernetes-int-or-string": True}, 1.5,
     "expected an integer or a string, found a number; quote it (write the number in quotes)"),
])
def test_a_value_of_another_type_is_told_the_type_wanted(schema: dict[str, Any], value: Any, message: str) -> None:
    assert _found(schema, value) == [Problem((), message, "type")]


def test_an_integral_number_is_an_integer_and_int_or_string_takes_both() -> None:
    """JSON has one number type: 2.0 is the integer 2 to the API server's decoder."""
    assert _found(INT, 2.0) == [] and _found({"type": "number"}, 2) == []
    assert _found({"x-kubernetes-int-or-string": True}, 1) == [] == _found({"x-kubernetes-int-or-string": True}, "1")


def test_a_value_of_the_wrong_type_is_told_only_its_type() -> None:
    assert _found({"type": "string", "enum": ["a"], "minLength": 2}, 1) == [
        Problem((), "expected a string, found an integer; quote it (write the number in quotes)", "type")]


def test_a_type_may_be_a_list_of_types() -> None:
    assert _found({"type": ["string", "integer"]}, 1) == []
    assert _found({"type": ["string", "integer"]}, []) == [Problem((), "expected a string or an integer, found a list",
                                                                   "type")]


def test_int_or_string_with_its_own_any_of_is_checked_by_the_any_of_once() -> None:
    """Kubernetes' IntOrString fields (maxUnavailable) carry x-kubernetes-int-or-string and an anyOf."""
    schema = {"x-kubernetes-int-or-string": True, "anyOf": [INT, {"type": "string", "pattern": "^[0-9]+%$"}]}
    assert _found(schema, True) == [Problem((), "expected an integer or a string, found a boolean", "type")]
    assert _found(schema, "5") == [Problem((), "'5' does not match the required format ^[0-9]+%$", "pattern")]


def test_a_type_problem_under_redact_quotes_nothing() -> None:
    assert _found(STR, 1234, redact=lambda path: True) == [Problem((), "expected a string, found an integer", "type")]


# --- nulls and required keys ------------------------------------------------------------------

NULL = "null: the API server drops this key, as if it were not given; remove it or give a value"


def test_a_null_is_a_warning_unless_nullable_and_a_null_required_key_is_missing() -> None:
    """apiextensions-apiserver PruneNonNullableNullsWithoutDefaults drops a null it may not keep."""
    schema = {"type": "object", "properties": {"a": STR, "b": {"type": "string", "nullable": True}},
              "required": ["a", "b"]}
    assert _found(schema, {"a": None, "b": None}) == [
        Problem(("a",), NULL, "null", severity="warning"), Problem((), 'missing required field "a"', "required")]
    assert _found({}, None) == []  # no schema: anything, null too


def test_a_value_with_warnings_only_is_valid() -> None:
    assert Validator({"type": "object", "properties": {"a": STR}}).valid({"a": None})


def test_every_missing_required_key_is_named() -> None:
    schema = {"type": "object", "properties": {"a": STR}, "required": ["a", "b"]}
    assert _found(schema, {}) == [Problem((), 'missing required field "a"', "required"),
                                  Problem((), 'missing required field "b"', "required")]


# --- strings ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("schema", "value", "problem"), [
    ({"type": "string", "minLength": 1}, "", Problem((), "must not be empty", "minLength")),
    ({"type": "string", "minLength": 3}, "ab", Problem((), "must be at least 3 characters long", "minLength")),
    ({"type": "string", "maxLength": 2}, "abc", Problem((), "must be at most 2 characters long", "maxLength")),
    ({"type": "string", "pattern": "^[a-z]+$"}, "A", Problem((), "'A' does not match the required format ^[a-z]+$",
                                                             "pattern")),
    ({"type": "string", "enum": ["a", "b"]}, "c", Problem((), "must be one of 'a', 'b', got 'c'", "enum", ("a", "b"))),
    ({"type": "string", "format": "byte"}, "not base64!",
     Problem((), "is not base64 data (data values of a Secret are base64-encoded)", "format")),
])
def test_a_string_is_checked_for_length_pattern_enum_and_base64(schema: dict[str, Any], value: str,
                                                                problem: Problem) -> None:
    assert _found(schema, value) == [problem]


def test_lengths_count_characters_and_their_bounds_are_inclusive() -> None:
    """kube-openapi counts a string's length in runes (utf8.RuneCountInString), as len() counts code points."""
    assert _found({"type": "string", "minLength": 2, "maxLength": 2}, "éé") == []


def test_a_pattern_matches_anywhere_as_ecma_and_go_regexps_search() -> None:
    assert _found({"type": "string", "pattern": "[0-9]"}, "a1b") == []


def test_base64_data_is_accepted() -> None:
    assert _found({"type": "string", "format": "byte"}, "YWJjZA==") == []


@pytest.mark.parametrize("text", ["YWJj ZA==", "YWJj!ZA==", "YWJjZA"])
def test_base64_with_a_character_go_does_not_skip_or_without_padding_is_refused(text: str) -> None:
    """Go's base64.StdEncoding (encoding/json's []byte, so a Secret's data) skips only \\r and \\n and
    needs the padding."""
    assert _found({"type": "string", "format": "byte"}, text) == [
        Problem((), "is not base64 data (data values of a Secret are base64-encoded)", "format")]


@pytest.mark.parametrize(("value", "message"), [
    ("4GB", '"4GB" is not a Kubernetes quantity; write "4Gi" (binary) or "4G" (decimal)'),
    ("8Ei", '"8Ei" is larger than a Kubernetes quantity can be (at most 2^63)'),
])
def test_a_quantity_field_is_read_by_the_quantity_grammar_and_its_bound(value: str, message: str) -> None:
    """The CRD pattern of resource.Quantity is not matched as a regexp alone: 8Ei matches it but is
    2^63, past what Kubernetes keeps (k8s.io/apimachinery pkg/api/resource/quantity.go)."""
    schema = {"type": "string", "pattern": QUANTITY_RE.pattern}
    assert _found(schema, value) == [Problem((), message, "pattern" if value == "4GB" else "format")]
    assert _found(schema, "7Ei") == []


def test_redacted_strings_are_never_quoted() -> None:
    def hidden(path: tuple[str | int, ...]) -> bool:
        return True
    assert _found({"type": "string", "pattern": "^a$"}, "s3cret", redact=hidden) == [
        Problem((), "(value hidden) does not match the required format ^a$", "pattern")]
    assert _found({"type": "string", "enum": ["a"]}, "s3cret", redact=hidden) == [
        Problem((), "must be one of 'a', got (value hidden)", "enum", ("a",))]
    assert _found({"type": "string", "pattern": QUANTITY_RE.pattern}, "s3cret", redact=hidden) == [
        Problem((), "(value hidden) is not a Kubernetes quantity", "pattern")]


# --- numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("schema", "value", "problem"), [
    ({"type": "integer", "format": "int32"}, 2**31, Problem((), "2147483648 does not fit a 32-bit integer", "format")),
    ({"type": "integer", "format": "int32"}, -(2**31) - 1,
     Problem((), "-2147483649 does not fit a 32-bit integer", "format")),
    ({"type": "integer", "format": "int64"}, 2**63, Problem((), f"{2**63} does not fit a 64-bit integer", "format")),
    ({"type": "integer", "minimum": 1}, 0, Problem((), "must be at least 1, got 0", "minimum")),
    ({"type": "integer", "maximum": 9}, 10, Problem((), "must be at most 9, got 10", "maximum")),
    ({"type": "integer", "minimum": 1, "exclusiveMinimum": True}, 1, Problem((), "must be at least 1, got 1",
                                                                          "minimum")),
    ({"type": "integer", "maximum": 9, "exclusiveMaximum": True}, 9, Problem((), "must be at most 9, got 9",
                                                                          "maximum")),
    ({"type": "number", "multipleOf": 0.5}, 0.75, Problem((), "must be a multiple of 0.5", "multipleOf")),
])
def test_a_number_is_checked_for_its_format_bounds_and_step(schema: dict[str, Any], value: float,
                                                            problem: Problem) -> None:
    assert _found(schema, value) == [problem]


@pytest.mark.parametrize(("schema", "value"), [
    ({"type": "integer", "format": "int32"}, 2**31 - 1), ({"type": "integer", "format": "int32"}, -(2**31)),
    ({"type": "integer", "format": "int64"}, 2**63 - 1), ({"type": "integer", "format": "int64"}, -(2**63)),
    ({"type": "integer", "minimum": 1, "maximum": 1}, 1),
    ({"type": "integer", "minimum": 1, "exclusiveMinimum": False}, 1),
    ({"type": "number", "multipleOf": 0.5}, 1.5),
])
def test_the_edges_of_each_bound_are_inside_it(schema: dict[str, Any], value: float) -> None:
    assert _found(schema, value) == []


def test_a_value_past_its_format_is_not_also_told_its_bounds() -> None:
    assert _found({"type": "integer", "format": "int32", "maximum": 5}, 2**40) == [
        Problem((), f"{2**40} does not fit a 32-bit integer", "format")]


# --- arrays -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("schema", "value", "problems"), [
    ({"type": "array", "minItems": 1}, [], [Problem((), "needs at least 1 item", "minItems")]),
    ({"type": "array", "minItems": 2}, [1], [Problem((), "needs at least 2 items", "minItems")]),
    ({"type": "array", "maxItems": 1}, [1, 2], [Problem((), "takes at most 1 items", "maxItems")]),
    ({"type": "array", "items": INT}, [1, "a", 2.5], [
        Problem((1,), "expected an integer, found a string", "type"),
        Problem((2,), "expected an integer, found a number", "type")]),
    ({"type": "array", "uniqueItems": True}, ["a", "b", "a", "a"], [
        Problem((2,), "repeats an earlier item; items must be unique", "uniqueItems"),
        Problem((3,), "repeats an earlier item; items must be unique", "uniqueItems")]),
    ({"type": "array", "x-kubernetes-list-type": "set"}, [{"a": 1}, {"a": 1}], [
        Problem((1,), "repeats an earlier item; items must be unique", "uniqueItems")]),
    ({"type": "array", "x-kubernetes-list-type": "atomic"}, [1, 1], []),
])
def test_a_list_is_checked_for_its_count_its_items_and_repeats_in_a_set(schema: dict[str, Any], value: list[Any],
                                                                        problems: list[Problem]) -> None:
    assert _found(schema, value) == problems


# --- objects ----------------------------------------------------------------------------------

CLOSED = {"type": "object", "properties": {"size": INT, "name": STR}, "additionalProperties": False}


def test_an_unknown_field_of_a_closed_object_is_named_with_the_fields_there_in_order() -> None:
    assert _found(CLOSED, {"nmae": "a", "size": "1"}) == [
        Problem(("nmae",), "unknown field", "unknown", ("name", "size")),
        Problem(("size",), "expected an integer, found a string", "type")]
    assert _found(CLOSED, {"nmae": "a"})[0].unknown_field


@pytest.mark.parametrize("schema", [
    {"type": "object"},  # no properties, no additionalProperties
    {"type": "object", "properties": {"a": STR}, "additionalProperties": True},
    {"type": "object", "properties": {"a": STR}, "additionalProperties": False, "x-kubernetes-preserve-unknown-fields":
     True},
])
def test_an_open_object_keeps_any_field(schema: dict[str, Any]) -> None:
    assert _found(schema, {"anything": [1]}) == []


def test_additional_properties_check_every_value_of_a_map() -> None:
    assert _found({"type": "object", "additionalProperties": STR}, {"a": "x", "b": 2}) == [
        Problem(("b",), "expected a string, found an integer; quote it (write the number in quotes)", "type")]


def test_an_embedded_resource_knows_its_own_apiversion_kind_and_metadata() -> None:
    schema = {**CLOSED, "x-kubernetes-embedded-resource": True}
    assert _found(schema, {"apiVersion": "v1", "kind": "Pod", "metadata": {}}) == []
    assert _found(schema, {"spec": {}}) == [Problem(("spec",), "unknown field", "unknown", ("name", "size"))]


def test_count_bounds_are_inclusive() -> None:
    assert _found({"type": "object", "minProperties": 1, "maxProperties": 1}, {"a": 1}) == []
    assert _found({"type": "array", "minItems": 1, "maxItems": 1}, [1]) == []


def test_mapping_keys_must_be_strings_and_entry_counts_are_bounded() -> None:
    assert _found({"type": "object", "additionalProperties": STR, "minProperties": 2, "maxProperties": 0},
                  {1: "a"}) == [Problem((1,), "mapping keys must be strings", "type"),
                                Problem((), "needs at least 2 entries", "minProperties"),
                                Problem((), "takes at most 0 entries", "maxProperties")]


# --- combinations -----------------------------------------------------------------------------

INT_OR_STR = {"anyOf": [INT, STR]}


def test_any_of_takes_a_value_one_branch_fits_and_keeps_that_branchs_warnings() -> None:
    assert _found(INT_OR_STR, "a") == []
    nullable_map = {"anyOf": [{"type": "object", "properties": {"a": STR}}, STR]}
    assert _found(nullable_map, {"a": None}) == [Problem(("a",), NULL, "null", severity="warning")]


def test_one_of_refuses_a_value_two_branches_fit() -> None:
    assert _found({"oneOf": [INT, {"type": "number"}]}, 1) == [
        Problem((), "matches more than one of the allowed forms", "oneOf")]
    assert _found({"oneOf": [INT, STR]}, 1) == []
    assert _found({"anyOf": [INT, {"type": "number"}]}, 1) == []  # anyOf: two fitting branches are fine


def test_a_value_no_branch_fits_gets_the_nearest_branch_of_its_type_or_every_type_wanted() -> None:
    branches = {"anyOf": [{"type": "object", "properties": {"a": STR, "b": STR}, "required": ["a", "b"]},
                          {"type": "object", "properties": {"a": STR}, "required": ["a"]}, INT]}
    assert _found(branches, {}) == [Problem((), 'missing required field "a"', "required")]
    assert _found(INT_OR_STR, [1]) == [Problem((), "expected an integer or a string, found a list", "type")]
    assert _found({"anyOf": [{"enum": ["a"]}]}, [1]) == [Problem((), "must be one of 'a', got [1]", "enum", ("a",))]
    # a type problem deeper down still leaves the branch of the value's own type
    nested = {"anyOf": [{"type": "object", "properties": {"a": INT}}, STR]}
    assert _found(nested, {"a": "x"}) == [Problem(("a",), "expected an integer, found a string", "type")]
    untyped = {"anyOf": [{"x-kubernetes-int-or-string": True, "anyOf": [INT, STR]}]}
    assert _found(untyped, [1]) == [Problem((), "expected another form, found a list", "type")]


def test_branches_that_name_no_type_are_another_form() -> None:
    schema = {"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}
    assert _found(schema, {"a": 1, "b": 2}) == [Problem((), "matches more than one of the allowed forms", "oneOf")]


def test_all_of_applies_every_schema() -> None:
    assert _found({"allOf": [{"type": "string", "minLength": 2}, {"pattern": "^a"}]}, "b") == [
        Problem((), "must be at least 2 characters long", "minLength"),
        Problem((), "'b' does not match the required format ^a", "pattern")]


# --- references -------------------------------------------------------------------------------

def test_a_reference_is_resolved_through_its_definitions_and_an_overlay_beats_them() -> None:
    schema = {"type": "object", "properties": {"meta": {"$ref": "#/$defs/Meta"}}}
    defs = {"Meta": CLOSED}
    assert _found(schema, {"meta": {"x": 1}}, defs=defs) == [
        Problem(("meta", "x"), "unknown field", "unknown", ("name", "size"))]
    assert _found(schema, {"meta": {"x": 1}}, defs=defs, overlay={"Meta": {"type": "object"}}) == []


def test_an_unresolvable_or_looping_reference_is_an_error_of_the_schema() -> None:
    with pytest.raises(KeyError, match="unresolvable schema reference #/\\$defs/Nope"):
        _found({"$ref": "#/$defs/Nope"}, 1)
    with pytest.raises(KeyError, match="schema reference loop at #/\\$defs/A"):
        _found({"$ref": "#/$defs/A"}, 1, defs={"A": {"$ref": "#/$defs/A"}})


def test_a_chain_of_64_references_resolves() -> None:
    defs = {f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(63)} | {"D63": STR}
    assert _found({"$ref": "#/$defs/D0"}, 1, defs=defs)[0].message.startswith("expected a string")
    longer = {f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(64)} | {"D64": STR}
    with pytest.raises(KeyError, match="schema reference loop at #/\\$defs/D64"):  # 65: taken for a loop
        _found({"$ref": "#/$defs/D0"}, 1, defs=longer)


# --- prune ------------------------------------------------------------------------------------

def test_prune_drops_what_a_closed_object_does_not_know_at_every_depth() -> None:
    schema = {"type": "object", "additionalProperties": False, "properties": {
        "items": {"type": "array", "items": CLOSED},
        "labels": {"type": "object", "additionalProperties": CLOSED},
        "open": {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "additionalProperties": False},
        "ref": {"$ref": "#/$defs/C"}}}
    value = {"items": [{"name": "a", "x": 1}], "labels": {"k": {"size": 1, "y": 2}}, "open": {"z": 3},
             "ref": {"name": "b", "w": 4}, "gone": 5}
    validator = Validator(schema, defs={"C": CLOSED})
    assert prune(validator, schema, value) == {"items": [{"name": "a"}], "labels": {"k": {"size": 1}},
                                               "open": {"z": 3}, "ref": {"name": "b"}}
    assert value["gone"] == 5  # the input is not changed


def test_prune_keeps_the_fields_of_an_object_not_closed_and_every_scalar() -> None:
    schema = {"type": "object", "properties": {"a": STR}}
    assert prune(Validator(schema), schema, {"a": "x", "b": 1}) == {"a": "x", "b": 1}
    assert prune(Validator(STR), STR, "x") == "x"
    assert prune(Validator({"type": "array"}), {"type": "array"}, [{"a": 1}]) == [{"a": 1}]


def test_base64_wrapped_over_lines_is_accepted_as_the_api_server_accepts_it() -> None:
    """A Secret's data is []byte, decoded by encoding/json (sigs.k8s.io/json is its fork) with
    base64.StdEncoding.Decode, and that decoder ignores "\\r" and "\\n" (Go encoding/base64, Encoding.Decode:
    "New line characters (\\r and \\n) are ignored"). So `base64` output wrapped at 76 columns, or a YAML
    block scalar with its final newline, is data the API server takes."""
    wrapped = "YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5emFiY2RlZmdo\naWprbA==\n"
    assert _found({"type": "string", "format": "byte"}, wrapped) == []
    assert _found({"type": "string", "format": "byte"}, "YWJj\r\nZA==") == []
