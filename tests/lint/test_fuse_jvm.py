"""lint/fuse_jvm.py: FG111's 1800MB line for a MEMORY client cache, where each property set is
read, and FG110's worker budget with the MEM tier a Memory emptyDir charges to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lint.test_lint import dataset, runtime

CACHE = "{alluxio.user.client.cache.store.type: MEMORY, alluxio.user.client.cache.size: SIZE}"


def _lint(tmp_path: Path, spec: str) -> str:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(), runtime("AlluxioRuntime", spec)]))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err
    return result.err


@pytest.mark.parametrize(("size", "fires"), [("1800MB", False), ("1700MB", False), ("1801MB", True),
                                             ("2GB", True)])
@pytest.mark.parametrize("where", ["properties", "fuse"])
def test_fg111_draws_the_line_at_1800mb_in_either_property_set(tmp_path: Path, size: str, fires: bool,
                                                             where: str) -> None:
    props = CACHE.replace("SIZE", size)
    spec = f"properties: {props}" if where == "properties" else f"fuse: {{properties: {props}}}"
    err = _lint(tmp_path, spec)
    key = "spec.properties" if where == "properties" else "spec.fuse.properties"
    assert (f'[FG111]: {key}["alluxio.user.client.cache.size"]:' in err) is fires, err


def test_fg111_reads_the_fuse_properties_when_the_runtimes_hold_no_memory_cache(tmp_path: Path) -> None:
    err = _lint(tmp_path, "properties: {alluxio.user.client.cache.store.type: LOCAL}\n"
                          f"fuse: {{properties: {CACHE.replace('SIZE', '4GB')}}}")
    assert '[FG111]: spec.fuse.properties["alluxio.user.client.cache.size"]:' in err, err


@pytest.mark.parametrize(("quota", "fires"), [("4Gi", False), ("12Gi", True)])
def test_fg110_charges_a_workers_memory_emptydir_tier_to_the_worker(tmp_path: Path, quota: str, fires: bool) -> None:
    """A MEM tier on an emptyDir is memory the worker container is charged for (Kubernetes: a Memory
    emptyDir counts against the limit): 8Gi of heap + the tier against a 16Gi limit."""
    err = _lint(tmp_path, "worker:\n  jvmOptions: [-Xmx8G]\n  resources: {limits: {memory: 16Gi}}\n"
                          "tieredstore:\n  levels:\n"
                          f"    - {{mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: {quota}}}")
    assert ("[FG110]: spec.worker.resources.limits.memory:" in err) is fires, err
    if fires:
        assert "heap 8.0GiB + MEM tier 12.0GiB exceeds the worker memory limit 16Gi" in err, err
