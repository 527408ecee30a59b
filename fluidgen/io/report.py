"""Render diagnostics for people (text) and tools (json)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from ..base.diagnostics import Diagnostic, sort_diagnostics


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


def secrets_refused(directory: str, objects: list[dict[str, Any]]) -> str:
    """Why -o wrote nothing: a directory like this one ends up in git."""
    names = sorted(f"{o['metadata'].get('namespace', '')}/{o['metadata']['name']}" for o in objects
                   if o.get("kind") == "Secret" and (o.get("data") or o.get("stringData")))
    return (f"fluidgen: error: the build reads credential values into Secret {', '.join(names)}, and {directory} is "
            "the kind of directory that gets committed; nothing was written. Choose one:\n"
            "  - credentials: {externalSecret: ...} in the spec: an ExternalSecret fetches the values in the cluster\n"
            "  - credentials: {existingSecret: ...} in the spec: refer to a Secret created another way\n"
            "  - --sops-age RECIPIENT (or a .sops.yaml above the spec): write the Secret encrypted with SOPS\n"
            "  - --write-secrets: write it to DIR/secrets.yaml (mode 0600, git-ignored, not in kustomization.yaml)\n"
            "  - leave out -o and pipe stdout to kubectl apply")


def summary(specs: int, objects: int, diags: list[Diagnostic]) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    warnings = sum(1 for d in diags if d.severity == "warning")
    return (f"fluidgen: {_plural(specs, 'spec')}, {_plural(objects, 'object')}, "
            f"{_plural(warnings, 'warning')}, {_plural(errors, 'error')}")
