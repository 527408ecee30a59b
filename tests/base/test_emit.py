"""The YAML writer: whatever it writes reads back identically under YAML 1.1 and 1.2."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from fluidgen.base.emit import dump_all, scalar

TRICKY = ["true", "no", "on", "Off", "y", "0.99", "1000000", "1:30", "2024-01-01", "~", "null", "-Xmx1G",
          "a: b", "#x", " lead", "trail ", "x\n", "a\nb", "  i\nj\n\n", "0x1F", "0o17", "1e3", ".inf", "-.5",
          "=", "<<", "@x", "`x", "%x", "!x", "&x", "*x", "|x", ">x", "{x", "[x", "'x", '"x', "- x", "? x",
          "x #y", "1_000", "+1", "\u2028", "\ufeff", "\t", "é", ""]
keys = st.one_of(st.text(min_size=1, max_size=12), st.sampled_from(TRICKY[:-1]))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=30),
                    st.sampled_from(TRICKY))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(keys, inner, max_size=4)), max_leaves=25)


def _documents(text: str) -> tuple[list[Any], list[Any]]:
    return list(yaml.safe_load_all(text)), list(YAML(typ="safe", pure=True).load_all(text))


@pytest.mark.slow
@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.dictionaries(keys, values, max_size=5))
def test_round_trip_yaml_1_1_and_1_2(data: dict[str, Any]) -> None:
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": data}
    text = dump_all([obj, obj])
    assert _documents(text) == ([obj, obj], [obj, obj])


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.dictionaries(keys, values, max_size=5))
def test_same_data_same_bytes_whatever_the_key_order(data: dict[str, Any]) -> None:
    reordered = dict(reversed(list(data.items())))
    assert dump_all([{"kind": "X", "d": data}]) == dump_all([{"d": reordered, "kind": "X"}])


def test_strings_yaml_would_retype_are_quoted() -> None:
    for text in ("true", "on", "0.99", "1000000", "1:30", "2024-01-01", "null", "~", ""):
        assert scalar(text).startswith('"'), text
    for text in ("1000ms", "50Gi", "MUST_CACHE", "/var/lib/docker/alluxio", "oss://b/x/"):
        assert scalar(text) == text


def test_printable_writes_every_control_as_an_escape_and_nothing_else() -> None:
    """C0, DEL and C1 become \\xNN (one line, no terminal escape); printable text, tabs' neighbours
    and non-ASCII letters stay."""
    from fluidgen.base.emit import CONTROLS, printable

    assert printable("a\nb\x1b[31m\x7f\x85\x9f\xa0é") == "a\\x0ab\\x1b[31m\\x7f\\x85\\x9f\xa0é"
    assert printable("".join(map(chr, CONTROLS))) == "".join(f"\\x{c:02x}" for c in CONTROLS)
    assert printable("plain: text") == "plain: text"
