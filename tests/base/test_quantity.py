"""fluidgen/base/quantity.py: Kubernetes quantities as Fluid's CRDs and controllers read them
(the form, the value in base units, the 2^63 bound), JVM sizes, CPU millicores, and the hints
users read when a size is not a quantity.

The form and the suffixes are Kubernetes' own: k8s.io/apimachinery v0.29.0
pkg/api/resource/quantity.go, the grammar in the Quantity doc comment:
<signedNumber><suffix>, <number> ::= <digits> | <digits>.<digits> | <digits>. | .<digits>,
<binarySI> ::= Ki | Mi | Gi | Ti | Pi | Ei (powers of 1024), <decimalSI> ::= n | u | m | "" | k |
M | G | T | P | E (powers of 1000: "1024 = 1Ki but 1000 = 1k"), <decimalExponent> ::= "e" or "E"
then a signed number; and "no quantity may represent a number greater than 2^63-1 in magnitude".
The expected values below are worked out by hand from those rules.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from fluidgen.base import quantity
from tests.conftest import SHARED


@pytest.mark.parametrize("text", [
    "1", "0", "+1", "-1", "1.", ".5", "1.5", "1Ki", "1.5Gi", "2Ti", "3Pi", "1Ei", "1n", "1u", "1m", "1k", "1M",
    "1G", "1T", "1P", "1E", "1e3", "1E3", "1e+3", "1e-3", "1.5e3", ".5e1",
])
def test_every_form_of_the_kubernetes_grammar_is_a_quantity(text: str) -> None:
    assert quantity.is_quantity(text)


@pytest.mark.parametrize("text", [
    "", ".", "+", "Gi", "1K",  # decimal kilo is a lower-case k only
    "1ki", "1GB", "1gi", "1 Gi", " 1Gi", "1Gi ", "1e", "1e+", "1.2.3", "1b", "--1", "1Gi1",
])
def test_what_the_grammar_does_not_produce_is_no_quantity(text: str) -> None:
    assert not quantity.is_quantity(text)


def test_the_quantity_pattern_is_the_one_fluids_crds_carry() -> None:
    """Fluid's CRDs render every quantity field with this pattern (controller-gen's rendering of
    resource.Quantity), e.g. the tiered store quota and resources of data.fluid.io_alluxioruntimes.yaml."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        crd = SHARED / "fluid-crds" / version / "data.fluid.io_alluxioruntimes.yaml"
        if not crd.is_file():
            pytest.skip(f"shared test data missing: {crd}")
        assert f"pattern: {quantity.QUANTITY_RE.pattern}\n" in crd.read_text()


@pytest.mark.parametrize(("text", "value"), [
    ("1Ki", 1024), ("1.5Gi", 1610612736), ("2Ti", 2199023255552), ("1Pi", 1125899906842624),
    ("1k", 1000), ("1.5M", 1500000), ("180G", 180000000000), ("2T", 2 * 10**12), ("1P", 10**15), ("8E", 8 * 10**18),
    ("500m", Decimal("0.5")), ("2u", Decimal("0.000002")), ("2n", Decimal("0.000000002")),
    ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1.5e3", 1500), ("1e-3", Decimal("0.001")),
    ("-1Mi", -1048576), ("+2k", 2000), ("1.", 1), (".5", Decimal("0.5")), ("42", 42), (42, 42), (-3, -3),
])
def test_a_quantity_is_read_in_base_units_as_kubernetes_does(text: str | int, value: int | Decimal) -> None:
    assert quantity.to_bytes(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ("9223372036854775807", 2**63 - 1), ("-9223372036854775807", -(2**63 - 1)), (2**63 - 1, 2**63 - 1),
    ("8191Pi", 8191 * 2**50),  # 2^63 - 2^50
])
def test_a_quantity_up_to_two_to_the_63_minus_one_is_accepted(text: str | int, value: int) -> None:
    assert quantity.to_bytes(text) == value


