"""Acceptance cases are folders under golden/, found by listing.

golden/ok/<case>/: spec.yaml (or the args in _config.yaml) -> expected.yaml (stdout, byte-exact)
golden/err/<case>/: spec.yaml -> expected.txt (stderr, byte-exact), exit code 1, empty stdout
Regenerate with `pytest --update-golden`, then review `git diff golden/` like code.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT, run_cli

GOLDEN = ROOT / "golden"


def _cases(kind: str) -> list[str]:
    return sorted(p.name for p in (GOLDEN / kind).iterdir() if p.is_dir())


def _config(case: Path) -> dict[str, object]:
    cfg = case / "_config.yaml"
    data = yaml.safe_load(cfg.read_text()) if cfg.exists() else {}
    return data or {}


def _run(case: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    cfg = _config(case)
    args = [str(a) for a in cfg.get("args", ["build", "spec.yaml"])]  # type: ignore[union-attr]
    env = {str(k): str(v) for k, v in (cfg.get("env") or {}).items()}  # type: ignore[union-attr]
    monkeypatch.chdir(case)
    result = run_cli(*args, env=env)
    return result.code, result.out, result.err


def _compare(path: Path, actual: str, update: bool) -> None:
    if update:
        path.write_text(actual)
        return
    expected = path.read_text() if path.exists() else ""
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            str(path.relative_to(ROOT)), "actual"))
        pytest.fail(f"golden mismatch (run pytest --update-golden and review):\n{diff}")


@pytest.mark.parametrize("name", _cases("ok"))
def test_ok(name: str, monkeypatch: pytest.MonkeyPatch, update_golden: bool) -> None:
    case = GOLDEN / "ok" / name
    code, out, err = _run(case, monkeypatch)
    assert code == 0, err
    _compare(case / "expected.yaml", out, update_golden)
    if err or (case / "expected.stderr").exists():
        _compare(case / "expected.stderr", err, update_golden)


@pytest.mark.parametrize("name", _cases("err"))
def test_err(name: str, monkeypatch: pytest.MonkeyPatch, update_golden: bool) -> None:
    case = GOLDEN / "err" / name
    code, out, err = _run(case, monkeypatch)
    assert code == 1, (code, err)
    assert out == ""
    assert "Traceback" not in err
    _compare(case / "expected.txt", err, update_golden)


def ok_outputs(target: str = "fluid") -> list[tuple[str, str]]:
    """(case, expected.yaml text) for every ok golden case building that --target."""
    out = []
    for name in _cases("ok"):
        args = [str(a) for a in _config(GOLDEN / "ok" / name).get("args", [])]  # type: ignore[union-attr]
        case_target = args[args.index("--target") + 1] if "--target" in args else "fluid"
        expected = GOLDEN / "ok" / name / "expected.yaml"
        if case_target == target and expected.exists():
            out.append((name, expected.read_text()))
    return out
