"""Symbolic links and FIFOs a repository can plant in a directory argument: a link is followed
only while it stays inside the argument's real path, every other one is reported; nothing
blocks on a FIFO (issue 24: build DIR, import DIR, validate DIR, project directories, --crds)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, run_cli, run_process

SPEC = "jindo-imagenet-oss.yaml"


def app(root: Path, name: str) -> Path:
    shutil.copytree(EXAMPLES / "credentials", root / "credentials")
    (root / "spec.yaml").write_text((EXAMPLES / SPEC).read_text().replace("name: imagenet", f"name: {name}", 1))
    return root


@pytest.fixture
def tenants(tmp_path: Path) -> Path:
    """specs/ (ours) and other-project/ (someone else's), each a complete application."""
    app(tmp_path / "other-project", "theirs")
    return app(tmp_path / "specs", "ours")


@pytest.mark.parametrize("command", ["build", "validate", "lint", "import"])
def test_a_linked_directory_outside_the_argument_is_reported_not_read(tenants: Path, command: str) -> None:
    (tenants / "vendor").symlink_to("../other-project")
    run = run_cli(command, str(tenants))
    assert f"{tenants / 'vendor'}: warning: skipped: a symbolic link that leads outside" in run.err, run.err
    assert "theirs" not in run.out + run.err
    assert run.code in (0, 1) and "Traceback" not in run.err


@pytest.mark.parametrize("command", ["build", "validate", "import"])
def test_a_linked_file_outside_the_argument_is_reported_not_read(tenants: Path, command: str) -> None:
    (tenants / "zz.yaml").symlink_to(tenants.parent / "other-project" / "spec.yaml")
    run = run_cli(command, str(tenants))
    assert f"{tenants / 'zz.yaml'}: warning: skipped: a symbolic link that leads outside" in run.err
    assert "theirs" not in run.out + run.err


def test_a_link_to_the_root_does_not_walk_the_filesystem(tenants: Path) -> None:
    (tenants / "root").symlink_to("/")
    start = time.monotonic()
    run = run_process("build", str(tenants), cwd=tenants)
    assert run.code == 0, run.err
    assert time.monotonic() - start < 10
    assert "root: warning: skipped: a symbolic link that leads outside" in run.err


def test_links_that_stay_inside_are_followed(tenants: Path) -> None:
    shutil.copytree(tenants / "credentials", tenants / "team" / "credentials")
    (tenants / "team" / "spec.yaml").write_text((tenants / "spec.yaml").read_text().replace(
        "name: ours", "name: linked-in").replace("secretName: mysecret", "secretName: linked"))
    (tenants / "also").symlink_to("team")
    (tenants / "loop").symlink_to(".")
    run = run_cli("build", str(tenants))
    assert run.code == 0, run.err
    assert "linked-in" in run.out and "leads outside" not in run.err


def test_the_argument_itself_may_be_a_link(tenants: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(tenants)
    run = run_cli("build", str(tmp_path / "alias"))
    assert run.code == 0 and "ours" in run.out and "leads outside" not in run.err


@pytest.mark.parametrize("command", ["build", "validate", "import"])
def test_a_fifo_in_a_directory_argument_is_skipped_without_blocking(tenants: Path, command: str) -> None:
    os.mkfifo(tenants / "pipe.yaml")
    run = run_process(command, str(tenants), cwd=tenants, timeout=60)
    assert "pipe.yaml: warning: skipped: not a regular file" in run.err


def test_a_project_directory_confines_links_and_refuses_a_listed_fifo(tenants: Path) -> None:
    (tenants / "vendor").symlink_to("../other-project")
    os.mkfifo(tenants / "pipe.yaml")
    (tenants / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                           "  prod:\n    specs: [[spec.yaml], [pipe.yaml]]\n")
    run = run_process("build", str(tenants), cwd=tenants, timeout=60)
    assert run.code == 1
    assert "pipe.yaml is not a regular file" in run.err
    assert "theirs" not in run.out + run.err
    (tenants / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                           "  prod:\n    specs: [[spec.yaml]]\n")
    ok = run_process("build", str(tenants), cwd=tenants, timeout=60)
    assert ok.code == 0, ok.err
    assert "vendor: warning: skipped: a symbolic link that leads outside" in ok.err


def test_a_spec_reference_to_a_fifo_is_refused_without_blocking(tenants: Path) -> None:
    os.mkfifo(tenants / "credentials" / "fifo.env")
    spec = tenants / "spec.yaml"
    spec.write_text(spec.read_text().replace("imagenet-oss.env", "fifo.env"))
    run = run_process("build", str(spec), cwd=tenants, timeout=60)
    assert run.code == 1 and "credentials/fifo.env is not a regular file" in run.err


def test_a_crd_directory_refuses_fifos_and_links_out(tmp_path: Path) -> None:
    crds = tmp_path / "crds"
    crds.mkdir()
    os.mkfifo(crds / "pipe.yaml")
    (crds / "out.yaml").symlink_to("/etc/hostname")
    run = run_process("validate", "--crds", str(crds), str(EXAMPLES / SPEC), timeout=60)
    assert run.code == 1
    assert "pipe.yaml: error: not a regular file" in run.err
    assert "out.yaml: error: a symbolic link that leads outside" in run.err
