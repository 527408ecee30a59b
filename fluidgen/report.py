"""Render diagnostics for people (text) and tools (json)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TextIO

from .diagnostics import Diagnostic, sort_diagnostics


def text(diags: Iterable[Diagnostic], out: TextIO) -> None:
    for d in sort_diagnostics(diags):
        out.write(d.render() + "\n")


def as_json(diags: Iterable[Diagnostic], out: TextIO) -> None:
    items = [d.as_json() for d in sort_diagnostics(diags)]
    json.dump({"diagnostics": items,
               "errors": sum(1 for d in items if d["severity"] == "error"),
               "warnings": sum(1 for d in items if d["severity"] == "warning")},
              out, indent=2, sort_keys=True)
    out.write("\n")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def failure(diags: list[Diagnostic]) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    warnings = sum(1 for d in diags if d.severity == "warning")
    tail = f", {_plural(warnings, 'warning')}" if warnings else ""
    return f"fluidgen: {_plural(errors, 'error')}{tail}; nothing was written"


def summary(specs: int, objects: int, diags: list[Diagnostic]) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    warnings = sum(1 for d in diags if d.severity == "warning")
    return (f"fluidgen: {_plural(specs, 'spec')}, {_plural(objects, 'object')}, "
            f"{_plural(warnings, 'warning')}, {_plural(errors, 'error')}")
