"""`fluidgen lint FILES`: the semantic rules over specs and hand-written manifests, or the
rules themselves (--rules). The arguments record click fills and `execute(args) -> exit code`."""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..compile.filecheck import check_paths
from ..lint import RULES
from ..lint.docs import as_json, table
from .build import ignore_ids
from .usage import EXIT_OK
from .validate import checks, finish


@dataclass(frozen=True)
class LintArgs:
    files: tuple[str, ...]
    ignore: tuple[str, ...] = ()
    fluid_version: str | None = None
    namespace: str | None = None
    allow_read: tuple[str, ...] = ()
    gitops: str | None = None
    fmt: str = "text"
    list_rules: bool = False
    external: tuple[str, ...] = ()


def execute(args: LintArgs) -> int:
    if args.list_rules:
        click.echo(as_json(RULES) if args.fmt == "json" else table(RULES), nl=False)
        return EXIT_OK
    if not args.files:
        raise click.UsageError("give at least one spec or manifest file (or --rules)")
    found = checks(args.fluid_version, args.namespace, args.allow_read, args.gitops, schema=False, lint=True,
                   ignore=ignore_ids(args.ignore), external=args.external)
    return finish(check_paths(args.files, found), args.fmt)
