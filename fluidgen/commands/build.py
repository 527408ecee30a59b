"""`fluidgen build` between click and the library (the seam of check-jsonschema).

click fills an arguments record (BuildArgs; TargetArgs holds the flags every compiling
command shares); the record checks its own flag combinations (`check`) and resolves its
settings (`options`); `execute(args) -> int` does the work and returns the exit code.
Everything `build` writes (stdout, -o DIR, SOPS, the cache entry) happens in one step,
`deliver`. `diff` and `plan` are diff.py and plan.py, so a build loads neither drift nor plan.

cli.py imports this module inside the command that runs it: the compiler it loads is kept
off `fluidgen --help` and the cache-hit path.
"""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..base import emit
from ..base.manifest import Manifest
from ..base.options import Options
from ..compile.output import has_values, write_dir
from ..compile.pipeline import CompileResult, compile_paths
from ..io import report, settings, sops
from ..io.cache import store
from ..lint import unknown_ids
from .usage import EXIT_OK, EXIT_USER, resolve

AGE_RECIPIENT = re.compile(r"^age1[02-9ac-hj-np-z]{58}$")  # bech32, as age-keygen prints it


def ignore_ids(ignore: tuple[str, ...]) -> frozenset[str]:
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
        hash_names = None if self.operation_names is None else self.operation_names == "hashed"
        return Options(fluid_version=resolve(settings.fluid_version, self.fluid_version),
                       namespace=resolve(settings.namespace, self.namespace),
                       namespace_from=settings.namespace_source(self.namespace),
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
    confine_from_env: bool = False  # the operator's: see io/settings.py from_env
    from_env_allow: tuple[str, ...] = ()

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
                                        ignore=ignore_ids(self.ignore),
                                        from_env=resolve(lambda flags: settings.from_env(*flags),
                                                         (self.confine_from_env, self.from_env_allow)))


def execute(args: BuildArgs) -> int:
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
    if args.output_dir:
        secrets = [o for o in result.objects if has_values(o)]
        sealed = _seal(secrets, args) if secrets and not args.write_secrets else None
        if secrets and not args.write_secrets and sealed is None:
            click.echo(report.secrets_refused(args.output_dir, result.objects), err=True)
            return EXIT_USER
        write_dir(args.output_dir, result.objects, sealed, flux=result.flux)
        return EXIT_OK
    sys.stdout.write(emit.dump_json(result.objects) if args.fmt == "json" else emit.dump_all(result.objects))
    if args.cache_argv is not None and result.inputs.cacheable:
        store(args.cache_argv, result.objects, stderr_text, result.inputs)
    return EXIT_OK


def _seal(secrets: list[Manifest], args: BuildArgs) -> str | None:
    """The Secrets encrypted by sops, for --sops-age or a .sops.yaml; None when neither applies."""
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
