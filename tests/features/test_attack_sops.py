"""A planted `.sops.yaml` never decides what is encrypted or writes plaintext credentials
(issue 24), and every file SOPS writes stays readable by `fluidgen diff` (issue 25)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.io import sops
from tests.conftest import EXAMPLES, run_cli
from tests.features.test_examples import CREDS
from tests.features.test_gitops import sops_tools

SPEC = "jindo-imagenet-oss.yaml"


def age_recipient() -> tuple[str, Any]:
    _, pyrage = sops_tools()
    identity = pyrage.x25519.Identity.generate()  # type: ignore[attr-defined]
    return str(identity.to_public()), identity


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "work" / "repo"
    root.mkdir(parents=True)
    (root / ".git").mkdir()  # the repository root, as far as the config search is concerned
    shutil.copytree(EXAMPLES / "credentials", root / "credentials")
    shutil.copy(EXAMPLES / SPEC, root / "spec.yaml")
    return root


def build(repo: Path, *extra: str) -> Any:
    return run_cli("build", str(repo / "spec.yaml"), "-o", str(repo / "rendered"), *extra)


def config(path: Path, recipient: str, extra: str = "") -> Path:
    path.write_text(f"creation_rules:\n  - age: {recipient}\n{extra}")
    path.chmod(0o644)
    return path


def assert_nothing_written(repo: Path) -> None:
    rendered = repo / "rendered"
    written = "".join(p.read_text() for p in rendered.iterdir()) if rendered.exists() else ""
    assert not any(v in written for v in CREDS.values())
    assert not (rendered / "secrets.sops.yaml").exists()


def test_a_config_above_the_repository_root_is_never_used(repo: Path) -> None:
    recipient, _ = age_recipient()
    config(repo.parent / ".sops.yaml", recipient)
    config(repo.parent.parent / ".sops.yaml", recipient)
    result = build(repo)
    assert result.code == 1 and "--sops-age" in result.err, result.err
    assert_nothing_written(repo)


def test_the_config_at_the_repository_root_is_used_and_named_with_its_recipients(repo: Path) -> None:
    recipient, _ = age_recipient()
    used = config(repo / ".sops.yaml", recipient)
    result = build(repo)
    assert result.code == 0, result.err
    assert f"with the rules of {used} for: age {recipient}" in result.err


@pytest.mark.parametrize("how", ["group-writable", "world-writable", "symlink"])
def test_a_config_others_can_write_is_ignored_with_a_warning(repo: Path, tmp_path: Path, how: str) -> None:
    recipient, _ = age_recipient()
    if how == "symlink":
        target = config(tmp_path / "elsewhere.yaml", recipient)
        (repo / ".sops.yaml").symlink_to(target)
    else:
        config(repo / ".sops.yaml", recipient).chmod(0o664 if how == "group-writable" else 0o646)
    result = build(repo)
    assert result.code == 1, result.err
    assert f"warning: {repo / '.sops.yaml'}: ignored:" in result.err
    assert_nothing_written(repo)


def test_a_config_that_leaves_values_in_plain_text_writes_nothing(repo: Path) -> None:
    recipient, _ = age_recipient()
    config(repo / ".sops.yaml", recipient, "    unencrypted_regex: '.*'\n")
    result = build(repo)
    assert result.code == 1 and "nothing" not in result.out
    assert "encrypt data and stringData only" in result.err, result.err
    assert_nothing_written(repo)


@pytest.mark.parametrize("extra", ["", "    encrypted_regex: '^nothing$'\n", "    encrypted_regex: '.*'\n"])
def test_whatever_the_config_says_only_values_are_encrypted_and_diff_reads_the_result(
        repo: Path, extra: str) -> None:
    recipient, _ = age_recipient()
    config(repo / ".sops.yaml", recipient, extra)
    result = build(repo)
    assert result.code == 0, result.err
    sealed = list(yaml.safe_load_all((repo / "rendered" / "secrets.sops.yaml").read_text()))
    assert [(d["kind"], d["metadata"]["name"]) for d in sealed] == [("Secret", "mysecret")]
    assert all(v.startswith("ENC[") for v in sealed[0]["data"].values())
    same = run_cli("diff", str(repo / "spec.yaml"), str(repo / "rendered"))
    assert same.code == 0, same.out + same.err


def test_sops_age_alone_decides_the_recipients_over_a_planted_config(repo: Path) -> None:
    mine, _ = age_recipient()
    theirs, _ = age_recipient()
    config(repo / ".sops.yaml", theirs, "    unencrypted_regex: '.*'\n")
    result = build(repo, "--sops-age", mine)
    assert result.code == 0, result.err
    text = (repo / "rendered" / "secrets.sops.yaml").read_text()
    assert mine in text and theirs not in text
    assert f"with the --sops-age recipients for: age {mine}" in result.err


def test_sops_output_with_a_plain_value_is_never_written(repo: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A sops that echoes its input (or a rule that leaves values plain) is caught by the
    check on sops's output, not trusted."""
    fake = tmp_path / "fake-sops"
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.write(sys.stdin.read())\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(sops, "program", lambda: str(fake))
    recipient, _ = age_recipient()
    result = build(repo, "--sops-age", recipient)
    assert result.code == 1 and "is not safe to write" in result.err and "nothing was written" in result.err
    assert_nothing_written(repo)


@pytest.mark.parametrize(("doc", "why"), [
    ({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "YWJj"}, "sops": {}},
     "not encrypted"),
    ({"apiVersion": "v1", "kind": "ENC[x]", "metadata": {"name": "s"}, "data": {"a": "ENC[x]"}, "sops": {}},
     "kind is not a readable"),
    ({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "ENC[x]"}, "data": {"a": "ENC[x]"}, "sops": {}},
     "name is not readable"),
    ({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "ENC[x]"}}, "no sops metadata"),
    ({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "t"}, "data": {"a": "ENC[x]"}, "sops": {}},
     "does not hold the Secrets"),
    ({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "stringData": {"a": 5}, "sops": {}},
     "not encrypted"),
])
def test_sops_output_check_names_what_is_unsafe(doc: dict[str, Any], why: str) -> None:
    from fluidgen.base.diagnostics import FluidgenError

    with pytest.raises(FluidgenError) as caught:
        sops._check(yaml.safe_dump(doc), [("", "s")], "--sops-age")
    assert why in caught.value.diagnostics[0].message


def test_the_config_search_stops_at_the_repository_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "a" / "b").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (tmp_path / ".sops.yaml").write_text("creation_rules: []\n")
    (tmp_path / ".sops.yaml").chmod(0o600)
    assert sops.find_config([repo / "a" / "b"]) == (None, [])
    (repo / ".sops.yaml").write_text("creation_rules: []\n")
    (repo / ".sops.yaml").chmod(0o600)
    assert sops.find_config([repo / "a" / "b"]) == (repo / ".sops.yaml", [])
    outside = tmp_path / "plain" / "dir"
    outside.mkdir(parents=True)
    assert sops.find_config([outside]) == (None, [])  # not in a work tree: the folder itself only
    assert os.path.exists(tmp_path / ".sops.yaml")
