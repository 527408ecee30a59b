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


def set_path(tree: Tree, path: tuple[str, ...], value: Any) -> Tree:
    """A copy of `tree` with `value` placed at `path`, creating maps on the way."""
    fragment: Any = value
    for key in reversed(path):
        fragment = {key: fragment}
    merged: Tree = deep_merge(tree, fragment)
    return merged
