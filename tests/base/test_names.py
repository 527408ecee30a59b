"""fluidgen/base/names.py: the naming rules of the Kubernetes API server and of Fluid.

Each accepted or refused value below is read off the Kubernetes rule it mirrors, in
k8s.io/apimachinery at tag v0.29.0 (the k8s.io/api minor Fluid v1.0.8 and master build
against: go.mod `k8s.io/api v0.29.15`), pkg/util/validation/validation.go, never off fluidgen:
IsDNS1123Label (dns1123LabelFmt `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, DNS1123LabelMaxLength 63),
IsDNS1123Subdomain (labels joined by ".", DNS1123SubdomainMaxLength 253), IsDNS1035Label
(`[a-z]([-a-z0-9]*[a-z0-9])?`, 63), IsQualifiedName (an optional DNS-1123-subdomain prefix and
"/", a name of at most 63 matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`),
IsValidLabelValue (that name form or empty, at most 63), IsConfigMapKey (`[-._a-zA-Z0-9]+`, at
most 253), IsEnvVarName (`[-._a-zA-Z][-._a-zA-Z0-9]*`). The messages are fluidgen's own, the
ones users see, and are pinned whole where a test names them.
"""

from __future__ import annotations

import pytest

from fluidgen.base import names


@pytest.mark.parametrize(("value", "ok"), [
    ("a", True), ("0", True), ("a-0", True), ("0-a", True), ("a" * 63, True),
    ("a" * 64, False),  # DNS1123LabelMaxLength
    ("", False), ("A", False), ("-a", False), ("a-", False), ("a.b", False), ("a_b", False),
])
def test_a_dns1123_label_is_what_is_dns1123_label_accepts(value: str, ok: bool) -> None:
    """IsDNS1123Label: lower-case alphanumerics and "-", alphanumeric at both ends, at most 63."""
    assert (names.dns1123_label(value) is None) is ok


def test_a_dns1123_label_problem_names_the_value_and_the_rule() -> None:
    assert names.dns1123_label("My_ns") == (
        '"My_ns" is not a DNS-1123 label (at most 63 lower-case letters, digits and "-", '
        "starting and ending with a letter or digit)")


@pytest.mark.parametrize(("value", "ok"), [
    ("a", True), ("a.b", True), ("a-1.b-2.c", True), ("0.0", True),
    ("a" * 253, True),  # only the whole length counts: no per-label limit in IsDNS1123Subdomain
    ("a" * 254, False),  # DNS1123SubdomainMaxLength
    ("", False), ("a..b", False), (".a", False), ("a.", False), ("a.-b", False), ("A.b", False), ("a_b", False),
])
def test_a_kubernetes_name_is_what_is_dns1123_subdomain_accepts(value: str, ok: bool) -> None:
    """IsDNS1123Subdomain: dns1123LabelFmt + (\\. + dns1123LabelFmt)*, at most 253 characters."""
    assert (names.dns1123_subdomain(value) is None) is ok


def test_a_kubernetes_name_problem_names_the_value_and_the_rule() -> None:
    assert names.dns1123_subdomain("Train.Set") == (
        '"Train.Set" is not a valid Kubernetes name (a DNS-1123 subdomain: at most 253 lower-case '
        'letters, digits, "-" and ".", starting and ending with a letter or digit)')


@pytest.mark.parametrize(("value", "ok"), [
    ("a", True), ("a0", True), ("a-b-0", True), ("a" * 63, True),
    ("a" * 64, False),  # DNS1035LabelMaxLength
    ("0a", False),  # a DNS-1123 label, not a DNS-1035 one: it starts with a digit
    ("", False), ("a-", False), ("a.b", False), ("Ab", False),
])
def test_a_dns1035_label_starts_with_a_letter(value: str, ok: bool) -> None:
    """IsDNS1035Label: `[a-z]([-a-z0-9]*[a-z0-9])?`, at most 63."""
    assert (names.dns1035_label(value) is None) is ok


def test_a_dns1035_problem_says_fluid_refuses_the_name() -> None:
    """Fluid checks Dataset and runtime names with IsDNS1035Label (fluid-src v1.0.8 and master:
    pkg/controllers/runtime_controller.go ReconcileInternal, pkg/controllers/v1alpha1/dataset/
    dataset_controller.go reconcileDataset)."""
    assert names.dns1035_label("1data") == (
        '"1data" is not a DNS-1035 label (at most 63 lower-case letters, digits and "-", starting '
        "with a letter, ending with a letter or digit); Fluid refuses such Dataset and runtime names")


