"""Acceptance cases are folders under golden/, found by listing (see tests/harness/golden.py)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.harness.golden import GOLDEN, args, config, expected_path, params


def _run(case: Path, version: str) -> tuple[int, str, str]:
    env = {str(k): str(v) for k, v in (config(case).get("env") or {}).items()}
    result = run_cli(*args(case, version), env=env, cwd=case)
    return result.code, result.out, result.err


def _compare(case: Path, name: str, version: str, actual: str, update: bool) -> None:
    path = expected_path(case, name, version)
    if update:
        stem, _, ext = name.partition(".")
        (case / f"{stem}.{version}.{ext}").write_text(actual)
        return
    expected = path.read_text() if path.exists() else ""
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            str(path.relative_to(ROOT)), f"actual ({version})"))
        pytest.fail(f"golden mismatch (run pytest --update-golden and review):\n{diff}")


OK = params("ok")
ERR = params("err")


@pytest.mark.parametrize(("name", "version"), OK, ids=[f"{n}[{v}]" for n, v in OK])
def test_ok(name: str, version: str, update_golden: bool) -> None:
    case = GOLDEN / "ok" / name
    code, out, err = _run(case, version)
    assert code == 0, err
    _compare(case, "expected.yaml", version, out, update_golden)
    if err or expected_path(case, "expected.stderr", version).exists():
        _compare(case, "expected.stderr", version, err, update_golden)


@pytest.mark.parametrize(("name", "version"), ERR, ids=[f"{n}[{v}]" for n, v in ERR])
def test_err(name: str, version: str, update_golden: bool) -> None:
    case = GOLDEN / "err" / name
    code, out, err = _run(case, version)
    assert code == 1, (code, err)
    assert out == ""
    assert "Traceback" not in err
    _compare(case, "expected.txt", version, err, update_golden)


PLAN = params("plan")


@pytest.mark.parametrize(("name", "version"), PLAN, ids=[f"{n}[{v}]" for n, v in PLAN])
def test_plan(name: str, version: str, monkeypatch: pytest.MonkeyPatch, update_golden: bool) -> None:
    """Per engine, one edit of each class against a rendered base: the exact report and exit code."""
    case = GOLDEN / "plan" / name
    monkeypatch.chdir(case)
    extra = [a for a in config(case)["args"] if a == "--operation-names" or a in ("hashed", "plain")]
    deployed = run_cli("build", "--fluid-version", version, *extra, "old-spec.yaml")
    assert deployed.code == 0, deployed.err
    header, _, rendered = (case / "old.yaml").read_text().partition("\n")
    assert rendered == deployed.out, f"{case}/old.yaml is stale: {header[2:]}"
    code, out, err = _run(case, version)
    assert code == config(case)["exit"], (code, err)
    assert err == ""
    _compare(case, "expected.txt", version, out, update_golden)
