"""fluidgen/base/spectypes.py: the value types every spec model shares. Each type accepts what the
reader downstream accepts and refuses the rest with its own whole message: names by the API
server's rules (names.py, held by test_names.py; here only that each type uses the right rule),
quantities by Kubernetes' grammar and 2^63 bound (k8s.io/apimachinery v0.29.0
pkg/api/resource/quantity.go; quantity.py, held by test_quantity.py), sizes above zero and never a
bare small number, ratios in [0, 1], command lines split as a shell would or refused, mount and
cache paths absolute as Fluid needs them (pkg/utils/ufs_path_builder.go
GenUFSPathInUnifiedNamespace, v1.0.8 and master), and the strict, closed, frozen base model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from fluidgen.base import names, spectypes
from fluidgen.base.spectypes import Model


def _value(kind: Any, value: object) -> object:
    return TypeAdapter(kind).validate_python(value)


def _refusal(kind: Any, value: object) -> str:
    """The one problem pydantic reports: the validator's own message, else the error type."""
    with pytest.raises(ValidationError) as info:
        TypeAdapter(kind).validate_python(value)
    errors = info.value.errors(include_url=False)
    assert len(errors) == 1, errors
    error = errors[0].get("ctx", {}).get("error")
    return str(error) if error is not None else str(errors[0]["type"])


# --- names: each type reads the API server rule its field is checked with ---------------------

@pytest.mark.parametrize(("kind", "good", "bad", "rule"), [
    (spectypes.Name, "train.set-1", "Train", names.dns1123_subdomain),  # IsDNS1123Subdomain
    (spectypes.DatasetName, "imagenet", "1data", names.dns1035_label),  # IsDNS1035Label: "1data" is a subdomain
    (spectypes.Namespace, "team-a", "team.a", names.dns1123_label),  # IsDNS1123Label: "team.a" is a subdomain
    (spectypes.MountName, "_Mount.1", "a/b", names.mount_name),
    (spectypes.SecretKey, "fs.oss.accessKeyId", "..key", names.secret_key),  # IsConfigMapKey
    (spectypes.EnvName, "DATA_DIR", "1X", names.env_var_name),  # IsEnvVarName
    (spectypes.LabelKey, "example.com/Tier", "/tier", names.qualified_name),  # IsQualifiedName
    (spectypes.LabelValue, "", "a b", names.label_value),  # IsValidLabelValue: empty is a value
    (spectypes.NodeLabelValue, "Tesla-V100", "A100,V100", names.node_label_value),
])
def test_each_name_type_accepts_and_refuses_by_the_rule_of_its_field(kind: Any, good: str, bad: str,
                                                                      rule: Callable[[str], str | None]) -> None:
    """Each good value is one the other rules refuse, or each bad one passes another: a type that
    used another rule fails here."""
    assert _value(kind, good) == good
    assert _refusal(kind, bad) == rule(bad)


def test_node_label_values_take_one_value_or_a_list_and_tell_a_joined_list_to_be_a_list() -> None:
    assert _value(spectypes.NodeLabelValues, "A100") == ["A100"]
    assert _value(spectypes.NodeLabelValues, ["A100", "V100"]) == ["A100", "V100"]
    assert _refusal(spectypes.NodeLabelValues, "A100, V100") == (
        '"A100, V100" is not a valid label value (at most 63 letters, digits, "-", "_" and ".", starting and ending '
        "with a letter or digit); no node can carry it (k8s.io/apimachinery/pkg/util/validation IsValidLabelValue), "
        "so no node would match; for several values write a list: [A100, V100]")


def test_a_single_node_selector_value_is_not_told_to_be_a_list() -> None:
    """A nodeSelector maps a key to one value: the list hint belongs to affinity values only."""
    assert not _refusal(spectypes.NodeLabelValue, "A100,V100").endswith("write a list: [A100, V100]")
    assert _refusal(spectypes.NodeSelector, {"gpu": "A100,V100"}).endswith("so no node would match")


