"""`fluidgen diff`: what the specs compile to versus a committed file or `-o` directory.

Credentials are not read, and every Secret value is shown as <redacted> on both sides, so
a diff never carries a secret: it reports Secrets whose keys differ, not whose values do
(kubectl's last-applied-configuration annotation of a Secret, a copy of its values, too).
A committed file that does not read as YAML is never shown, only named.

RENDERED comes from the repository (the fluidgen-rendered hook runs on pull requests), so
nothing in it is trusted to be what fluidgen wrote: a symbolic link or a FIFO in it is never
followed or read (RENDERED itself may not be a link), a file fluidgen would not write is
named without its content, and of a file it would write only documents of the kinds it
would write there are shown; anything else is a one-line placeholder.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
from pathlib import Path
from typing import Any

from ..base import emit
from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Manifest, Tree
from ..io.inputs import Reader
from ..io.lists import open_items, secrets_in
from ..io.yamlreader import MAX_BYTES, Document
from .output import (
    GITIGNORE,
    KUSTOMIZATION,
    KUSTOMIZE_CONFIG,
    MARKER,
    SECRETS,
    SOPS_FILE,
    WORKLOADS,
    directory_files,
    has_values,
)
from .plan import in_build_namespace, key_of

REDACTED = "<redacted>"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def redact(obj: Any) -> Any:
    if not isinstance(obj, dict):
        return obj
    if str(obj.get("kind", "")).endswith("List") and isinstance(obj.get("items"), list):
        return {**obj, "items": [redact(i) for i in obj["items"]]}
    if obj.get("kind") != "Secret":
        return obj
    return _redact_secret(obj)


def _redact_secret(obj: Tree) -> Tree:
    """A Secret with each value, and kubectl's copy of them all, replaced by <redacted>."""
    out = dict(obj)
    meta = obj.get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("annotations"), dict) and LAST_APPLIED in meta["annotations"]:
        out["metadata"] = {**meta, "annotations": {**meta["annotations"], LAST_APPLIED: REDACTED}}
    for key in ("data", "stringData"):
        if isinstance(obj.get(key), dict):
            out[key] = dict.fromkeys(obj[key], REDACTED)
        elif key in obj:
            out[key] = REDACTED
    return out


def _flatten(docs: list[Any]) -> list[Any]:
    """Documents, with a kubectl List (or --format json output) opened into its items, Lists in
    it too (io/lists.py open_items); one nested deeper than that reader opens stays whole."""
    out: list[Any] = []
    for d in docs:
        opened = open_items(d)
        out += [d] if opened is None else opened
    return out


def expected_files(objects: list[Manifest], rendered: Path, flux: bool = False) -> dict[str, str]:
    """What `rendered` should hold: one file (stdout form) or a kustomize base directory (in
    Flux's layout with `flux`). A directory's secrets.yaml is not compared: it is git-ignored
    and never committed; its secrets.sops.yaml is compared by Secret names and keys
    (encryption differs on every run)."""
    if rendered.is_dir():
        sealed = "" if (rendered / SOPS_FILE).is_file() else None  # Flux's base lists it
        return {name: p.text for name, p in directory_files(objects, sealed, flux).items()
                if name not in (SECRETS, GITIGNORE, SOPS_FILE)}
    return {rendered.name: emit.dump_all(objects)}


def _normalised(reader: Reader, path: Path, kinds: set[tuple[str, str]]) -> str:
    """Re-emit a committed YAML file through the one writer, with Secret values redacted and
    every document that is not an object of `kinds` replaced by a placeholder."""
    problem = _not_plain_file(path)
    if problem is not None:
        return f"# {path} {problem}; it is not read\n"
    try:
        docs = [d.data for d in reader.load(str(path))]
    except FluidgenError as exc:
        reason = exc.diagnostics[0].message if exc.diagnostics else "unreadable"
        return f"# {path} does not read as YAML ({reason}); its content is not shown\n"
    return emit.dump_all([redact(d) if _kind_of(d) in kinds else {"value": "<not an object fluidgen writes; not shown>"}
                          for d in _flatten(docs)])


def _kind_of(doc: Any) -> tuple[str, str] | None:
    if isinstance(doc, dict) and isinstance(doc.get("apiVersion"), str) and isinstance(doc.get("kind"), str):
        return doc["apiVersion"], doc["kind"]
    return None


