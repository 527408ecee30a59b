"""Pydantic validation errors -> located, actionable diagnostics (shared by specs and profiles)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from ..base.diagnostics import Diagnostic, PathT, did_you_mean, quote_hint
from ..io.yamlreader import Document


def describe_type(value: object) -> str:
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "nothing"}.get(type(value), "a value")


def _data_path(data: Any, loc: tuple[int | str, ...]) -> tuple[PathT, Any, tuple[int | str, ...]]:
    """Split a pydantic loc into the real data path and the model-only tail."""
    path: list[str | int] = []
    node = data
    for i, part in enumerate(loc):
        if _holds(node, part):
            node = node[part]
            path.append(part)
        elif isinstance(node, dict | list) and not _union_tag(part):
            return tuple(path), node, loc[i:]
    return tuple(path), node, ()


def _holds(node: object, part: int | str) -> bool:
    """Whether a loc part is a key or an index of this node."""
    if isinstance(node, dict):
        return isinstance(part, str) and part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _union_tag(part: int | str) -> bool:
    """Whether a loc part names the union member pydantic tried (list[str], str, ...), not data."""
    return isinstance(part, str) and ("[" in part or part in {"str", "int", "list", "dict"})


def translate(exc: ValidationError, doc: Document, root: type[BaseModel]) -> list[Diagnostic]:
    """Every pydantic error as a located Diagnostic, with "did you mean" for unknown keys."""
    diags: dict[tuple[PathT, str], Diagnostic] = {}
    errors = exc.errors(include_url=False)
    misses = _union_misses(doc.data, errors)
    for path, node, wanted in misses:
        msg = f"expected {' or '.join(wanted)}, found {describe_type(node)}"
        diags.setdefault((path, msg), doc.diag(path, msg, stage="spec"))
    merged = {path for path, _, _ in misses}
    for err in errors:
        path, node, rest = _data_path(doc.data, tuple(err["loc"]))
        if path in merged:
            continue
        kind = err["type"]
        if kind == "extra_forbidden":
            msg = _unknown_key(root, tuple(err["loc"]), path[-1])
        elif kind == "missing":
            missing = rest[0] if rest else path[-1]
            msg = f'missing required key "{missing}"'
        else:
            msg = _message(err, node)
        d = doc.diag(path, msg, stage="spec")
        diags.setdefault((path, msg), d)
    return sorted(diags.values(), key=lambda d: (d.line, d.col, d.message))


def _union_misses(data: Any, errors: list[Any]) -> list[tuple[PathT, Any, list[str]]]:
    """A value that fits no member of a union (`after: []` for 'previous' | 'none' | a step name)
    gives pydantic one error per member; said once, as every kind the key takes: (path, value,
    what each member wanted). Only where every error at the path is a literal or type miss."""
    by_path: dict[PathT, list[tuple[Any, Any]]] = {}
    for err in errors:
        path, node, _ = _data_path(data, tuple(err["loc"]))
        by_path.setdefault(path, []).append((err, node))
    out = []
    for path, found in by_path.items():
        kinds = [err["type"] for err, _ in found]
        if len(found) < 2 or not all(k == "literal_error" or k in _WANTED for k in kinds):
            continue
        wanted = [str((err.get("ctx") or {}).get("expected", "")) if err["type"] == "literal_error"
                  else _WANTED[err["type"]] for err, _ in found]
        out.append((path, found[0][1], list(dict.fromkeys(wanted))))
    return out


def _unknown_key(root: type[BaseModel], loc: tuple[int | str, ...], key: str | int) -> str:
    parent = _model_at(root, loc[:-1])
    names = sorted(_aliases(parent)) if parent else []
    hint = did_you_mean(str(key), names)
    allowed = f"; expected one of: {', '.join(names)}" if names and not hint else ""
    return f"unknown key{hint}{allowed}"


def _message(err: Any, node: Any) -> str:
    kind, ctx, msg = err["type"], err.get("ctx") or {}, err["msg"]
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error", msg))
    if kind == "literal_error":
        return _literal_message(ctx.get("expected", ""), node)
    if kind in _WANTED:
        quote = quote_hint(node) if kind == "string_type" and isinstance(node, bool | int | float) else ""
        return f"expected {_WANTED[kind]}, found {describe_type(node)}{quote}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, got {node!r}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, got {node!r}"
    if kind == "too_short" or (kind == "string_too_short" and ctx.get("min_length") == 1):
        return "must not be empty"
    if kind == "too_long":
        return f"has {ctx.get('actual_length')} items; at most {ctx.get('max_length')} are allowed"
    return str(msg)


# What a pydantic type error's kind asks for.
_WANTED = {"string_type": "a string", "int_type": "an integer", "bool_type": "true or false",
           "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
           "list_type": "a list", "tuple_type": "a list", "float_type": "a number"}


def _literal_message(expected: object, node: object) -> str:
    hint = ""
    if isinstance(node, str):
        options = [o.strip(" '") for o in str(expected).replace(" or ", ",").split(",")]
        hint = did_you_mean(node, [o for o in options if o])
    return f"expected {expected}, got {node!r}{hint}"


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

