"""A Secret inside a List inside a List (issue 38, item 3).

kustomize opens Lists at every depth (kubernetes-sigs/kustomize api/resource/factory.go
Factory.inlineAnyEmbeddedLists queues a *List's items to be read again), so such a Secret is
applied. fluidgen opened one level where objects pass through, so the inner List went to
rendered/workloads/ whole, past the -o refusal of plaintext Secrets, and deploy/flux/ci.sh
looked only for a file named secrets.yaml. Now one reader (io/lists.py) opens Lists for
pass-through, validate, lint, import and the Secret checks, and ci.sh judges every document."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, run_cli
from tests.features.test_attack_flux_ci import fake_flux
from tests.features.test_flux_ci import PROJECT, ci, repo

__all__ = ["repo"]

LEAK = "hunter2-plaintext"
SECRET = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "leaked"}, "stringData": {"password": LEAK}}


def nested(depth: int, inner: dict[str, object] | None = None) -> dict[str, object]:
    """`inner` wrapped in `depth` Lists, each with a name (so it looks like an object)."""
    node: dict[str, object] = inner or SECRET
    for level in range(depth):
        node = {"apiVersion": "v1", "kind": "List", "metadata": {"name": f"level-{level}"}, "items": [node]}
    return node


def _project(tmp_path: Path, manifest: dict[str, object]) -> Path:
    app = tmp_path / "app"
    app.mkdir()
    (app / "spec.yaml").write_text((EXAMPLES / "juicefs-mnist-pipeline.yaml").read_text())
    shutil.copytree(EXAMPLES / "scripts", app / "scripts")
    (app / "nested.yaml").write_text(yaml.safe_dump(manifest))
    (app / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                       "  prod:\n    specs: [spec.yaml]\n    manifests: [nested.yaml]\n")
    return app


@pytest.mark.parametrize("depth", [2, 3])
def test_a_secret_in_nested_lists_under_manifests_is_refused_by_build_o(tmp_path: Path, depth: int) -> None:
    app = _project(tmp_path, nested(depth))
    out = tmp_path / "rendered"
    run = run_cli("build", "--gitops", "flux", "-o", str(out), str(app), env={"FLUIDGEN_NO_CACHE": "1"})
    assert run.code == 1, run.err
    assert "Secret" in run.err
    written = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert not any(LEAK in p.read_text() for p in written)


def test_nested_lists_pass_through_item_by_item(tmp_path: Path) -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "inner-cm"}, "data": {"a": "b"}}
    app = _project(tmp_path, nested(3, config))
    run = run_cli("build", str(app), env={"FLUIDGEN_NO_CACHE": "1"})
    assert run.code == 0, run.err
    kinds = [d["kind"] for d in yaml.safe_load_all(run.out)]
    assert "List" not in kinds and kinds.count("ConfigMap") == 1  # the ConfigMap itself, no List around it


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_forbid_secret_values_sees_a_secret_at_any_depth_of_lists(tmp_path: Path, depth: int) -> None:
    """The pre-commit hook (validate --forbid-secret-values) and diff --forbid-secret-values."""
    path = tmp_path / "bundle.yaml"
    path.write_text(yaml.safe_dump(nested(depth)))
    run = run_cli("validate", "--specs-only", "--forbid-secret-values", str(path))
    assert run.code == 1 and "Secret leaked holds credential values" in run.err, run.err
    assert LEAK not in run.err


def test_forbid_secret_values_reads_a_kind_written_with_an_escape(tmp_path: Path) -> None:
    path = tmp_path / "escaped.yaml"
    path.write_text('apiVersion: v1\nkind: "S\\x65cret"\nmetadata: {name: leaked}\nstringData: {password: x}\n')
    assert yaml.safe_load(path.read_text())["kind"] == "Secret"
    run = run_cli("validate", "--specs-only", "--forbid-secret-values", str(path))
    assert run.code == 1 and "Secret leaked holds credential values" in run.err, run.err


@pytest.mark.parametrize("name", ["workloads/list-inner.yaml", ".hidden.yaml", "notes.json"])
def test_flux_ci_refuses_a_plaintext_secret_whatever_its_file_is_called(repo: Path, tmp_path: Path,
                                                                         name: str) -> None:
    rendered = tmp_path / "rendered"
    (rendered / "workloads").mkdir(parents=True)
    (rendered / "kustomization.yaml").write_text("resources: [workloads]\n")
    (rendered / name).write_text(yaml.safe_dump(nested(2)))
    push = ci(repo, "--push-only", str(rendered), "--oci", "oci://registry.example.com/ml/all:v1",
              path=fake_flux(tmp_path))
    assert push.returncode == 1, push.stderr
    assert "holds a Secret with plaintext values" in push.stderr
    assert "pushed" not in push.stderr and LEAK not in push.stderr


def test_flux_ci_still_pushes_a_clean_build(repo: Path, tmp_path: Path) -> None:
    assert PROJECT in (repo / "ml" / "fluidgen.yaml").read_text()
    result = ci(repo, "--out", "rendered", "--oci", "oci://registry.example.com/ml/all:v1", "ml",
                path=fake_flux(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "pushed" in result.stderr


def test_one_reader_opens_lists_to_its_depth_and_finds_secrets_at_any() -> None:
    from fluidgen.io.lists import MAX_DEPTH, open_items, secrets_in

    assert open_items(nested(MAX_DEPTH)) == [SECRET]
    assert open_items(nested(MAX_DEPTH + 1)) is None  # refused, never passed on whole
    assert open_items({"apiVersion": "v1", "kind": "List", "items": None}) == []
    assert open_items({"kind": "ConfigMapList", "items": 5}) is None
    assert secrets_in(nested(MAX_DEPTH + 5)) == [SECRET]
