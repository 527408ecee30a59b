"""Issue 41: what a new user hits, round two. Each test failed on main before its fix."""

from __future__ import annotations

from pathlib import Path

from .conftest import run_cli
from .test_workable import OSS_SPEC, write

# --- 1. a misspelt credential name is reported at its own key, the hint apart from the word ----

TYPO = "fs.oss.accesKeySecret"


def test_a_misspelt_credential_name_in_an_env_file_is_reported_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text(f"# keys\nfs.oss.accessKeyId=a\n{TYPO}=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi"))
    result = run_cli("build", spec)
    assert result.code == 1
    assert f"{tmp_path / 'oss.env'}:3:1: error [FG118]: " in result.err, result.err
    assert f'{TYPO} is not a name AlluxioRuntime needs' in result.err
    assert '; did you mean "fs.oss.accessKeySecret"?' in result.err
    assert f'{TYPO}did you mean' not in result.err and "oss.yaml:5:" not in result.err
    assert result.err.count("error") == 2  # the one error (no second "missing" at the uri) and the summary
    assert "=b" not in result.err  # the key's line, never its value


def test_a_misspelt_credential_name_in_the_spec_is_reported_at_its_key(tmp_path: Path) -> None:
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi").replace(
        "credentials: {envFile: oss.env}", f"credentials:\n      fromEnv:\n        fs.oss.accessKeyId: AK\n"
                                           f"        {TYPO}: SK"))
    result = run_cli("build", spec, env={"AK": "a", "SK": "b"})
    assert result.code == 1
    assert f'{spec}:10:9: error [FG118]: source[0].credentials.fromEnv["{TYPO}"]: ' in result.err, result.err
    assert '; did you mean "fs.oss.accessKeySecret"?' in result.err


def test_a_missing_name_without_a_near_miss_is_still_reported_at_the_mount(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\n")
    result = run_cli("build", write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi")))
    assert result.code == 1
    assert "oss.yaml:5:5: error [FG118]: source[0]: " in result.err and "missing fs.oss.accessKeySecret" in result.err
    assert "did you mean" not in result.err
