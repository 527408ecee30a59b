"""Where `fluidgen import -o DIR` writes: one spec per Dataset, and kept.yaml for objects
outside any spec. Files are created, never replaced: an import does not overwrite work."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import emit
from ..diagnostics import Diagnostic, FluidgenError

KEPT = "kept.yaml"


def spec_file(name: str, namespace: str | None) -> str:
    return f"{namespace + '-' if namespace else ''}{name}.yaml"


def spec_path(name: str, namespace: str | None, directory: str | None) -> str:
    """Where the spec of Dataset namespace/name is written (its name alone on stdout)."""
    return os.path.join(directory, spec_file(name, namespace)) if directory else spec_file(name, namespace)


def write_specs(directory: str, texts: dict[str, str], kept: list[dict[str, Any]]) -> None:
    target = Path(directory)
    files = dict(texts)
    if kept:
        files[KEPT] = emit.dump_all(kept)
    clashes = [name for name in files if (target / name).exists()]
    if clashes:
        raise FluidgenError([Diagnostic(str(target / name), 0, 0, "error", "already exists; an import never replaces "
                                                                            "a file (move it, or choose another -o)")
                             for name in clashes])
    target.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        fd = os.open(target / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
