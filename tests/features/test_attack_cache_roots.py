"""The cache across checkouts: an entry that read inputs outside its build root (reached by a
relative reference from there) must never serve another root, whose same command line and
same relative references lead to that root's own files. Before, the second checkout was
served the first one's objects and the first one's Secret values."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from tests.conftest import run_process

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {{name: demo}}
source:
  - name: a
    uri: oss://bucket/shared/
    options: {{fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}}
    credentials: {{envFile: {env_file}}}
runtime: {{engine: alluxio, replicas: 1}}
"""


def checkout(top: Path, tenant: str, spec_dir: str, env_file: str) -> None:
    """One tenant's checkout: the same spec in every one, its own credentials."""
    (top / tenant / spec_dir).mkdir(parents=True, exist_ok=True)
    (top / tenant / "specs").mkdir(parents=True, exist_ok=True)
    (top / tenant / "work").mkdir(parents=True, exist_ok=True)
    (top / tenant / spec_dir / "s.yaml").write_text(SPEC.format(env_file=env_file))
    (top / tenant / "specs" / "creds.env").write_text(
        f"fs.oss.accessKeyId={tenant}-id\nfs.oss.accessKeySecret={tenant}-secret\n")


def encoded(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize("shape", ["spec-argument-outside", "envfile-outside-under-allow-list"])
def test_an_entry_reading_outside_its_root_never_serves_another_root(tmp_path: Path, shape: str) -> None:
    cache = tmp_path / "cache"
    top = tmp_path / "tenants"
    env: dict[str, str] = {}
    if shape == "spec-argument-outside":  # fluidgen build ../specs, from work/
        for tenant in ("a", "b"):
            checkout(top, tenant, "specs", "creds.env")
        args, where = ("build", "../specs"), "work"
    else:  # fluidgen build . in app/, whose envFile is ../specs/creds.env under the operator's allow list
        for tenant in ("a", "b"):
            checkout(top, tenant, "app", "../specs/creds.env")
        args, where, env = ("build", "."), "app", {"FLUIDGEN_ALLOW_READ": str(top)}
    first = run_process(*args, cwd=top / "a" / where, cache=cache, env=env)
    assert first.code == 0, first.err
    again = run_process(*args, cwd=top / "a" / where, cache=cache, env=env)
    assert again.how == "CACHED" and again.out == first.out  # its own root still hits
    other = run_process(*args, cwd=top / "b" / where, cache=cache, env=env)
    assert other.code == 0 and other.how == "COMPILED", other.err
    assert encoded("b-secret") in other.out and encoded("a-secret") not in other.out
