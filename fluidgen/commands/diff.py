"""`fluidgen diff` between click and the library: the specs compiled and compared with what is
rendered. The arguments record as in commands/build.py, whose TargetArgs it shares, and
`execute(args) -> exit code`; cli.py imports this module inside the command that runs it."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import click

from ..compile.drift import diff_all, missing, rendered_files, rendered_objects, secret_values, split_rendered
from ..compile.pipeline import compile_paths
from ..compile.plan import classify
from ..io import report
from ..io.inputs import Reader
from .build import TargetArgs as TargetArgs  # cli.py fills the record from this module alone
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


def execute(args: DiffArgs) -> int:
    args.check()
    specs, rendered = split_rendered(args.paths)
    if not specs and not args.overlays:
        raise click.UsageError(f"{args.paths[0]} holds no fluidgen spec: give the spec(s) first, then the rendered "
                               "file(s) or directory")
    options = args.target_args.options(read_credentials=False, keys_compared=True)
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