def test_a_node_selector_checks_its_keys_as_label_keys() -> None:
    assert _value(spectypes.NodeSelector, {"nvidia.com/gpu.product": "A100"}) == {"nvidia.com/gpu.product": "A100"}
    assert _refusal(spectypes.NodeSelector, {"-gpu": "A100"}) == (
        '"-gpu" is not a valid key (a name of at most 63 letters, digits, "-", "_" and ".", starting and ending '
        "with a letter or digit, after an optional prefix/)")


# --- choice -----------------------------------------------------------------------------------

def test_a_choice_takes_its_values_and_names_them_all_with_a_suggestion_otherwise() -> None:
    kind = spectypes.choice(("alluxio", "juicefs"))
    assert _value(kind, "juicefs") == "juicefs"
    assert _refusal(kind, "juicfs") == "expected one of 'alluxio', 'juicefs', got 'juicfs'; did you mean \"juicefs\"?"
    assert _refusal(kind, "x") == "expected one of 'alluxio', 'juicefs', got 'x'"
    assert _refusal(kind, 1) == "string_type"


def test_a_choice_publishes_its_values_as_a_json_schema_enum() -> None:
    assert TypeAdapter(spectypes.choice(("a", "b"))).json_schema() == {"type": "string", "enum": ["a", "b"]}


# --- quantities and sizes --------------------------------------------------------------------

@pytest.mark.parametrize(("given", "kept"), [
    ("100m", "100m"), ("1.5", "1.5"), ("2", "2"), (2, "2"), (0, "0"), ("1e3", "1e3"), ("-1", "-1"),
    (2**63 - 1, str(2**63 - 1)),  # the largest quantity Kubernetes keeps
])
def test_a_quantity_is_any_kubernetes_quantity_kept_as_written_and_an_integer_becomes_its_text(
        given: object, kept: str) -> None:
    assert _value(spectypes.Quantity, given) == kept


@pytest.mark.parametrize(("given", "problem"), [
    ("4GB", '"4GB" is not a Kubernetes quantity; write "4Gi" (binary) or "4G" (decimal)'),
    ("1 Gi", '"1 Gi" is not a Kubernetes quantity: remove the spaces'),
    (2**63, f'"{2**63}" is larger than a Kubernetes quantity can be (at most 2^63)'),  # past 2^63-1
    ("8Ei", '"8Ei" is larger than a Kubernetes quantity can be (at most 2^63)'),  # 2^63 exactly
    (True, "string_type"),  # YAML true is no number: never read as 1
    (0.5, "string_type"),  # a float is not taken as a quantity's text (the schema says int or string)
])
def test_a_quantity_outside_the_grammar_or_the_bound_is_refused_with_the_fix(given: object, problem: str) -> None:
    assert _refusal(spectypes.Quantity, given) == problem


@pytest.mark.parametrize(("given", "kept"), [
    ("10Gi", "10Gi"), ("180G", "180G"), ("1.5Ti", "1.5Ti"), (2**20, "1048576"), ("1048576", "1048576"),
    ("512Ki", "512Ki"), ("1e7", "1e7"), ("0.5Gi", "0.5Gi"),  # a byte multiple, or a bare value from 2^20 up
])
def test_a_size_is_a_positive_quantity_and_a_bare_number_only_from_a_mebibyte_up(given: object, kept: str) -> None:
    assert _value(spectypes.Size, given) == kept


