"""The compiling commands between click and the library (the seam of check-jsonschema).

click fills an arguments record (BuildArgs, PlanArgs, DiffArgs); the record checks its own
flag combinations (`check`) and resolves its settings (`options`); `execute_*(args) -> int`
does the work and returns the exit code. Everything `build` writes (stdout, -o DIR, SOPS,
the cache entry) happens in one step, `deliver`.

Imports inside the functions are start-up cost kept off `fluidgen --help` and the cache-hit
path, which import this module: python -X importtime shows the pipeline and its stages (with
drift, plan, sops, output, lint) adding 200-470 ms to the ~240 ms of fluidgen.cli, so each
command imports what it runs. inputs and report are imported at the top (inputs is loaded at
start-up anyway; report costs 0.1 ms).
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from . import report, settings
from .inputs import Reader
from .manifest import Manifest

if TYPE_CHECKING:
    from .options import Options
    from .pipeline import CompileResult

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
AGE_RECIPIENT = re.compile(r"^age1[02-9ac-hj-np-z]{58}$")  # bech32, as age-keygen prints it
T = TypeVar("T")


def resolve(setting: Callable[[Any], T], flag: Any) -> T:
    """A setting from its flag or the environment; a bad value is a usage error."""
    try:
        return setting(flag)
    except settings.SettingError as exc:
        raise click.UsageError(str(exc)) from None


def ignore_ids(ignore: tuple[str, ...]) -> frozenset[str]:
    from .lint import unknown_ids

    bad = unknown_ids(ignore)
    if bad:
        raise click.UsageError(f"unknown lint rule {', '.join(bad)} in --ignore; `fluidgen lint --rules` lists them")
    return frozenset(ignore)


@dataclass(frozen=True)
class TargetArgs:
    """The flags every compiling command shares (--fluid-version, -n, --allow-read, --gitops,
    --operation-names, --env)."""

    fluid_version: str | None = None
    namespace: str | None = None
    allow_read: tuple[str, ...] = ()
    gitops: str | None = None
    operation_names: str | None = None  # "plain" | "hashed" | None (the mode's default)
    environment: str | None = None

    def options(self, **more: Any) -> Options:
        from .options import Options

        hash_names = None if self.operation_names is None else self.operation_names == "hashed"
        return Options(fluid_version=resolve(settings.fluid_version, self.fluid_version),
                       namespace=resolve(settings.namespace, self.namespace),
                       gitops=resolve(settings.gitops, self.gitops), hash_names=hash_names,
                       **more, allow_read=resolve(settings.allow_read, self.allow_read))

    def environment_name(self) -> str | None:
        return resolve(settings.environment, self.environment)


@dataclass(frozen=True)
class BuildArgs:
    specs: tuple[str, ...]
    target_args: TargetArgs = TargetArgs()
    overlays: tuple[str, ...] = ()
    output_dir: str | None = None
    write_secrets: bool = False
    sops_age: tuple[str, ...] = ()
    fmt: str = "yaml"
    target: str = "fluid"
    strict: bool = False
    ignore: tuple[str, ...] = ()
    quiet: bool = False
    cache_argv: list[str] | None = None  # the console script's argv: store the build under it

    def check(self) -> None:
        """Flag combinations that cannot work (usage errors, exit 2)."""
        if not self.specs and not self.overlays:
            raise click.UsageError("give at least one spec file or directory (or -f overlays)")
        if self.target != "fluid" and self.output_dir:
            raise click.UsageError("-o DIR writes Kubernetes objects; use --target fluid, or redirect stdout")
        if (self.write_secrets or self.sops_age) and not self.output_dir:
            flag = "--write-secrets" if self.write_secrets else "--sops-age"
            raise click.UsageError(f"{flag} only applies with -o DIR (on stdout, Secrets are always printed)")
        if self.write_secrets and self.sops_age:
            raise click.UsageError("choose --write-secrets (plain, git-ignored) or --sops-age (encrypted), not both")
        for recipient in self.sops_age:
            if not AGE_RECIPIENT.match(recipient):
                raise click.UsageError(f'--sops-age "{recipient}" is not an age recipient (age1 followed by 58 '
                                       "lower-case letters and digits)")

    def options(self) -> Options:
        return self.target_args.options(target=self.target, warnings_as_errors=self.strict,
                                        ignore=ignore_ids(self.ignore))


def execute_build(args: BuildArgs) -> int:
    from .pipeline import compile_paths

    args.check()
    result = compile_paths(args.specs, args.options(), args.overlays,
                           environment=args.target_args.environment_name())
    diagnostics = io.StringIO()
    report.text(result.diagnostics, diagnostics)
    sys.stderr.write(diagnostics.getvalue())
    if not result.ok:
        click.echo(report.failure(result.diagnostics), err=True)
        return EXIT_USER
    summary = "" if args.quiet or result.specs <= 1 else report.summary(
        result.specs, len(result.objects), result.diagnostics) + "\n"
    sys.stderr.write(summary)
    if not result.objects:
        click.echo("fluidgen: error: nothing to build", err=True)
        return EXIT_USER
    return deliver(args, result, diagnostics.getvalue() + summary)


def deliver(args: BuildArgs, result: CompileResult, stderr_text: str) -> int:
    """Write a successful build where it was asked for: -o DIR (Secrets sealed or refused),
    else stdout, remembered in the cache when the console script may serve it again."""
    from . import emit

    if args.output_dir:
        from .output import has_values, write_dir

        secrets = [o for o in result.objects if has_values(o)]
        sealed = _seal(secrets, args) if secrets and not args.write_secrets else None
        if secrets and not args.write_secrets and sealed is None:
            click.echo(report.secrets_refused(args.output_dir, result.objects), err=True)
            return EXIT_USER
        write_dir(args.output_dir, result.objects, sealed, flux=result.flux)
        return EXIT_OK
    sys.stdout.write(emit.dump_json(result.objects) if args.fmt == "json" else emit.dump_all(result.objects))
    if args.cache_argv is not None and result.inputs.cacheable:
        from .cache import store

        store(args.cache_argv, result.objects, stderr_text, result.inputs)
    return EXIT_OK


def _seal(secrets: list[Manifest], args: BuildArgs) -> str | None:
    """The Secrets encrypted by sops, for --sops-age or a .sops.yaml; None when neither applies."""
    from pathlib import Path

    from . import emit, sops

    assert args.output_dir is not None
    out = Path(args.output_dir)
    inputs = args.specs + args.overlays
    notes: list[str] = []
    config = None
    if not args.sops_age:
        config, notes = sops.find_config(
            [out.parent if not out.exists() else out, *(Path(p).parent for p in inputs if p != "-")])
    for note in notes:
        click.echo(f"fluidgen: warning: {note}", err=True)
    if not args.sops_age and config is None:
        return None
    expected = [(str(s["metadata"].get("namespace", "")), str(s["metadata"]["name"])) for s in secrets]
    sealed, used = sops.encrypt(emit.dump_all(secrets), out / sops.FILE, args.sops_age, config, expected)
    sys.stderr.write(used)
    return sealed


HOOK_ARGS = ("the pre-commit hook fluidgen-rendered takes them as its args, e.g. `args: [specs/, rendered/]` "
             "in .pre-commit-config.yaml")


@dataclass(frozen=True)
class DiffArgs:
    paths: tuple[str, ...]  # the specs, then the rendered file(s) or directory
    target_args: TargetArgs = TargetArgs()
    overlays: tuple[str, ...] = ()
    forbid_secret_values: bool = False

    def check(self) -> None:
        if not self.paths:
            raise click.UsageError(f"give the spec(s) and then the rendered file or directory; {HOOK_ARGS}")
        if len(self.paths) < (1 if self.overlays else 2):
            raise click.UsageError("give the spec(s) and then the rendered file or directory")


def execute_diff(args: DiffArgs) -> int:
    from .drift import diff_all, missing, rendered_files, rendered_objects, secret_values, split_rendered
    from .pipeline import compile_paths
    from .plan import classify

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
    for edit in classify(old, result.objects, options.fluid_version):
        sys.stdout.write(f"# plan: {edit.line()}\n")
    click.echo(f"fluidgen: {' '.join(rendered)} {'is' if len(rendered) == 1 else 'are'} out of date; regenerate "
               f"{'it' if len(rendered) == 1 else 'them'} from the specs", err=True)
    return EXIT_USER


@dataclass(frozen=True)
class PlanArgs:
    specs: tuple[str, ...]
    against: tuple[str, ...]  # rendered files, -o directories, dumps; or one git:REV
    target_args: TargetArgs = TargetArgs()
    overlays: tuple[str, ...] = ()
    allow_recreate: bool = False

    def check(self) -> None:
        if not self.specs and not self.overlays:
            raise click.UsageError("give the spec(s) to plan")


def execute_plan(args: PlanArgs) -> int:
    from .plan import classify
    from .plan import report as plan_report

    args.check()
    options = args.target_args.options(read_credentials=False)
    env_name = args.target_args.environment_name()
    from .pipeline import compile_paths

    result = compile_paths(args.specs, options, args.overlays, environment=env_name)
    old, old_problems = _deployed(args, options, env_name)
    problems = [*result.diagnostics, *old_problems]
    report.text(problems, sys.stderr)
    if any(d.severity == "error" for d in problems):
        return EXIT_USER
    edits = classify(old, result.objects, options.fluid_version)
    sys.stdout.write(plan_report(edits))
    return EXIT_USER if any(e.ignored for e in edits) and not args.allow_recreate else EXIT_OK


def _deployed(args: PlanArgs, options: Options, env_name: str | None) -> tuple[list[Manifest], list[Any]]:
    """What is deployed now (every --against) and the problems reading it."""
    revisions = [a for a in args.against if a.startswith("git:")]
    if revisions and len(args.against) > 1:
        raise click.UsageError("--against git:REV compares with the specs at that revision; give it alone")
    if revisions:
        from .plan import compile_at_revision

        old_result = compile_at_revision(revisions[0][4:], args.specs, args.overlays, options, env_name)
        return old_result.objects, old_result.diagnostics
    from .drift import missing, rendered_objects

    objects: list[dict[str, Any]] = []
    problems: list[Any] = []
    for path in args.against:
        absent = missing(path)
        problems += absent
        objects += [] if absent else rendered_objects(Reader(), path)
    return objects, problems
