"""`fluidgen profiles list` and `profiles show NAME`: the bundled tuning profiles
(spec/profiles.py reads them). An arguments record per subcommand, and `execute(args) -> exit
code` for either."""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..base import emit
from ..spec import profiles as prof
from .usage import EXIT_OK


@dataclass(frozen=True)
class ListArgs:
    """`profiles list` takes no arguments."""


@dataclass(frozen=True)
class ShowArgs:
    name: str


def execute(args: ListArgs | ShowArgs) -> int:
    if isinstance(args, ShowArgs):
        return _show(args.name)
    for name in prof.bundled_names():
        p = prof.load_profile(name)
        extends = f" (extends {p.extends})" if p.extends else ""
        click.echo(f"{name:<22} {p.engine:<9} {p.description.split('. ')[0].rstrip('.')}{extends}")
    return EXIT_OK


def _show(name: str) -> int:
    """Every setting of NAME (and what it extends), each with its reason."""
    if prof.is_path(name):
        raise click.UsageError(f"{name}: give a bundled profile name (`fluidgen profiles list`)")
    try:
        head = prof.load_profile(name)
        chain = prof.chain(name, head.engine)
    except KeyError as exc:
        raise click.UsageError(str(exc.args[0])) from None
    click.echo(f"# {head.name} ({head.engine}): {head.description}")
    click.echo(f"# chain: {' -> '.join(p.name for p in chain)}")
    for p in chain:
        for e in p.entries:
            if isinstance(e.value, dict | list):
                value = "\n" + emit.dump({"_": e.value}).rstrip().partition("\n")[2]
            else:
                value = " " + emit.scalar(e.value)
            click.echo(f"\n{'/'.join(e.path)}:{value}")
            click.echo(f"  # from {p.name}: {' '.join(e.why.split())}")
            for rule, reason in e.waive:
                click.echo(f"  # waives {rule}: {' '.join(reason.split())}")
    return EXIT_OK
