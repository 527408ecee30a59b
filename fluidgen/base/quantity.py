"""Kubernetes quantities, the way Fluid's CRDs and controllers read them."""

from __future__ import annotations

import math
import re
from decimal import Context, Decimal, InvalidOperation, Overflow

# The CRD pattern for a quantity (int-or-string fields such as tieredstore quota).
QUANTITY_RE = re.compile(
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
    r"([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$")

_SUFFIX = {
    "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60,
    "n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"), "": 1,
    "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18,
}


def is_quantity(text: str) -> bool:
    return bool(QUANTITY_RE.match(text))


def quantity_hint(text: str) -> str:
    """Why a string is not a quantity, with the likely fix."""
    m = re.match(r"^([0-9.]+)\s*([KMGTPE])i?B$", text.strip(), re.IGNORECASE)
    if m:
        decimal = "k" if m.group(2).upper() == "K" else m.group(2).upper()  # kilo is k, as SI writes it
        return f'"{text}" is not a Kubernetes quantity; write "{m.group(1)}{m.group(2).upper()}i" ' \
               f'(binary) or "{m.group(1)}{decimal}" (decimal)'
    if text != text.strip() or " " in text:
        return f'"{text}" is not a Kubernetes quantity: remove the spaces'
    return f'"{text}" is not a Kubernetes quantity (examples: 100Gi, 500Mi, 180G)'


# Kubernetes keeps every quantity below 2^63 in magnitude (k8s.io/apimachinery resource.Quantity);
# a value past that is refused before any arithmetic can grow with it.
LIMIT = Decimal(2**63 - 1)
_BIG = Context(prec=40, Emax=40, Emin=-40, traps=[Overflow, InvalidOperation])


def to_bytes(text: str | int) -> Decimal:
    """The value of a quantity in bytes (or base units); ValueError past 2^63 or when malformed."""
    if isinstance(text, int):
        if abs(text) > LIMIT:
            raise ValueError(f"{text} is larger than a Kubernetes quantity can be")
        return Decimal(text)
    # resource.ParseQuantity: <binarySI> Ki..Ei, <decimalSI> n u m k M G T P E, <decimalExponent> e/E and
    # an integer (1Ei is a binary suffix, 1E an exa, 1e3 an exponent)
    m = re.match(r"^([+-]?[0-9.]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$", text)
    if not m or len(text) > 64:
        raise ValueError(quantity_hint(text))
    number, suffix = m.group(1), m.group(2) or ""
    try:
        if suffix[:1] in ("e", "E") and suffix not in _SUFFIX:
            value = _BIG.create_decimal(number).scaleb(_BIG.create_decimal(suffix[1:]), _BIG)
        else:
            value = _BIG.multiply(_BIG.create_decimal(number), Decimal(str(_SUFFIX[suffix])))
    except (InvalidOperation, Overflow, KeyError, ValueError):
        raise ValueError(f'"{text}" is out of the range of a Kubernetes quantity (at most 2^63)') from None
    if abs(value) > LIMIT:
        raise ValueError(f'"{text}" is larger than a Kubernetes quantity can be (at most 2^63)')
    return value


def java_size_to_bytes(text: str) -> int | None:
    """JVM-style sizes: -Xmx16G, MaxDirectMemorySize=32g, 512m, 1024k."""
    m = re.fullmatch(r"([0-9]{1,19})([kKmMgGtT]?)", text.strip())
    if not m:
        return None
    scale = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}[m.group(2).lower()]
    return int(m.group(1)) * scale


def cpu_to_millis(value: str | int | float) -> int | None:
    """A CPU quantity in millicores, or None when it is not one (or past 2^63)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        return int(to_bytes(str(value) if not isinstance(value, int) else value) * 1000)
    except (ValueError, OverflowError, InvalidOperation):
        return None


_BINARY = ("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei")


def canonical(text: str | int) -> str | None:
    """The string Kubernetes writes for a quantity given with a binary suffix (resource.Quantity
    String, CanonicalizeBytes): the largest power of 1024 that divides a whole number of bytes, so
    1536Mi stays 1536Mi and 2048Mi becomes 2Gi. None for one it writes in decimal: no binary suffix,
    a magnitude below 1024, or a fraction of a byte. ValueError when it is no quantity."""
    value = to_bytes(text)
    if isinstance(text, int) or not re.search(r"[KMGTPE]i$", text) or abs(value) < 1024 or value % 1:
        return None
    number, power = int(value), 0
    while number % 1024 == 0 and power < len(_BINARY) - 1:
        number, power = number // 1024, power + 1
    return f"{number}{_BINARY[power]}"
