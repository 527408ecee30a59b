"""fluidgen/base/merge.py: the one merge rule where layers meet (profiles, overrides, `-f`
overlays), as README.md states it for users (`overrides` and `fluidgen build -f base.yaml -f
prod.yaml`): "maps merge, lists replace, `null` deletes"; and set_path, which places one value
by that rule."""

from __future__ import annotations

from typing import Any

import pytest

from fluidgen.base.merge import deep_merge, set_path, without_nones


@pytest.mark.parametrize(("base", "top", "merged"), [
    ({"a": 1, "b": {"c": 1, "d": 2}}, {"b": {"d": 3, "e": 4}}, {"a": 1, "b": {"c": 1, "d": 3, "e": 4}}),
    ({"a": {"b": {"c": 1}}}, {"a": {"b": {"d": 2}}}, {"a": {"b": {"c": 1, "d": 2}}}),  # at any depth
    ({"l": [1, 2, 3]}, {"l": [4]}, {"l": [4]}),  # lists replace, never concatenate
    ({"l": [{"a": 1}]}, {"l": [{"b": 2}]}, {"l": [{"b": 2}]}),  # nor merge item by item
    ({"a": {"b": 1}}, {"a": "x"}, {"a": "x"}),  # a scalar replaces a map
    ({"a": "x"}, {"a": {"b": 1}}, {"a": {"b": 1}}),  # and a map a scalar
    ({"a": 1}, {"a": False}, {"a": False}),  # false and 0 are values, not deletions
    ({"a": 1}, {"a": 0}, {"a": 0}),
    ({"a": 1}, {}, {"a": 1}),
    ({}, {"a": {"b": 1}}, {"a": {"b": 1}}),
])
def test_maps_merge_and_lists_and_scalars_replace(base: Any, top: Any, merged: Any) -> None:
    assert deep_merge(base, top) == merged


@pytest.mark.parametrize(("base", "top", "merged"), [
    ({"a": 1, "b": 2}, {"a": None}, {"b": 2}),
    ({"a": {"b": 1, "c": 2}}, {"a": {"b": None}}, {"a": {"c": 2}}),  # inside a merged map
    ({"a": {"b": 1}}, {"a": None}, {}),  # a whole map
    ({"b": 2}, {"a": None}, {"b": 2}),  # deleting what is not there is no error
    ({}, {"a": {"b": None, "c": 1}}, {"a": {"c": 1}}),  # a null inside a new map is left out too
    ({}, {"a": {"b": {"c": None}}}, {"a": {"b": {}}}),
])
def test_null_deletes(base: Any, top: Any, merged: Any) -> None:
    assert deep_merge(base, top) == merged


def test_a_merge_changes_neither_layer() -> None:
    base = {"a": {"b": 1, "c": 2}, "l": [1]}
    top = {"a": {"b": None, "d": 3}, "l": [2]}
    deep_merge(base, top)
    assert base == {"a": {"b": 1, "c": 2}, "l": [1]}
    assert top == {"a": {"b": None, "d": 3}, "l": [2]}


def test_without_nones_leaves_out_every_null_map_entry() -> None:
    assert without_nones({"a": None, "b": {"c": None, "d": 1}, "e": 0, "f": ""}) == {"b": {"d": 1}, "e": 0, "f": ""}
    assert without_nones("x") == "x"


@pytest.mark.parametrize(("tree", "path", "value", "result"), [
    ({}, ("spec", "worker", "replicas"), 2, {"spec": {"worker": {"replicas": 2}}}),  # maps made on the way
    ({"spec": {"master": {"a": 1}}}, ("spec", "worker"), {"b": 2}, {"spec": {"master": {"a": 1}, "worker": {"b": 2}}}),
    ({"spec": {"worker": {"a": 1}}}, ("spec", "worker"), {"b": 2}, {"spec": {"worker": {"a": 1, "b": 2}}}),  # merged
    ({"spec": {"args": ["a"]}}, ("spec", "args"), ["b"], {"spec": {"args": ["b"]}}),
    ({"spec": "x"}, ("spec", "worker"), 1, {"spec": {"worker": 1}}),  # a scalar on the way gives way to a map
    ({"spec": {"a": 1, "b": 2}}, ("spec", "a"), None, {"spec": {"b": 2}}),  # null deletes here as well
])
def test_set_path_places_a_value_by_the_merge_rule(tree: dict[str, Any], path: tuple[str, ...], value: Any,
                                                    result: dict[str, Any]) -> None:
    before = repr(tree)
    assert set_path(tree, path, value) == result
    assert repr(tree) == before  # a copy: the tree itself is unchanged
