"""`fluidgen import FILES`: existing Fluid manifests turned into specs, proven by a round trip
(importer/run.py does the work). The arguments record click fills and `execute(args) -> exit
code`: the report on stderr, the specs on stdout or in -o DIR."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ..base import versions
from ..importer.files import write_specs
from ..importer.run import kept_documents, report, run, spec_file
from ..io import report as diagnostics_report
from ..io import settings
from .usage import EXIT_OK, EXIT_USER, resolve


@dataclass(frozen=True)
class ImportArgs:
    files: tuple[str, ...]
    output_dir: str | None = None
    check: bool = False  # only prove the round trip, write nothing
    fluid_version: str | None = None


def execute(args: ImportArgs) -> int:
    version = resolve(settings.fluid_version, args.fluid_version) or versions.DEFAULT
    result = run(list(args.files), version, output_dir=None if args.check else args.output_dir,
                 progress=progress(sys.stderr))
    diagnostics_report.text(result.diagnostics, sys.stderr)
    sys.stderr.write(report(result))
    if result.failed:
        sys.stderr.write("fluidgen: import failed; nothing was written\n")
        return EXIT_USER
    if args.check:
        return EXIT_OK
    texts = {spec_file(i.scenario.name, i.scenario.namespace): i.text for i in result.imported}
    if args.output_dir is None:
        sys.stdout.write("---\n".join(texts.values()))
        return EXIT_OK
    texts.update({i.profile_file: i.profile_text for i in result.imported if i.profile_file})
    write_specs(args.output_dir, texts, kept_documents(result))
    return EXIT_OK


def progress(stream: TextIO) -> Callable[[int, int], None] | None:
    """A progress line for a long import, only on a terminal (never in a log or a pipe): one
    line rewritten in place, erased when the last Dataset is done."""
    if not stream.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total >= 20:
            stream.write(f"\rfluidgen import: {done}/{total} Datasets done" if done < total else "\r\x1b[K")
            stream.flush()
    return show
