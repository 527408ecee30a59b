"""`fluidgen diff`: what the specs compile to versus a committed file or `-o` directory.

Credentials are not read, and every Secret value is shown as <redacted> on both sides, so
a diff never carries a secret: it reports Secrets whose keys differ, not whose values do.
A committed file that does not read as YAML is never shown, only named.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from . import emit
from .diagnostics import Diagnostic, FluidgenError
from .inputs import Reader
from .output import file_names, kustomization

REDACTED = "<redacted>"


def redact(obj: Any) -> Any:
    if not isinstance(obj, dict):
        return obj
    if str(obj.get("kind", "")).endswith("List") and isinstance(obj.get("items"), list):
        return {**obj, "items": [redact(i) for i in obj["items"]]}
    if obj.get("kind") != "Secret":
        return obj
    out = dict(obj)
    for key in ("data", "stringData"):
        if isinstance(obj.get(key), dict):
            out[key] = dict.fromkeys(obj[key], REDACTED)
        elif key in obj:
            out[key] = REDACTED
    return out


def _flatten(docs: list[Any]) -> list[Any]:
    """Documents, with a kubectl List (or --format json output) opened into its items."""
    out: list[Any] = []
    for d in docs:
        if isinstance(d, dict) and str(d.get("kind", "")).endswith("List") and isinstance(d.get("items"), list):
            out += d["items"]
        else:
            out.append(d)
    return out


def expected_files(objects: list[dict[str, Any]], rendered: Path) -> dict[str, str]:
    """What `rendered` should hold: one file (stdout form) or a kustomize base directory."""
    if rendered.is_dir():
        files = {name: emit.dump(o) for name, o in zip(file_names(objects), objects, strict=True)}
        files["kustomization.yaml"] = emit.dump(kustomization(file_names(objects)))
        return files
    return {rendered.name: emit.dump_all(objects)}


def _normalised(reader: Reader, path: Path) -> str:
    """Re-emit a committed YAML file through the one writer, with Secret values redacted."""
    try:
        docs = [d.data for d in reader.load(str(path))]
    except FluidgenError as exc:
        reason = exc.diagnostics[0].message if exc.diagnostics else "unreadable"
        return f"# {path} does not read as YAML ({reason}); its content is not shown\n"
    return emit.dump_all([redact(d) if isinstance(d, dict) else {"value": "<not a mapping>"} for d in _flatten(docs)])


def _committed(reader: Reader, rendered: Path) -> dict[str, Path]:
    if rendered.is_dir():
        return {p.name: p for p in sorted(rendered.glob("*.y*ml")) if p.is_file()}
    return {rendered.name: rendered} if rendered.exists() else {}


def diff(objects: list[dict[str, Any]], rendered: str) -> str:
    """A unified diff from the committed files to the expected ones ('' when they match)."""
    reader = Reader()
    target = Path(rendered)
    want = expected_files([redact(o) for o in objects], target)
    have = _committed(reader, target)
    chunks: list[str] = []
    for name in sorted(set(want) | set(have)):
        path = target / name if target.is_dir() else target
        old = _normalised(reader, have[name]) if name in have else ""
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
