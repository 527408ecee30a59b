"""`fluidgen init` writes starters that build once filled in; `fluidgen explain` describes fields."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.engines.engine_table import ENGINES
from tests.conftest import run_cli

FILL = {"<GPU_MODEL>": "Tesla-V100-SXM2-16GB", "<BUCKET>": "bucket", "<PATH>": "data",
        "<OSS_ENDPOINT>": "oss-cn-hangzhou.aliyuncs.com", "<OBJECT_STORE_BUCKET_URL>": "https://b.s3.amazonaws.com",
        "<STORAGE_TYPE>": "s3", "<FILE_SYSTEM_ID>": "0a1b2c", "<REGION>": "cn-hangzhou",
        "<SCHEME>": "minio", "<LOCATION>": "bucket/data", "<FILE_SYSTEM_TYPE>": "fuse",
        "<FUSE_IMAGE>": "registry.example.com/minio-fuse", "<FUSE_IMAGE_TAG>": "v1",
        "<CACHE_RUNTIME_CLASS>": "curvine-demo"}


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_init_starter_builds_once_filled_in(engine: str, tmp_path: Path, crds: dict[str, Any]) -> None:
    starter = run_cli("init", "--engine", engine, "--name", "demo")
    assert starter.code == 0, starter.err
    spec = tmp_path / "spec.yaml"
    spec.write_text(starter.out)
    unfilled = run_cli("lint", str(spec), env={})
    if "<" in starter.out.split("\n", 4)[4]:  # placeholders block the build, each named
        assert unfilled.code == 1 and ("[FG102]" in unfilled.err or '"<' in unfilled.err)
    text = starter.out
    for placeholder, value in FILL.items():
        text = text.replace(placeholder, value)
    assert not re.search(r"<[A-Z_]+>", text.split("\n", 4)[4])
    spec.write_text(text)
    env = {name: "value-123" for name in re.findall(r":\s([A-Z][A-Z0-9_]+)$", text, re.MULTILINE)}
    built = run_cli("build", str(spec), env=env)
    assert built.code == 0, built.err
    version = re.search(r"^fluid: (\S+)", text, re.MULTILINE).group(1)  # type: ignore[union-attr]
    for obj in yaml.safe_load_all(built.out):
        if obj["apiVersion"].startswith("data.fluid.io"):
            assert crds[version].check(obj) == []


def test_init_for_a_reference_dataset_builds_as_is(tmp_path: Path, crds: dict[str, Any]) -> None:
    starter = run_cli("init", "--engine", "alluxio", "--source", "dataset://team-a/imagenet", "--name", "view")
    assert starter.code == 0, starter.err
    assert "runtime: {engine: thin}" in starter.out and "replicas" not in starter.out
    spec = tmp_path / "spec.yaml"
    spec.write_text(starter.out.replace("<GPU_MODEL>", "x"))
    built = run_cli("build", str(spec), env={})
    assert built.code == 0, built.err
    kinds = [(o["kind"], o["spec"]) for o in yaml.safe_load_all(built.out)]
    assert kinds[-1] == ("ThinRuntime", {})
    for obj in yaml.safe_load_all(built.out):
        assert crds["v1.0.8"].check(obj) == []


def test_init_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "spec.yaml"
    assert run_cli("init", "-o", str(target)).code == 0
    again = run_cli("init", "-o", str(target))
    assert again.code == 2 and "not overwriting" in again.err


def test_explain_describes_a_field_and_its_children() -> None:
    result = run_cli("explain", "runtime.cache")
    assert result.code == 0
    assert "TYPE:  list of CacheTier" in result.out
    assert 'medium <"MEM" | "SSD" | "HDD"> (required)' in result.out
    quota = run_cli("explain", "runtime.cache[0].quota")
    assert "TYPE:  integer or string or list of integer or string" in quota.out


def test_explain_suggests_near_misses() -> None:
    result = run_cli("explain", "runtime.replcas")
    assert result.code == 2 and 'did you mean "replicas"' in result.err


def test_init_specs_refer_to_a_schema_file_fluidgen_schema_writes(tmp_path: Path) -> None:
    from fluidgen.spec.specschema import SCHEMA_FILE, spec_schema_text

    starter = run_cli("init", "--engine", "alluxio")
    assert starter.code == 0
    assert starter.out.splitlines()[0] == f"# yaml-language-server: $schema={SCHEMA_FILE}"
    assert "<ORG>" not in starter.out and "<org>" not in starter.out
    target = tmp_path / SCHEMA_FILE
    for _ in range(2):  # writes, then replaces its own file
        written = run_cli("schema", "-o", str(target))
        assert written.code == 0 and written.out == "", written.err
        assert target.read_text() == spec_schema_text()


def test_schema_output_never_writes_through_a_link_or_over_a_foreign_file(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (tmp_path / "link.json").symlink_to(victim)
    foreign = tmp_path / "mine.json"
    foreign.write_text("{}\n")
    for path in (tmp_path / "link.json", foreign):
        result = run_cli("schema", "-o", str(path))
        assert result.code == 1 and "fluidgen: error:" in result.err
    assert victim.read_text() == "keep me\n" and foreign.read_text() == "{}\n"
