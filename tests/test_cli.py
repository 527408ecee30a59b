"""cli.py: the command line's options and nothing else. Every option of every command reaches
the command's arguments record (its value when given, its default when not), the build under the
console script's argv as its cache key; no help text needs a command module or an engine module
(init's lists the engine table's names, read when needed); and run() maps every outcome to its
exit code in one line: 1 a user error or the machine's (diagnostics, a missing dependency, a
file that cannot be written), 2 a usage error, 3 a bug (its traceback only when asked), 130
Ctrl-C, 0 a reader that left."""

from __future__ import annotations

import dataclasses
import errno
import importlib
import sys
from pathlib import Path
from typing import Any

import click
import pytest

from fluidgen import cli
from fluidgen.base.diagnostics import Diagnostic, FluidgenError, Unavailable
from fluidgen.commands import (
    argocd,
    build,
    diagnose,
    diff,
    explain,
    flux,
    flux_kustomization,
    import_,
    init,
    lint,
    plan,
    profiles,
    schema,
    validate,
)
from tests.conftest import run_cli

T = build.TargetArgs
KEY = ["build", "the", "console's", "argv"]


def _records(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> list[Any]:
    """The arguments records the commands' execute() received when the command line ran argv."""
    got: list[Any] = []

    def execute(args: Any) -> int:
        got.append(args)
        return 0

    for module in (argocd, build, diagnose, diff, explain, flux, flux_kustomization, import_, init, lint, plan,
                   profiles, schema, validate):
        monkeypatch.setattr(module, "execute", execute)
    assert cli.run(argv, cache_argv=KEY) == 0
    return got


def _every_option(d: Path) -> list[tuple[list[str], Any]]:
    """Each command with every option set to a value other than its default, and its record."""
    target = ["--fluid-version", "v9", "-n", "ns", "--allow-read", "r1", "--allow-read", "r2", "--gitops", "flux"]
    full = T("v9", "ns", ("r1", "r2"), "flux", "hashed", "prod")
    return [
        (["build", "s1", "s2", "-f", "o1", "--file", "o2", "-o", "out", "--write-secrets", "--env", "prod",
          "--sops-age", "a1", "--sops-age", "a2", "--format", "json", *target, "--target", "alluxio-helm",
          "--operation-names", "hashed", "--strict", "--ignore", "FG101", "--ignore", "FG102", "-q",
          "--confine-from-env", "--from-env-allow", "A", "--from-env-allow", "B"],
         build.BuildArgs(("s1", "s2"), full, ("o1", "o2"), "out", True, ("a1", "a2"), "json", "alluxio-helm", True,
                         ("FG101", "FG102"), True, cache_argv=KEY, confine_from_env=True, from_env_allow=("A", "B"))),
        (["validate", "f1", "f2", "--crds", str(d), "--crds", str(d), *target, "--lint", "--ignore", "FG101",
          "--specs-only", "--forbid-secret-values", "--format", "json"],
         validate.ValidateArgs(("f1", "f2"), (str(d), str(d)), "v9", "ns", ("r1", "r2"), "flux", True, ("FG101",),
                               True, True, "json")),
        (["lint", "f1", "--ignore", "FG101", *target, "--format", "json", "--rules", "--external", "Dataset/n/d"],
         lint.LintArgs(("f1",), ("FG101",), "v9", "ns", ("r1", "r2"), "flux", "json", True, ("Dataset/n/d",))),
        (["diff", "s", "r", "-f", "o", "--forbid-secret-values", "--env", "prod", "--operation-names", "hashed",
          *target], diff.DiffArgs(("s", "r"), full, ("o",), True)),
        (["diagnose", "s", "--cluster", "c1", "--cluster", "-", "--logs", str(d), "--collect", "-f", "o", "--env",
          "prod", "--operation-names", "hashed", *target, "--format", "json"],
         diagnose.DiagnoseArgs(("s",), ("c1", "-"), str(d), True, ("o",), full, "json")),
        (["import", "m1", "m2", "-o", "out", "--check", "--fluid-version", "v9"],
         import_.ImportArgs(("m1", "m2"), "out", True, "v9")),
        (["plan", "s", "--against", "a1", "--against", "git:HEAD", "-f", "o", "--env", "prod", "--allow-recreate",
          "--operation-names", "hashed", *target], plan.PlanArgs(("s",), ("a1", "git:HEAD"), full, ("o",), True)),
        (["profiles", "list"], profiles.ListArgs()),
        (["profiles", "show", "p"], profiles.ShowArgs("p")),
        (["init", "--engine", "juicefs", "--source", "s3://b/", "--name", "n", "-o", "spec.yaml"],
         init.InitArgs("juicefs", "s3://b/", "n", "spec.yaml")),
        (["explain", "runtime.cache.quota"], explain.ExplainArgs("runtime.cache.quota")),
        (["argocd", "health", "dir"], argocd.HealthArgs("dir")),
        (["argocd", "parameters", "app"], argocd.ParametersArgs("app")),
        (["argocd", "cm"], argocd.CmArgs()),
        (["schema", "-o", "schema.json"], schema.SchemaArgs("schema.json")),
        (["flux", "health", "--fluid-version", "v9"], flux.HealthArgs("v9")),
        (["flux", "kustomization", "s", "-f", "o", "--env", "prod", "--path", "./deploy", "--source",
          "OCIRepository/app", "--name", "k", "--interval", "1m", "--timeout", "5m", "--decryption-secret", "age",
          "--fluid-version", "v9", "-n", "ns", "--allow-read", "r1"],
         flux_kustomization.KustomizationArgs(("s",), "./deploy", ("o",), "prod", "OCIRepository/app", "k", "1m",
                                              "5m", "age", "v9", "ns", ("r1",))),
    ]


def _defaults() -> list[tuple[list[str], Any]]:
    """Each command with only what it requires, and its record: the record's own defaults."""
    return [
        (["build"], build.BuildArgs((), cache_argv=KEY)),
        (["validate", "f"], validate.ValidateArgs(("f",))),
        (["lint"], lint.LintArgs(())),
        (["diff"], diff.DiffArgs(())),
        (["diagnose"], diagnose.DiagnoseArgs(())),
        (["import", "m"], import_.ImportArgs(("m",))),
        (["plan", "--against", "a"], plan.PlanArgs((), ("a",))),
        (["init"], init.InitArgs()),
        (["explain"], explain.ExplainArgs()),
        (["argocd", "parameters"], argocd.ParametersArgs()),
        (["schema"], schema.SchemaArgs()),
        (["flux", "health"], flux.HealthArgs()),
        (["flux", "kustomization", "--path", "p"], flux_kustomization.KustomizationArgs((), "p")),
    ]


def test_every_option_of_every_command_reaches_its_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cases = _every_option(tmp_path)
    assert {tuple(a[:2]) if a[0] in ("profiles", "argocd", "flux") else (a[0],) for a, _ in cases} == _commands()
    for argv, record in cases:
        assert _records(monkeypatch, argv) == [record], argv


def test_an_option_not_given_reaches_its_record_as_the_records_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for argv, record in _defaults():
        assert _records(monkeypatch, argv) == [record], argv


def test_each_flag_alone_sets_its_own_field_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flag's record field has the flag's name (as click names the parameter)."""
    for argv, default in _defaults():
        words = [w for w in argv if not w.startswith("-")][:2]
        command = cli.main.commands[words[0]]
        command = command.commands[words[1]] if isinstance(command, click.Group) else command
        for param in command.params:
            if isinstance(param, click.Option) and param.is_flag:
                (record,) = _records(monkeypatch, [*argv, param.opts[0]])
                assert _changed(default, record) == {param.name: True}, (argv, param.opts)


def _changed(default: Any, record: Any) -> dict[str, Any]:
    """The fields of `record` that differ from `default`'s, nested records flattened."""
    before, after = dataclasses.asdict(default), dataclasses.asdict(record)
    for nested in [k for k, v in after.items() if isinstance(v, dict)]:
        before.update(before.pop(nested))
        after.update(after.pop(nested))
    return {k: v for k, v in after.items() if before[k] != v}


def _commands() -> set[tuple[str, ...]]:
    """Every command of the command line, as its words."""
    out: set[tuple[str, ...]] = set()
    for name, command in cli.main.commands.items():
        if isinstance(command, click.Group):
            out |= {(name, sub) for sub in command.commands}
        else:
            out.add((name,))
    return out


def test_no_help_text_needs_a_command_module_or_an_engine(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """With every commands/ module (but usage) and every engine module (but the table, loaded
    already) unimportable, each group's and command's --help still prints its usage; init's
    choice of engine is the table's NAMES, read when asked."""
    for name in [m for m in sys.modules if m.startswith(("fluidgen.commands.", "fluidgen.engines."))]:
        if name not in ("fluidgen.commands.usage", "fluidgen.engines.engine_table"):
            monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError):
        importlib.import_module("fluidgen.commands.build")
    paths = sorted({words[:end] for words in _commands() for end in range(1, len(words) + 1)})
    for words in [(), *paths]:
        assert cli.run([*words, "--help"]) == 0, words
        out = capsys.readouterr().out
        assert out.startswith(f"Usage: fluidgen {' '.join(words)}".rstrip() + " ["), out
    from fluidgen.engines.engine_table import NAMES  # the table, loaded before the poisoning

    assert cli._EngineChoice().choices is NAMES


def test_inits_engine_is_checked_against_the_engine_table(capsys: pytest.CaptureFixture[str]) -> None:
    from fluidgen.engines.engine_table import NAMES

    choices = ", ".join(f"'{n}'" for n in NAMES)
    for engine in ("nosuch", "JuiceFS"):  # the names as the table spells them
        assert cli.run(["init", "--engine", engine]) == 2
        assert capsys.readouterr().err.endswith(f"Error: Invalid value for '--engine': '{engine}' is not one of "
                                                f"{choices}.\n")


def _raising(monkeypatch: pytest.MonkeyPatch, exc: BaseException | None, result: object = 0) -> None:
    def execute(args: object) -> object:
        if exc is not None:
            raise exc
        return result

    monkeypatch.setattr(explain, "execute", execute)


@pytest.mark.parametrize(("exc", "code", "err"), [
    (FluidgenError([Diagnostic("s.yaml", 2, 3, "error", "bad"), Diagnostic("a.yaml", 1, 1, "warning", "odd")]), 1,
     "a.yaml:1:1: warning: odd\ns.yaml:2:3: error: bad\n"),
    (click.exceptions.Abort(), 130, "fluidgen: interrupted\n"),
    (Unavailable("kubernetes-validate is not installed"), 1, "fluidgen: error: kubernetes-validate is not installed\n"),
    (click.UsageError("two of a kind"), 2, "Usage: fluidgen explain [OPTIONS] [PATH]\nTry 'fluidgen explain --help' "
                                           "for help.\n\nError: two of a kind\n"),
    (click.FileError("out.yaml", "it is a directory"), 1, "Error: Could not open file 'out.yaml': it is a directory\n"),
    (SystemExit(None), 0, ""),
    (SystemExit(4), 4, ""),
    (SystemExit("gone"), 1, ""),
    (OSError(errno.ENOSPC, "No space left on device", "out/d.yaml"), 1,
     "fluidgen: error: No space left on device (out/d.yaml)\n"),
    (OSError(errno.EROFS, "Read-only file system"), 1, "fluidgen: error: Read-only file system (output)\n"),
    (OSError("no reason"), 1, "fluidgen: error: no reason (output)\n"),
    (KeyError("bug"), 3, "fluidgen: internal error, please report it at the fluidgen issue tracker (rerun with "
                         "--traceback for details)\n"),
])
def test_every_outcome_of_a_command_is_its_exit_code_in_one_line(
        monkeypatch: pytest.MonkeyPatch, exc: BaseException, code: int, err: str) -> None:
    monkeypatch.delenv("FLUIDGEN_TRACEBACK", raising=False)
    _raising(monkeypatch, exc)
    assert (lambda r: (r.code, r.out, r.err))(run_cli("explain")) == (code, "", err)


def test_a_commands_code_is_the_exit_code_and_anything_else_is_0(monkeypatch: pytest.MonkeyPatch) -> None:
    _raising(monkeypatch, None, 5)
    assert run_cli("explain").code == 5
    _raising(monkeypatch, None, None)
    assert run_cli("explain").code == 0


def test_a_bugs_traceback_is_shown_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    _raising(monkeypatch, KeyError("bug"))
    monkeypatch.delenv("FLUIDGEN_TRACEBACK", raising=False)
    for asked in (run_cli("--traceback", "explain"), run_cli("explain", env={"FLUIDGEN_TRACEBACK": "1"})):
        first, rest = asked.err.split("\n", 1)
        assert (asked.code, first) == (3, "fluidgen: internal error, please report it at the fluidgen issue tracker")
        assert rest.startswith("Traceback (most recent call last):\n") and rest.endswith("KeyError: 'bug'\n")


def test_the_version_and_the_short_help_option() -> None:
    from fluidgen import __version__

    assert (lambda r: (r.code, r.out, r.err))(run_cli("--version")) == (0, f"fluidgen, version {__version__}\n", "")
    assert run_cli("-h").out == run_cli("--help").out != ""


def test_a_reader_that_left_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """`fluidgen build ... | head`: the command's write to the closed pipe ends the run with 0 and
    nothing said (run's BrokenPipeError case), although click turns the error into exit 1 when it
    reaches its Command.main (click/core.py: `except OSError` on EPIPE, then sys.exit(1))."""
    _raising(monkeypatch, BrokenPipeError(errno.EPIPE, "Broken pipe"))
    assert (lambda r: (r.code, r.out, r.err))(run_cli("explain")) == (0, "", "")
