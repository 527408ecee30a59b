"""fluidgen/commands/diagnose.py: `fluidgen diagnose`'s flag checks (specs or -f overlays; exactly
one of --cluster and --collect: usage errors, exit 2) and what it hands fluidgen/diagnosis/run.py:
the dumps, logs, overlays, format and the build's target settings, resolved from flags and the
environment, with credentials never read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fluidgen.commands import diagnose
from fluidgen.diagnosis import run as diagnosis
from tests.conftest import run_cli

NEITHER_OR_BOTH = "Error: give the dump with --cluster DUMP, or --collect to run kubectl for it (not both)"


@pytest.mark.parametrize(("args", "last_line"), [
    (("--cluster", "dump.json"), "Error: give the spec(s) that built what runs (or -f overlays)"),
    (("spec.yaml",), NEITHER_OR_BOTH),
    (("spec.yaml", "--collect", "--cluster", "dump.json"), NEITHER_OR_BOTH),
])
def test_flag_combinations_that_cannot_work(args: tuple[str, ...], last_line: str, tmp_path: Path) -> None:
    result = run_cli("diagnose", *args, cwd=tmp_path, env={})
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == last_line


def test_overlays_alone_name_the_specs() -> None:
    diagnose.DiagnoseArgs((), cluster=("dump.json",), overlays=("base.yaml",)).check()  # no UsageError


def recorder(seen: list[diagnosis.DiagnoseArgs], code: int) -> Callable[[diagnosis.DiagnoseArgs], int]:
    """Stands in for diagnosis/run.py's execute: keeps what it was handed, returns `code`."""
    def execute(args: diagnosis.DiagnoseArgs) -> int:
        seen.append(args)
        return code
    return execute


def test_the_flags_reach_the_diagnosis_resolved_and_without_credentials(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[diagnosis.DiagnoseArgs] = []
    monkeypatch.setattr(diagnosis, "execute", recorder(seen, 0))
    logs = tmp_path / "logs"
    logs.mkdir()
    result = run_cli("diagnose", "app", "-f", "prod.yaml", "--cluster", "a.json", "--cluster", "b.json",
                     "--logs", str(logs), "-n", "team-b", "--fluid-version", "v1.1.0-dev", "--format", "json",
                     env={"FLUIDGEN_ENV": "prod", "FLUIDGEN_GITOPS": "argocd"})
    assert (result.code, result.out, result.err) == (0, "", "")
    (args,) = seen
    assert (args.specs, args.cluster, args.overlays, args.logs) == (("app",), ("a.json", "b.json"), ("prod.yaml",),
                                                                     str(logs))
    assert (args.environment, args.collect, args.fmt) == ("prod", False, "json")
    assert (args.options.namespace, args.options.fluid_version, args.options.gitops) == ("team-b", "v1.1.0-dev",
                                                                                         "argocd")
    assert args.options.read_credentials is False


def test_collect_is_handed_on_without_a_dump(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[diagnosis.DiagnoseArgs] = []
    monkeypatch.setattr(diagnosis, "execute", recorder(seen, 1))
    code = diagnose.execute(diagnose.DiagnoseArgs(("spec.yaml",), collect=True))
    assert code == 1 and seen[0].collect is True and seen[0].cluster == ()