@pytest.mark.parametrize(("value", "ok"), [
    ("MyName", True), ("my.name", True), ("123-abc", True), ("a_b", True), ("example.com/MyName", True),
    ("a" * 63, True), ("p/" + "a" * 63, True),
    ("a" * 64, False),  # name part: at most 63
    ("", False), ("a/", False), ("-a", False), ("a.", False), ("a b", False),
    ("Example.com/a", False), ("a_b/c", False),  # the prefix is a DNS-1123 subdomain
    ("a/b/c", False),  # more than one "/"
])
def test_a_label_or_annotation_key_is_what_is_qualified_name_accepts(value: str, ok: bool) -> None:
    """IsQualifiedName, the examples its messages give included (MyName, my.name, 123-abc)."""
    assert (names.qualified_name(value) is None) is ok


def test_a_key_with_a_bad_prefix_is_told_about_the_prefix_not_the_name() -> None:
    assert names.qualified_name("Team.io/owner") == \
        '"Team.io/owner" has an invalid prefix "Team.io" (it must be a DNS-1123 subdomain)'
    assert names.qualified_name("team.io/-owner") == (
        '"team.io/-owner" is not a valid key (a name of at most 63 letters, digits, "-", "_" and ".", '
        "starting and ending with a letter or digit, after an optional prefix/)")


@pytest.mark.parametrize(("value", "ok"), [
    ("", True),  # labelValueFmt is "(" + qualifiedNameFmt + ")?": empty is a value
    ("MyValue", True), ("my_value", True), ("12345", True), ("a" * 63, True),
    ("a" * 64, False), ("-a", False), ("a_", False), ("a/b", False), ("a b", False),
])
def test_a_label_value_may_be_empty_and_has_no_prefix(value: str, ok: bool) -> None:
    """IsValidLabelValue, with the examples its message gives (MyValue, my_value, 12345)."""
    assert (names.label_value(value) is None) is ok


def test_a_label_value_problem_names_the_value_and_the_rule() -> None:
    assert names.label_value("a/b") == (
        '"a/b" is not a valid label value (at most 63 letters, digits, "-", "_" and ".", '
        "starting and ending with a letter or digit)")


def test_a_node_label_value_no_node_can_carry_says_so_and_cites_kubernetes() -> None:
    assert names.node_label_value("ssd") is None
    assert names.node_label_value("fast disk") == (
        '"fast disk" is not a valid label value (at most 63 letters, digits, "-", "_" and ".", '
        "starting and ending with a letter or digit); no node can carry it "
        "(k8s.io/apimachinery/pkg/util/validation IsValidLabelValue), so no node would match")


@pytest.mark.parametrize(("value", "several", "hint"), [
    ("a;b", True, "; for several values write a list: [a, b]"),  # ";" splits as "," does
    ("a, b;c", True, "; for several values write a list: [a, b, c]"),
    ("a,b", False, ""),  # where one value is all the field takes, no list is offered
    ("a,-b", True, ""),  # "-b" is no label value either: a list of it would not help
    ("a b", True, ""),  # one part only
    ("a,", True, ""),  # one value and a stray separator: a list of one is no fix
])
def test_a_list_is_offered_only_where_a_list_is_allowed_and_every_part_is_a_value(
        value: str, several: bool, hint: str) -> None:
    problem = names.node_label_value(value, several)
    assert problem is not None
    assert problem.endswith("so no node would match" + hint)


@pytest.mark.parametrize(("value", "ok"), [
    ("key.name", True), ("KEY_NAME", True), ("key-name", True), ("a" * 253, True),
    ("a" * 254, False), ("", False), ("a/b", False), ("a b", False), ("a:b", False),
])
def test_a_secret_key_is_what_is_configmap_key_accepts(value: str, ok: bool) -> None:
    """IsConfigMapKey (ConfigMap and Secret keys), with the examples its message gives."""
    assert (names.secret_key(value) is None) is ok


def test_a_secret_key_problem_names_the_value_and_the_rule() -> None:
    assert names.secret_key("a/b") == \
        '"a/b" is not a valid Secret key (letters, digits, "-", "_" and ".", at most 253, not "." and not ' \
        'starting with "..")'


@pytest.mark.parametrize(("value", "ok"), [
    ("my.env-name", True), ("MY_ENV.NAME", True), ("MyEnvName1", True), ("_X", True), ("-x", True),
    ("1X", False), ("", False), ("A=B", False), ("A B", False), ("É", False),
])
def test_an_env_var_name_is_what_is_env_var_name_accepts(value: str, ok: bool) -> None:
    """IsEnvVarName, with the examples its message gives (my.env-name, MY_ENV.NAME, MyEnvName1)."""
    assert (names.env_var_name(value) is None) is ok


def test_an_env_var_name_problem_says_not_starting_with_a_digit() -> None:
    assert names.env_var_name("9LIVES") == (
        '"9LIVES" is not a valid environment variable name (letters, digits, "_", "-" and ".", not '
        'starting with a digit, not "." and not starting with "..")')