@pytest.mark.parametrize(("given", "problem"), [
    ("0", '"0" is not a usable size; give a positive one such as 10Gi'),
    (0, '"0" is not a usable size; give a positive one such as 10Gi'),
    ("-1Gi", '"-1Gi" is not a usable size; give a positive one such as 10Gi'),
    ("0Gi", '"0Gi" is not a usable size; give a positive one such as 10Gi'),
    (50, "50 without a unit is 50 bytes; did you mean 50Gi? (write the unit: 50Gi, 50Mi or 50G)"),
    ("1048575", "1048575 without a unit is 1048575 bytes; did you mean 1048575Gi? "
                "(write the unit: 1048575Gi, 1048575Mi or 1048575G)"),  # one byte below 2^20
    ("100GB", '"100GB" is not a Kubernetes quantity; write "100Gi" (binary) or "100G" (decimal)'),
    ("500m", '"500m" is 0.5 bytes; a size that holds data has a unit such as Gi or Mi (10Gi)'),  # m is milli
    ("+50", '"+50" is 50 bytes; a size that holds data has a unit such as Gi or Mi (10Gi)'),
    ("1e3", '"1e3" is 1000 bytes; a size that holds data has a unit such as Gi or Mi (10Gi)'),
    ("1.5", '"1.5" is 1.5 bytes; a size that holds data has a unit such as Gi or Mi (10Gi)'),
])
def test_a_size_that_cannot_hold_data_or_forgets_its_unit_is_refused(given: object, problem: str) -> None:
    assert _refusal(spectypes.Size, given) == problem


def test_a_size_list_takes_one_size_or_several_and_checks_each() -> None:
    assert _value(spectypes.SizeList, "10Gi") == ["10Gi"]
    assert _value(spectypes.SizeList, ["10Gi", 2**30]) == ["10Gi", "1073741824"]
    assert _refusal(spectypes.SizeList, ["10Gi", 5]) == (
        "5 without a unit is 5 bytes; did you mean 5Gi? (write the unit: 5Gi, 5Mi or 5G)")
    assert _refusal(spectypes.SizeList, []) == "too_short"


# --- ratios -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("given", "kept"), [
    (0.95, "0.95"), ("0.7", "0.7"), (0, "0"), (1, "1"), (1.0, "1.0"), ("0", "0"), ("1", "1"), ("1e-1", "1e-1"),
])
def test_a_ratio_is_a_number_from_0_to_1_kept_as_its_text(given: object, kept: str) -> None:
    """Fluid hands the watermarks on as strings (api/v1alpha1 Level.High/Low are strings): the text is kept."""
    assert _value(spectypes.Ratio, given) == kept


@pytest.mark.parametrize("given", ["0.0_1", "0_0.5", " 0.5", "0.5\n"])
def test_a_ratio_is_written_as_a_plain_decimal_number_the_engines_can_read(given: str) -> None:
    """Python's float() takes digit separators and surrounding spaces; the ratio is passed on as
    written, to readers that take neither: JuiceFS gets the low watermark as its free-space-ratio
    mount option (fluid-src v1.0.8 and master pkg/ddc/juicefs/transform_fuse.go genMountOptions), a Go
    flag read with strconv.ParseFloat (underscores only after a base prefix, no spaces); the Jindo
    engines write both as the storage.watermark.*.ratio properties (pkg/ddc/jindo/transform.go
    transformWorker, jindofsx the same), read by Java's Double.parseDouble (no underscores)."""
    assert _refusal(spectypes.Ratio, given) == f'"{given}" is not a ratio between 0 and 1'


@pytest.mark.parametrize(("given", "problem"), [
    (1.5, "1.5 is not a ratio between 0 and 1"), (-0.1, "-0.1 is not a ratio between 0 and 1"),
    (2, "2 is not a ratio between 0 and 1"), ("95%", '"95%" is not a ratio between 0 and 1'),
    ("nan", '"nan" is not a ratio between 0 and 1'), (True, "string_type"),
])
def test_a_ratio_outside_0_to_1_or_not_a_number_is_refused(given: object, problem: str) -> None:
    assert _refusal(spectypes.Ratio, given) == problem


# --- lists of strings and command lines ------------------------------------------------------

def test_a_string_list_takes_one_string_as_a_list_of_one() -> None:
    assert _value(spectypes.StrList, "a") == ["a"]
    assert _value(spectypes.StrList, ["a", "b"]) == ["a", "b"]


