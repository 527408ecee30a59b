"""deploy/flux/ci.sh, the CI template for Flux, end to end on a scratch git repository and
offline: validate -> plan against the base commit -> build in Flux's layout -> push (skipped
when the flux CLI is absent, refused for plaintext Secrets)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT, run_cli

CI = ROOT / "deploy" / "flux" / "ci.sh"
PROJECT = """\
apiVersion: fluidgen.io/v1alpha1
kind: Project
environments:
  prod:
    specs: [[mnist.yaml, envs/prod.yaml]]
    namespace: ml-prod
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=ci@example.com", "-c", "user.name=ci", *args], cwd=repo, check=True,
                   capture_output=True)


def ci(repo: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": path or f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "HOME": str(repo.parent)}
    return subprocess.run(["sh", str(CI), *args], cwd=repo, env=env, capture_output=True, text=True, check=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    specs = repo / "ml"
    (specs / "envs").mkdir(parents=True)
    shutil.copytree(EXAMPLES / "scripts", specs / "scripts")
    (specs / "mnist.yaml").write_text((EXAMPLES / "juicefs-mnist-pipeline.yaml").read_text()
                                      .replace("  namespace: default\n", "", 1))
    (specs / "envs" / "prod.yaml").write_text("runtime:\n  replicas: 3\n")
    (specs / "fluidgen.yaml").write_text(PROJECT)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def edit(repo: Path, old: str, new: str) -> None:
    spec = repo / "ml" / "mnist.yaml"
    assert old in spec.read_text()
    spec.write_text(spec.read_text().replace(old, new))
    git(repo, "commit", "-qam", "edit")


def test_ci_script_validates_plans_and_builds_for_flux(repo: Path) -> None:
    edit(repo, "quota: 10Gi", "quota: 20Gi")  # applied in place: the plan passes
    result = ci(repo, "--base", "HEAD~1", "--env", "prod", "--out", "clusters/prod/mnist", "--oci",
                "oci://registry.example.com/ml/mnist:latest", "ml", path=str(Path(sys.executable).parent) +
                os.pathsep + "/usr/bin" + os.pathsep + "/bin")
    assert result.returncode == 0, result.stderr
    for step in ("validate ml", "plan against git:HEAD~1", "build ml -> clusters/prod/mnist",
                 "flux CLI not found: skipped pushing"):
        assert step in result.stderr
    out = repo / "clusters" / "prod" / "mnist"
    built = [yaml.safe_load((out / name).read_text()) for name in
             yaml.safe_load((out / "kustomization.yaml").read_text())["resources"]]
    assert {d["metadata"]["namespace"] for d in built} == {"ml-prod"}
    assert next(d for d in built if d["kind"] == "JuiceFSRuntime")["spec"]["replicas"] == 3
    text = "".join(p.read_text() for p in out.glob("*.yaml"))
    assert "ttlSecondsAfterFinished" not in text and "argocd.argoproj.io" not in text
    # the same build the CLI makes
    again = run_cli("build", "--gitops", "flux", "--env", "prod", str(repo / "ml"))
    assert sorted(yaml.dump(d) for d in yaml.safe_load_all(again.out)) == sorted(yaml.dump(d) for d in built)


def test_ci_script_stops_on_an_edit_fluid_ignores(repo: Path) -> None:
    edit(repo, "bucket: http://minio:9000/minio/test", "bucket: http://minio:9000/minio/other")
    result = ci(repo, "--base", "HEAD~1", "--env", "prod", "--out", "rendered", "ml")
    assert result.returncode == 1
    assert "ignored until the runtime is re-created" in result.stdout + result.stderr
    assert not (repo / "rendered").exists()  # nothing built
    allowed = ci(repo, "--base", "HEAD~1", "--env", "prod", "--out", "rendered", "--allow-recreate", "ml")
    assert allowed.returncode == 0, allowed.stderr
    assert (repo / "rendered" / "kustomization.yaml").is_file()


def test_ci_script_stops_on_an_invalid_spec(repo: Path) -> None:
    edit(repo, "replicas: 2", "replcas: 2")
    result = ci(repo, "--env", "prod", "ml")
    assert result.returncode == 1 and "plan" not in result.stderr.split("validate ml", 1)[1]
    assert 'did you mean "replicas"' in result.stderr


def test_ci_script_refuses_plaintext_secrets(repo: Path) -> None:
    refused = ci(repo, "--write-secrets", "ml")
    assert refused.returncode == 2 and "plaintext" in refused.stderr
    plain = repo / "plain"
    built = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(plain), "--write-secrets")
    assert built.code == 0, built.err
    assert (plain / "secrets.yaml").is_file()
    push = ci(repo, "--push-only", str(plain), "--oci", "oci://registry.example.com/ml/imagenet:v1")
    assert push.returncode == 1 and "secrets.yaml holds plaintext Secrets" in push.stderr


def test_ci_script_requires_flux_only_when_asked(repo: Path, tmp_path: Path) -> None:
    path = str(Path(sys.executable).parent) + os.pathsep + "/usr/bin" + os.pathsep + "/bin"
    if shutil.which("flux", path=path):
        pytest.skip("a flux CLI is installed here")
    out = tmp_path / "rendered"
    assert ci(repo, "--env", "prod", "--out", str(out), "ml").returncode == 0
    required = ci(repo, "--push-only", str(out), "--oci", "oci://registry.example.com/ml/mnist:v1", "--require-push",
                  path=path)
    assert required.returncode == 1 and "flux CLI is not installed" in required.stderr
    wrong = ci(repo, "--push-only", str(out), "--oci", "https://registry.example.com/ml", path=path)
    assert wrong.returncode == 2


def test_validate_checks_the_project_file(repo: Path) -> None:
    """`fluidgen validate DIR` reads fluidgen.yaml as a project, not as a foreign kind."""
    assert run_cli("validate", str(repo / "ml")).code == 0
    project = repo / "ml" / "fluidgen.yaml"
    project.write_text(PROJECT + "    gitops: fluxx\n")
    result = run_cli("validate", str(repo / "ml"))
    assert result.code == 1 and "fluidgen.yaml:7:" in result.err and 'did you mean "flux"' in result.err


def action_step(inputs: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The composite action's step as GitHub runs it: `${{ inputs.X }}` filled in env only."""
    import re

    action = yaml.safe_load((CI.parent / "action.yml").read_text())
    values = {name: inputs.get(name, spec.get("default", "")) for name, spec in action["inputs"].items()}
    (step,) = action["runs"]["steps"]
    assert "${{" not in step["run"]  # inputs are never spliced into the script's text
    env = {k: re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: values[m[1]], v) for k, v in step["env"].items()}
    return step["run"], env


def test_the_github_action_runs_the_script_with_its_inputs(repo: Path) -> None:
    edit(repo, "quota: 10Gi", "quota: 20Gi")
    script, env = action_step({"specs": "ml", "env": "prod", "base": "HEAD~1", "out": "out/$(touch pwned)"})
    full = {**env, "GITHUB_ACTION_PATH": str(CI.parent), "HOME": str(repo.parent),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["sh", "-c", script], cwd=repo, env=full, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "plan against git:HEAD~1" in done.stderr
    assert (repo / "out" / "$(touch pwned)" / "kustomization.yaml").is_file() and not (repo / "pwned").exists()
    script, env = action_step({"specs": "ml", "env": "prod", "oci": "oci://r.example.com/x:v1", "require-push": "true"})
    full.update(env, PATH=f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin")
    if shutil.which("flux", path=full["PATH"]) is None:
        pushed = subprocess.run(["sh", "-c", script], cwd=repo, env=full, capture_output=True, text=True, check=False)
        assert pushed.returncode == 1 and "flux CLI is not installed" in pushed.stderr


def fake_flux(tmp_path: Path) -> tuple[str, Path]:
    """A `flux` on PATH that records its arguments (push artifact's --revision is the point), offline."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "flux.args"
    flux = bin_dir / "flux"
    flux.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{log}"\n')
    flux.chmod(0o755)
    return f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", log


def pushed_revision(log: Path) -> str:
    args = log.read_text().splitlines()
    return args[args.index("--revision") + 1]


def test_the_pushed_revision_follows_fluxs_convention_on_a_detached_checkout(repo: Path, tmp_path: Path) -> None:
    """flux2 cmd/flux/push_artifact.go wants '<branch|tag>@sha1:<commit-sha>'; fluxcd/pkg git/utils.go
    SplitRevision reads 'sha1:<sha>' as a commit without a named pointer and never takes HEAD for one.
    A CI checkout of a tag or a pull request is detached: the script wrote 'HEAD@sha1:...'."""
    path, log = fake_flux(tmp_path)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True).stdout
    sha = sha.strip()
    out = str(tmp_path / "rendered")
    url = "oci://registry.example.com/ml/mnist:v1"
    branch = subprocess.run(["git", "symbolic-ref", "--short", "HEAD"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout.strip()
    assert ci(repo, "--env", "prod", "--out", out, "--oci", url, "ml", path=path).returncode == 0
    assert pushed_revision(log) == f"{branch}@sha1:{sha}"
    git(repo, "checkout", "-q", "--detach")
    assert ci(repo, "--push-only", out, "--oci", url, path=path).returncode == 0
    assert pushed_revision(log) == f"sha1:{sha}"
    git(repo, "tag", "v1.2.0")
    assert ci(repo, "--push-only", out, "--oci", url, path=path).returncode == 0
    assert pushed_revision(log) == f"v1.2.0@sha1:{sha}"


def test_the_github_action_declares_the_outputs_the_script_writes(repo: Path, tmp_path: Path) -> None:
    """A composite action's outputs are its steps' outputs (GITHUB_OUTPUT lines): each declared output
    names the step and a key the script writes; the flux setup action in the usage is pinned."""
    path, _ = fake_flux(tmp_path)
    action = yaml.safe_load((CI.parent / "action.yml").read_text())
    (step,) = action["runs"]["steps"]
    outputs = action.get("outputs") or {}
    assert set(outputs) == {"out", "artifact", "revision"}
    for name, spec in outputs.items():
        assert spec["value"] == f"${{{{ steps.{step['id']}.outputs.{name} }}}}"
    script, env = action_step({"specs": "ml", "env": "prod", "oci": "oci://r.example.com/x:v1"})
    github_output = tmp_path / "github_output"
    github_output.write_text("")
    full = {**env, "GITHUB_ACTION_PATH": str(CI.parent), "HOME": str(repo.parent), "PATH": path,
            "GITHUB_OUTPUT": str(github_output)}
    done = subprocess.run(["sh", "-c", script], cwd=repo, env=full, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    written = dict(line.split("=", 1) for line in github_output.read_text().splitlines())
    assert written["out"] == "rendered" and written["artifact"] == "oci://r.example.com/x:v1"
    assert written["revision"].endswith("@sha1:" + subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo,
                                                                capture_output=True, text=True).stdout.strip())
    usage = (CI.parent / "action.yml").read_text()
    assert "fluxcd/flux2/action@main" not in usage and "fluxcd/flux2/action@889be9d6" in usage
