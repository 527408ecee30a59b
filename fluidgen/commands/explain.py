"""`fluidgen explain PATH`: describe a spec field from the schema generated from the models.
The arguments record click fills and `execute(args) -> exit code`; `explain(path)` the text."""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

import click

from ..base.diagnostics import did_you_mean
from ..base.fluidsource import ALL
from ..base.manifest import Tree
from ..catalog.explain_index import RUNTIME_FLUID
from ..fluid.operations import CELLS, EVERY_ENGINE, KINDS, Cell
from ..io.buildinputs import schemas_folder
from ..lower.dataflow import step_keys
from ..spec.specschema import SCHEMA_FILE, spec_schema_text
from .usage import EXIT_OK


@dataclass(frozen=True)
class ExplainArgs:
    path: str = ""  # dots, optional [N] indices; empty: the spec itself


def execute(args: ExplainArgs) -> int:
    try:
        sys.stdout.write(explain(args.path))
    except KeyError as exc:
        raise click.UsageError(str(exc.args[0])) from None
    return EXIT_OK


def _schema() -> Tree:
    """The spec's JSON Schema as schemas/ holds it (generated from the spec model and held to it
    by tests/spec/test_specschema.py), so explain builds no spec model and imports no engine;
    built from the model only when the file is not there."""
    try:
        with open(os.path.join(schemas_folder(), SCHEMA_FILE), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        text = spec_schema_text()
    schema: Tree = json.loads(text)
    return schema


def _without(node: Tree, key: str) -> Tree:
    return {k: v for k, v in node.items() if k != key}


def _nullable_branch(node: Tree) -> Tree | None:
    """The object/array branch of an anyOf of it and null (not on a node with properties of its own)."""
    branches = [b for b in node.get("anyOf", []) if b.get("type") != "null"]
    if len(branches) != 1 or "properties" in node:
        return None
    branch: Tree = branches[0]
    return branch if "$ref" in branch or branch.get("type") in ("object", "array") else None


def _resolve(node: Any, defs: Tree) -> Tree:
    """Follow $ref, and step into the object/array branch of a nullable anyOf."""
    if not isinstance(node, dict):
        return {}
    while True:
        if "$ref" in node:
            node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **_without(node, "$ref")}
            continue
        branch = _nullable_branch(node)
        if branch is None:
            resolved: Tree = node
            return resolved
        node = {**_without(node, "anyOf"), **branch}


def _type_name(node: Any) -> str:
    if not isinstance(node, dict) or not node:
        return "any value"
    if "$ref" in node:
        return str(node["$ref"].rsplit("/", 1)[-1])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    if "anyOf" in node:
        return " or ".join(_type_name(b) for b in node["anyOf"])
    return _kind_name(node)


def _kind_name(node: Tree) -> str:
    """The name of a node's JSON type: lists and maps with what they hold."""
    kind = node.get("type", "any")
    if kind == "array":
        return f"list of {_type_name(node.get('items', {}))}"
    if kind == "object" and "properties" not in node:
        return f"map of string to {_type_name(node.get('additionalProperties', {}))}"
    return {"object": "mapping", "integer": "integer", "string": "string", "boolean": "boolean",
            "number": "number"}.get(str(kind), str(kind))


def _field(node: Tree, parts: list[str], defs: Tree) -> Tree:
    """The node the path's parts lead to, through a list's items; a KeyError naming the fields
    where a part is none of them."""
    walked: list[str] = []
    for part in parts:
        if node.get("type") == "array":
            node = _resolve(node.get("items", {}), defs)
        props = node.get("properties", {})
        if part not in props:
            where = ".".join(walked) or "the spec"
            raise KeyError(f'{where} has no field "{part}"{did_you_mean(part, props)}; '
                           f"fields: {', '.join(sorted(props)) or '(none)'}")
        node = _resolve(props[part], defs)
        walked.append(part)
    return node


def _fields(node: Tree, defs: Tree) -> list[str]:
    """The FIELDS block: each field of the node (or of its list's items), its type, whether it
    is required, and its description."""
    item = _resolve(node.get("items", {}), defs) if node.get("type") == "array" else node
    fields = item.get("properties", {})
    if not fields:
        return []
    required = set(node.get("required", [])) | set(item.get("required", []))
    lines = ["", "FIELDS:"]
    for name in sorted(fields):
        sub = _resolve(fields[name], defs)
        mark = " (required)" if name in required else ""
        desc = f"  {sub['description']}" if sub.get("description") else ""
        lines.append(f"  {name} <{_type_name(sub)}>{mark}{desc}")
    return lines


def explain(path: str) -> str:
    """Text describing the spec field at `path` (dots, optional [N] indices)."""
    schema = _schema()
    defs = schema.get("$defs", {})
    parts = [p for p in re.sub(r"\[\d+\]", "", path).split(".") if p]
    node = _field(_resolve(schema, defs), parts, defs)
    lines = [f"FIELD: {path or '(spec)'}", f"TYPE:  {_type_name(node)}"]
    if "default" in node:
        lines.append(f"DEFAULT: {json.dumps(node['default'])}")
    if node.get("description"):
        lines += ["", node["description"]]
    fluid = list(RUNTIME_FLUID.get(tuple(parts), ()))
    return "\n".join(lines + fluid + _fields(node, defs) + _operation_fluid(parts)) + "\n"


def _operation_fluid(parts: list[str]) -> list[str]:
    """For a step key: what Fluid does with the operation fields it writes, per engine and
    version (the cells of fluid/operations.py, as `fluidgen build` checks them)."""
    if not parts or parts[0] != "dataflow":
        return []
    key = tuple(parts[1:])
    fields = [(kind, field) for kind in KINDS for field, at in step_keys(kind).items() if at == key]
    if not fields:
        return []
    lines = ["", "FLUID (what Fluid does with it, per engine and version; docs/data-operations.md):"]
    for kind, field in fields:
        rows = [c for c in CELLS if c.kind == kind and (c.field == field or c.field.startswith((f"{field}.",
                                                                                                f"{field}[]")))]
        lines += [f"  {kind} spec.{field}:"] + [f"    {_row(c)}" for c in rows]
    return lines


def _row(cell: Cell) -> str:
    engines = "every engine" if EVERY_ENGINE in cell.engines else ", ".join(cell.engines)
    versions = "" if cell.versions == ALL else f", Fluid {', '.join(cell.versions)}"
    when = "".join(f" when {path or 'the value'} is /{pattern}/" for path, pattern in cell.when)
    cites = "; ".join(f"{s.path} {s.function}" for s in cell.sources)
    return f"{cell.field} ({engines}{versions}){when}: {cell.verdict}: {cell.what} [{cites}]"