@pytest.mark.parametrize(("line", "argv"), [
    ("./launch.sh 4 8", ["./launch.sh", "4", "8"]),
    ("python train.py --name 'my run'", ["python", "train.py", "--name", "my run"]),
    ('echo "a b"  c', ["echo", "a b", "c"]),
    ("", []),
])
def test_a_command_line_is_split_as_a_shell_splits_it(line: str, argv: list[str]) -> None:
    assert _value(spectypes.Argv, line) == argv


def test_a_command_given_as_a_list_is_kept_whole() -> None:
    assert _value(spectypes.Argv, ["sh", "-c", "a | b"]) == ["sh", "-c", "a | b"]


@pytest.mark.parametrize("line", [
    "a | b", "a && b", "a; b", "a > f", "a < f", "(a)", "echo $HOME", "echo `id`", "ls *.py", "ls ?", "cd ~",
    "a \\\nb", "a\nb",
])
def test_a_command_line_that_needs_a_shell_is_refused_with_the_list_that_runs_it_in_one(line: str) -> None:
    assert _refusal(spectypes.Argv, line) == (
        f'{line!r} needs a shell to run (it uses shell syntax); write it as a list: ["sh", "-c", {line!r}]')


@pytest.mark.parametrize("line", ["python train.py --lr 0.1  # tuned", "#run", "FOO=1 python train.py",
                                  "  A_B=x y"])
def test_a_comment_or_a_leading_variable_assignment_needs_a_shell(line: str) -> None:
    """POSIX Shell Command Language 2.3 (Token Recognition) rule 10: a word beginning with "#" starts a
    comment, dropped with the rest of the line; 2.9.1 (Simple Commands): words of the form NAME=value
    before the command name are assignments for its environment. Split as argv, the comment would
    become arguments and the assignment the program to run (a container that cannot start)."""
    assert _refusal(spectypes.Argv, line) == (
        f'{line!r} needs a shell to run (it uses shell syntax); write it as a list: ["sh", "-c", {line!r}]')


@pytest.mark.parametrize(("line", "argv"), [
    ("echo a#b", ["echo", "a#b"]),  # "#" inside a word is no comment
    ("train --lr=0.1 X=1", ["train", "--lr=0.1", "X=1"]),  # after the command name: arguments
    ("1=2 x", ["1=2", "x"]),  # no NAME: a name starts with a letter or "_", so a shell runs "1=2" too
])
def test_a_hash_inside_a_word_and_an_assignment_after_the_command_are_plain_arguments(line: str,
                                                                                       argv: list[str]) -> None:
    assert _value(spectypes.Argv, line) == argv


def test_a_command_line_with_an_open_quote_is_refused_with_the_reason() -> None:
    assert _refusal(spectypes.Argv, "echo 'a b") == (
        "\"echo 'a b\" cannot be split into arguments (No closing quotation); write it as a list of strings")


# --- paths ------------------------------------------------------------------------------------

def test_a_cache_directory_is_absolute_and_a_relative_one_is_told_its_absolute_form() -> None:
    assert _value(spectypes.AbsolutePaths, "/mnt/ssd") == ["/mnt/ssd"]
    assert _refusal(spectypes.AbsolutePaths, ["/a", "mnt/ssd"]) == (
        '"mnt/ssd" is a relative path; a cache directory on the node is absolute: "/mnt/ssd"')


def test_a_relative_mount_path_is_refused_because_fluid_mounts_it_at_the_name() -> None:
    """Fluid takes mounts[].path only when filepath.IsAbs, else /<name> (pkg/utils/ufs_path_builder.go
    GenUFSPathInUnifiedNamespace, the same at v1.0.8 and master)."""
    assert _value(spectypes.MountPath, "/imagenet") == "/imagenet"
    assert _refusal(spectypes.MountPath, "imagenet") == (
        '"imagenet" is a relative path; Fluid ignores a mount path that is not absolute and mounts at /<name> '
        "instead (pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace (every version)): write \"/imagenet\"")
    # an empty path is told to leave it out, not to write "/" (the root, another place)
    assert _refusal(spectypes.MountPath, "") == (
        "an empty path is no path: Fluid mounts at /<name> (pkg/utils/ufs_path_builder.go "
        'GenUFSPathInUnifiedNamespace (every version)); leave path out for that, or write an absolute path such as '
        '"/data"')


