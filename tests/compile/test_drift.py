"""`fluidgen diff SPEC RENDERED`: drift detection for committed manifests, never showing secrets."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT, run_cli
from tests.features.test_examples import CREDS


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", tmp_path / "spec.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_drift_for_a_fresh_render(workdir: Path) -> None:
    built = run_cli("build", "spec.yaml", env={})
    (workdir / "rendered.yaml").write_text(built.out)
    result = run_cli("diff", "spec.yaml", "rendered.yaml", env={})
    assert (result.code, result.out) == (0, ""), result.err


def test_drift_is_a_unified_diff_and_exit_1(workdir: Path) -> None:
    (workdir / "rendered.yaml").write_text(run_cli("build", "spec.yaml", env={}).out)
    spec = workdir / "spec.yaml"
    spec.write_text(spec.read_text().replace("replicas: 4", "replicas: 6"))
    result = run_cli("diff", "spec.yaml", "rendered.yaml", env={})
    assert result.code == 1
    assert "-  replicas: 4\n+  replicas: 6\n" in result.out
    assert "rendered.yaml is out of date" in result.err


def test_drift_against_an_output_directory(workdir: Path) -> None:
    assert run_cli("build", "spec.yaml", "-o", "base", "--write-secrets", env={}).code == 0
    assert run_cli("diff", "spec.yaml", "base", env={}).code == 0
    (workdir / "base" / "stale.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: old}\n")
    result = run_cli("diff", "spec.yaml", "base", env={})
    assert result.code == 1 and "base/stale.yaml (committed)" in result.out


def test_diff_never_shows_secret_values(workdir: Path) -> None:
    text = run_cli("build", "spec.yaml", env={}).out
    tampered = text.replace(base64.b64encode(CREDS["fs.oss.accessKeyId"].encode()).decode(),
                            base64.b64encode(b"OTHER-VALUE-123").decode())
    (workdir / "rendered.yaml").write_text(tampered.replace("  replicas: 4", "  replicas: 3"))
    result = run_cli("diff", "spec.yaml", "rendered.yaml", env={})
    assert result.code == 1
    secrets = [*CREDS.values(), "OTHER-VALUE-123"]
    secrets += [base64.b64encode(v.encode()).decode() for v in secrets]
    for value in secrets:
        assert value not in result.out + result.err
    assert "fs.oss.accessKeyId: <redacted>" not in result.out  # equal keys: no hunk for the Secret


def test_missing_rendered_file_is_an_error(workdir: Path) -> None:
    result = run_cli("diff", "spec.yaml", "nope.yaml", env={})
    assert result.code == 1 and "does not exist" in result.err


def test_the_rendered_hook_without_args_says_what_it_needs() -> None:
    """issue 25: `pre-commit try-repo <repo> fluidgen-rendered` runs the hook's entry with no
    paths: the message names the args the hook needs, not click's 'Missing argument'."""
    import shlex

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    [hook] = [h for h in hooks if h["id"] == "fluidgen-rendered"]
    program, *entry = shlex.split(hook["entry"])
    result = run_cli(*entry)
    assert program == "fluidgen" and result.code == 2
    assert "args: [specs/, rendered/]" in result.err and "Missing argument" not in result.err
