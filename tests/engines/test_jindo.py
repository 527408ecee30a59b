"""fluidgen/engines/jindo.py's facts where its mutation run (issue 42) found no test, against
Fluid's Go code at the commits of ../shared/fluid-src that hold it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.engines import jindo
from tests.conftest import ROOT, run_cli
from tests.harness.fluid_src import need_tree


@pytest.mark.parametrize(("point", "bucket"), [
    ("oss://imagenet/train/", "imagenet"), ("oss://imagenet", "imagenet"), ("oss://b/x/y", "b"),
    ("oss:///train", None), ("s3://imagenet/train", None)])
def test_an_oss_mounts_bucket_is_what_fluid_cuts_at_the_first_slash(point: str, bucket: str | None) -> None:
    """pkg/ddc/jindo/oss_secret.go ParseOSSMountBucket (master: OSS keys are projected per bucket):
    strings.Cut(TrimPrefix(mountPoint, "oss://"), "/"), an empty bucket an error (None here); the
    bucket groups the mounts whose OSS keys must agree (FG135)."""
    text = (need_tree("v1.1.0-dev") / "pkg/ddc/jindo/oss_secret.go").read_text()
    assert 'bucket, _, _ := strings.Cut(strings.TrimPrefix(mountPoint, "oss://"), "/")' in text
    assert jindo._bucket({"mountPoint": point}) == bucket


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_one_quota_for_several_cache_paths_is_refused_where_fluid_indexes_one_per_path(
        version: str, tmp_path: Path) -> None:
    """jindocache transform: one `quota` is one entry of `quotas` (a quotaList is one per path), and
    transformWorkerMountPath reads quotas[index] for each path: two paths with one quota fail the
    runtime (index out of range). The build refuses it at the quota; a quota per path builds."""
    go = (need_tree(version) / "pkg/ddc/jindocache/transform.go").read_text()
    assert "quotas = append(quotas, runtime.Spec.TieredStore.Levels[0].Quota.String())" in go
    mount_path = go[go.index("func (e *JindoCacheEngine) transformWorkerMountPath"):]
    assert "Quota:      quotas[index]," in mount_path[:mount_path.index("\n}\n")]
    text = (ROOT / "golden" / "ok" / "jindo-object-stores" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    for quota, refused in (("100Gi", True), ("[100Gi, 100Gi]", False)):
        spec.write_text(re.sub(r"(?m)^  cache:.*\n(    -.*\n)*", f"  cache: [{{medium: SSD, path: [/a, /b], quota: "
                                                                   f"{quota}}}]\n", text, count=1))
        result = run_cli("build", "--fluid-version", version, str(spec))
        said = ("runtime.cache[0].quota: JindoRuntime needs a quota per cache path: with one quota for 2 paths "
                "Fluid indexes a quota for each path and fails the runtime")
        assert (said in result.err) is refused, (quota, result.err)
        assert ("give one per path, e.g. quota: [50Gi, 50Gi] (100Gi split evenly)" in result.err if refused
                else result.code == 0), result.err
