"""SOPS for `build -o`: which `.sops.yaml` may decide (none that is a FIFO, a directory,
another user's or writable by others; the search goes on above one it ignores), how sops is
run (plaintext on stdin only, always `--encrypted-regex ^(data|stringData)$`, with --sops-age a
config written from the flags alone), and what the user is told when it fails. A stand-in sops
records how it was called; the real one is exercised in tests/features/test_attack_sops.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.io import sops

PLAIN = "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ml}\nstringData: {key: hunter2-plain}\n"
SEALED = ("apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ml}\nstringData: {key: 'ENC[AES256_GCM,x]'}\n"
          "sops:\n  age: [{recipient: age1zzz}, {recipient: age1aaa}]\n"
          "  key_groups: [{pgp: [{fp: F00D}], kms: [{arn: 'arn:aws:kms:k'}]}]\n")


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "app" / "rendered").mkdir(parents=True)
    good = repo / ".sops.yaml"
    good.write_text("creation_rules: []\n")
    good.chmod(0o644)
    return repo


@pytest.mark.parametrize(("plant", "why"), [
    ("fifo", "not a regular file"),
    ("directory", "not a regular file"),
    ("group-writable", "writable by others (mode 0664); chmod go-w {path} to use it"),
    ("another user's", "owned by another user; a config decides who can read the Secrets"),
])
def test_an_ignored_config_is_named_and_the_search_goes_on_up(tmp_path: Path, plant: str, why: str) -> None:
    repo = _repo(tmp_path)
    planted = repo / "app" / ".sops.yaml"
    if plant == "fifo":
        os.mkfifo(planted)
    elif plant == "directory":
        planted.mkdir()
    else:
        planted.write_text("creation_rules: []\n")
        planted.chmod(0o664 if plant == "group-writable" else 0o644)
        if plant == "another user's":
            if os.getuid() != 0:
                pytest.skip("giving a file to another user needs root")
            os.chown(planted, 4242, 4242)
    assert sops.find_config([repo / "app" / "rendered"]) == \
        (repo / ".sops.yaml", [f"{planted}: ignored: {why.format(path=planted)}"])


def test_the_first_start_with_a_config_wins(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    spec_dir = repo / "specs"
    spec_dir.mkdir()
    (spec_dir / ".sops.yaml").write_text("creation_rules: []\n")
    (spec_dir / ".sops.yaml").chmod(0o600)
    assert sops.find_config([spec_dir, repo / "app" / "rendered"]) == (spec_dir / ".sops.yaml", [])
    assert sops.find_config([repo / "app" / "rendered", spec_dir]) == (repo / ".sops.yaml", [])


@pytest.fixture
def fake_sops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A sops that records its argv, its working directory, the config it was given and how
    much came on stdin, and answers SEALED (or fails as $FAKE_SOPS_FAIL says)."""
    log = tmp_path / "sops-call.json"
    fake = tmp_path / "bin" / "sops"
    fake.parent.mkdir()
    fake.write_text(f"#!{sys.executable}\n"
                    "import json, os, sys\n"
                    "args = sys.argv[1:]\n"
                    "config = open(args[args.index('--config') + 1]).read()\n"
                    f"json.dump({{'argv': args, 'cwd': os.getcwd(), 'config': config, 'stdin': sys.stdin.read()}}, "
                    f"open({str(log)!r}, 'w'))\n"
                    "if os.environ.get('FAKE_SOPS_FAIL'):\n"
                    "    sys.stderr.write(os.environ['FAKE_SOPS_FAIL']); sys.exit(1)\n"
                    f"sys.stdout.write({SEALED!r})\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sops, "program", lambda: str(fake))
    return log


def test_sops_age_runs_sops_with_a_config_written_from_the_flags_and_plaintext_on_stdin(
        tmp_path: Path, fake_sops: Path) -> None:
    planted = _repo(tmp_path) / ".sops.yaml"
    target = tmp_path / "repo" / "app" / "rendered" / "secrets.sops.yaml"
    sealed, line = sops.encrypt(PLAIN, target, ("age1aaa", "age1bbb"), planted, [("ml", "s")])
    call = json.loads(fake_sops.read_text())
    config = call["argv"][call["argv"].index("--config") + 1]
    assert call["argv"] == ["--config", config, "encrypt", "--encrypted-regex", "^(data|stringData)$",
                            "--input-type", "yaml", "--output-type", "yaml", "--filename-override", str(target)]
    assert config != str(planted) and call["cwd"] == str(Path(config).parent)
    assert call["config"] == "creation_rules:\n  - age: 'age1aaa,age1bbb'\n    encrypted_regex: '^(data|stringData)$'\n"
    assert call["stdin"] == PLAIN and not os.path.exists(config)  # the private config is gone afterwards
    assert sealed == SEALED
    assert line == ("fluidgen: Secrets encrypted by sops with the --sops-age recipients for: age age1aaa, "
                    "age age1zzz, kms arn:aws:kms:k, pgp F00D\n")


def test_a_found_config_is_given_to_sops_and_named(tmp_path: Path, fake_sops: Path) -> None:
    config = _repo(tmp_path) / ".sops.yaml"
    _, line = sops.encrypt(PLAIN, tmp_path / "out.yaml", (), config, [("ml", "s")])
    call = json.loads(fake_sops.read_text())
    assert call["argv"][:5] == ["--config", str(config), "encrypt", "--encrypted-regex", "^(data|stringData)$"]
    assert call["cwd"] == str(config.parent)
    assert line.startswith(f"fluidgen: Secrets encrypted by sops with the rules of {config} for: age age1aaa")


@pytest.mark.parametrize(("stderr", "expected"), [
    ("line one\nline two\nline three\n[warning] a key is deprecated\n\nline four\n",
     "sops could not encrypt the Secrets with --sops-age: line two; line three; line four"),
    ("", "sops could not encrypt the Secrets with --sops-age: exit status 1"),
    ("error: cannot use more than one of encrypted_regex, unencrypted_regex\n",
     "sops could not encrypt the Secrets with --sops-age: error: cannot use more than one of encrypted_regex, "
     "unencrypted_regex; fluidgen has sops encrypt data and stringData only (^(data|stringData)$), so kind and "
     "metadata stay readable: remove the rule's own encrypted/unencrypted key settings"),
])
def test_a_sops_failure_says_its_last_lines(tmp_path: Path, fake_sops: Path, monkeypatch: pytest.MonkeyPatch,
                                            stderr: str, expected: str) -> None:
    monkeypatch.setenv("FAKE_SOPS_FAIL", stderr or " ")
    with pytest.raises(FluidgenError) as caught:
        sops.encrypt(PLAIN, tmp_path / "out.yaml", ("age1aaa",), None, [("ml", "s")])
    message = caught.value.diagnostics[0].message
    assert message == expected and "hunter2-plain" not in message


def test_without_recipients_or_sops_nothing_runs_and_the_way_out_is_named(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(FluidgenError) as none:
        sops.encrypt(PLAIN, tmp_path / "out.yaml", (), None, [("ml", "s")])
    assert none.value.diagnostics[0].message == \
        "give --sops-age RECIPIENT or put a .sops.yaml above the output directory"
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    with pytest.raises(FluidgenError) as missing:
        sops.program()
    assert missing.value.diagnostics[0].message == \
        "the sops program is not installed; pip install 'fluidgen[sops]', or put sops on PATH"


def test_sops_beside_the_interpreter_wins_over_path_and_a_hung_sops_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in ("venv", "path"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "sops").write_text("#!/bin/sh\n")
        (tmp_path / folder / "sops").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "venv" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    assert sops.program() == str(tmp_path / "venv" / "sops")

    def hang(*args: object, **kwargs: object) -> None:
        raise subprocess.TimeoutExpired("sops", sops.TIMEOUT_S)

    monkeypatch.setattr(subprocess, "run", hang)
    with pytest.raises(FluidgenError) as caught:
        sops.encrypt(PLAIN, tmp_path / "out.yaml", ("age1aaa",), None, [("ml", "s")])
    assert caught.value.diagnostics[0].message == "sops did not finish within 60 s"
