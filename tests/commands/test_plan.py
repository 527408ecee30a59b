"""fluidgen/commands/plan.py: `fluidgen plan SPEC... --against OLD`: the flag checks (specs or -f
overlays; --against required, and git:REV alone: usage errors, exit 2), a missing OLD a user error
with nothing on stdout, credentials never read (a fromEnv spec plans with its variables unset:
an unchanged build plans no change, exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands.test_diff import KEYS, from_env_spec
from tests.conftest import EXAMPLES, run_cli


@pytest.mark.parametrize(("args", "last_line"), [
    (("--against", "old.yaml"), "Error: give the spec(s) to plan"),
    (("spec.yaml",), "Error: Missing option '--against'."),
    (("spec.yaml", "--against", "git:HEAD", "--against", "old.yaml"),
     "Error: --against git:REV compares with the specs at that revision; give it alone"),
])
def test_usage_errors(args: tuple[str, ...], last_line: str, tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    result = run_cli("plan", *args, cwd=tmp_path, env={})
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == last_line


def test_a_missing_deployed_file_is_a_user_error(tmp_path: Path) -> None:
    result = run_cli("plan", str(from_env_spec(tmp_path)), "--against", str(tmp_path / "old.yaml"), env={})
    assert result.code == 1 and result.out == ""
    assert result.err == (f"{tmp_path / 'old.yaml'}: error: rendered file or directory does not exist; create it "
                          "with fluidgen build SPEC > FILE (or -o DIR)\n")


def test_credentials_are_never_read_and_an_unchanged_build_plans_nothing(tmp_path: Path) -> None:
    spec = from_env_spec(tmp_path)
    built = run_cli("build", str(spec), env=KEYS)
    assert built.code == 0, built.err
    (tmp_path / "old.yaml").write_text(built.out)
    result = run_cli("plan", str(spec), "--against", str(tmp_path / "old.yaml"), env={})  # OSS_AK, OSS_SK unset
    assert (result.code, result.out, result.err) == (0, "fluidgen plan: 0 changes, 0 ignored by Fluid\n", "")



def test_an_absent_env_file_stops_plan_and_diff_instead_of_a_false_drift(tmp_path: Path) -> None:
    """Without read credentials the keys of an envFile come from the file (lower/credentials.py
    _keys_only); absent, they are unknown. A build made where the file was holds them, so comparing
    would report the Secret's keys and the encryptOptions as removed (and plan would call the
    Dataset edit ignored until re-created): plan and diff stop with an error naming the file, while
    validate only notes it."""
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    creds = tmp_path / "credentials"
    creds.mkdir()
    (creds / "imagenet-oss.env").write_text("fs.oss.accessKeyId=AK\nfs.oss.accessKeySecret=SK\n")
    built = run_cli("build", str(spec))
    assert built.code == 0, built.err
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(built.out)
    (creds / "imagenet-oss.env").unlink()
    message = "credentials/imagenet-oss.env is not here: its keys decide the Secret and the encryptOptions"
    plan = run_cli("plan", str(spec), "--against", str(rendered))
    assert plan.code == 1 and plan.out == "" and f"error: source[0].credentials.envFile: {message}" in plan.err
    assert "ignored until the runtime is re-created" not in plan.err, plan.err
    diff = run_cli("diff", str(spec), str(rendered))
    assert diff.code == 1 and message in diff.err and "encryptOptions[0]" not in diff.out + diff.err
    checked = run_cli("validate", str(spec))
    assert checked.code == 0 and "info: source[0].credentials.envFile: credentials/imagenet-oss.env is not here, " \
        "so its keys are unknown to this check" in checked.err, checked.err