def _not_plain_file(path: Path) -> str | None:
    """Why a path in RENDERED is not read (None for a regular file): never through a link."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISLNK(mode):
        return "is a symbolic link (fluidgen never writes one)"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    return None


def _workloads(rendered: Path) -> list[Path]:
    """The files of Flux's DIR/workloads, when it is a real directory (a link is never read)."""
    sub = rendered / WORKLOADS
    return sorted(sub.glob("*.y*ml")) if sub.is_dir() and not sub.is_symlink() else []


def _committed(rendered: Path) -> dict[str, Path]:
    if rendered.is_dir():
        return {**{p.name: p for p in sorted(rendered.glob("*.y*ml")) if p.name not in (SECRETS, SOPS_FILE)},
                **{f"{WORKLOADS}/{p.name}": p for p in _workloads(rendered)}}
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


def _sealed_drift(reader: Reader, objects: list[Manifest], target: Path) -> list[str]:
    sealed = target / SOPS_FILE
    if not target.is_dir() or not os.path.lexists(sealed):
        return []
    if (problem := _not_plain_file(sealed)) is not None:
        return [f"--- {sealed} (committed)\n", f"+++ {sealed} (from specs)\n", f"-# {sealed} {problem}\n"]
    try:
        committed = _flatten([d.data for d in reader.load(str(sealed))])
    except FluidgenError:
        committed = []
    old, new = _secret_keys(committed), _secret_keys(objects)
    if old == new:
        return []
    return list(difflib.unified_diff(old, new, f"{sealed} (committed, names and keys)",
                                     f"{sealed} (from specs, names and keys)"))


def split_rendered(paths: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`diff SPEC... RENDERED...`: the specs, and the rendered output: the last path and each
    path before it that is rendered output too (a regular file with no fluidgen spec, such as
    the two files of an NFS PV and PVC, or an -o directory)."""
    first = len(paths) - 1
    while first > 0 and _is_rendered(paths[first - 1]):
        first -= 1
    return paths[:first], paths[first:]


def _is_rendered(path: str) -> bool:
    target = Path(path)
    try:
        mode = target.lstat().st_mode
        if stat.S_ISDIR(mode):
            return (target / MARKER).is_file()
        if not stat.S_ISREG(mode):
            return False
        with target.open("rb") as fh:
            head = fh.read(MAX_BYTES)
    except OSError:
        return False
    return re.search(rb"(?m)^apiVersion:[ \t]*['\"]?fluidgen\.io/", head) is None


def diff_all(objects: list[Manifest], rendered: tuple[str, ...], flux: bool = False) -> str:
    """diff over several rendered files: each built object is expected in the file that holds
    an object of its kind and name (the others in the last), in the build's order."""
    if len(rendered) == 1:
        return diff(objects, rendered[0], flux)
    owner: dict[tuple[str, str, str], int] = {}
    for i, path in enumerate(rendered):
        for obj in in_build_namespace(rendered_objects(Reader(), path), objects):
            owner.setdefault(key_of(obj), i)
    groups: list[list[Manifest]] = [[] for _ in rendered]
    for obj in objects:
        groups[owner.get(key_of(obj), len(rendered) - 1)].append(obj)
    return "".join(diff(group, path, flux) for group, path in zip(groups, rendered, strict=True))


def diff(objects: list[Manifest], rendered: str, flux: bool = False) -> str:
    """A unified diff from the committed files to the expected ones ('' when they match)."""
    reader = Reader()
    target = Path(rendered)
    want = expected_files([redact(o) for o in objects], target, flux)
    have = _committed(target)
    kinds = {k for k in map(_kind_of, objects) if k is not None}
    chunks: list[str] = []
    for name in sorted(set(want) | set(have)):
        path = target / name if target.is_dir() else target
        old = _committed_text(reader, name, path, want, kinds) if name in have else ""
        new = want.get(name, "")
        if old != new:
            label = str(path)
            chunks += difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                           f"{label} (committed)", f"{label} (from specs)")
    chunks += _sealed_drift(reader, objects, target)
    return "".join(chunks)


KUSTOMIZE_KINDS = {("kustomize.config.k8s.io/v1beta1", "Kustomization")}


def _committed_text(reader: Reader, name: str, path: Path, want: dict[str, str], kinds: set[tuple[str, str]]) -> str:
    """What the diff shows of a committed file: only what fluidgen would write there, read
    only when it is a regular file; anything else is a one-line placeholder."""
    if name not in want:
        problem = _not_plain_file(path)
        return f"# {path} {problem or 'is a file fluidgen would not write here'}; its content is not shown\n"
    if Path(name).name == KUSTOMIZE_CONFIG:  # not a Kubernetes object: compared as text, when it is one
        problem = _not_plain_file(path)
        return f"# {path} {problem}; it is not read\n" if problem else _plain_text(reader, path, want[name])
    return _normalised(reader, path, KUSTOMIZE_KINDS if name.endswith(KUSTOMIZATION) else kinds)


