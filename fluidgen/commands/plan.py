"""`fluidgen plan` between click and the library: the specs compiled and compared with what is
deployed (rendered files, a dump, or the specs at a git revision), each edit classified by what
Fluid does with it. The arguments record as in commands/build.py, whose TargetArgs it shares,
and `execute(args) -> exit code`; cli.py imports this module inside the command that runs it."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import click

from ..base.diagnostics import Diagnostic
from ..base.manifest import Manifest
from ..base.options import Options
from ..compile.drift import missing, rendered_objects
from ..compile.pipeline import compile_paths
from ..compile.plan import classify, compile_at_revision
from ..compile.plan import report as plan_report
from ..io import report
from ..io.inputs import Reader
from .build import TargetArgs as TargetArgs  # cli.py fills the record from this module alone
from .usage import EXIT_OK, EXIT_USER


@dataclass(frozen=True)
class PlanArgs:
    specs: tuple[str, ...]
    against: tuple[str, ...]  # rendered files, -o directories, dumps; or one git:REV
    target_args: TargetArgs = field(default_factory=TargetArgs)
    overlays: tuple[str, ...] = ()
    allow_recreate: bool = False

    def check(self) -> None:
        if not self.specs and not self.overlays:
            raise click.UsageError("give the spec(s) to plan")


def execute(args: PlanArgs) -> int:
    args.check()
    options = args.target_args.options(read_credentials=False, keys_compared=True)
    env_name = args.target_args.environment_name()
    result = compile_paths(args.specs, options, args.overlays, environment=env_name)
    old, old_problems, running = _deployed(args, options, env_name)
    problems = [*result.diagnostics, *old_problems]
    report.text(problems, sys.stderr)
    if any(d.severity == "error" for d in problems):
        return EXIT_USER
    edits = classify(old, result.objects, options.fluid_version, result.built_for, running)
    sys.stdout.write(plan_report(edits))
    return EXIT_USER if any(e.ignored for e in edits) and not args.allow_recreate else EXIT_OK


def _deployed(args: PlanArgs, options: Options, env_name: str | None
              ) -> tuple[list[Manifest], list[Diagnostic], dict[tuple[str, str, str], str]]:
    """What is deployed now (every --against), the problems reading it, and the Fluid version
    each deployed object was built for where that is known (the specs at a git revision; a
    rendered file or a dump does not say)."""
    revisions = [a for a in args.against if a.startswith("git:")]
    if revisions and len(args.against) > 1:
        raise click.UsageError("--against git:REV compares with the specs at that revision; give it alone")
    if revisions:
        old_result = compile_at_revision(revisions[0][4:], args.specs, args.overlays, options, env_name)
        return old_result.objects, old_result.diagnostics, old_result.built_for
    objects: list[Manifest] = []
    problems: list[Diagnostic] = []
    for path in args.against:
        absent = missing(path)
        problems += absent
        objects += [] if absent else rendered_objects(Reader(), path)
    return objects, problems, {}
