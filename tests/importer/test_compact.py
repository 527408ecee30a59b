"""importer/compact.py: an imported spec as short YAML. A null stays `null` (leave it to
Fluid), the top level is block style, a nested mapping is flow style only while its line
fits in 120 columns and holds no multi-line string, which is written as a literal block."""

from __future__ import annotations

from fluidgen.importer.compact import dump


def test_a_null_is_written_as_null_not_as_an_empty_value() -> None:
    assert dump({"runtime": {"replicas": None}, "name": None}) == "runtime: {replicas: null}\nname: null\n"


def test_the_top_level_is_block_style_and_small_nested_values_flow() -> None:
    assert dump({"a": {"b": 1, "c": [1, 2]}, "d": [{"e": "f", "g": 2}]}) == "a: {b: 1, c: [1, 2]}\nd: [{e: f, g: 2}]\n"


def test_a_nested_mapping_flows_up_to_column_120_and_is_a_block_past_it() -> None:
    # counted as the value's indent (2) + "k: " (3) + "{a: " + x * 110 + "}" (115) = 120
    assert dump({"k": {"a": "x" * 110}}) == "k: {a: " + "x" * 110 + "}\n"
    assert dump({"k": {"a": "x" * 111}}) == "k:\n  a: " + "x" * 111 + "\n"


def test_a_multi_line_string_is_a_literal_block_and_keeps_its_parent_in_block_style() -> None:
    assert dump({"step": {"script": "echo a\nls\n"}}) == "step:\n  script: |\n    echo a\n    ls\n"


def test_a_long_list_of_scalars_stays_in_flow_style_wrapped() -> None:
    flags = [f"-Dflag.number.{i}=value" for i in range(12)]
    text = dump({"runtime": {"jvmOptions": flags}})
    assert text.startswith("runtime:\n  jvmOptions: [-Dflag.number.0=value, ")
    assert all(len(line) <= 120 for line in text.splitlines()) and text.count("\n") > 2


def test_the_header_comes_first() -> None:
    assert dump({"a": 1}, "# imported by fluidgen\n") == "# imported by fluidgen\na: 1\n"
