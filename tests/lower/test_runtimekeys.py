"""lower/runtimekeys.py: the runtime settings with a spec key of their own (KEYS).

What is held, against Fluid's code at both versions: JindoRuntime has one `networkmode` (so
spelt) that its transformNetworkMode reads (api/v1alpha1/jindoruntime_types.go,
pkg/ddc/jindocache/transform.go), where Alluxio has one per master and worker; ThinRuntime has no
master, so `masters:` is an error naming the engine and version; JuiceFS runs no master (no code
of pkg/ddc/juicefs reads Spec.Master), so `masters:` is refused with that reason and
`networkMode:` reaches only the worker; autoSync is on unless said false (common.go
AutoSyncEnabled); and `fluidgen import` reads a key back only when all its fields agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.engines.engine_table import ENGINES
from fluidgen.lower.runtimekeys import imported
from tests.conftest import run_cli
from tests.harness.fluid_src import TREES, need_tree

SOURCES = {
    "alluxio": '  - {uri: "https://example.com/d/", name: d}\n',
    "thin": '  - {uri: "s3://bucket/d", name: d}\n',
    "jindo": "  - uri: oss://bucket/dir/\n    options: {fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}\n"
             "    credentials: {existingSecret: {name: oss, keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]}}\n",
    "juicefs": "  - uri: juicefs:///demo\n    options: {bucket: https://b.example.com, storage: s3}\n"
               "    credentials: {existingSecret: {name: jfs, keys: [metaurl, access-key, secret-key]}}\n",
}
SECTIONS = {"thin": "  thin:\n    fileSystemType: fuse.s3fs\n    profile: {fuse: {image: example.com/s3fs}}\n"}


def write_spec(tmp_path: Path, engine: str, version: str, keys: str) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(f"apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nfluid: {version}\n"
                    f"metadata: {{name: demo, namespace: ml}}\nsource:\n{SOURCES[engine]}"
                    f"runtime:\n  engine: {engine}\n  replicas: 1\n  cache: [{{medium: MEM, quota: 1Gi}}]\n"
                    f"{keys}{SECTIONS.get(engine, '')}")
    return path


def runtime_spec(path: Path) -> dict[str, Any]:
    result = run_cli("build", str(path))
    assert result.code == 0, result.err
    spec: dict[str, Any] = next(d for d in yaml.safe_load_all(result.out) if d["kind"].endswith("Runtime"))["spec"]
    return spec


@pytest.mark.parametrize("version", sorted(TREES))
def test_network_mode_is_jindos_one_lowercase_field_and_alluxios_master_and_worker(tmp_path: Path,
                                                                                 version: str) -> None:
    root = need_tree(version)
    assert 'NetworkMode NetworkMode `json:"networkmode,omitempty"`' in \
        (root / "api/v1alpha1/jindoruntime_types.go").read_text()
    assert "switch runtime.Spec.NetworkMode {" in (root / "pkg/ddc/jindocache/transform.go").read_text()
    jindo = runtime_spec(write_spec(tmp_path, "jindo", version, "  networkMode: ContainerNetwork\n"))
    assert jindo["networkmode"] == "ContainerNetwork"
    assert "networkMode" not in yaml.safe_dump(jindo)
    alluxio = runtime_spec(write_spec(tmp_path, "alluxio", version, "  networkMode: ContainerNetwork\n"))
    assert alluxio["master"]["networkMode"] == alluxio["worker"]["networkMode"] == "ContainerNetwork"
    assert "networkMode" not in alluxio.get("fuse", {})  # fuse.networkMode is a key of its own


@pytest.mark.parametrize("version", sorted(TREES))
def test_masters_on_a_runtime_without_a_master_is_an_error_naming_engine_and_version(tmp_path: Path,
                                                                                     version: str) -> None:
    assert 'json:"master' not in (need_tree(version) / "api/v1alpha1/thinruntime_types.go").read_text()
    spec = write_spec(tmp_path, "thin", version, "  masters: 3\n")
    result = run_cli("build", str(spec))
    assert result.code == 1
    assert f"{spec}:11:3: error: runtime.masters: ThinRuntime has no master.replicas in Fluid {version}" \
        in result.err.splitlines(), result.err


@pytest.mark.parametrize("version", sorted(TREES))
def test_juicefs_runs_no_master_so_masters_is_refused_and_network_mode_reaches_the_worker(tmp_path: Path,
                                                                                          version: str) -> None:
    package = need_tree(version) / "pkg/ddc/juicefs"
    readers = [f.name for f in package.glob("*.go") if not f.name.endswith("_test.go") and
               "Spec.Master." in f.read_text()]
    assert readers == []
    spec = write_spec(tmp_path, "juicefs", version, "  masters: 3\n")
    result = run_cli("build", str(spec))
    assert result.code == 1
    assert "runtime.masters: JuiceFSRuntime ignores master: JuiceFS runs no master: no code reads any master " \
           "field; drop it" in result.err, result.err
    juicefs = runtime_spec(write_spec(tmp_path, "juicefs", version, "  networkMode: HostNetwork\n"))
    assert juicefs["worker"]["networkMode"] == "HostNetwork"
    assert "networkMode" not in juicefs.get("master", {})


def test_metadata_sync_false_turns_off_the_auto_sync_fluid_defaults_on(tmp_path: Path) -> None:
    assert "return msb.AutoSync == nil || *msb.AutoSync" in \
        (need_tree("v1.0.8") / "api/v1alpha1/common.go").read_text()
    spec = runtime_spec(write_spec(tmp_path, "alluxio", "v1.0.8", "  metadataSync: false\n"))
    assert spec["management"] == {"metadataSyncPolicy": {"autoSync": False}}
    assert "management" not in runtime_spec(write_spec(tmp_path, "alluxio", "v1.0.8", ""))


def test_import_reads_a_key_back_only_when_all_its_fields_agree() -> None:
    alluxio = ENGINES["alluxio"]
    agreeing = {"master": {"replicas": 3, "networkMode": "HostNetwork"}, "worker": {"networkMode": "HostNetwork"},
                "fuse": {"cleanPolicy": "OnDemand"}}
    assert imported("v1.0.8", alluxio, agreeing) == {"masters": 3, "networkMode": "HostNetwork",
                                                      "fuse": {"cleanPolicy": "OnDemand"}}
    differing = {"master": {"networkMode": "HostNetwork"}, "worker": {"networkMode": "ContainerNetwork"}}
    assert imported("v1.0.8", alluxio, differing) == {}
    half = {"master": {"networkMode": "HostNetwork"}}
    assert imported("v1.0.8", alluxio, half) == {}