def _plain_text(reader: Reader, path: Path, expected: str) -> str:
    """A file fluidgen writes that is not a Kubernetes object: shown only as fluidgen wrote it."""
    try:
        text = reader.text(str(path))
    except FluidgenError:
        text = ""
    return text if text == expected else f"# {path} differs from what fluidgen writes; its content is not shown\n"


def secret_values(reader: Reader, paths: list[str]) -> list[Diagnostic]:
    """Secrets with values in files about to be committed (the pre-commit hooks refuse them)."""
    out = []
    for path in paths:
        for doc in _secret_documents(reader, path):
            out += _unsealed(doc)
    return out


def _secret_documents(reader: Reader, path: str) -> list[Document]:
    """The documents of a file (none when it cannot be read). Every file is parsed: a byte
    search for "Secret" misses a kind written with a YAML escape ("S\\x65cret")."""
    try:
        return reader.load(path)
    except FluidgenError:
        return []


def _unsealed(doc: Document) -> list[Diagnostic]:
    """A diagnostic for each Secret of a document that holds values SOPS did not encrypt."""
    out = []
    for obj in secrets_in(doc.data):  # at any depth of Lists: kustomize applies them all
        if has_values(obj) and not _sealed(obj):
            name = (obj.get("metadata") or {}).get("name") if isinstance(obj.get("metadata"), dict) else None
            out.append(doc.diag(("data",) if obj.get("data") else ("stringData",),
                                f"Secret {name} holds credential values; never commit them (use "
                                "existingSecret, externalSecret or SOPS, and keep secrets.yaml ignored)"))
    return out


def _sealed(secret: Tree) -> bool:
    """Encrypted by SOPS: its metadata key is there and every value is an ENC[...] envelope."""
    values = [*(secret.get("data") or {}).values(), *(secret.get("stringData") or {}).values()] \
        if isinstance(secret.get("data") or {}, dict) and isinstance(secret.get("stringData") or {}, dict) else [None]
    return isinstance(secret.get("sops"), dict) and all(isinstance(v, str) and v.startswith("ENC[") for v in values)


def rendered_objects(reader: Reader, rendered: str) -> list[Manifest]:
    """The Kubernetes objects of a committed file, an -o directory or a `kubectl get -o yaml`
    dump (Lists are opened; kustomize's own files are not objects)."""
    out: list[Manifest] = []
    for path in rendered_files(rendered):
        if Path(path).name in (KUSTOMIZATION, KUSTOMIZE_CONFIG, SOPS_FILE):
            continue
        for doc in reader.load(path):
            out += [o for o in _flatten([doc.data]) if isinstance(o, dict) and "kind" in o]
    return out


def rendered_files(rendered: str) -> list[str]:
    """The regular files of RENDERED (links and FIFOs in it are never read; missing() names them)."""
    target = Path(rendered)
    if target.is_dir():  # secrets.yaml is git-ignored by the .gitignore fluidgen writes beside it
        return [str(p) for p in [*sorted(target.glob("*.y*ml")), *_workloads(target)]
                if _not_plain_file(p) is None and p.name != SECRETS]
    return [rendered] if _not_plain_file(target) is None else []


def missing(rendered: str) -> list[Diagnostic]:
    """Errors about RENDERED itself, and a warning for each entry in it that is never read."""
    target = Path(rendered)
    if target.is_symlink():
        return [Diagnostic(rendered, 0, 0, "error", "is a symbolic link; fluidgen never follows one in RENDERED "
                                                    "(give the real file or directory)")]
    if not target.exists():
        return [Diagnostic(rendered, 0, 0, "error", "rendered file or directory does not exist; create it with "
                                                    "fluidgen build SPEC > FILE (or -o DIR)")]
    if not target.is_dir():
        problem = _not_plain_file(target)
        return [] if problem is None else [Diagnostic(rendered, 0, 0, "error", f"{problem}; give a file or an -o "
                                                                                "directory")]
    return [Diagnostic(str(p), 0, 0, "warning", f"{problem}; not read")
            for p in sorted(target.glob("*.y*ml")) if (problem := _not_plain_file(p)) is not None]
