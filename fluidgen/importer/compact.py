"""An imported spec as short, readable YAML: block style at the top, small mappings and
lists in flow style when they fit on one line, multi-line strings as literal blocks."""

from __future__ import annotations

import json
import re
from io import StringIO
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString

from ..base.manifest import Tree

WIDTH = 120  # the line length this repository holds its own files to


def _flow_width(value: Any) -> int:
    return len(json.dumps(value, separators=(", ", ": "), default=str).replace('"', ""))


def _has_newline(value: Any) -> bool:
    if isinstance(value, str):
        return "\n" in value
    if isinstance(value, dict):
        return any(_has_newline(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_newline(v) for v in value)
    return False


def _flow(value: Tree | list[Any], indent: int, depth: int, key_width: int) -> bool:
    """Flow style below the top, for what holds no multi-line string and fits on its line; a
    list of scalars stays in flow style however long (wrapped at WIDTH): mount options, JVM flags."""
    scalars = isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)
    return depth >= 1 and not _has_newline(value) and (scalars or indent + key_width + _flow_width(value) <= WIDTH)


def _styled(value: Any, indent: int, depth: int, key_width: int = 0) -> Any:
    """`value` as ruamel nodes; `indent` is its column, `key_width` what precedes it on its line."""
    if isinstance(value, str) and "\n" in value:
        return LiteralScalarString(value)
    if not isinstance(value, (dict, list)):
        return value
    flow = _flow(value, indent, depth, key_width)
    node: CommentedMap | CommentedSeq
    if isinstance(value, dict):
        node = CommentedMap()
        for key, item in value.items():
            node[key] = _styled(item, indent + 2, depth + 1, len(str(key)) + 2)
    else:
        node = CommentedSeq([_styled(item, indent + 2, depth + 1) for item in value])
    if flow:
        node.fa.set_flow_style()
    else:
        node.fa.set_block_style()
    return node


def dump(spec: Tree, header: str = "") -> str:
    yaml = YAML()
    yaml.width = WIDTH
    # null, not an empty value: `replicas: null` says "leave it to Fluid"
    yaml.representer.add_representer(type(None), lambda r, _: r.represent_scalar("tag:yaml.org,2002:null", "null"))
    yaml.indent(mapping=2, sequence=2, offset=0)
    out = StringIO()
    yaml.dump(_styled(spec, 0, 0), out)
    return header + _without_trailing_spaces(out.getvalue())


def _without_trailing_spaces(text: str) -> str:
    """ruamel leaves a space where it wraps a flow list; drop trailing spaces outside literal
    blocks (where they are content)."""
    lines = text.split("\n")
    block_indent: int | None = None  # indentation of the key that opened a literal block
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None and (not line.strip() or indent > block_indent):
            continue
        block_indent = indent if re.search(r"(:|^\s*-) [|>][-+0-9]*$", line) else None
        lines[i] = line.rstrip(" ")
    return "\n".join(lines)
