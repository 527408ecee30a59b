"""`fluidgen diff` (and so the fluidgen-rendered hook) on a RENDERED a pull request controls:
no symbolic link or FIFO in it is followed or read, no content of a file fluidgen would not
write is printed, and a Secret's last-applied-configuration stays hidden (issue 24)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, run_cli, run_process

SPEC = str(EXAMPLES / "jindo-imagenet-oss.yaml")
TOKEN = "eyJhbGciOiJSUzI1NiJ9.RUNNER-CLUSTER-TOKEN"
KUBECONFIG = ("apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n"
              f"    token: {TOKEN}\n")


@pytest.fixture
def rendered(tmp_path: Path) -> Path:
    out = tmp_path / "rendered"
    assert run_cli("build", SPEC, "-o", str(out), "--write-secrets").code == 0
    (out / "secrets.yaml").unlink()
    return out


@pytest.fixture
def kubeconfig(tmp_path: Path) -> Path:
    path = tmp_path / "home" / ".kube" / "config"
    path.parent.mkdir(parents=True)
    path.write_text(KUBECONFIG)
    return path


@pytest.mark.parametrize("name", ["zz.yaml", "jindoruntime-imagenet.yaml", "kustomization.yaml",
                                  "kustomizeconfig.yaml", "secrets.sops.yaml"])
def test_a_link_in_rendered_is_never_followed(rendered: Path, kubeconfig: Path, name: str) -> None:
    link = rendered / name
    if link.exists():
        link.unlink()
    link.symlink_to(kubeconfig)
    run = run_cli("diff", SPEC, str(rendered))
    assert run.code == 1, run.err
    assert TOKEN not in run.out + run.err
    assert "is a symbolic link" in run.out + run.err


def test_rendered_itself_may_not_be_a_link(tmp_path: Path, kubeconfig: Path) -> None:
    for target in (kubeconfig, kubeconfig.parent):
        link = tmp_path / f"link-{target.name}"
        link.symlink_to(target)
        run = run_cli("diff", SPEC, str(link))
        assert run.code == 1 and "is a symbolic link" in run.err and TOKEN not in run.out + run.err


def test_a_fifo_in_rendered_is_never_read(rendered: Path) -> None:
    os.mkfifo(rendered / "pipe.yaml")
    run = run_process("diff", SPEC, str(rendered), timeout=60)
    assert run.code == 1 and "pipe.yaml: warning: is not a regular file; not read" in run.err


@pytest.mark.parametrize("name", ["zz.yaml", "jindoruntime-imagenet.yaml"])
def test_a_file_that_is_not_an_object_fluidgen_writes_is_not_printed(rendered: Path, name: str) -> None:
    (rendered / name).write_text(KUBECONFIG)
    run = run_cli("diff", SPEC, str(rendered))
    assert run.code == 1
    assert TOKEN not in run.out + run.err
    assert "not shown" in run.out


def test_a_single_rendered_file_shows_only_objects_fluidgen_writes(tmp_path: Path) -> None:
    file = tmp_path / "rendered.yaml"
    file.write_text(run_cli("build", SPEC).out + "---\n" + KUBECONFIG + "---\nplain: " + TOKEN + "\n")
    run = run_cli("diff", SPEC, str(file))
    assert run.code == 1 and TOKEN not in run.out + run.err
    assert "<not an object fluidgen writes; not shown>" in run.out


def test_a_kubectl_dump_never_shows_last_applied_secret_values(tmp_path: Path) -> None:
    built = list(yaml.safe_load_all(run_cli("build", SPEC).out))
    secret = next(d for d in built if d["kind"] == "Secret")
    secret["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(secret)}
    dump = tmp_path / "dump.yaml"
    dump.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": built}))
    run = run_cli("diff", SPEC, str(dump))
    values = list(secret["data"].values())
    assert run.code == 1
    assert not any(v in run.out + run.err for v in values)
    assert 'last-applied-configuration: "<redacted>"' in run.out


def test_plan_never_reads_a_link_in_rendered(rendered: Path, kubeconfig: Path) -> None:
    (rendered / "zz.yaml").symlink_to(kubeconfig)
    run = run_cli("plan", SPEC, "--against", str(rendered))
    assert "zz.yaml: warning: is a symbolic link" in run.err and TOKEN not in run.out + run.err


def test_the_rendered_hook_refuses_a_link(rendered: Path, kubeconfig: Path, tmp_path: Path) -> None:
    (rendered / "zz.yaml").symlink_to(kubeconfig)
    run = run_cli("diff", "--forbid-secret-values", SPEC, str(rendered))
    assert run.code == 1 and TOKEN not in run.out + run.err
    shutil.rmtree(rendered)


def test_a_fifo_as_rendered_is_refused_without_blocking(tmp_path: Path) -> None:
    """Found by the fuzz suite: --forbid-secret-values read a FIFO given as RENDERED."""
    os.mkfifo(tmp_path / "rendered.yaml")
    fifo = str(tmp_path / "rendered.yaml")
    for args in (["diff", "--forbid-secret-values", SPEC, fifo], ["diff", SPEC, fifo],
                 ["plan", SPEC, "--against", fifo]):
        run = run_process(*args, timeout=60)
        assert run.code == 1 and "is not a regular file" in run.err
