"""`fluidgen diff` and `fluidgen plan` between click and the library: the specs compiled and
compared with what is rendered (diff) or deployed (plan). Arguments records as in
commands/build.py, whose TargetArgs they share; cli.py imports this module inside the command
that runs it."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import click

from ..base.diagnostics import Diagnostic
from ..base.manifest import Manifest
from ..base.options import Options
from ..compile.drift import diff_all, missing, rendered_files, rendered_objects, secret_values, split_rendered
from ..compile.pipeline import compile_paths
from ..compile.plan import classify, compile_at_revision
from ..compile.plan import report as plan_report
from ..io import report
from ..io.inputs import Reader
from .build import TargetArgs
from .usage import EXIT_OK, EXIT_USER

HOOK_ARGS = ("the pre-commit hook fluidgen-rendered takes them as its args, e.g. `args: [specs/, rendered/]` "
             "in .pre-commit-config.yaml")


@dataclass(frozen=True)
class DiffArgs:
    paths: tuple[str, ...]  # the specs, then the rendered file(s) or directory
    target_args: TargetArgs = field(default_factory=TargetArgs)
    overlays: tuple[str, ...] = ()
    forbid_secret_values: bool = False

    def check(self) -> None:
        if not self.paths:
            raise click.UsageError(f"give the spec(s) and then the rendered file or directory; {HOOK_ARGS}")
        if len(self.paths) < (1 if self.overlays else 2):
            raise click.UsageError("give the spec(s) and then the rendered file or directory")


def execute_diff(args: DiffArgs) -> int:
    args.check()
    specs, rendered = split_rendered(args.paths)
    if not specs and not args.overlays:
        raise click.UsageError(f"{args.paths[0]} holds no fluidgen spec: give the spec(s) first, then the rendered "
                               "file(s) or directory")
    options = args.target_args.options(read_credentials=False)
    result = compile_paths(specs, options, args.overlays, environment=args.target_args.environment_name())
    problems = result.diagnostics + [d for path in rendered for d in missing(path)]
    if args.forbid_secret_values:
        problems += secret_values(Reader(), [f for path in rendered for f in rendered_files(path)])
    report.text(problems, sys.stderr)
    if any(d.severity == "error" for d in problems):
        return EXIT_USER
    text = diff_all(result.objects, rendered, flux=result.flux)
    if not text:
        return EXIT_OK
    sys.stdout.write(text)
    # What Fluid will do with each changed field once the new manifests are applied
    old = [o for path in rendered for o in rendered_objects(Reader(), path)]
    for edit in classify(old, result.objects, options.fluid_version, result.built_for):
        sys.stdout.write(f"# plan: {edit.line()}\n")
    click.echo(f"fluidgen: {' '.join(rendered)} {'is' if len(rendered) == 1 else 'are'} out of date; regenerate "
               f"{'it' if len(rendered) == 1 else 'them'} from the specs", err=True)
    return EXIT_USER


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


def execute_plan(args: PlanArgs) -> int:
    args.check()
    options = args.target_args.options(read_credentials=False)
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
