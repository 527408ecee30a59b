"""Attacks on deploy/flux/ci.sh as a careless pipeline author would make them: a push of a
directory holding several environments' builds, and a spec directory whose name starts with '-'."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from tests.conftest import EXAMPLES, run_cli
from tests.features.test_flux_ci import ci, repo

__all__ = ["repo"]


def fake_flux(tmp_path: Path) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    flux = bin_dir / "flux"
    flux.write_text('#!/bin/sh\necho "pushed $*" >&2\n')
    flux.chmod(flux.stat().st_mode | stat.S_IXUSR)
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


def test_push_refuses_plaintext_secrets_in_a_nested_environment_directory(repo: Path, tmp_path: Path) -> None:
    every_env = tmp_path / "clusters"
    built = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(every_env / "prod"),
                    "--write-secrets")
    assert built.code == 0, built.err
    push = ci(repo, "--push-only", str(every_env), "--oci", "oci://registry.example.com/ml/all:v1",
              path=fake_flux(tmp_path))
    assert push.returncode == 1, push.stderr
    assert "prod/secrets.yaml holds plaintext Secrets" in push.stderr
    assert "pushed" not in push.stderr


def test_a_spec_directory_named_like_an_option_is_a_directory(repo: Path) -> None:
    shutil.move(str(repo / "ml"), str(repo / "-ml"))
    result = ci(repo, "--env", "prod", "--out", "rendered", "--", "-ml")
    assert result.returncode == 0, result.stderr
    assert (repo / "rendered" / "kustomization.yaml").is_file()


def test_push_refuses_plaintext_secrets_behind_a_symbolic_link(repo: Path, tmp_path: Path) -> None:
    """A linked environment directory, or a linked directory given to --push-only: the check
    looks where the push would read."""
    elsewhere = tmp_path / "elsewhere"
    built = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(elsewhere / "prod"),
                    "--write-secrets")
    assert built.code == 0, built.err
    every_env = tmp_path / "clusters"
    every_env.mkdir()
    (every_env / "prod").symlink_to(elsewhere / "prod", target_is_directory=True)
    linked_root = tmp_path / "linked"
    linked_root.symlink_to(elsewhere, target_is_directory=True)
    for target in (every_env, linked_root):
        push = ci(repo, "--push-only", str(target), "--oci", "oci://registry.example.com/ml/all:v1",
                  path=fake_flux(tmp_path / target.name))
        assert push.returncode == 1, (target, push.stderr)
        assert "secrets.yaml holds plaintext Secrets" in push.stderr and "pushed" not in push.stderr
