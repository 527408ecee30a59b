"""Command line: the options of every command, declared for click; nothing else. Each command
fills its arguments record and hands it to its module's `execute(args) -> exit code`
(fluidgen/commands/, one module per command), imported inside the command so that `fluidgen
--help`, the cache-hit path and every other command load none of its library.

Exit codes: 0 ok, 1 user error (bad spec, failed validation; nothing on stdout) or a problem
of the machine (output that cannot be written: a closed stdout, a full disk; a dependency
missing from the installation), each said in one line, 2 usage error, 3 internal error (a
bug: please report it, with --traceback output), 130 interrupted (Ctrl-C, SIGINT).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from . import __version__
from .base import versions
from .base.diagnostics import FluidgenError, Unavailable
from .commands.usage import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, EXIT_USER
from .io import report, settings

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Startup:
    """What the console script hands the commands (click's context object)."""

    cache_argv: list[str] | None = None  # set: a successful build is stored in the cache under it


def _cache_argv() -> list[str] | None:
    """The console script's argv, under which a successful build is cached (None: not cached)."""
    startup = click.get_current_context().find_object(Startup)
    return startup.cache_argv if startup else None


def target_options(command: F) -> F:
    """--fluid-version, --namespace, --allow-read and --gitops, shared by every command that compiles."""
    command = click.option("--gitops", default=None, type=click.Choice(settings.GITOPS_MODES),
                           help="argocd: Argo CD sync waves on every object, data operations without a TTL; "
                                "flux: the same operations, no Argo CD annotations, ${ shielded from Flux's "
                                "substitution "
                                "[env FLUIDGEN_GITOPS; a spec's gitops: wins].")(command)
    command = click.option("--allow-read", "allow_read", multiple=True, type=click.Path(file_okay=False),
                           help="Also let specs read files below DIR (credentials, scripts, profiles) "
                                "[env FLUIDGEN_ALLOW_READ].")(command)
    command = click.option("-n", "--namespace", default=None,
                           help="Namespace for specs without metadata.namespace [env FLUIDGEN_NAMESPACE].")(command)
    command = click.option("--fluid-version", default=None, metavar="|".join(versions.NAMES),
                           help="Target Fluid version for specs that do not pin `fluid:` "
                                f"[env FLUIDGEN_FLUID_VERSION; default {versions.DEFAULT}].")(command)
    return command


def names_option(command: F) -> F:
    """--operation-names, for the commands whose output names data operations."""
    return click.option("--operation-names", "operation_names", type=click.Choice(["plain", "hashed"]),
                        default=None, help="hashed: each data operation's name ends in a hash of its spec, so "
                                           "an edited step runs again under a new name [default: hashed in GitOps "
                                           "mode, else plain].")(command)


class _ReaderLeft(Exception):
    """A command wrote to a pipe whose reader left (`fluidgen build ... | head`)."""


class _Main(click.Group):
    """The top group: a BrokenPipeError of a command leaves it as _ReaderLeft, since click's
    Command.main turns an EPIPE into exit 1 (with standalone_mode off too) before run sees it."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise _ReaderLeft from exc


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fluidgen")
@click.option("--traceback", is_flag=True, hidden=True, help="Show tracebacks of internal errors.")
def main(traceback: bool) -> None:
    """Compile short fluidgen specs into validated, tuned Fluid manifests."""


@main.command()
@click.argument("specs", nargs=-1, type=click.Path(allow_dash=True))
@click.option("-f", "--file", "overlays", multiple=True, type=click.Path(allow_dash=True),
              help="Overlay: deep-merge these files in order into one spec (maps merge, lists replace, "
                   "null deletes).")
@click.option("-o", "--output-dir", type=click.Path(file_okay=False),
              help="Write one file per object plus kustomization.yaml into DIR (a new or empty directory, or one "
                   "fluidgen wrote before).")
@click.option("--write-secrets", is_flag=True,
              help="With -o: also write generated Secrets (credential values) to DIR/secrets.yaml, mode 0600, "
                   "git-ignored and left out of kustomization.yaml.")
@click.option("--env", "environment", default=None, metavar="NAME",
              help="With a directory holding fluidgen.yaml: the environment to build [env FLUIDGEN_ENV].")
@click.option("--sops-age", "sops_age", multiple=True, metavar="RECIPIENT",
              help="With -o: write generated Secrets encrypted with SOPS for this age recipient (repeatable) to "
                   "DIR/secrets.sops.yaml. Without it, the nearest .sops.yaml at or above DIR or the spec (up to the "
                   "repository root) decides the recipients.")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True,
              help="Output format on stdout.")
@target_options
@click.option("--target", type=click.Choice(["fluid", "alluxio-helm"]), default="fluid", show_default=True,
              help="fluid: Fluid manifests; alluxio-helm: a values file for the upstream Alluxio chart.")
@names_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--ignore", multiple=True, help="Lint rule ID to silence (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="No summary line on stderr.")
@click.option("--confine-from-env", is_flag=True,
              help="For a sidecar serving many tenants: a spec's credentials.fromEnv may read only the Argo CD "
                   "Application's own variables (ARGOCD_ENV_<NAME>) and those --from-env-allow names, never the "
                   "sidecar's [env FLUIDGEN_CONFINE_FROM_ENV, the sidecar's own only].")
@click.option("--from-env-allow", "from_env_allow", multiple=True, metavar="NAME",
              help="With --confine-from-env: a variable of the sidecar's environment specs may read too "
                   "(repeatable) [env FLUIDGEN_FROM_ENV_ALLOW, comma-separated, the sidecar's own only].")
def build(specs: tuple[str, ...], overlays: tuple[str, ...], output_dir: str | None, write_secrets: bool,
          environment: str | None, sops_age: tuple[str, ...], fmt: str,
          fluid_version: str | None, namespace: str | None, allow_read: tuple[str, ...], gitops: str | None,
          target: str, operation_names: str | None, strict: bool,
          ignore: tuple[str, ...], quiet: bool, confine_from_env: bool, from_env_allow: tuple[str, ...]) -> int:
    """Compile SPECS (files or directories) into manifests on stdout."""
    from .commands.build import BuildArgs, TargetArgs, execute

    return execute(BuildArgs(
        specs, TargetArgs(fluid_version, namespace, allow_read, gitops, operation_names, environment), overlays,
        output_dir, write_secrets, sops_age, fmt, target, strict, ignore, quiet, cache_argv=_cache_argv(),
        confine_from_env=confine_from_env, from_env_allow=from_env_allow))


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--crds", multiple=True, type=click.Path(exists=True),
              help="CRD directory or multi-document file to check custom kinds against (repeatable; default for "
                   "Fluid kinds: fluidgen's built-in model of the target version).")
@target_options
@click.option("--lint", "with_lint", is_flag=True, help="Also run the lint rules.")
@click.option("--ignore", multiple=True, help="Lint rule ID to silence (repeatable).")
@click.option("--specs-only", is_flag=True, help="Check only fluidgen specs; skip other YAML (for pre-commit).")
@click.option("--forbid-secret-values", is_flag=True,
              help="Fail on any Secret with data or stringData in FILES (files about to be committed).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def validate(files: tuple[str, ...], crds: tuple[str, ...], fluid_version: str | None, namespace: str | None,
             allow_read: tuple[str, ...], gitops: str | None, with_lint: bool, ignore: tuple[str, ...],
             specs_only: bool, forbid_secret_values: bool, fmt: str) -> int:
    """Check specs and manifests strictly against the Fluid and Kubernetes APIs."""
    from .commands.validate import ValidateArgs, execute

    return execute(ValidateArgs(files, crds, fluid_version, namespace, allow_read, gitops, with_lint, ignore,
                                specs_only, forbid_secret_values, fmt))


@main.command()
@click.argument("files", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--ignore", multiple=True, help="Rule ID to silence (repeatable).")
@target_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--rules", "list_rules", is_flag=True,
              help="List the rules and exit (--format json: with their documentation, as in docs/rules.md).")
@click.option("--external", multiple=True, metavar="KIND/NAMESPACE/NAME",
              help="An object applied from elsewhere that these files refer to (repeatable).")
def lint(files: tuple[str, ...], ignore: tuple[str, ...], fluid_version: str | None, namespace: str | None,
         allow_read: tuple[str, ...], gitops: str | None, fmt: str, list_rules: bool,
         external: tuple[str, ...]) -> int:
    """Semantic rules for specs and hand-written manifests."""
    from .commands.lint import LintArgs, execute

    return execute(LintArgs(files, ignore, fluid_version, namespace, allow_read, gitops, fmt, list_rules, external))


@main.command("diff")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-f", "--file", "overlays", multiple=True, type=click.Path(),
              help="Overlay files merged into one spec, as in build -f.")
@click.option("--forbid-secret-values", is_flag=True,
              help="Fail when RENDERED holds a Secret with data or stringData (for the pre-commit hook).")
@click.option("--env", "environment", default=None, metavar="NAME",
              help="With a directory holding fluidgen.yaml: the environment to compare [env FLUIDGEN_ENV].")
@names_option
@target_options
def diff_command(paths: tuple[str, ...], overlays: tuple[str, ...], forbid_secret_values: bool,
                 environment: str | None, operation_names: str | None,
                 fluid_version: str | None, namespace: str | None, allow_read: tuple[str, ...],
                 gitops: str | None) -> int:
    """Compare SPEC... with RENDERED... (the last path, a file or an -o directory, and any file
    before it that holds no spec: the files of one rendering together); exit 1 on drift.

    Secret values are neither read nor shown; Secrets are compared by their keys.
    """
    from .commands.diff import DiffArgs, TargetArgs, execute

    return execute(DiffArgs(paths, TargetArgs(fluid_version, namespace, allow_read, gitops, operation_names,
                                                   environment), overlays, forbid_secret_values))


@main.command("diagnose")
@click.argument("specs", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--cluster", "cluster", multiple=True, type=click.Path(allow_dash=True), metavar="DUMP",
              help="What `kubectl get ... -o yaml|json` printed (a List, several files, or - for stdin); "
                   "`fluidgen diagnose --help` shows the command.")
@click.option("--logs", "logs", type=click.Path(exists=True, file_okay=False), default=None, metavar="DIR",
              help="Pod logs, one DIR/<pod>.log per pod (`kubectl logs POD > DIR/POD.log`).")
@click.option("--collect", is_flag=True,
              help="Run the one read-only command (kubectl get ... --all-namespaces -o json) instead of --cluster.")
@click.option("-f", "--file", "overlays", multiple=True, type=click.Path(allow_dash=True),
              help="Overlay files merged into one spec, as build -f.")
@click.option("--env", "environment", default=None, metavar="NAME",
              help="With a directory holding fluidgen.yaml: the environment [env FLUIDGEN_ENV].")
@names_option
@target_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diagnose_command(specs: tuple[str, ...], cluster: tuple[str, ...], logs: str | None, collect: bool,
                     overlays: tuple[str, ...], environment: str | None, operation_names: str | None,
                     fluid_version: str | None, namespace: str | None, allow_read: tuple[str, ...],
                     gitops: str | None, fmt: str) -> int:
    """Say what the cluster shows is wrong with what SPECS built, at the spec line to change.

    Build's target options (-n, --env, -f, --fluid-version, --gitops) give the names the
    cluster should hold. The dump is what this read-only command prints (the kinds the specs
    build, plus pods, claims, volumes, daemonsets, statefulsets, jobs, events and nodes, in all
    namespaces: fluid-system holds the CSI plugin; other namespaces are counted, not judged):

    \b
      kubectl get dataset.data.fluid.io,alluxioruntime.data.fluid.io,dataload.data.fluid.io,pods,\\
        persistentvolumeclaims,persistentvolumes,daemonsets.apps,statefulsets.apps,jobs.batch,events,nodes \\
        --all-namespaces -o json > dump.json

    (--collect runs exactly that, with the kinds of these specs.) Exit 0 when nothing is wrong,
    1 otherwise. Secret values in the dump or the logs are never printed.
    """
    from .commands.diagnose import DiagnoseArgs, TargetArgs, execute

    return execute(DiagnoseArgs(specs, cluster, logs, collect, overlays, TargetArgs(
        fluid_version, namespace, allow_read, gitops, operation_names, environment), fmt))


@main.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("-o", "--output-dir", "output_dir", type=click.Path(file_okay=False),
              help="Write one spec per Dataset to DIR/<name>.yaml (and objects outside any spec to DIR/kept.yaml) "
                   "instead of stdout; existing files are never replaced.")
@click.option("--check", is_flag=True, help="Only prove the round trip: write nothing, exit 1 unless every Dataset's "
                                            "spec builds to the same objects.")
@click.option("--fluid-version", default=None, metavar="|".join(versions.NAMES),
              help=f"Fluid version the manifests are for [env FLUIDGEN_FLUID_VERSION; default {versions.DEFAULT}].")
def import_(files: tuple[str, ...], output_dir: str | None, check: bool, fluid_version: str | None) -> int:
    """Turn existing Fluid manifests into specs, proven by a round trip.

    Reads Datasets, runtimes, data operations and the Secrets, volumes and claims beside them
    (files, directories, `kubectl get -o yaml` Lists). Credential values are never written:
    options that are secrets become environment variable names. The report on stderr says
    what became what, what went to overrides and what was dropped.
    """
    from .commands.import_ import ImportArgs, execute

    return execute(ImportArgs(files, output_dir, check, fluid_version))


@main.command("plan")
@click.argument("specs", nargs=-1, type=click.Path())
@click.option("--against", "against", required=True, multiple=True, metavar="OLD",
              help="What is deployed now: a rendered file or -o directory, a `kubectl get -o yaml` dump "
                   "(repeatable: the files together), or git:REV (the same specs at a git revision).")
@click.option("-f", "--file", "overlays", multiple=True, type=click.Path(), help="Overlays, as in build -f.")
@click.option("--env", "environment", default=None, metavar="NAME", help="An environment of DIR/fluidgen.yaml.")
@click.option("--allow-recreate", is_flag=True, help="Exit 0 even when Fluid would ignore an edit.")
@names_option
@target_options
def plan_command(specs: tuple[str, ...], against: tuple[str, ...], overlays: tuple[str, ...], environment: str | None,
                 allow_recreate: bool, operation_names: str | None, fluid_version: str | None, namespace: str | None,
                 allow_read: tuple[str, ...], gitops: str | None) -> int:
    """Say which edits of SPECS against what is deployed Fluid carries out, and which it ignores.

    Exit 1 when an edit would be ignored (a running runtime that is not re-created, a data
    operation that already ran), unless --allow-recreate; 0 otherwise.
    """
    from .commands.plan import PlanArgs, TargetArgs, execute

    return execute(PlanArgs(specs, against, TargetArgs(fluid_version, namespace, allow_read, gitops,
                                                            operation_names, environment), overlays, allow_recreate))


@main.group()
def profiles() -> None:
    """List and show bundled tuning profiles."""


@profiles.command("list")
def profiles_list() -> int:
    """Bundled profiles with their engine and summary."""
    from .commands.profiles import ListArgs, execute

    return execute(ListArgs())


@profiles.command("show")
@click.argument("name")
def profiles_show(name: str) -> int:
    """Every setting of NAME (and what it extends), each with its reason."""
    from .commands.profiles import ShowArgs, execute

    return execute(ShowArgs(name))


class _EngineChoice(click.Choice[str]):
    """The engine table's names, read when click first needs them (a value to check, `init
    --help`): declaring the command line loads no engine, so `fluidgen --help` and every command
    that needs none stay clear of the engine modules and the pydantic they build (issue 39)."""

    def __init__(self) -> None:  # the names are the table's, not a copy made at import
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        from .engines.engine_table import NAMES

        return NAMES


@main.command("init")
@click.option("--engine", type=_EngineChoice(), default="alluxio", show_default=True)
@click.option("--source", default=None, help="Where the data is, e.g. oss://bucket/path/ (default: a placeholder).")
@click.option("--name", default="my-dataset", show_default=True, help="Dataset name.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of stdout (refuses to overwrite).")
def init_command(engine: str, source: str | None, name: str, output: str | None) -> int:
    """Write a commented starter spec."""
    from .commands.init import InitArgs, execute

    return execute(InitArgs(engine, source, name, output))


@main.command("explain")
@click.argument("path", default="")
def explain_command(path: str) -> int:
    """Describe a spec field, e.g. `fluidgen explain runtime.cache.quota`."""
    from .commands.explain import ExplainArgs, execute

    return execute(ExplainArgs(path))


@main.group()
def argocd() -> None:
    """Argo CD health checks for Fluid's kinds (Argo CD ships none)."""


@argocd.command("health")
@click.argument("directory", type=click.Path(file_okay=False))
def argocd_health(directory: str) -> int:
    """Write resource_customizations/data.fluid.io/<Kind>/ (health.lua, tests) into DIRECTORY."""
    from .commands.argocd import HealthArgs, execute

    return execute(HealthArgs(directory))


@argocd.command("parameters")
@click.argument("directory", default=".", type=click.Path(file_okay=False))
def argocd_parameters(directory: str) -> int:
    """Print the plugin's dynamic parameters (JSON): the environments of DIRECTORY/fluidgen.yaml."""
    from .commands.argocd import ParametersArgs, execute

    return execute(ParametersArgs(directory))


@argocd.command("cm")
def argocd_cm() -> int:
    """Print an argocd-cm patch that installs the health checks."""
    from .commands.argocd import CmArgs, execute

    return execute(CmArgs())


@main.command()
@click.option("-o", "--output", "output", metavar="FILE",
              help="Write the schema to FILE instead of stdout, e.g. beside your specs as "
                   "fluidgen-spec.v1alpha1.json (what `fluidgen init` specs refer to).")
def schema(output: str | None) -> int:
    """Print the JSON Schema of the spec (for editors and CI)."""
    from .commands.schema import SchemaArgs, execute

    return execute(SchemaArgs(output))


@main.group()
def flux() -> None:
    """Flux: health expressions for Fluid's kinds and Kustomizations that order data before training."""


@flux.command("health")
@click.option("--fluid-version", default=None, help="Target Fluid version [env FLUIDGEN_FLUID_VERSION].")
def flux_health(fluid_version: str | None) -> int:
    """Print healthCheckExprs entries (one per kind fluidgen emits) for a Kustomization."""
    from .commands.flux import HealthArgs, execute

    return execute(HealthArgs(fluid_version))


@flux.command("kustomization")
@click.argument("specs", nargs=-1, type=click.Path(allow_dash=True))
@click.option("-f", "--file", "overlays", multiple=True, type=click.Path(allow_dash=True),
              help="Overlay files merged into one spec, as build -f.")
@click.option("--env", "environment", default=None, metavar="NAME",
              help="With a directory holding fluidgen.yaml: the environment [env FLUIDGEN_ENV].")
@click.option("--path", "path", required=True, help="Where `build --gitops flux -o DIR` wrote DIR in the source.")
@click.option("--source", default="GitRepository/flux-system", show_default=True, metavar="KIND/NAME",
              help="The Flux source holding PATH (GitRepository, OCIRepository, Bucket, ExternalArtifact).")
@click.option("--name", "name", default=None, help="Kustomization name prefix (default: the last part of PATH; "
                                                   "required when PATH is the source's root).")
@click.option("--interval", default="10m", show_default=True, help="How often Flux reconciles.")
@click.option("--timeout", default=None, help="Apply and health-check timeout (default: 2h with data operations, "
                                              "else 30m).")
@click.option("--decryption-secret", default="sops-age", show_default=True,
              help="The Secret with the age key, when the build has SOPS-encrypted Secrets.")
@click.option("--fluid-version", default=None, help="Target Fluid version [env FLUIDGEN_FLUID_VERSION].")
@click.option("-n", "--namespace", default=None, help="Namespace for specs without one [env FLUIDGEN_NAMESPACE].")
@click.option("--allow-read", "allow_read", multiple=True, type=click.Path(file_okay=False),
              help="Also let specs read files below DIR [env FLUIDGEN_ALLOW_READ].")
def flux_kustomization(specs: tuple[str, ...], overlays: tuple[str, ...], environment: str | None, path: str,
                       source: str, name: str | None, interval: str, timeout: str | None, decryption_secret: str,
                       fluid_version: str | None, namespace: str | None, allow_read: tuple[str, ...]) -> int:
    """Print the Flux Kustomizations (kustomize.toolkit.fluxcd.io/v1) for the build of SPECS."""
    from .commands.flux_kustomization import KustomizationArgs, execute

    return execute(KustomizationArgs(specs, path, overlays, environment, source, name, interval, timeout,
                                     decryption_secret, fluid_version, namespace, allow_read))


def run(argv: list[str], cache_argv: list[str] | None = None) -> int:
    """Entry point: map every outcome to an exit code; never show a traceback for user errors.
    `cache_argv`: the console script's argv, under which a successful build is cached."""
    show_tb = "--traceback" in argv or bool(os.environ.get("FLUIDGEN_TRACEBACK"))
    try:
        code = main.main(args=argv, prog_name="fluidgen", standalone_mode=False, obj=Startup(cache_argv))
    except FluidgenError as exc:
        report.text(exc.diagnostics, sys.stderr)
        return EXIT_USER
    except click.exceptions.Abort:  # click's word for a KeyboardInterrupt (or EOF) during a command
        click.echo("fluidgen: interrupted", err=True)
        return EXIT_INTERRUPTED
    except Unavailable as exc:
        click.echo(f"fluidgen: error: {exc}", err=True)
        return EXIT_USER
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE if isinstance(exc, click.UsageError) else EXIT_USER
    except SystemExit as exc:
        return _code(exc.code)
    except (BrokenPipeError, _ReaderLeft):  # a reader that left (`| head`) is no error
        return EXIT_OK
    except OSError as exc:
        # The machine, not the input: a full or read-only disk, a vanished directory.
        click.echo(f"fluidgen: error: {exc.strerror or exc} ({getattr(exc, 'filename', '') or 'output'})", err=True)
        return EXIT_USER
    except Exception:
        click.echo("fluidgen: internal error, please report it at the fluidgen issue tracker"
                   + ("" if show_tb else " (rerun with --traceback for details)"), err=True)
        if show_tb:
            traceback.print_exc()
        return EXIT_INTERNAL
    return code if isinstance(code, int) else EXIT_OK


def _code(code: Any) -> int:
    if code is None:
        return EXIT_OK
    return code if isinstance(code, int) else EXIT_USER
