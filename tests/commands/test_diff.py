"""fluidgen/commands/diff.py: `fluidgen diff SPEC... RENDERED`: the path checks (a spec and a
rendering, or -f overlays and a rendering alone; a first path that holds no spec: usage errors,
exit 2), credentials never read (a fromEnv spec diffs with its variables unset), and the one
line on stderr naming what is out of date, in the singular or the plural."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, run_cli

KEYS = {"OSS_AK": "LTAI5tExampleAccessKeyId", "OSS_SK": "ExampleAccessKeySecretNotReal0123"}


def from_env_spec(tmp_path: Path) -> Path:
    """The Jindo example with its keys from environment variables instead of an env file."""
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace(
        "      envFile: credentials/imagenet-oss.env\n",
        "      fromEnv: {fs.oss.accessKeyId: OSS_AK, fs.oss.accessKeySecret: OSS_SK}\n"))
    return spec


@pytest.mark.parametrize(("args", "last_line"), [
    (("spec.yaml",), "Error: give the spec(s) and then the rendered file or directory"),
    (("rendered.yaml", "spec.yaml"), "Error: rendered.yaml holds no fluidgen spec: give the spec(s) first, then the "
                                     "rendered file(s) or directory"),
])
def test_path_errors(args: tuple[str, ...], last_line: str, tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", tmp_path / "spec.yaml")
    (tmp_path / "rendered.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    result = run_cli("diff", *args, cwd=tmp_path, env={})
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == last_line


def test_credentials_are_never_read(tmp_path: Path) -> None:
    spec = from_env_spec(tmp_path)
    built = run_cli("build", str(spec), env=KEYS)
    assert built.code == 0, built.err
    (tmp_path / "rendered.yaml").write_text(built.out)
    same = run_cli("diff", str(spec), str(tmp_path / "rendered.yaml"), env={})  # OSS_AK and OSS_SK unset
    assert (same.code, same.out, same.err) == (0, "", "")


def test_overlays_leave_one_path_the_rendering(tmp_path: Path) -> None:
    spec = from_env_spec(tmp_path)
    (tmp_path / "rendered.yaml").write_text(run_cli("build", str(spec), env=KEYS).out)
    result = run_cli("diff", "-f", str(spec), str(tmp_path / "rendered.yaml"), env={})
    assert (result.code, result.out, result.err) == (0, "", "")


def test_drift_names_the_renderings_to_regenerate(tmp_path: Path) -> None:
    spec = from_env_spec(tmp_path)
    secret, rest = run_cli("build", str(spec), env=KEYS).out.split("---\n", 1)
    (tmp_path / "secret.yaml").write_text(secret)
    (tmp_path / "rest.yaml").write_text(rest.replace("replicas: 4", "replicas: 3"))
    (tmp_path / "all.yaml").write_text(secret + "---\n" + rest.replace("replicas: 4", "replicas: 3"))
    one = run_cli("diff", str(spec), str(tmp_path / "all.yaml"), env={})
    assert one.code == 1 and "-  replicas: 3\n+  replicas: 4\n" in one.out
    assert one.err == f"fluidgen: {tmp_path / 'all.yaml'} is out of date; regenerate it from the specs\n"
    two = run_cli("diff", str(spec), str(tmp_path / "secret.yaml"), str(tmp_path / "rest.yaml"), env={})
    assert two.code == 1
    assert two.err == (f"fluidgen: {tmp_path / 'secret.yaml'} {tmp_path / 'rest.yaml'} are out of date; "
                       "regenerate them from the specs\n")


def test_a_spec_that_does_not_compile_prints_nothing_on_stdout(tmp_path: Path) -> None:
    spec = from_env_spec(tmp_path)
    (tmp_path / "rendered.yaml").write_text(run_cli("build", str(spec), env=KEYS).out)
    spec.write_text(spec.read_text().replace("replicas: 4", "replcas: 4"))
    result = run_cli("diff", str(spec), str(tmp_path / "rendered.yaml"), env={})
    assert result.code == 1 and result.out == ""
    assert 'runtime.replcas: unknown key; did you mean "replicas"?' in result.err
