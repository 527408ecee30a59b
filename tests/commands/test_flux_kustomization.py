"""fluidgen/commands/flux_kustomization.py: `fluidgen flux kustomization SPEC... --path P`: the
flag checks not covered by tests/commands/test_flux.py (specs or -f overlays, the --source name,
--decryption-secret: usage errors, exit 2), the name prefix made from PATH's last folder, a build
in Flux mode that reads no credential, and a spec that does not compile (exit 1, stdout empty)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, run_cli

MNIST = EXAMPLES / "juicefs-mnist-pipeline.yaml"


@pytest.mark.parametrize(("args", "last_line"), [
    (("--path", "x"), "Error: give at least one spec file or directory (or -f overlays)"),
    ((str(MNIST), "--path", "x", "--source", "GitRepository/Bad_Name"),
     "Error: --source 'GitRepository/Bad_Name': give KIND/NAME with KIND one of GitRepository, OCIRepository, "
     "Bucket, ExternalArtifact"),
    ((str(MNIST), "--path", "x", "--decryption-secret", "Bad Name"),
     "Error: --decryption-secret 'Bad Name': not a Secret name"),
])
def test_usage_errors(args: tuple[str, ...], last_line: str) -> None:
    result = run_cli("flux", "kustomization", *args, env={})
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == last_line


def test_the_name_prefix_is_paths_last_folder_as_a_dns_label() -> None:
    result = run_cli("flux", "kustomization", str(MNIST), "--path", "./clusters/Prod/My_App/", env={})
    assert result.code == 0, result.err
    (data,) = yaml.safe_load_all(result.out)
    assert data["metadata"]["name"] == "my-app-data"


def test_credentials_are_never_read(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"  # its envFile (credentials/imagenet-oss.env) is absent here
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace(
        "      envFile: credentials/imagenet-oss.env\n",
        "      fromEnv: {fs.oss.accessKeyId: OSS_AK, fs.oss.accessKeySecret: OSS_SK}\n"))
    result = run_cli("flux", "kustomization", str(spec), "--path", "./imagenet", env={})  # OSS_AK, OSS_SK unset
    assert result.code == 0 and result.err == ""
    assert [d["metadata"]["name"] for d in yaml.safe_load_all(result.out)] == ["imagenet-data"]


def test_a_spec_that_does_not_compile_prints_nothing_on_stdout(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(MNIST.read_text().replace("replicas: 2", "replcas: 2"))
    result = run_cli("flux", "kustomization", str(spec), "--path", "./mnist", env={})
    assert result.code == 1 and result.out == ""
    assert 'runtime.replcas: unknown key; did you mean "replicas"?' in result.err
    assert result.err.splitlines()[-1] == "fluidgen: 1 error; nothing was written"
