"""The Argo CD plugin's generate command, run exactly as plugin.yaml declares it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from .conftest import EXAMPLES, ROOT

PLUGIN = ROOT / "deploy" / "argocd" / "plugin.yaml"


def generate(app_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    spec = yaml.safe_load(PLUGIN.read_text())["spec"]
    command = [*spec["generate"]["command"], *spec["generate"]["args"]]
    full_env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                "ARGOCD_APP_NAME": "imagenet", "ARGOCD_APP_NAMESPACE": "training", **env}
    return subprocess.run(command, cwd=app_dir, env=full_env, capture_output=True, text=True, check=False)


def app(tmp_path: Path) -> Path:
    app_dir = tmp_path / "app"
    (app_dir / "credentials").mkdir(parents=True)
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app_dir / "dataset.yaml")
    shutil.copy(EXAMPLES / "credentials" / "imagenet-oss.env", app_dir / "credentials")
    (app_dir / "kustomization.yaml").write_text("resources: []\n")  # other YAML is ignored
    return app_dir


def test_generate_prints_only_manifests(tmp_path: Path) -> None:
    result = generate(app(tmp_path))
    assert result.returncode == 0, result.stderr
    docs = list(yaml.safe_load_all(result.stdout))
    assert [d["kind"] for d in docs] == ["Secret", "Dataset", "JindoRuntime"]
    # Other YAML in the application directory is named, never silently dropped.
    assert result.stderr == "./kustomization.yaml: info: not built: holds no fluidgen spec (a plain manifest or a " \
                            "values file)\n"


def test_generate_reads_settings_from_argocd_env(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    spec = app_dir / "dataset.yaml"
    spec.write_text(spec.read_text().replace("  namespace: default\n", ""))
    result = generate(app_dir, ARGOCD_ENV_FLUIDGEN_FLUID_VERSION="v1.1.0-dev")
    assert result.returncode == 0, result.stderr
    assert {d["metadata"]["namespace"] for d in yaml.safe_load_all(result.stdout)} == {"training"}
    bad = generate(app_dir, ARGOCD_ENV_FLUIDGEN_FLUID_VERSION="v9")
    assert bad.returncode == 2 and bad.stdout == ""
    override = generate(app_dir, ARGOCD_ENV_FLUIDGEN_NAMESPACE="ml")
    assert {d["metadata"]["namespace"] for d in yaml.safe_load_all(override.stdout)} == {"ml"}


def test_generate_fails_loudly_on_a_broken_spec(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    spec = app_dir / "dataset.yaml"
    spec.write_text(spec.read_text().replace("replicas: 4", "replcas: 4"))
    result = generate(app_dir)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "dataset.yaml:" in result.stderr and 'did you mean "replicas"' in result.stderr


def test_generate_fails_when_there_is_nothing_to_build(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = generate(empty)
    assert result.returncode != 0 and result.stdout == ""


def test_discover_finds_spec_directories(tmp_path: Path) -> None:
    spec = yaml.safe_load(PLUGIN.read_text())["spec"]
    found = subprocess.run(spec["discover"]["find"]["command"], cwd=app(tmp_path), capture_output=True,
                           text=True, check=False)
    assert found.returncode == 0 and found.stdout.strip() == "./dataset.yaml"
    empty = tmp_path / "plain"
    empty.mkdir()
    (empty / "deploy.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    none = subprocess.run(spec["discover"]["find"]["command"], cwd=empty, capture_output=True, text=True,
                          check=False)
    assert none.stdout.strip() == ""


def test_summary_line_for_many_specs_and_quiet(tmp_path: Path) -> None:
    from .conftest import run_cli

    app_dir = app(tmp_path)
    shutil.copy(EXAMPLES / "nfs-imagenet-alluxio.yaml", app_dir / "nfs.yaml")
    loud = run_cli("build", str(app_dir), env={})
    assert loud.code == 0, loud.err
    assert loud.err.splitlines()[-1] == "fluidgen: 2 specs, 7 objects, 1 warning, 0 errors"
    quiet = run_cli("build", "-q", str(app_dir), env={})
    assert "fluidgen: 2 specs" not in quiet.err and quiet.out == loud.out
