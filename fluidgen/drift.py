"""`fluidgen diff`: what the specs compile to versus a committed file or `-o` directory.

Credentials are not read, and every Secret value is shown as <redacted> on both sides, so
a diff never carries a secret: it reports Secrets whose keys differ, not whose values do.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from . import emit
from .diagnostics import Diagnostic, FluidgenError
from .output import file_names, kustomization
from .source import load_file

REDACTED = "<redacted>"


def redact(obj: dict[str, Any]) -> dict[str, Any]:
    if obj.get("kind") != "Secret":
        return obj
    out = dict(obj)
    for key in ("data", "stringData"):
        if isinstance(obj.get(key), dict):
            out[key] = dict.fromkeys(obj[key], REDACTED)
    return out


def expected_files(objects: list[dict[str, Any]], rendered: Path) -> dict[str, str]:
    """What `rendered` should hold: one file (stdout form) or a kustomize base directory."""
    if rendered.is_dir():
        files = {name: emit.dump(o) for name, o in zip(file_names(objects), objects, strict=True)}
        files["kustomization.yaml"] = emit.dump(kustomization(file_names(objects)))
        return files
    return {rendered.name: emit.dump_all(objects)}


def actual_files(rendered: Path) -> dict[str, str]:
    if rendered.is_dir():
        return {p.name: p.read_text("utf-8") for p in sorted(rendered.glob("*.y*ml")) if p.is_file()}
    if not rendered.exists():
        return {}
    return {rendered.name: rendered.read_text("utf-8")}


def _normalised(path: Path, text: str) -> str:
    """Re-emit a YAML file through the one writer, with Secret values redacted."""
    if not text.strip():
        return ""
    try:
        docs = [d.data for d in load_file(str(path))]
    except FluidgenError:
        return text  # not YAML we can read: compare it as it is
    return emit.dump_all([redact(d) if isinstance(d, dict) else d for d in docs])


def diff(objects: list[dict[str, Any]], rendered: str) -> str:
    """A unified diff from the committed files to the expected ones ('' when they match)."""
    target = Path(rendered)
    want = expected_files([redact(o) for o in objects], target)
    have = actual_files(target)
    chunks: list[str] = []
    for name in sorted(set(want) | set(have)):
        path = target / name if target.is_dir() else target
        old = _normalised(path, have[name]) if name in have else ""
        new = want.get(name, "")
        if old != new:
            label = str(path)
            chunks += difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                           f"{label} (committed)", f"{label} (from specs)")
    return "".join(chunks)


def missing(rendered: str) -> list[Diagnostic]:
    if Path(rendered).exists():
        return []
    return [Diagnostic(rendered, 0, 0, "error", "rendered file or directory does not exist; create it with "
                                                "fluidgen build SPEC > FILE (or -o DIR)")]
