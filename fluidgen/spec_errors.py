"""Pydantic validation errors -> located, actionable diagnostics (shared by specs and profiles)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from .diagnostics import Diagnostic, PathT, did_you_mean, quote_hint
from .yamlreader import Document


def describe_type(value: object) -> str:
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "nothing"}.get(type(value), "a value")


def _data_path(data: Any, loc: tuple[int | str, ...]) -> tuple[PathT, Any, tuple[int | str, ...]]:
    """Split a pydantic loc into the real data path and the model-only tail."""
    path: list[str | int] = []
    node = data
    for i, part in enumerate(loc):
        in_map = isinstance(node, dict) and isinstance(part, str) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_map or in_list:
            node = node[part]
        elif isinstance(node, dict | list):
            if isinstance(part, str) and ("[" in part or part in {"str", "int", "list", "dict"}):
                continue  # union member tag
            return tuple(path), node, loc[i:]
        else:
            continue
        path.append(part)
    return tuple(path), node, ()


def translate(exc: ValidationError, doc: Document, root: type[BaseModel]) -> list[Diagnostic]:
    """Every pydantic error as a located Diagnostic, with "did you mean" for unknown keys."""
    diags: dict[tuple[PathT, str], Diagnostic] = {}
    for err in exc.errors(include_url=False):
        path, node, rest = _data_path(doc.data, tuple(err["loc"]))
        kind = err["type"]
        if kind == "extra_forbidden":
            key = path[-1]
            parent = _model_at(root, tuple(err["loc"])[:-1])
            names = sorted(_aliases(parent)) if parent else []
            hint = did_you_mean(str(key), names)
            allowed = f"; expected one of: {', '.join(names)}" if names and not hint else ""
            msg = f"unknown key{hint}{allowed}"
        elif kind == "missing":
            missing = rest[0] if rest else path[-1]
            msg = f'missing required key "{missing}"'
        else:
            msg = _message(err, node)
        d = doc.diag(path, msg, stage="spec")
        diags.setdefault((path, msg), d)
    return sorted(diags.values(), key=lambda d: (d.line, d.col, d.message))


def _message(err: Any, node: Any) -> str:
    kind, ctx, msg = err["type"], err.get("ctx") or {}, err["msg"]
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error", msg))
    if kind == "literal_error":
        expected = ctx.get("expected", "")
        hint = ""
        if isinstance(node, str):
            options = [o.strip(" '") for o in str(expected).replace(" or ", ",").split(",")]
            hint = did_you_mean(node, [o for o in options if o])
        return f"expected {expected}, got {node!r}{hint}"
    if kind in ("string_type", "int_type", "bool_type", "dict_type", "list_type", "tuple_type",
                "model_type", "float_type", "model_attributes_type"):
        wanted = {"string_type": "a string", "int_type": "an integer", "bool_type": "true or false",
                  "dict_type": "a mapping", "model_type": "a mapping",
                  "model_attributes_type": "a mapping", "list_type": "a list",
                  "tuple_type": "a list", "float_type": "a number"}[kind]
        quote = ""
        if kind == "string_type" and isinstance(node, bool | int | float):
            quote = quote_hint(node)
        return f"expected {wanted}, found {describe_type(node)}{quote}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, got {node!r}"
    if kind == "too_short":
        return "must not be empty"
    return str(msg)


def _model_at(root: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] = root
    for part in loc:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part) or next(
            (f for f in model.model_fields.values() if f.alias == part), None)
        if field is None:
            continue
        inner = _model_type(field.annotation)
        if inner is None:
            return None
        model = inner
    return model


def _model_type(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_type(arg)
        if found is not None:
            return found
    return None


def _aliases(model: type[BaseModel]) -> set[str]:
    return {f.alias or n for n, f in model.model_fields.items()}

