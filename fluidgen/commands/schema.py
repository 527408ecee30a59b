"""`fluidgen schema`: the spec's JSON Schema on stdout or written to a file (spec/specschema.py
makes it). The arguments record click fills and `execute(args) -> exit code`."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from ..spec.specschema import spec_schema_text, write_schema
from .usage import EXIT_OK, EXIT_USER


@dataclass(frozen=True)
class SchemaArgs:
    output: str | None = None  # a file to write instead of stdout


def execute(args: SchemaArgs) -> int:
    if args.output is None:
        sys.stdout.write(spec_schema_text())
        return EXIT_OK
    problem = write_schema(args.output)
    if problem is not None:
        click.echo(f"fluidgen: error: {problem}", err=True)
        return EXIT_USER
    click.echo(f"fluidgen: wrote {args.output}", err=True)
    return EXIT_OK
