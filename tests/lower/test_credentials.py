"""lower/credentials.py: a `credentials:` block becomes a Secret plus the mount's encryptOptions.

What is held: the order in which the ways of giving a value win (envFile, fromFile, fromEnv,
inline: README "credentials"), a credential file's text with only its line end stripped, an
existingSecret read as it is (no Secret made), and every message the module writes: the empty
value, the bad envFile line named by number and never echoed, a key Kubernetes refuses in a
Secret (IsConfigMapKey: letters, digits, "-", "_", "."), a file that is not UTF-8, the inline
warning FG012, and a finding about an envFile key placed at that key's own line.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import run_cli

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo, namespace: ml}
source:
  - uri: https://example.com/dir/
    name: data
    options: %s
    credentials:
%s
runtime:
  engine: alluxio
  replicas: 1
  cache: [{medium: MEM, quota: 1Gi}]
"""


def write_spec(tmp_path: Path, credentials: dict[str, Any], options: dict[str, str] | None = None) -> Path:
    """A spec whose `credentials:` is on line 8, column 5, its first key on line 9, column 7."""
    block = yaml.safe_dump(credentials, sort_keys=False, default_flow_style=False)
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC % (yaml.safe_dump(options or {}, default_flow_style=True).strip(),
                            "\n".join("      " + line for line in block.splitlines())))
    return path


def build(path: Path, **env: str) -> tuple[list[dict[str, Any]], str]:
    result = run_cli("build", str(path), env=env)
    assert result.code == 0, result.err
    return list(yaml.safe_load_all(result.out)), result.err


def secret_values(docs: list[dict[str, Any]]) -> dict[str, str]:
    (secret,) = [d for d in docs if d["kind"] == "Secret"]
    return {k: base64.b64decode(v).decode("utf-8") for k, v in secret["data"].items()}


def test_later_ways_win_envfile_then_fromfile_then_fromenv_then_inline(tmp_path: Path) -> None:
    """Each key is given by one more way than the one before; the last way listed wins."""
    (tmp_path / "c.env").write_text("k.a=envfile\nk.b=envfile\nk.c=envfile\nk.d=envfile\n")
    for name in ("b", "c", "d"):
        (tmp_path / f"{name}.txt").write_text("file\r\n\n")  # the line end is not part of the value
    spec = write_spec(tmp_path, {"envFile": "c.env", "fromFile": {"k.b": "b.txt", "k.c": "c.txt", "k.d": "d.txt"},
                                 "fromEnv": {"k.c": "VAR_C", "k.d": "VAR_D"}, "inline": {"k.d": "inline"},
                                 "allowInline": True})
    docs, _ = build(spec, VAR_C="env", VAR_D="env")
    assert secret_values(docs) == {"k.a": "envfile", "k.b": "file", "k.c": "env", "k.d": "inline"}


def test_a_file_value_keeps_leading_space_and_inner_newlines_and_loses_only_trailing_ones(tmp_path: Path) -> None:
    (tmp_path / "key.pem").write_text("  line1\nline2\n\n")
    docs, _ = build(write_spec(tmp_path, {"fromFile": {"k.pem": "key.pem"}}))
    assert secret_values(docs) == {"k.pem": "  line1\nline2"}


def test_inline_values_draw_fg012_at_the_inline_key(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {"inline": {"k.a": "v"}, "allowInline": True})
    _, err = build(spec)
    assert (f"{spec}:9:7: warning [FG012]: source[0].credentials.inline: credential values are written inline in "
            "the spec; prefer fromEnv or fromFile so they stay out of version control") in err, err


def test_an_empty_value_is_an_error_naming_the_option_not_the_variable_value(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {"fromEnv": {"k.a": "VAR_A", "k.b": "VAR_B"}})
    result = run_cli("build", str(spec), env={"VAR_A": "", "VAR_B": "set"})
    assert result.code == 1 and result.out == ""
    assert f"{spec}:8:5: error: source[0].credentials: credential k.a is empty" in result.err, result.err
    assert "k.b is empty" not in result.err


def test_a_bad_envfile_line_is_named_by_number_and_never_echoed(tmp_path: Path) -> None:
    (tmp_path / "c.env").write_text("k.a=1\nhunter2-secret-line\n")
    result = run_cli("build", str(write_spec(tmp_path, {"envFile": "c.env"})))
    assert result.code == 1
    assert "source[0].credentials.envFile: c.env:2: expected KEY=VALUE" in result.err, result.err
    assert "hunter2" not in result.err


def test_an_envfile_key_kubernetes_refuses_in_a_secret_is_an_error(tmp_path: Path) -> None:
    """Kubernetes IsConfigMapKey (validation.go): [-._a-zA-Z0-9]+; a space is not allowed."""
    (tmp_path / "c.env").write_text("bad key=1\n")
    result = run_cli("build", str(write_spec(tmp_path, {"envFile": "c.env"})))
    assert result.code == 1
    assert 'source[0].credentials.envFile: c.env: key "bad key" is not a valid Secret key' in result.err, result.err


def test_a_credential_file_that_is_not_utf8_is_named_and_not_shown(tmp_path: Path) -> None:
    (tmp_path / "k.bin").write_bytes(b"\xffsecret\xfe")
    result = run_cli("build", str(write_spec(tmp_path, {"fromFile": {"k.a": "k.bin"}})))
    assert result.code == 1
    assert f'source[0].credentials.fromFile["k.a"]: credential file {tmp_path / "k.bin"} is not UTF-8 text' \
        in result.err, result.err
    assert "secret" not in result.err.replace("Secret", "").replace("credentials", "")


def test_a_finding_about_an_envfile_key_is_placed_at_that_keys_line(tmp_path: Path) -> None:
    """The key on line 3, indented by two, is the one an Alluxio check (FG123) names."""
    (tmp_path / "c.env").write_text("# comment\nk.other=s\n  fs.oss.accessKeyId=a\n")
    spec = write_spec(tmp_path, {"envFile": "c.env"}, {"fs.oss.accessKeyId": "plain"})
    result = run_cli("build", str(spec))
    assert f'{tmp_path / "c.env"}:3:3: warning [FG123]: source[0].credentials.envFile["fs.oss.accessKeyId"]' \
        in result.err, result.err


def test_an_existing_secret_is_referenced_key_by_key_and_no_secret_is_made(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {"existingSecret": {"name": "oss", "keys": {"k.b": "key-b", "k.a": "key-a"}}})
    docs, _ = build(spec)
    assert [d["kind"] for d in docs] == ["Dataset", "AlluxioRuntime"]
    assert docs[0]["spec"]["mounts"][0]["encryptOptions"] == [
        {"name": "k.a", "valueFrom": {"secretKeyRef": {"name": "oss", "key": "key-a"}}},
        {"name": "k.b", "valueFrom": {"secretKeyRef": {"name": "oss", "key": "key-b"}}}]
