"""A content-addressed cache for `fluidgen build`, checked before anything heavy is imported.

Argo CD re-renders the same application on every refresh; with deterministic output the
second build of the same inputs can be read back instead of recompiled. An entry is keyed
by the tool's own files, the command line, the working directory and the FLUIDGEN_*
settings, and it lists everything the build read (deps.py). It is served only if every
one of those inputs is unchanged. Secret values are never stored: the cached text holds
tokens, and each value is read again from its environment variable or file on every hit.
Entries are written atomically (temp file + rename), so concurrent runs are safe.

Off with FLUIDGEN_NO_CACHE=1; location FLUIDGEN_CACHE_DIR (default: $XDG_CACHE_HOME/fluidgen).
"""

from __future__ import annotations

import binascii
import contextlib
import marshal
import os
import sys
from collections.abc import Callable
from typing import Any

from . import deps

SETTINGS_PREFIXES = ("FLUIDGEN_", "ARGOCD_ENV_FLUIDGEN_")
NOT_SETTINGS = {"FLUIDGEN_NO_CACHE", "FLUIDGEN_CACHE_DIR", "FLUIDGEN_TRACEBACK"}
MAX_ENTRIES = 2000
FORMAT = 1  # bump when the entry layout changes
TOKEN = "FLUIDGENCACHEDSECRET{}X"
_FLAGS = {"-q", "--quiet", "--strict"}
_VALUED = {"-n", "--namespace", "--fluid-version", "--format", "--target", "-f", "--file"}


def enabled() -> bool:
    return not os.environ.get("FLUIDGEN_NO_CACHE")


def directory() -> str:
    configured = os.environ.get("FLUIDGEN_CACHE_DIR")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fluidgen")


def cacheable_argv(argv: list[str]) -> bool:
    """Only plain `build` invocations writing YAML to stdout: anything else is never cached."""
    if not argv or argv[0] != "build":
        return False
    i = 1
    while i < len(argv):
        arg = argv[i]
        name, _, value = arg.partition("=")
        if arg in _FLAGS:
            i += 1
        elif name in _VALUED and name.startswith("--") and "=" in arg:
            if name == "--format" and value != "yaml":
                return False
            i += 1
        elif arg in _VALUED:
            if i + 1 >= len(argv) or (arg == "--format" and argv[i + 1] != "yaml"):
                return False
            i += 2
        elif arg.startswith("-"):  # -o, --help, -, unknown options: not cached
            return False
        else:
            i += 1
    return True


def _fingerprint() -> list[Any]:
    """The tool itself: every file of the installed package, by name, size and mtime."""
    root = os.path.dirname(os.path.abspath(__file__))
    files = []
    for folder, dirnames, names in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".yaml", ".typed")):
                st = os.stat(os.path.join(folder, name))
                files.append([os.path.relpath(os.path.join(folder, name), root), st.st_size, st.st_mtime_ns])
    return [sys.version_info[:2], files]


def _key(argv: list[str]) -> str:
    settings = sorted((k, v) for k, v in os.environ.items()
                      if k.startswith(SETTINGS_PREFIXES) and k not in NOT_SETTINGS)
    # repr of lists, tuples, strings and ints is stable across runs and hash seeds.
    material = repr([FORMAT, _fingerprint(), argv, os.getcwd(), settings])
    return deps.digest(material.encode())


def serve(argv: list[str], write: Callable[[str], Any], write_err: Callable[[str], Any]) -> bool:
    """Write a cached build's output if every recorded input is unchanged; False on a miss."""
    if not enabled() or not cacheable_argv(argv):
        return False
    try:
        with open(os.path.join(directory(), f"{_key(argv)}.entry"), "rb") as fh:
            entry = marshal.load(fh)
        text = _fresh_output(entry)
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return False
    if text is None:
        return False
    write_err(entry["stderr"])
    write(text)
    return True


def _fresh_output(entry: dict[str, Any]) -> str | None:
    for path, want in entry["files"].items():
        if _file_digest(path) != want:
            return None
    for path, want in entry["dirs"].items():
        if deps.digest("\n".join(sorted(deps.yaml_files(path))).encode()) != want:
            return None
    for path, want in entry["envfiles"].items():
        from .secretsource import parse_env_file, read_value_file

        keys = sorted(parse_env_file(read_value_file(path))[0])
        if deps.digest("\n".join(keys).encode()) != want:
            return None
    return _fill_secrets(entry["stdout"], entry["secrets"])


def _file_digest(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            return deps.digest(fh.read())
    except FileNotFoundError:
        return ""


def _fill_secrets(template: str, secrets: dict[str, list[str]]) -> str | None:
    from .secretsource import resolve

    text = template
    for token, recipe in secrets.items():
        value = resolve(tuple(recipe))
        if not value:  # unset or empty now: a real build reports it
            return None
        text = text.replace(token, b64_scalar(binascii.b2a_base64(value.encode("utf-8"), newline=False).decode()))
    return text


_YAML_WORDS = frozenset({
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL"})


def b64_scalar(text: str) -> str:
    """How the emitter writes a base64 string, without importing it in the common case.

    Base64 has no '.', ':', '-' or spaces, so a value starting with a letter or '/' can only
    be re-typed by YAML if it is one of the bool/null words. Anything else goes to emit.scalar.
    """
    if (text[:1].isalpha() or text[:1] == "/") and text not in _YAML_WORDS:
        return text
    from .emit import scalar

    return scalar(text)


def store(argv: list[str], objects: list[dict[str, Any]], stderr: str, recorder: deps.Recorder) -> None:
    """Remember a successful build. Best effort: a cache that cannot be written is skipped."""
    if not enabled() or not cacheable_argv(argv):
        return
    tokenized, secrets = _tokenize(objects, recorder)
    if secrets is None:
        return
    from .emit import dump_all

    entry = {"files": recorder.files, "dirs": recorder.dirs, "envfiles": recorder.envfiles, "secrets": secrets,
             "stdout": dump_all(tokenized), "stderr": stderr}
    with contextlib.suppress(OSError):
        _write(directory(), f"{_key(argv)}.entry", marshal.dumps(entry))


def _tokenize(objects: list[dict[str, Any]],
              recorder: deps.Recorder) -> tuple[list[dict[str, Any]], dict[str, list[str]] | None]:
    """Objects with every generated Secret value replaced by a token, and each token's recipe."""
    secrets: dict[str, list[str]] = {}
    out = []
    for obj in objects:
        if obj.get("kind") == "Secret" and obj.get("apiVersion") == "v1" and obj.get("data"):
            meta = obj["metadata"]
            data = {}
            for key in obj["data"]:
                recipe = recorder.secrets.get((meta.get("namespace", ""), meta["name"], key))
                if recipe is None or recipe[0] == "inline":
                    return objects, None  # a value the cache could not read back: do not cache
                token = TOKEN.format(len(secrets))
                secrets[token] = list(recipe)
                data[key] = token
            obj = {**obj, "data": data}
        out.append(obj)
    return out, secrets


def _write(folder: str, name: str, data: bytes) -> None:
    import tempfile

    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".entry-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, os.path.join(folder, name))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _prune(folder)


def _prune(folder: str) -> None:
    from pathlib import Path

    entries = list(Path(folder).glob("*.entry"))
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) - MAX_ENTRIES * 9 // 10]:
        with contextlib.suppress(OSError):
            old.unlink()
