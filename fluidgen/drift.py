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
from .output import GITIGNORE, SECRETS, SOPS_FILE, has_values, plan

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
    """What `rendered` should hold: one file (stdout form) or a kustomize base directory.
    A directory's secrets.yaml is not compared: it is git-ignored and never committed; its
    secrets.sops.yaml is compared by Secret names and keys (encryption differs on every run)."""
    if rendered.is_dir():
        return {name: p.text for name, p in plan(objects).items() if name not in (SECRETS, GITIGNORE, SOPS_FILE)}
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
        return {p.name: p for p in sorted(rendered.glob("*.y*ml")) if p.is_file() and p.name not in (SECRETS,
                                                                                                       SOPS_FILE)}
    return {rendered.name: rendered} if rendered.exists() else {}


def _secret_keys(objects: list[Any]) -> list[str]:
    """One line per Secret with values: namespace/name and its keys (what SOPS leaves readable)."""
    lines = []
    for o in objects:
        if isinstance(o, dict) and has_values(o) and isinstance(o.get("metadata"), dict):
            keys = sorted({*(o.get("data") or {}), *(o.get("stringData") or {})})
            lines.append(f"Secret {o['metadata'].get('namespace', '')}/{o['metadata'].get('name')}: "
                         f"{', '.join(map(str, keys))}\n")
    return sorted(lines)


def _sealed_drift(reader: Reader, objects: list[dict[str, Any]], target: Path) -> list[str]:
    sealed = target / SOPS_FILE
    if not target.is_dir() or not sealed.is_file():
        return []
    try:
        committed = _flatten([d.data for d in reader.load(str(sealed))])
    except FluidgenError:
        committed = []
    old, new = _secret_keys(committed), _secret_keys(objects)
    if old == new:
        return []
    return list(difflib.unified_diff(old, new, f"{sealed} (committed, names and keys)",
                                     f"{sealed} (from specs, names and keys)"))


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
    chunks += _sealed_drift(reader, objects, target)
    return "".join(chunks)


def secret_values(reader: Reader, paths: list[str]) -> list[Diagnostic]:
    """Secrets with values in files about to be committed (the pre-commit hooks refuse them)."""
    out = []
    for path in paths:
        try:
            raw = reader.read(path)
        except FluidgenError:
            continue
        if b"Secret" not in raw:
            continue
        try:
            docs = reader.load(path)
        except FluidgenError:
            continue
        for doc in docs:
            for obj in _flatten([doc.data]):
                if isinstance(obj, dict) and has_values(obj) and not _sealed(obj):
                    name = (obj.get("metadata") or {}).get("name") if isinstance(obj.get("metadata"), dict) else None
                    out.append(doc.diag(("data",) if obj.get("data") else ("stringData",),
                                        f"Secret {name} holds credential values; never commit them (use "
                                        "existingSecret, externalSecret or SOPS, and keep secrets.yaml ignored)"))
    return out


def _sealed(secret: dict[str, Any]) -> bool:
    """Encrypted by SOPS: its metadata key is there and every value is an ENC[...] envelope."""
    values = [*(secret.get("data") or {}).values(), *(secret.get("stringData") or {}).values()] \
        if isinstance(secret.get("data") or {}, dict) and isinstance(secret.get("stringData") or {}, dict) else [None]
    return isinstance(secret.get("sops"), dict) and all(isinstance(v, str) and v.startswith("ENC[") for v in values)


def rendered_objects(reader: Reader, rendered: str) -> list[dict[str, Any]]:
    """The Kubernetes objects of a committed file, an -o directory or a `kubectl get -o yaml`
    dump (Lists are opened; kustomize's own files are not objects)."""
    from .output import KUSTOMIZATION, KUSTOMIZE_CONFIG

    out: list[dict[str, Any]] = []
    for path in rendered_files(rendered):
        if Path(path).name in (KUSTOMIZATION, KUSTOMIZE_CONFIG, SOPS_FILE):
            continue
        for doc in reader.load(path):
            out += [o for o in _flatten([doc.data]) if isinstance(o, dict) and "kind" in o]
    return out


def rendered_files(rendered: str) -> list[str]:
    target = Path(rendered)
    if target.is_dir():  # secrets.yaml is git-ignored by the .gitignore fluidgen writes beside it
        return [str(p) for p in sorted(target.glob("*.y*ml")) if p.is_file() and p.name != SECRETS]
    return [rendered] if target.exists() else []


def missing(rendered: str) -> list[Diagnostic]:
    if Path(rendered).exists():
        return []
    return [Diagnostic(rendered, 0, 0, "error", "rendered file or directory does not exist; create it with "
                                                "fluidgen build SPEC > FILE (or -o DIR)")]
