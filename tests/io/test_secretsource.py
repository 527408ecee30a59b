"""Credential values, read one way for the build and the cache: a value file loses only its
trailing newline, an env file is KEY=VALUE lines with malformed ones named by number, and a
recipe that cannot be read now (missing, a FIFO, a malformed env file) has no value."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fluidgen.io.secretsource import parse_env_file, read_value_file, resolve


def test_a_value_file_loses_its_trailing_newlines_only(tmp_path: Path) -> None:
    value = tmp_path / "key"
    value.write_bytes(b"  s3cr=t \t\r\n\n")
    assert read_value_file(str(value)) == "  s3cr=t \t"
    value.write_bytes("pässwörd".encode())
    assert read_value_file(str(value)) == "pässwörd"


@pytest.mark.parametrize("kind", ["fifo", "directory", "link to a device"])
def test_a_value_file_that_is_not_regular_is_an_oserror_naming_only_the_path(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "key"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/urandom")
    with pytest.raises(OSError) as caught:
        read_value_file(str(path))
    assert str(caught.value) == f"{path}: not a regular file within the size limit"


def test_env_file_lines_comments_quotes_and_equals_signs() -> None:
    text = ("# a comment\n\n  ID = abc  \nKEY=\"quoted value\"\nSINGLE='x'\nHALF='x\"\nB64=YWJj==\n"
            "   # indented comment\nEMPTY=\nDUP=first\nDUP=later\n")
    values, bad = parse_env_file(text)
    assert values == {"ID": "abc", "DUP": "later", "KEY": "quoted value", "SINGLE": "x", "HALF": "'x\"",
                      "B64": "YWJj==", "EMPTY": ""}
    assert bad == []


def test_malformed_env_lines_are_named_by_number_never_by_content() -> None:
    values, bad = parse_env_file("GOOD=1\nhunter2\n=orphan-secret\n  =  \nexport X\n")
    assert values == {"GOOD": "1"}
    assert bad == [2, 3, 4, 5]


def test_resolve_reads_each_recipe_from_its_own_source(tmp_path: Path) -> None:
    (tmp_path / "key").write_text("from-file\n")
    (tmp_path / "a.env").write_text("ID=from-env-file\n")
    env = {"OSS_KEY": "from-mapping"}
    assert resolve(("env", "OSS_KEY"), env) == "from-mapping"
    assert resolve(("env", "UNSET"), env) is None
    assert resolve(("file", str(tmp_path / "key")), env) == "from-file"
    assert resolve(("envfile", str(tmp_path / "a.env"), "ID"), env) == "from-env-file"
    assert resolve(("envfile", str(tmp_path / "a.env"), "OTHER"), env) is None
    assert resolve(("inline",), env) is None


@pytest.mark.parametrize("broken", ["missing", "fifo", "not utf-8", "malformed line"])
def test_resolve_has_no_value_for_what_cannot_be_read_now(tmp_path: Path, broken: str) -> None:
    """A miss for the cache, never a hang, a traceback or a half-read env file."""
    path = tmp_path / "a.env"
    if broken == "fifo":
        os.mkfifo(path)
    elif broken == "not utf-8":
        path.write_bytes(b"ID=\xff\xfe\n")
    elif broken == "malformed line":
        path.write_text("ID=value\nnot a line\n")
    assert resolve(("envfile", str(path), "ID"), {}) is None
    if broken != "malformed line":  # a value file is its whole content, lines or not
        assert resolve(("file", str(path)), {}) is None
