"""The exit-code contract (0 ok, 1 a located user error, 2 usage, 3 only for bugs), the
failures that used to pass with 0, and names the API server would refuse."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, SHARED, run_cli

SPEC = """apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo}
source:
  - uri: oss://bucket/data/
    options: {fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}
    credentials: {existingSecret: {name: oss, keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]}}
runtime: {engine: alluxio, replicas: 2}
"""


def _write(tmp_path: Path, text: str, name: str = "spec.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- inputs that used to end in an internal error ------------------------------------------

EXIT_3_CASES = {
    "nested-key-list": SPEC.replace("keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]", "keys: [[a]]"),
    "long-integer": SPEC.replace("replicas: 2", "replicas: " + "9" * 5000),
    "api-version-three-parts": "apiVersion: foo/bar/baz\nkind: Dataset\nmetadata: {name: x}\n",
    "non-string-kind": "apiVersion: data.fluid.io/v1alpha1\nkind: [Dataset]\nmetadata: {name: x}\n",
    "string-spec": "apiVersion: data.fluid.io/v1alpha1\nkind: AlluxioRuntime\nmetadata: {name: x}\nspec: hello\n",
    "list-metadata": "apiVersion: v1\nkind: Secret\nmetadata: [a]\n",
}


@pytest.mark.parametrize("case", sorted(EXIT_3_CASES))
@pytest.mark.parametrize("command", ["build", "validate", "lint"])
def test_former_internal_errors_are_user_errors(case: str, command: str, tmp_path: Path) -> None:
    result = run_cli(command, _write(tmp_path, EXIT_3_CASES[case]), env={})
    assert "internal error" not in result.err
    if command == "lint" and "fluidgen.io" not in EXIT_3_CASES[case]:
        assert result.code in (0, 1)  # lint judges meaning, not shape: a malformed manifest may have no finding
        return
    assert result.code == 1, (result.code, result.err)
    assert str(tmp_path) in result.err


@pytest.mark.parametrize("path", ["runtime", "runtime.overrides", "runtime.thin", "dataflow.process",
                                  "runtime.cacheClass.define", "source.credentials.existingSecret.keys"])
def test_explain_every_part_of_the_spec(path: str) -> None:
    result = run_cli("explain", path)
    assert result.code == 0 and f"FIELD: {path}" in result.out


def test_diff_against_a_scalar_document(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    spec = tmp_path / "spec.yaml"
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", spec)
    rendered = _write(tmp_path, "42\n", "rendered.yaml")
    result = run_cli("diff", str(spec), rendered, env={})
    assert result.code == 1 and "internal error" not in result.err


def test_init_into_a_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("init", "-o", str(tmp_path / "nope" / "spec.yaml"))
    assert result.code == 2 and "cannot write" in result.err


def test_a_non_utf8_setting_is_a_usage_error(tmp_path: Path) -> None:
    env = {**os.environ, "FLUIDGEN_NAMESPACE": "ns", "FLUIDGEN_NO_CACHE": "1"}
    env_bytes = {k.encode(): v.encode() for k, v in env.items()}
    env_bytes[b"FLUIDGEN_NAMESPACE"] = b"\xff\xfe"
    proc = subprocess.run([sys.executable, "-m", "fluidgen", "build", str(EXAMPLES / "jindo-imagenet-oss.yaml")],
                          env=env_bytes, cwd=EXAMPLES, capture_output=True, timeout=60, check=False)
    assert proc.returncode == 2 and b"not valid UTF-8" in proc.stderr


def test_a_non_utf8_credential_is_a_located_error(tmp_path: Path) -> None:
    spec = _write(tmp_path, SPEC.replace(
        "credentials: {existingSecret: {name: oss, keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]}}",
        "credentials: {fromEnv: {fs.oss.accessKeyId: ID, fs.oss.accessKeySecret: KEY}}"))
    env = {k.encode(): v.encode() for k, v in os.environ.items() if not k.startswith("FLUIDGEN")}
    env.update({b"FLUIDGEN_NO_CACHE": b"1", b"ID": b"id", b"KEY": b"\xff\xfesecret"})
    proc = subprocess.run([sys.executable, "-m", "fluidgen", "build", spec], env=env, capture_output=True,
                          timeout=60, check=False)
    assert proc.returncode == 1 and b"KEY is not valid UTF-8" in proc.stderr


def test_a_malformed_crd_file_is_a_user_error(tmp_path: Path) -> None:
    crd = _write(tmp_path, "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n"
                           "  group: data.fluid.io\n  names: {kind: Dataset}\n  versions:\n  - name: v1alpha1\n"
                           "    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n"
                           "          spec: {type: object, properties: [1, 2], required: 7}\n", "crds.yaml")
    manifest = _write(tmp_path, "apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {name: x}\n"
                                "spec: {mounts: [{mountPoint: oss://a/b}]}\n", "ds.yaml")
    for crds in (crd, _write(tmp_path, ": : :\n", "broken.yaml")):
        result = run_cli("validate", "--crds", crds, manifest)
        assert result.code == 1 and "internal error" not in result.err


# -- failures that used to exit 0 ------------------------------------------------------------

def test_an_empty_env_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "creds.env").write_text("# nothing here\n\n")
    spec = _write(tmp_path, SPEC.replace(
        "credentials: {existingSecret: {name: oss, keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]}}",
        "credentials: {envFile: creds.env}"))
    result = run_cli("build", spec, env={})
    assert result.code == 1 and "holds no KEY=VALUE line" in result.err


@pytest.mark.parametrize("api_version", ["fluidgen.oi/v1alpha1", "fluidgen.io/v1alpha2", "fluigen.io/v1alpha1"])
@pytest.mark.parametrize("command", [["validate"], ["validate", "--specs-only", "--lint"], ["build"]])
def test_a_near_miss_api_version_is_an_error(api_version: str, command: list[str], tmp_path: Path) -> None:
    spec = _write(tmp_path, SPEC.replace("fluidgen.io/v1alpha1", api_version))
    result = run_cli(*command, spec, env={})
    assert result.code == 1, (command, result.err)
    assert "fluidgen.io/v1alpha1" in result.err


def test_a_broken_spec_handed_to_the_hook_is_an_error(tmp_path: Path) -> None:
    spec = _write(tmp_path, "apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: [\n")
    result = run_cli("validate", "--specs-only", "--lint", spec, env={})
    assert result.code == 1 and "invalid YAML" in result.err


def test_specs_in_symlinked_directories_are_built(tmp_path: Path) -> None:
    """Links inside the argument are followed (a loop ends); one that leaves it is reported
    (tests/features/test_attack_links.py)."""
    app = tmp_path / "app"
    real = app / "real"
    real.mkdir(parents=True)
    shutil.copytree(EXAMPLES / "credentials", real / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", real / "spec.yaml")
    (app / "linked").symlink_to(real)
    (real / "loop").symlink_to(app)  # a loop back up must end, not recurse
    result = run_cli("build", str(app), env={})
    assert result.code == 0, result.err
    assert "kind: JindoRuntime" in result.out and "already read" in result.err


@pytest.mark.parametrize(("where", "code"), [("flag", 2), ("spec", 1), ("directive", 1)])
def test_unknown_rule_ids_are_errors(where: str, code: int, tmp_path: Path) -> None:
    text = SPEC + ("lint: {ignore: [FG10]}\n" if where == "spec" else "")
    args = ["--ignore", "FG999"] if where == "flag" else []
    if where == "directive":
        manifest = _write(tmp_path, "# fluidgen-lint: ignore=FG1O3\napiVersion: v1\nkind: ConfigMap\n"
                                    "metadata: {name: x}\n", "cm.yaml")
        result = run_cli("lint", manifest)
    else:
        result = run_cli("lint" if where == "spec" else "build", _write(tmp_path, text), *args, env={})
    assert result.code == code, result.err
    assert "unknown lint rule" in result.err


@pytest.mark.parametrize("command", ["validate", "lint"])
def test_validate_and_lint_honour_the_version_setting(command: str, tmp_path: Path) -> None:
    spec = _write(tmp_path, SPEC.replace("runtime: {engine: alluxio, replicas: 2}",
                                         "runtime: {engine: goosefs, replicas: 2}"))
    plain = run_cli(command, spec, env={})
    assert plain.code == 0, plain.err
    later = run_cli(command, spec, env={"FLUIDGEN_FLUID_VERSION": "v1.1.0-dev"})
    assert later.code == 1 and "not available in Fluid v1.1.0-dev" in later.err


# -- names ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "message"), [
    (("uri: oss://bucket/data/", "uri: oss://bucket/data/\n    name: ../../../../tmp/evil"), "not a valid mount name"),
    (("metadata: {name: demo}", "metadata: {name: demo, labels: {team: 'a b'}}"), "not a valid label value"),
    (("metadata: {name: demo}", "metadata: {name: demo, annotations: {'bad key!': x}}"), "not a valid key"),
    (("replicas: 2", "replicas: 3000000000"), "must be at most 2147483647, got 3000000000"),
    (("keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]", "keys: ['bad key']"), "not a valid Secret key"),
    (("uri: oss://bucket/data/", "uri: oss://bucket/data/\n    name: " + "m" * 240), "not a valid Kubernetes name"),
    (("metadata: {name: demo}", "metadata: !custom {name: demo}"), "unsupported YAML tag"),
])
def test_names_the_api_server_refuses_are_errors(change: tuple[str, str], message: str, tmp_path: Path) -> None:
    text = SPEC.replace(*change)
    if "m" * 240 in text:  # a long mount name makes a Secret name past 253 characters
        text = text.replace("credentials: {existingSecret: {name: oss, keys: [fs.oss.accessKeyId, "
                            "fs.oss.accessKeySecret]}}", "credentials: {fromEnv: {fs.oss.accessKeyId: A, "
                            "fs.oss.accessKeySecret: B}}")
    result = run_cli("build", _write(tmp_path, text), env={"A": "x", "B": "y"})
    assert result.code == 1 and message in result.err, result.err
    assert str(tmp_path / "spec.yaml") + ":" in result.err  # located in the spec


@pytest.mark.parametrize("env", [{"FLUIDGEN_NAMESPACE": "Bad/NS"}, {"ARGOCD_ENV_FLUIDGEN_NAMESPACE": "x" * 70}])
def test_namespaces_from_the_environment_are_checked(env: dict[str, str]) -> None:
    result = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), env=env)
    assert result.code == 2 and "DNS-1123" in result.err


def test_reference_manifests_validate_without_surprises() -> None:
    ref = SHARED / "reference" / "jindo-imagenet-oss.yaml"
    if not ref.exists():
        pytest.skip(f"reference manifests missing at {SHARED / 'reference'} (../shared)")
    assert run_cli("validate", str(ref)).code == 0
    assert ROOT.exists()


# -- the console script leaves without tearing the interpreter down (issue 29) -----------

def _module_run(*args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLUIDGEN_")} | {"FLUIDGEN_NO_CACHE": "1"}
    return subprocess.run([sys.executable, "-m", "fluidgen", *args], cwd=EXAMPLES, stdout=stdout,  # type: ignore[arg-type]
                          stderr=subprocess.PIPE, text=True, env=env, check=False, timeout=120)


@pytest.mark.parametrize(("args", "code"), [
    (("build", "alluxio-imagenet-oss.yaml"), 0), (("build", "no-such.yaml"), 1), (("build", "--no-such-flag"), 2),
    (("build", "--help"), 0)])
def test_the_console_entry_says_what_main_says(args: tuple[str, ...], code: int) -> None:
    """Every byte of output and the exit code, as the in-process entry gives them."""
    proc = _module_run(*args)
    same = run_cli(*args, cwd=EXAMPLES)
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, same.out, same.err)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_an_error() -> None:
    with open("/dev/full", "w") as full:
        proc = _module_run("build", "jindo-imagenet-oss.yaml", stdout=full)
    assert proc.returncode == 1 and "No space left on device" in proc.stderr


def test_a_reader_that_leaves_early_is_not_an_error(tmp_path: Path) -> None:
    """More output than a pipe holds, and a reader that takes ten bytes (`| head -c 10`)."""
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    flagship = (EXAMPLES / "alluxio-imagenet-oss.yaml").read_text()
    for i in range(20):
        (tmp_path / f"spec-{i}.yaml").write_text(flagship.replace("name: imagenet", f"name: imagenet-{i}", 1))
    with subprocess.Popen([sys.executable, "-m", "fluidgen", "build", "-q", "."], cwd=tmp_path,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={**os.environ, "FLUIDGEN_NO_CACHE": "1"}) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert len(proc.stdout.read(10)) == 10
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0, err
    assert err == b""
