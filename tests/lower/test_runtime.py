"""lower/runtime.py: the runtime object (defaults < profile < spec < runtime keys < overrides) and
the checks of its cache tiers.

What is held: a tier's quotas are one per path or one for all, the rule of Fluid's
convertToTieredstoreInfo (pkg/ddc/base/runtime.go: "length of quotaList must be consistent with
length of paths"; a single quota is divided equally), with the module's message at the quota; a
disk tier without a path is refused at the tier; an unknown bundled profile is an error at
runtime.profile with the closest name; an override wins over the spec key that set the same
field; a finding in a generated tier level is placed at the spec's cache entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import run_cli
from tests.harness.fluid_src import TREES, need_tree

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
fluid: %s
metadata: {name: demo, namespace: ml}
source:
  - {uri: "https://example.com/d/", name: d}
runtime:
  engine: alluxio
  replicas: 1
"""


def write_spec(tmp_path: Path, tail: str, version: str = "v1.0.8") -> Path:
    """SPEC (9 lines), then `tail` from line 10."""
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC % version + tail)
    return path


def run(path: Path) -> tuple[int, str, list[dict[str, Any]]]:
    result = run_cli("build", str(path))
    return result.code, result.err, list(yaml.safe_load_all(result.out)) if result.code == 0 else []


@pytest.mark.parametrize("version", sorted(TREES))
def test_a_tier_has_one_quota_per_path_or_one_for_all_as_fluid_divides_them(tmp_path: Path, version: str) -> None:
    source = (need_tree(version) / "pkg/ddc/base/runtime.go").read_text()
    assert "length of quotaList must be consistent with length of paths" in source
    assert "divide quota equally to multiple paths" in source
    for quotas in ("[1Gi, 2Gi]", "1Gi"):
        code, err, _ = run(write_spec(tmp_path, f"  cache:\n    - {{medium: SSD, path: [/a, /b], quota: {quotas}}}\n",
                                      version))
        assert code == 0, err
    for paths, quotas, said in (("[/a, /b]", "[1Gi, 2Gi, 3Gi]", "3 quotas for 2 paths"),
                                ("[/a]", "[1Gi, 2Gi]", "2 quotas for 1 path")):
        spec = write_spec(tmp_path, f"  cache:\n    - {{medium: SSD, path: {paths}, quota: {quotas}}}\n", version)
        code, err, _ = run(spec)
        assert code == 1
        col = 29 + len(paths)
        line = (f"{spec}:11:{col}: error: runtime.cache[0].quota: {said}; give one quota per path, or a "
                "single quota to split evenly")
        assert line in err.splitlines(), err


def test_a_finding_in_a_generated_tier_is_placed_at_its_cache_entry(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "  cache:\n    - {medium: MEM, quota: 1Gi}\n"
                                "    - {medium: SSD, path: [/a, /b], quota: [1Gi, 2Gi, 3Gi]}\n")
    code, err, _ = run(spec)
    assert code == 1
    assert f"{spec}:12:7: error [FG112]: runtime.cache[1]: generated AlluxioRuntime/demo spec.tieredstore.levels.1" \
        in err, err


def test_a_disk_tier_without_a_path_is_refused_at_the_tier(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "  cache:\n    - {medium: MEM, quota: 1Gi}\n    - {medium: HDD, quota: 1Gi}\n")
    code, err, _ = run(spec)
    assert code == 1
    assert f"{spec}:12:7: error: runtime.cache[1]: a HDD tier needs a path" in err.splitlines(), err
    assert "cache[0]" not in err  # memory needs none


# Whether a disk tier on an emptyDir still names a directory, per engine (Lowering.emptydir_needs_path,
# each with its Fluid source in the engine's record): the classic runtimes join every level's path
# (alluxio/goosefs transformCommonPart, juicefs transformFuseCacheVolumes, ...); a CacheRuntime's
# emptyDir level has no path at all (api/v1alpha1 cacheruntime_types.go).
_EMPTYDIR_NEEDS_PATH = {"alluxio": True, "jindo": True, "juicefs": True, "efc": True, "thin": True,
                        "vineyard": True, "goosefs": True, "cache": False}
_ENGINE_SPEC = {"thin": "  thin: {fileSystemType: fs}\n", "cache": "  cacheClass: {name: c}\n"}


@pytest.mark.parametrize("engine", sorted(_EMPTYDIR_NEEDS_PATH))
def test_a_disk_tier_on_an_emptydir_needs_a_path_where_the_engine_names_its_directory(
        engine: str, tmp_path: Path) -> None:
    version = {"goosefs": "v1.0.8", "cache": "v1.1.0-dev"}.get(engine, "v1.0.8")
    spec = write_spec(tmp_path, "  cache:\n    - {medium: SSD, volumeType: emptyDir, quota: 1Gi}\n"
                      + _ENGINE_SPEC.get(engine, ""), version)
    spec.write_text(spec.read_text().replace("engine: alluxio", f"engine: {engine}"))
    _, err, _ = run(spec)
    refused = f"{spec}:11:7: error: runtime.cache[0]: a SSD tier needs a path" in err.splitlines()
    assert refused is _EMPTYDIR_NEEDS_PATH[engine], err


def test_an_unknown_bundled_profile_is_an_error_at_runtime_profile(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "  profile: alluxio-imagnet\n  cache: [{medium: MEM, quota: 1Gi}]\n")
    code, err, _ = run(spec)
    assert code == 1
    assert (f'{spec}:10:3: error: runtime.profile: no bundled profile "alluxio-imagnet"; did you mean '
            '"alluxio-imagenet"?') in err, err


def test_an_override_wins_over_the_spec_key_that_sets_the_same_field(tmp_path: Path) -> None:
    code, err, docs = run(write_spec(tmp_path, "  masters: 3\n  cache: [{medium: MEM, quota: 1Gi}]\n"
                                               "  overrides:\n    master: {replicas: 1}\n"))
    assert code == 0, err
    assert next(d for d in docs if d["kind"] == "AlluxioRuntime")["spec"]["master"]["replicas"] == 1
    code, err, docs = run(write_spec(tmp_path, "  masters: 3\n  cache: [{medium: MEM, quota: 1Gi}]\n"))
    assert code == 0, err
    assert next(d for d in docs if d["kind"] == "AlluxioRuntime")["spec"]["master"]["replicas"] == 3
