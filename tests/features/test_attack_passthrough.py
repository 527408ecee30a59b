"""Argo CD pass-through attacks: a plain manifest beside the specs without metadata.namespace
lands in the Application's destination namespace (the plugin's --namespace), so one named
like a generated object shadows it there; it must be refused like an explicitly namespaced
one, not emitted beside it with exit 0."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, run_cli, run_process

PLAIN_SECRET = """\
apiVersion: v1
kind: Secret
metadata:
  name: mysecret
stringData:
  fs.oss.accessKeyId: not-the-generated-one
"""


def app(tmp_path: Path) -> Path:
    app_dir = tmp_path / "app"
    app_dir.mkdir()
    shutil.copytree(EXAMPLES / "credentials", app_dir / "credentials")
    spec = (EXAMPLES / "jindo-imagenet-oss.yaml").read_text()
    assert "  namespace: default\n" in spec
    (app_dir / "dataset.yaml").write_text(spec.replace("  namespace: default\n", "", 1))
    (app_dir / "plain.yaml").write_text(PLAIN_SECRET)
    return app_dir


def test_a_namespaceless_plain_manifest_shadowing_a_generated_secret_fails(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    result = run_cli("build", "--gitops", "argocd", "--namespace", "ml", str(app_dir), env={})
    assert result.code == 1 and result.out == ""
    assert "Secret ml/mysecret is both generated from a spec and in a plain manifest" in result.err


def test_a_namespaceless_plain_manifest_of_another_name_passes(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    (app_dir / "plain.yaml").write_text(PLAIN_SECRET.replace("name: mysecret", "name: extra"))
    result = run_cli("build", "--gitops", "argocd", "--namespace", "ml", str(app_dir), env={})
    assert result.code == 0, result.err
    assert "name: extra" in result.out and "passed through unchanged" in result.err


def test_one_object_in_two_plain_manifests_fails(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    extra = PLAIN_SECRET.replace("name: mysecret", "name: extra")
    (app_dir / "plain.yaml").write_text(extra)
    (app_dir / "again.yaml").write_text(extra.replace("metadata:\n", "metadata:\n  namespace: ml\n"))
    result = run_cli("build", "--gitops", "argocd", "--namespace", "ml", str(app_dir), env={})
    assert result.code == 1 and result.out == ""
    assert "Secret ml/extra is in more than one plain manifest beside the specs" in result.err


FROM_STDIN = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-stdin}\ndata: {a: b}\n"


@pytest.mark.parametrize("listed", ['specs: [dataset.yaml]\n    manifests: ["-"]', 'specs: [dataset.yaml, "-"]'])
def test_a_project_path_of_a_dash_never_reads_standard_input(tmp_path: Path, listed: str) -> None:
    """The plugin builds `.`, so a path "-" in fluidgen.yaml joined to the project's directory
    was "-" again, which the reader takes for standard input: a planted project file made the
    build read (and wait on) stdin and put what it read into Argo CD's output."""
    app_dir = app(tmp_path)
    (app_dir / "plain.yaml").unlink()
    (app_dir / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                           f"  prod:\n    {listed}\n")
    result = run_process("build", "--gitops", "argocd", "-n", "ml", ".", cwd=app_dir, stdin=FROM_STDIN, timeout=60)
    assert "from-stdin" not in result.out and result.code == 1, result.err
    assert "cannot read: No such file or directory" in result.err and "Traceback" not in result.err


def test_a_file_or_object_name_with_control_characters_stays_on_its_own_diagnostic_line(tmp_path: Path) -> None:
    """A planted file name with a newline, or an object name with a terminal escape, was printed
    raw: a forged "error" line in Argo CD's log, an escape sequence on a terminal."""
    app_dir = app(tmp_path)
    odd = PLAIN_SECRET.replace("name: mysecret", 'name: "a\\e[2Jb\\nforged: error"')
    (app_dir / "plain.yaml").write_text(odd)
    (app_dir / "x\nforged.yaml: error: y\x1b[2J.yaml").write_text(odd)
    result = run_cli("build", "--gitops", "argocd", "--namespace", "ml", str(app_dir), env={})
    assert result.code == 1 and result.out == ""
    assert "\x1b" not in result.err and not any(line.startswith("forged") for line in result.err.splitlines())
    assert "x\\x0aforged.yaml: error: y\\x1b[2J.yaml: info: passed through unchanged" in result.err
    assert "Secret ml/a\\x1b[2Jb\\x0aforged: error is in more than one plain manifest" in result.err
