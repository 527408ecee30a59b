"""fluidgen/engines/juicefs.py's cache facts where its mutation run (issue 42) found no test,
driven through fluidgen's own build and lint against Fluid's Go code (both commits of
../shared/fluid-src: pkg/ddc/juicefs/transform_fuse.go genMountOptions, `cacheSize :=
q.Value() >> 20`, the cache-size in MiB; genValue, the cache-dir joined with ":";
pkg/ddc/base/runtime.go convertToTieredstoreInfo, one quotaList entry per ","-split path)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.base.quantity import to_bytes
from fluidgen.base.versions import NAMES
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree

LEVEL = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: jfs, namespace: default}}
spec: {{mounts: [{{mountPoint: "juicefs:///", name: jfs}}]}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JuiceFSRuntime
metadata: {{name: jfs, namespace: default}}
spec:
  tieredstore:
    levels: [{{mediumtype: SSD, path: /cache, quota: {quota}}}]
"""


def _cache_size_shift(root: Path) -> int:
    """The right shift genMountOptions applies to a tier's quota (bytes) for cache-size."""
    text = (root / "pkg/ddc/juicefs/transform_fuse.go").read_text()
    m = re.search(r"cacheSize := q\.Value\(\) >> (\d+)\n", text)
    assert m, "genMountOptions no longer shifts the quota"
    return int(m.group(1))


@pytest.mark.parametrize("quota", ['"0"', '"40960"', '"1048575"', '"1048576"', "1Mi", "512Ki", "2047Ki", "40Gi"])
@pytest.mark.parametrize("version", NAMES)
def test_fg117_fires_exactly_where_fluids_cache_size_is_zero(tmp_path: Path, quota: str, version: str) -> None:
    """FG117 for a quota that Fluid turns into cache-size 0 (1 byte up to 1 MiB - 1), with the
    bytes it is and, for a bare number, the MiB it was likely meant as; none from 1 MiB on, and
    none for a quota of 0 (no cache asked for: nothing was meant as MiB)."""
    shift = _cache_size_shift(need_tree(version))
    size = int(to_bytes(quota.strip('"')))
    manifests = tmp_path / "m.yaml"
    manifests.write_text(LEVEL.format(quota=quota))
    result = run_cli("lint", str(manifests))
    if size > 0 and size >> shift == 0:
        assert result.code == 1 and "error [FG117]" in result.err, result.err
        assert f"is {size} bytes, so the JuiceFS cache-size becomes 0 MiB" in result.err
        bare = quota.strip('"')
        assert (f"did you mean {bare}Mi?" in result.err) is bare.isdigit()
    else:
        assert "FG117" not in result.err, result.err


SEVERAL_DIRS = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {{name: jfs, namespace: default}}
source:
  - uri: juicefs:///
    credentials:
      existingSecret: {{name: jfs, keys: [metaurl]}}
runtime:
  engine: juicefs
  cache:
    - {{medium: SSD, path: [/c1, /c2], quota: [{quotas}]}}
"""


@pytest.mark.parametrize(("quotas", "one"), [("10Gi, 10Gi", "20Gi"), ("10Gi, 512Mi", str(10 * 2**30 + 512 * 2**20))])
def test_a_quota_per_juicefs_cache_dir_is_refused_with_their_sum(tmp_path: Path, quotas: str, one: str) -> None:
    """JuiceFS joins the tier's directories with ":" into one cache-dir and takes one cache-size
    for them all (genValue, genMountOptions); Fluid's runtime info splits the path on "," and
    needs one quota per piece (convertToTieredstoreInfo), so a quota per directory never sets up:
    the build refuses it at the quota and offers the one quota they add up to."""
    spec = tmp_path / "jfs.yaml"
    spec.write_text(SEVERAL_DIRS.format(quotas=quotas))
    result = run_cli("build", str(spec))
    assert result.code == 1, result.err
    assert "runtime.cache[0].quota: JuiceFS takes one cache-size for all 2 cache directories" in result.err
    assert result.err.count(f"Give one quota: {one}\n") == 1, result.err
