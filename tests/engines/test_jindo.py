"""fluidgen/engines/jindo.py's facts where its mutation run (issue 42) found no test, against
Fluid's Go code at the commits of ../shared/fluid-src that hold it."""

from __future__ import annotations

import pytest

from fluidgen.engines import jindo
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
