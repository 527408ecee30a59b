"""`fluidgen flux kustomization SPECS --path PATH`: the Flux Kustomizations that apply what
`build --gitops flux -o DIR` wrote (flux.py builds them). The arguments record click fills, its
flag checks, and `execute(args) -> exit code`."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

import click

from ..base import emit, names
from ..compile.pipeline import compile_paths
from ..io import report
from .build import TargetArgs
from .flux import DECRYPTION_SECRET, DEFAULT_INTERVAL, DURATION, SOURCE_KINDS, kustomizations
from .usage import EXIT_OK, EXIT_USER


@dataclass(frozen=True)
class KustomizationArgs:
    specs: tuple[str, ...]
    path: str  # where `build --gitops flux -o DIR` wrote DIR in the source
    overlays: tuple[str, ...] = ()
    environment: str | None = None
    source: str = "GitRepository/flux-system"  # KIND/NAME
    name: str | None = None  # the Kustomizations' name prefix; None: the last part of path
    interval: str = DEFAULT_INTERVAL
    timeout: str | None = None
    decryption_secret: str = DECRYPTION_SECRET
    fluid_version: str | None = None
    namespace: str | None = None
    allow_read: tuple[str, ...] = ()

    def check(self) -> str:
        """Flag values that cannot work (usage errors, exit 2); the Kustomizations' name prefix."""
        kind, _, source_name = self.source.partition("/")
        if kind not in SOURCE_KINDS or names.dns1123_subdomain(source_name) is not None:
            raise click.UsageError(f"--source {self.source!r}: give KIND/NAME with KIND one of "
                                   f"{', '.join(SOURCE_KINDS)}")
        for flag, value in (("--interval", self.interval), ("--timeout", self.timeout)):
            if value is not None and not re.match(DURATION, value):
                raise click.UsageError(f"{flag} {value!r}: give a duration such as 90s, 10m or 1h30m")
        if not self.path or not self.path.isprintable():  # a newline or control character is never a directory meant
            raise click.UsageError(f"--path {self.path!r}: give the directory in the source, e.g. ./rendered/prod")
        if names.dns1123_subdomain(self.decryption_secret) is not None:
            raise click.UsageError(f"--decryption-secret {self.decryption_secret!r}: not a Secret name")
        if not self.specs and not self.overlays:
            raise click.UsageError("give at least one spec file or directory (or -f overlays)")
        base = self.name or re.sub(r"[^a-z0-9-]+", "-", self.path.rstrip("/").rpartition("/")[2].lower()).strip("-")
        if not base:
            # One name for every application (fluidgen-data) made a second one replace the first in the
            # namespace; a name made up now would rename, and Flux would prune, existing Kustomizations.
            raise click.UsageError(f"--path {self.path!r} names no folder to call the Kustomizations after: give "
                                   "--name, e.g. the dataset's name (--name fluidgen keeps the names fluidgen-data "
                                   "and fluidgen-workloads that earlier versions gave; see README, Upgrading)")
        if (problem := names.dns1123_label(base + "-workloads")) is not None:
            raise click.UsageError(f"--name {base!r}: {problem}")
        return base


def execute(args: KustomizationArgs) -> int:
    base = args.check()
    kind, _, source_name = args.source.partition("/")
    target = TargetArgs(args.fluid_version, args.namespace, args.allow_read, "flux", None, args.environment)
    result = compile_paths(args.specs, target.options(read_credentials=False), args.overlays,
                           environment=target.environment_name())
    report.text(result.diagnostics, sys.stderr)
    if not result.ok:
        click.echo(report.failure(result.diagnostics), err=True)
        return EXIT_USER
    sys.stdout.write(emit.dump_all(kustomizations(
        result.objects, sorted(result.fluid_versions), name=base, path=args.path, source=(kind, source_name),
        interval=args.interval, timeout=args.timeout, decryption_secret=args.decryption_secret)))
    return EXIT_OK
