"""Where `fluidgen import -o DIR` writes: one spec per Dataset, and kept.yaml for objects
outside any spec. Files are created, never replaced: an import does not overwrite work."""

from __future__ import annotations

import os
from pathlib import Path

from ..base import emit
from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Manifest

KEPT = "kept.yaml"


def spec_file(name: str, namespace: str | None) -> str:
    return f"{namespace + '-' if namespace else ''}{name}.yaml"


def spec_path(name: str, namespace: str | None, directory: str | None) -> str:
    """Where the spec of Dataset namespace/name is written (its name alone on stdout)."""
    return os.path.join(directory, spec_file(name, namespace)) if directory else spec_file(name, namespace)


def _refused(target: Path, names: list[str]) -> list[Diagnostic]:
    """Names that are not plain file names, then those already in `target` (a file or a link)."""
    odd = [name for name in names if os.path.basename(name) != name or name.startswith(".")]
    clashes = [name for name in names if name not in odd and os.path.lexists(target / name)]
    return [Diagnostic(str(target / name), 0, 0, "error", "not a plain file name; nothing was written")
            for name in odd] + \
        [Diagnostic(str(target / name), 0, 0, "error", "already exists (a file or a link); an import never replaces "
                    "one and wrote nothing (move it, or choose another -o)") for name in clashes]


def write_specs(directory: str, texts: dict[str, str], kept: list[Manifest]) -> None:
    """Every file or none: each target is checked with lstat first (a dangling symbolic link is
    in the way too), created exclusively without following a link, and on any failure the
    files already created are removed again."""
    target = Path(directory)
    files = dict(texts)
    if kept:
        files[KEPT] = emit.dump_all(kept)
    refused = _refused(target, list(files))
    if refused:
        raise FluidgenError(refused)
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    name = ""
    try:
        for name, text in files.items():
            fd = os.open(target / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            written.append(target / name)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
    except OSError as exc:
        for path in written:
            path.unlink(missing_ok=True)
        raise FluidgenError([Diagnostic(str(target / name), 0, 0, "error", f"cannot be written ({exc.strerror}); "
                                                                            "nothing was written")]) from None