@pytest.mark.parametrize(("text", "message"), [
    ("9223372036854775808", '"9223372036854775808" is larger than a Kubernetes quantity can be (at most 2^63)'),
    ("-9223372036854775808", '"-9223372036854775808" is larger than a Kubernetes quantity can be (at most 2^63)'),
    ("8192Pi", '"8192Pi" is larger than a Kubernetes quantity can be (at most 2^63)'),  # 2^63 exactly
    ("9.3E", '"9.3E" is larger than a Kubernetes quantity can be (at most 2^63)'),
    ("1e999", '"1e999" is out of the range of a Kubernetes quantity (at most 2^63)'),
    (2**63, "9223372036854775808 is larger than a Kubernetes quantity can be"),
    (-(2**63), "-9223372036854775808 is larger than a Kubernetes quantity can be"),
])
def test_a_quantity_past_two_to_the_63_is_refused_with_the_bound(text: str | int, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        quantity.to_bytes(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(("text", "message"), [
    ("100GB", '"100GB" is not a Kubernetes quantity; write "100Gi" (binary) or "100G" (decimal)'),
    ("1.5 gib", '"1.5 gib" is not a Kubernetes quantity; write "1.5Gi" (binary) or "1.5G" (decimal)'),
    ("2TB", '"2TB" is not a Kubernetes quantity; write "2Ti" (binary) or "2T" (decimal)'),
    ("10 Gi", '"10 Gi" is not a Kubernetes quantity: remove the spaces'),
    ("10Gi\t", '"10Gi\t" is not a Kubernetes quantity: remove the spaces'),
    ("lots", '"lots" is not a Kubernetes quantity (examples: 100Gi, 500Mi, 180G)'),
    ("0" * 65, f'"{"0" * 65}" is not a Kubernetes quantity (examples: 100Gi, 500Mi, 180G)'),  # over 64: never read
])
def test_a_string_that_is_no_quantity_is_refused_with_the_likely_fix(text: str, message: str) -> None:
    """A byte unit ("GB", "GiB") is not a suffix of the grammar; the hint offers the binary and the
    decimal suffix of the same letter."""
    assert quantity.quantity_hint(text) == message
    with pytest.raises(ValueError) as caught:
        quantity.to_bytes(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(("text", "size"), [
    ("512m", 512 * 2**20), ("512M", 512 * 2**20), ("16G", 16 * 2**30), ("32g", 32 * 2**30), ("1024k", 2**20),
    ("1024K", 2**20), ("1t", 2**40), ("100", 100), ("9" * 19, int("9" * 19)),
])
def test_a_jvm_size_is_read_in_powers_of_1024(text: str, size: int) -> None:
    """The java launcher's -Xmx/-Xms/-XX:MaxDirectMemorySize sizes: a number of bytes, or with k/K,
    m/M, g/G (the `java` tool reference, "-Xmx size"), and t/T (HotSpot arguments.cpp atojulong),
    each a power of 1024 (atojulong: "case 'T': case 't': n * G * K")."""
    assert quantity.java_size_to_bytes(text) == size


@pytest.mark.parametrize("text", ["", "g", "1.5g", "1gb", "1Gi", "-1g", "1p", "1 g", "9" * 20])
def test_what_the_jvm_would_not_read_as_a_size_is_none(text: str) -> None:
    assert quantity.java_size_to_bytes(text) is None


@pytest.mark.parametrize(("value", "millis"), [
    ("500m", 500), ("1", 1000), ("1.5", 1500), ("0.25", 250), ("2k", 2000000), ("-500m", -500),
    (2, 2000), (1.5, 1500), (0, 0),
])
def test_a_cpu_quantity_is_read_in_millicores(value: str | int | float, millis: int) -> None:
    """A CPU of 1 is 1000m (the m suffix is 10^-3)."""
    assert quantity.cpu_to_millis(value) == millis


@pytest.mark.parametrize("value", [
    True, False,  # YAML's booleans are ints to Python: never a CPU count
    float("nan"), float("inf"), "two", "1 cpu", "", 2**63, "9223372036854775808",
])
def test_what_is_no_cpu_quantity_reads_as_none(value: str | int | float) -> None:
    assert quantity.cpu_to_millis(value) is None


def test_an_exbibyte_is_a_binary_suffix_not_an_exponent() -> None:
    """<binarySI> ::= Ki | Mi | Gi | Ti | Pi | Ei (apimachinery resource/quantity.go): 1Ei = 2^60,
    inside the 2^63 bound; 1E is an exa and 1e3 an exponent; an exponent is an integer, so 1e1.5
    is malformed, not out of range."""
    assert quantity.to_bytes("1Ei") == 2**60 and quantity.to_bytes("7Ei") == 7 * 2**60
    assert quantity.to_bytes("1E") == 10**18 and quantity.to_bytes("1e3") == 1000
    with pytest.raises(ValueError, match="is not a Kubernetes quantity"):
        quantity.to_bytes("1e1.5")


def test_the_decimal_fix_for_kilobytes_is_a_lower_case_k() -> None:
    """<decimalSI> ::= n | u | m | "" | k | M | G | T | P | E: "10K" is no quantity, "10k" is."""
    assert quantity.quantity_hint("10KB") == \
        '"10KB" is not a Kubernetes quantity; write "10Ki" (binary) or "10k" (decimal)'
    assert quantity.quantity_hint("10MB").endswith('write "10Mi" (binary) or "10M" (decimal)')


@pytest.mark.parametrize(("text", "spelled"), [
    ("500Mi", "500Mi"), ("1536Mi", "1536Mi"), ("2048Mi", "2Gi"), ("0.5Gi", "512Mi"), ("1.5Gi", "1536Mi"),
    ("1Ti", "1Ti"), ("-2Mi", "-2Mi"), ("1000Ki", "1000Ki"), ("1024Ki", "1Mi"),
    ("500M", None), (1024, None), ("0.5Ki", None), ("0.3Mi", None)])
def test_a_binary_quantity_is_spelled_as_kubernetes_spells_it(text: str | int, spelled: str | None) -> None:
    """resource.Quantity String (CanonicalizeBytes): a BinarySI quantity of whole bytes, 1024 or more in
    magnitude, in the largest power of 1024 dividing it; below 1024 or fractional, decimal (None here).
    FG136 reads the Mi that Fluid's TransformQuantityToJindoUnit then writes as m."""
    assert quantity.canonical(text) == spelled
