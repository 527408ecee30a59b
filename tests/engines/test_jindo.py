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


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_a_mem_tier_over_several_paths_is_refused_at_its_paths(version: str, tmp_path: Path) -> None:
    """For a memory tier (getTieredStoreType 0) jindocache parses the joined quotas as one quantity
    (transformWorkerResources: resource.MustParse(userQuotas), which panics on "1Gi,1Gi"), and one
    quota is indexed per path (above): no quota form works over several paths."""
    root = need_tree(version)
    resources = next(p for p in ("pkg/ddc/jindocache/transform.go", "pkg/ddc/jindocache/transform_resources.go")
                     if "func (e *JindoCacheEngine) transformWorkerResources" in (root / p).read_text())
    body = (root / resources).read_text()
    body = body[body.index("func (e *JindoCacheEngine) transformWorkerResources"):]
    assert "e.getTieredStoreType(runtime) == 0" in body and "resource.MustParse(userQuotas)" in body
    text = (ROOT / "golden" / "ok" / "jindo-object-stores" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    spec.write_text(re.sub(r"(?m)^  cache:.*\n", "  cache: [{medium: MEM, path: [/a, /b], quota: [1Gi, 1Gi]}]\n",
                           text, count=1))
    result = run_cli("build", "--fluid-version", version, str(spec))
    assert result.code == 1 and "runtime.cache[0].path: JindoRuntime fails a MEM tier over 2 paths" in result.err, \
        result.err
