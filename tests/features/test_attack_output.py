"""`build -o DIR` never loses a file: it owns only what it wrote (issue: data loss)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.compile import output
from tests.conftest import EXAMPLES, run_cli


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", tmp_path / "spec.yaml")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("target", ["{cwd}", "."])
def test_output_into_a_directory_fluidgen_did_not_write_is_refused(app: Path, target: str) -> None:
    before = _tree(app)
    result = run_cli("build", "spec.yaml", "-o", target.format(cwd=app), "--write-secrets", env={})
    assert result.code == 1 and "not empty and was not written by fluidgen" in result.err
    assert _tree(app) == before  # the spec, the credentials and .git are all still there


def test_output_through_a_symlink_is_refused(app: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (app / "out").symlink_to(elsewhere)
    result = run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={})
    assert result.code == 1 and "symbolic link" in result.err
    assert (app / "out").is_symlink() and list(elsewhere.iterdir()) == []


def test_rebuild_replaces_only_fluidgens_files(app: Path) -> None:
    assert run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={}).code == 0
    (app / "out" / "README.md").write_text("notes of my own\n")
    spec = app / "spec.yaml"
    spec.write_text(spec.read_text().replace("name: imagenet\n  namespace: default",
                                             "name: other\n  namespace: default"))
    assert run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={}).code == 0
    names = sorted(os.listdir(app / "out"))
    assert "README.md" in names  # not ours: kept
    assert "dataset-imagenet.yaml" not in names and "dataset-other.yaml" in names  # ours and stale: removed


def test_a_file_fluidgen_did_not_write_is_never_overwritten(app: Path) -> None:
    (app / "out").mkdir()
    (app / "out" / "kustomization.yaml").write_text("mine\n")
    result = run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={})
    assert result.code == 1 and (app / "out" / "kustomization.yaml").read_text() == "mine\n"


def test_the_directory_never_disappears_while_it_is_replaced(app: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that dies half-way leaves the previous base whole (kustomization.yaml is last)."""
    assert run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={}).code == 0
    before = _tree(app / "out")
    calls = {"n": 0}
    real = os.replace

    def dying(src: Any, dst: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # killed mid-way
        real(src, dst)

    spec = app / "spec.yaml"
    spec.write_text(spec.read_text().replace("replicas: 4", "replicas: 5"))
    objects = _objects(app)
    monkeypatch.setattr(os, "replace", dying)
    with pytest.raises(KeyboardInterrupt):
        output.write_dir(str(app / "out"), objects)
    monkeypatch.undo()
    after = _tree(app / "out")
    assert (app / "out").is_dir()
    assert after["kustomization.yaml"] == before["kustomization.yaml"]  # still the old base, whole
    for name in yaml.safe_load(after["kustomization.yaml"])["resources"]:
        assert name in after
    assert not [n for n in os.listdir(app / "out") if n.startswith(".") and n not in (output.MARKER, ".gitignore")]


def _objects(app: Path) -> list[dict[str, Any]]:
    result = run_cli("build", str(app / "spec.yaml"), env={})
    return list(yaml.safe_load_all(result.out))


def test_colliding_file_names_are_an_error() -> None:
    objects = [{"kind": "Secret", "metadata": {"name": "a-b", "namespace": "x"}},
               {"kind": "Secret", "metadata": {"name": "b", "namespace": "x-a"}},
               {"kind": "Secret", "metadata": {"name": "b", "namespace": "x-a2"}}]
    objects[2]["metadata"]["name"] = "a-b"
    objects[2]["metadata"]["namespace"] = "x"  # now three objects, two qualified names collide
    with pytest.raises(FluidgenError, match="would be written to the same file"):
        output.file_names(objects)


def test_secrets_need_the_opt_in_and_then_stay_private(app: Path) -> None:
    refused = run_cli("build", "spec.yaml", "-o", "out", env={})
    assert refused.code == 1 and not (app / "out").exists()
    for choice in ("externalSecret", "existingSecret", "--sops-age", "--write-secrets"):
        assert choice in refused.err
    written = run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={})
    assert written.code == 0, written.err
    secrets = app / "out" / "secrets.yaml"
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    assert (app / "out" / ".gitignore").read_text().splitlines()[-1] == "secrets.yaml"
    kustomization = yaml.safe_load((app / "out" / "kustomization.yaml").read_text())
    assert "secrets.yaml" not in kustomization["resources"]
    assert all(yaml.safe_load((app / "out" / n).read_text())["kind"] != "Secret" for n in kustomization["resources"])
    for name in kustomization["resources"]:
        assert stat.S_IMODE((app / "out" / name).stat().st_mode) == 0o644


def test_a_read_only_output_directory_is_a_clean_error(app: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes through read-only modes")
    (app / "out").mkdir()
    os.chmod(app / "out", 0o500)
    try:
        result = run_cli("build", "spec.yaml", "-o", "out", "--write-secrets", env={})
    finally:
        os.chmod(app / "out", 0o700)
    assert result.code == 1 and "Traceback" not in result.err


# --- fluidgen argocd health DIR: the -o writer's rules (issue 24) ------------------------------

HEALTH = "resource_customizations/data.fluid.io/Dataset/health.lua"


def test_argocd_health_rewrites_only_its_own_tree(tmp_path: Path) -> None:
    out = tmp_path / "argocd"
    first = run_cli("argocd", "health", str(out))
    assert first.code == 0, first.err
    assert (out / HEALTH).is_file() and (out / ".fluidgen-health").is_file()
    (out / HEALTH).write_text("-- stale\n")
    again = run_cli("argocd", "health", str(out))
    assert again.code == 0 and (out / HEALTH).read_text() != "-- stale\n"


def test_argocd_health_never_overwrites_a_users_file(tmp_path: Path) -> None:
    out = tmp_path / "argocd"
    (out / HEALTH).parent.mkdir(parents=True)
    (out / HEALTH).write_text("-- my own health check\n")
    run = run_cli("argocd", "health", str(out))
    assert run.code == 1 and "was not written by fluidgen" in run.err
    assert (out / HEALTH).read_text() == "-- my own health check\n"
    assert len(list(out.rglob("*.lua"))) == 1  # checked before anything is written


@pytest.mark.parametrize("where", ["dir", "file", "folder"])
def test_argocd_health_never_writes_through_a_symbolic_link(tmp_path: Path, where: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "health.lua").write_text("-- dotfile\n")
    out = tmp_path / "argocd"
    if where == "dir":
        out.symlink_to(victim)
    else:
        assert run_cli("argocd", "health", str(out)).code == 0
        if where == "file":
            (out / HEALTH).unlink()
            (out / HEALTH).symlink_to(victim / "health.lua")
        else:
            shutil.rmtree(out / "resource_customizations" / "data.fluid.io" / "Dataset")
            (out / "resource_customizations" / "data.fluid.io" / "Dataset").symlink_to(victim)
    run = run_cli("argocd", "health", str(out))
    assert run.code == 1 and "symbolic link" in run.err, run.err
    assert (victim / "health.lua").read_text() == "-- dotfile\n" and sorted(os.listdir(victim)) == ["health.lua"]