def test_a_path_in_the_cache_namespace_is_rooted_at_slash() -> None:
    assert _value(spectypes.CachePath, "/") == "/"
    assert _refusal(spectypes.CachePath, "train") == (
        '"train" is a relative path; a path in the cache namespace starts with "/", where the mounts sit '
        "(/<mount name> or the mount's path: pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace "
        '(every version)): write "/train"')


# --- durations and integers ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "ok"), [
    ("1h", True), ("30m", True), ("1h30m", True), ("0s", True), ("1.5h", True), ("300ms", True), ("2µs", True),
    ("10us", True), ("5ns", True), ("3\u03bcs", True),
    ("0", True), (".5h", True), ("1.h", True),  # "0" alone; digits before or after the point suffice
    ("1d", False),  # Go's time.ParseDuration has no day unit
    ("h", False), ("1", False), ("00", False), (".h", False), ("1h ", False), ("", False),
    ("-1h", False),  # Go reads it, but no interval fluidgen writes is negative
])
def test_a_duration_is_a_go_duration_string(text: str, ok: bool) -> None:
    """Go time.ParseDuration (src/time/format.go): "0" alone, else numbers each with a unit (ns, us,
    µs or μs, ms, s, m, h) and digits before or after an optional point."""
    if ok:
        assert _value(spectypes.Duration, text) == text
    else:
        hint = "; Go has no unit 'd' (a day is 24h)" if text == "1d" else ""
        assert _refusal(spectypes.Duration, text) == f'"{text}" is not a Go duration such as 1h, 30m, 1h30m or 0s{hint}'


def test_the_published_duration_pattern_is_the_one_checked() -> None:
    """The JSON schema's pattern (editors check with it) and the validator's are one."""
    from pydantic import TypeAdapter

    assert TypeAdapter(spectypes.Duration).json_schema() == {"type": "string", "pattern": spectypes._DURATION}


@pytest.mark.parametrize(("kind", "low", "high"), [(spectypes.Replicas, 1, 2**31 - 1), (spectypes.Int32, 0, 2**31 - 1)])
def test_replicas_and_int32_are_bounded_as_the_int32_fields_they_fill(kind: Any, low: int, high: int) -> None:
    assert _value(kind, low) == low and _value(kind, high) == high
    assert _refusal(kind, low - 1) == "greater_than_equal"
    assert _refusal(kind, high + 1) == "less_than_equal"


def test_a_policy_is_one_of_fluids_three() -> None:
    """api/v1alpha1 policy: Once, Cron, OnEvent."""
    assert [_value(spectypes.Policy, p) for p in ("Once", "Cron", "OnEvent")] == ["Once", "Cron", "OnEvent"]
    assert _refusal(spectypes.Policy, "once") == "literal_error"


# --- the base model ---------------------------------------------------------------------------

class _Thing(Model):
    name: str
    count: int = 0


def test_the_base_model_refuses_unknown_keys_and_coerces_nothing() -> None:
    assert _Thing.model_validate({"name": "a", "count": 2}) == _Thing(name="a", count=2)
    with pytest.raises(ValidationError) as info:
        _Thing.model_validate({"name": 1, "count": "2", "extra": True})
    assert [(e["loc"], e["type"]) for e in info.value.errors()] == [
        (("name",), "string_type"), (("count",), "int_type"), (("extra",), "extra_forbidden")]


def test_the_base_model_is_frozen() -> None:
    thing = _Thing(name="a")
    with pytest.raises(ValidationError) as info:
        thing.name = "b"  # type: ignore[misc]
    assert info.value.errors()[0]["type"] == "frozen_instance"
