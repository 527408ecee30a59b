"""Credential values appear only in Secret data on stdout, never anywhere else (issue: leaks)."""

from __future__ import annotations

import base64
import hashlib
import marshal
import os
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, run_cli, run_process
from tests.features.test_examples import CREDS

VALUES = [*CREDS.values(), *(base64.b64encode(v.encode()).decode() for v in CREDS.values())]
@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "app"
    shutil.copytree(EXAMPLES / "credentials", root / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", root / "spec.yaml")
    monkeypatch.chdir(root)
    return root


def _outside_secret_data(text: str) -> str:
    """Everything of a multi-document output except the data of Secrets."""
    docs = list(yaml.safe_load_all(text))
    return yaml.safe_dump_all([{k: v for k, v in d.items() if not (d["kind"] == "Secret" and k == "data")}
                               for d in docs])


def test_user_text_cannot_pull_a_credential_out_of_the_cache(app: Path, tmp_path: Path) -> None:
    spec = app / "spec.yaml"
    spec.write_text(spec.read_text().replace("name: imagenet\n", "name: imagenet\n  annotations: "
                                             "{note: FLUIDGENCACHEDSECRET0X, slot: fluidgen-slot-0}\n", 1))
    cache = tmp_path / "cache"
    first = run_process("build", "spec.yaml", cwd=app, cache=cache)
    second = run_process("build", "spec.yaml", cwd=app, cache=cache)
    assert first.code == second.code == 0 and second.how == "CACHED"
    assert first.out == second.out
    for value in VALUES:
        assert value not in _outside_secret_data(second.out)


def test_diff_shows_no_value_of_json_or_unreadable_committed_files(app: Path) -> None:
    built = run_cli("build", "spec.yaml", "--format", "json", env={})
    (app / "rendered.yaml").write_text(built.out)  # a kubectl List, as --format json writes it
    as_json = run_cli("diff", "spec.yaml", "rendered.yaml", env={})
    (app / "broken.yaml").write_text(f"data: [{CREDS['fs.oss.accessKeySecret']}\n  : : oops\n")
    unreadable = run_cli("diff", "spec.yaml", "broken.yaml", env={})
    assert unreadable.code == 1 and "does not read as YAML" in unreadable.out
    for result in (as_json, unreadable):
        for value in VALUES:
            assert value not in result.out + result.err


@pytest.mark.parametrize("field", ["envFile", "scriptFile", "profile"])
def test_files_outside_the_spec_tree_are_refused(app: Path, tmp_path: Path, field: str) -> None:
    other = tmp_path / "other-app"
    other.mkdir()
    (other / "prod.env").write_text("fs.oss.accessKeyId=OTHERAPPKEY\nfs.oss.accessKeySecret=OTHERAPPSECRET\n")
    (app / "link.env").symlink_to(other / "prod.env")  # a link inside, pointing outside
    spec = app / "spec.yaml"
    text = spec.read_text()
    if field == "envFile":
        text = text.replace("credentials/imagenet-oss.env", "../other-app/prod.env")
    elif field == "scriptFile":
        text += "dataflow:\n  - process: {mountPath: /data, image: busybox, scriptFile: ../other-app/prod.env}\n"
    else:
        text = text.replace("  replicas: 4", "  replicas: 4\n  profile: ../other-app/prod.env")
    spec.write_text(text)
    result = run_cli("build", "spec.yaml", env={})
    assert result.code == 1 and "outside the spec's directory" in result.err and "--allow-read" in result.err
    assert "OTHERAPP" not in result.out + result.err
    linked = spec.read_text().replace("../other-app/prod.env", "./link.env")
    spec.write_text(linked)
    assert "outside the spec's directory" in run_cli("build", "spec.yaml", env={}).err
    if field == "envFile":
        allowed = run_cli("build", "spec.yaml", "--allow-read", str(other), env={})
        assert allowed.code == 0, allowed.err


def test_validate_never_echoes_a_secret_value(tmp_path: Path) -> None:
    manifest = tmp_path / "secret.yaml"
    manifest.write_text("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  key: NOT*BASE64-TopSecret\n"
                        "  other: 12345\n")
    result = run_cli("validate", str(manifest), env={})
    assert result.code == 1 and "base64" in result.err
    assert "TopSecret" not in result.err and "12345" not in result.err


@pytest.mark.parametrize("mode", [0o777, 0o775])
def test_a_cache_others_can_write_is_never_used(app: Path, tmp_path: Path, mode: int) -> None:
    cache = tmp_path / "shared-cache"
    cache.mkdir()
    os.chmod(cache, mode)
    first = run_process("build", "spec.yaml", cwd=app, cache=cache)
    assert first.code == 0 and list(cache.iterdir()) == []  # nothing written into it
    second = run_process("build", "spec.yaml", cwd=app, cache=cache)
    assert second.how == "COMPILED"


def test_an_injected_entry_is_not_served(app: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert run_process("build", "spec.yaml", cwd=app, cache=cache).code == 0
    entry = next(cache.glob("*.entry"))
    magic, _old, payload = entry.read_bytes().split(b"\n", 2)
    data = marshal.loads(payload)
    data["parts"] = ["apiVersion: v1\nkind: ConfigMap\nmetadata: {name: injected}\n"]
    data["slots"] = []
    payload = marshal.dumps(data)  # with a matching digest: only the entry's mode keeps it out
    entry.write_bytes(b"\n".join([magic, hashlib.sha256(payload).hexdigest().encode(), payload]))
    os.chmod(entry, 0o666)  # a planted entry others can write
    served = run_process("build", "spec.yaml", cwd=app, cache=cache)
    assert served.how == "COMPILED" and "injected" not in served.out


def test_credential_values_never_reach_the_cache_or_stderr(app: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for _ in range(2):
        result = run_process("build", "spec.yaml", cwd=app, cache=cache)
        assert result.code == 0
        for value in VALUES:
            assert value not in result.err
    blob = b"".join(p.read_bytes() for p in cache.iterdir())
    for value in VALUES:
        assert value.encode() not in blob


def test_secret_values_in_staged_files_fail_both_hooks(app: Path) -> None:
    assert run_cli("build", "spec.yaml", "-o", "rendered", "--write-secrets", env={}).code == 0
    leaked = app / "leaked.yaml"
    leaked.write_text(run_cli("build", "spec.yaml", env={}).out)
    hook = run_cli("validate", "--lint", "--specs-only", "--forbid-secret-values", "spec.yaml", "leaked.yaml", env={})
    assert hook.code == 1 and "leaked.yaml" in hook.err and "holds credential values" in hook.err
    rendered = run_cli("diff", "--forbid-secret-values", "spec.yaml", "leaked.yaml", env={})
    assert rendered.code == 1 and "holds credential values" in rendered.err
    for value in VALUES:
        assert value not in hook.err + rendered.err + rendered.out


NUMERIC_SECRET = "987654321"
DATASET_WITH_NUMERIC_SECRET = f"""apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: imagenet, namespace: default}}
spec:
  mounts:
    - mountPoint: oss://bucket/imagenet/
      name: imagenet
      options: {{fs.oss.endpoint: oss-cn-shanghai.aliyuncs.com, fs.oss.accessKeyId: {NUMERIC_SECRET}1,
                fs.oss.accessKeySecret: {NUMERIC_SECRET}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {{name: imagenet, namespace: default}}
spec:
  replicas: 1
"""


@pytest.mark.parametrize("command", ["validate", "import", "build", "lint"])
@pytest.mark.parametrize("form", ["spec-option", "spec-inline", "manifest"])
def test_a_numeric_credential_is_never_echoed_in_the_quote_hint(tmp_path: Path, command: str, form: str) -> None:
    path = tmp_path / "input.yaml"
    if form == "manifest":
        path.write_text(DATASET_WITH_NUMERIC_SECRET)
    else:
        spec = (EXAMPLES / "jindo-imagenet-oss.yaml").read_text()
        line = (f"      fs.oss.accessKeySecret: {NUMERIC_SECRET}\n" if form == "spec-option" else "")
        spec = spec.replace("      fs.oss.endpoint: oss-cn-shanghai-internal.aliyuncs.com\n",
                            "      fs.oss.endpoint: oss-cn-shanghai-internal.aliyuncs.com\n" + line)
        if form == "spec-inline":
            spec = spec.replace("      envFile: credentials/imagenet-oss.env",
                                f"      inline: {{fs.oss.accessKeyId: abc, fs.oss.accessKeySecret: {NUMERIC_SECRET}}}")
        path.write_text(spec)
    run = run_cli(command, str(path), env={"FLUIDGEN_NO_CACHE": "1"})
    assert NUMERIC_SECRET not in run.err + (run.out if command != "build" else ""), run.err
    assert "Traceback" not in run.err
