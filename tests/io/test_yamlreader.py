"""The YAML reader: positions, merge keys, aliases and the errors it owns."""

from __future__ import annotations

import pytest

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.io.yamlreader import load_text


def test_positions_are_one_based_key_and_item_starts() -> None:
    doc = load_text("f.yaml", "a:\n  b: 1\n  c:\n    - x\n    - y: 2\n")[0]
    assert doc.positions[("a", "b")] == (2, 3)
    assert doc.positions[("a", "c", 1)] == (5, 7)  # where the item itself starts, after "- "
    assert doc.positions[("a", "c", 1, "y")] == (5, 7)


def test_merge_keys_and_anchors() -> None:
    text = "base: &b {x: 1, y: 2}\nmore: &m {z: 3}\nuse:\n  <<: [*b, *m]\n  y: 9\nsame: *b\n"
    data = load_text("f.yaml", text)[0].data
    assert data["use"] == {"x": 1, "y": 9, "z": 3}
    assert data["same"] == {"x": 1, "y": 2}


def test_yaml_1_2_scalars() -> None:
    data = load_text("f.yaml", "a: yes\nb: on\nc: 0.99\nd: 010\ne: '1'\nf: ~\ng: 2024-01-01\nh: 0o17\n"
                               "i: !!str 12\nj: ! 12\nk: 1_000\n")[0].data
    assert data == {"a": "yes", "b": "on", "c": 0.99, "d": 10, "e": "1", "f": None, "g": "2024-01-01", "h": 15,
                    "i": "12", "j": "12", "k": "1_000"}


def test_huge_integers_stay_strings() -> None:
    digits = "9" * 5000  # int() of this many digits raises in Python 3.11; it never reaches int()
    assert load_text("f.yaml", f"a: {digits}\n")[0].data == {"a": digits}


@pytest.mark.parametrize(("text", "message"), [
    ("1: x\n", "1:1: error: mapping keys must be strings"),
    ("a: !custom x\n", "1:4: error: a: unsupported YAML tag !custom"),
    ("a: !custom {b: 1}\n", "1:4: error: a: unsupported YAML tag !custom"),
    ("a: !!binary aGVsbG8=\n", "1:4: error: a: unsupported YAML tag !!binary"),
    ("a: !!int x\n", "1:4: error: a: invalid YAML: 'x' is not a valid !!int"),
    ("a:\n  b: 1\n  b: 2\n", '3:3: error: a.b: invalid YAML: duplicate key "b"'),
    ("a: *nope\n", "1:4: error: a: invalid YAML:"),
    ("? [a]\n: 1\n", "1:3: error: mapping keys must be strings"),
])
def test_errors_are_located(text: str, message: str) -> None:
    with pytest.raises(FluidgenError) as caught:
        load_text("f.yaml", text)
    assert message in caught.value.diagnostics[0].render()
