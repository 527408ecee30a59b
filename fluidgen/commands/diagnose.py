"""`fluidgen diagnose SPECS --cluster DUMP`: what the cluster shows is wrong with what SPECS
built. The command line's arguments record (build's target flags as TargetArgs) and `execute(args)
-> exit code`, which checks the flag combinations and hands the resolved options to
diagnosis/run.py."""

from __future__ import annotations

from dataclasses import dataclass, field

import click

from ..diagnosis import run as diagnosis
from .build import TargetArgs as TargetArgs  # cli.py fills the record from this module alone


@dataclass(frozen=True)
class DiagnoseArgs:
    specs: tuple[str, ...]
    cluster: tuple[str, ...] = ()  # dump files (or - for stdin)
    logs: str | None = None  # a directory of <pod>.log files
    collect: bool = False  # run kubectl get instead of --cluster
    overlays: tuple[str, ...] = ()
    target_args: TargetArgs = field(default_factory=TargetArgs)
    fmt: str = "text"

    def check(self) -> None:
        """Flag combinations that cannot work (usage errors, exit 2)."""
        if not self.specs and not self.overlays:
            raise click.UsageError("give the spec(s) that built what runs (or -f overlays)")
        if self.collect == bool(self.cluster):
            raise click.UsageError("give the dump with --cluster DUMP, or --collect to run kubectl for it (not both)")


def execute(args: DiagnoseArgs) -> int:
    args.check()
    target = args.target_args
    return diagnosis.execute(diagnosis.DiagnoseArgs(args.specs, args.cluster, target.options(read_credentials=False),
                                                    args.overlays, target.environment_name(), args.logs,
                                                    args.collect, args.fmt))