@pytest.mark.parametrize(("value", "ok"), [
    ("train", True), ("Train_2", True), ("_a", True), ("a.b", True), ("a..", True), ("a" * 253, True),
    (".", False), ("..", False), ("a/b", False), ("", False), ("a" * 254, False),
    ("-a", False), (".a", False), ("..a", False),  # fluidgen's own, stricter: starts with a letter, digit or "_"
])
def test_a_mount_name_is_one_path_component(value: str, ok: bool) -> None:
    """Fluid mounts a named mount at /<name> (fluid-src v1.0.8 pkg/utils/ufs_path_builder.go
    GenUFSPathInUnifiedNamespace: common.UFSMountPathFormat, "/%s"), so a name is one path
    component: no "/", not "." or ".."; the first character is a letter, digit or "_" (fluidgen's
    MOUNT_NAME)."""
    assert (names.mount_name(value) is None) is ok


def test_a_mount_name_problem_shows_the_directory_it_would_become() -> None:
    assert names.mount_name("..") == (
        '".." is not a valid mount name: it becomes the directory /.., so use letters, '
        'digits, "-", "_" and "." (no "/" and not "." or "..")')


def test_metadata_without_a_name_is_told_the_name_is_required() -> None:
    for meta in ({}, {"name": ""}, {"name": 5}):
        assert names.metadata_problems(meta, "dns1123-subdomain") == \
            [(("metadata", "name"), "metadata.name is required")]


@pytest.mark.parametrize(("name", "rule", "ok"), [
    ("a.b", "dns1123-subdomain", True), ("a.b", "anything-else", True),  # the subdomain is the default
    ("a.b", "dns1123-label", False), ("0ab", "dns1123-label", True),
    ("0ab", "dns1035", False), ("ab", "dns1035", True),
])
def test_the_name_rule_picks_the_kubernetes_check(name: str, rule: str, ok: bool) -> None:
    """Kubernetes names most objects with NameIsDNSSubdomain, some with NameIsDNSLabel or
    NameIsDNS1035Label (k8s.io/apimachinery v0.29.0 pkg/api/validation/generic.go)."""
    problems = names.metadata_problems({"name": name}, rule)
    assert (problems == []) is ok
    assert all(path == ("metadata", "name") for path, _ in problems)


def test_a_namespace_is_a_dns1123_label() -> None:
    """ValidateNamespaceName = NameIsDNSLabel (pkg/api/validation/generic.go), so "a.b", a good
    object name, is no namespace; a namespace left out is no problem (the API server defaults it)."""
    assert names.metadata_problems({"name": "a", "namespace": "a.b"}, "") == [
        (("metadata", "namespace"), '"a.b" is not a DNS-1123 label (at most 63 lower-case letters, digits and "-", '
                                     "starting and ending with a letter or digit)")]
    assert names.metadata_problems({"name": "a"}, "") == []
    assert names.metadata_problems({"name": "a", "namespace": 7}, "") == []  # not a string: the schema's to say


def test_labels_check_key_and_value_and_annotations_check_only_the_key() -> None:
    """ValidateLabels checks keys (IsQualifiedName) and values (IsValidLabelValue);
    ValidateAnnotations checks keys only: an annotation's value is any string."""
    meta = {"name": "a",
            "labels": {"ok": "v", "bad key": "v", "team": "a b"},
            "annotations": {"note": "any text: at all", "bad key": "v"}}
    assert [path for path, _ in names.metadata_problems(meta, "")] == [
        ("metadata", "labels", "bad key"), ("metadata", "labels", "team"), ("metadata", "annotations", "bad key")]
    assert names.metadata_problems({"name": "a", "labels": ["x"], "annotations": "y"}, "") == []


def test_a_key_with_an_empty_prefix_is_refused() -> None:
    """IsQualifiedName: `if len(prefix) == 0 { errs = append(errs, "prefix part "+EmptyError()) }`."""
    assert names.qualified_name("/owner") == \
        '"/owner" has an empty prefix before "/" (write the key without "/", or prefix it with a domain)'
    assert names.qualified_name("example.com/owner") is None and names.qualified_name("owner") is None


@pytest.mark.parametrize("value", [".", "..", "..data"])
def test_a_secret_key_or_env_var_name_may_not_be_a_directory_step(value: str) -> None:
    """IsConfigMapKey and IsEnvVarName both append hasChDirPrefix(value): not ".", not "..", not
    starting with ".." (k8s.io/apimachinery/pkg/util/validation); "a..b" and ".x" stay valid."""
    assert names.secret_key(value) is not None and names.env_var_name(value) is not None
    assert names.secret_key(".x") is None and names.secret_key("a..b") is None
    assert names.env_var_name(".x") is None and names.env_var_name("a..b") is None
