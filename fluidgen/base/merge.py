"""The one merge rule used everywhere layers meet (profiles, overrides, overlays)."""

from __future__ import annotations

from typing import Any

from .manifest import Tree


def deep_merge(base: Any, top: Any) -> Any:
    """Maps merge key by key, lists and scalars are replaced, an explicit None deletes."""
    if isinstance(base, dict) and isinstance(top, dict):
        out = dict(base)
        for key, value in top.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = deep_merge(out[key], value)
            else:
                out[key] = without_nones(value)
        return out
    return without_nones(top)


def without_nones(value: Any) -> Any:
    """`value` with every null map entry left out (what remains once the nulls have deleted)."""
    if isinstance(value, dict):
        return {k: without_nones(v) for k, v in value.items() if v is not None}
    return value


def copy_tree(value: Any) -> Any:
    """A copy of parsed data: every map and list new, scalars shared (they are immutable).
    What copy.deepcopy gives for YAML data, several times faster (no memo, no dispatch)."""
    if isinstance(value, dict):
        return {key: copy_tree(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_tree(item) for item in value]
    return value


def set_path(tree: Tree, path: tuple[str, ...], value: Any) -> Tree:
    """A copy of `tree` with `value` placed at `path`, creating maps on the way."""
    fragment: Any = value
    for key in reversed(path):
        fragment = {key: fragment}
    merged: Tree = deep_merge(tree, fragment)
    return merged
