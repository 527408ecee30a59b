"""fluidgen.fluid.fluidbase at the edges its mutation run found untested (issue 42): each test
drives the fact function against what Fluid's Go code does, read at both target commits in
../shared/fluid-src/{v1.0.8,master}."""

from __future__ import annotations

from decimal import Decimal

import pytest

from fluidgen.fluid import fluidbase


def test_a_quota_that_does_not_divide_is_cut_to_whole_bytes() -> None:
    """pkg/ddc/base/runtime.go convertToTieredstoreInfo: `level.Quota.Value()/int64(numPaths)`, an
    int64 division, so every path gets the quotient and the remainder is nobody's."""
    assert fluidbase.tier_paths("/a,/b", "3") == [("/a", Decimal(1)), ("/b", Decimal(1))]
    third = 2**30 // 3  # 357913941
    assert fluidbase.tier_paths("/a,/b,/c", "1Gi") == [(p, Decimal(third)) for p in ("/a", "/b", "/c")]


def test_a_level_without_quota_fails_with_fluids_own_words() -> None:
    """convertToTieredstoreInfo: `fmt.Errorf("either quota or quotaList must be set")`, the whole message."""
    with pytest.raises(fluidbase.TierError) as raised:
        fluidbase.tier_paths("/a", None)
    assert str(raised.value) == "either quota or quotaList must be set"


def test_a_tier_path_loses_only_its_trailing_slashes() -> None:
    """convertToTieredstoreInfo: `strings.TrimRight(path, "/")`, with a quota and with a quotaList
    alike: other trailing characters stay."""
    assert fluidbase.tier_paths("/cache/BOX/,/dev/shm/MAX//", "2") == [
        ("/cache/BOX", Decimal(1)), ("/dev/shm/MAX", Decimal(1))]
    assert fluidbase.tier_paths("/cache/BOX/,/dev/shm/MAX", None, "1Ki,2Ki") == [
        ("/cache/BOX", Decimal(1024)), ("/dev/shm/MAX", Decimal(2048))]


def test_a_remount_is_decided_by_the_mounts_path_not_its_name() -> None:
    """pkg/utils/dataset.go AnalyzePathsDelta compares GenUFSPathInUnifiedNamespace(mount) of spec
    and status: a mount's `path`, when it has one, not its name."""
    renamed = fluidbase.mount_delta([{"name": "new", "mountPoint": "oss://b/x", "path": "/data"}],
                                    [{"name": "old", "mountPoint": "oss://b/x", "path": "/data"}])
    assert (renamed.add, renamed.remove, renamed.update) == ((), (), False)
    moved = fluidbase.mount_delta([{"name": "x", "mountPoint": "oss://b/x", "path": "/train"}],
                                  [{"name": "x", "mountPoint": "oss://b/x", "path": "/data"}])
    assert (moved.add, moved.remove) == (("/train",), ("/data",))


def test_hdd_is_a_medium_fluid_ranks() -> None:
    """pkg/common/constants.go tieredStoreOrderMap ranks HDD (2), so GetTieredLevel finds an HDD
    level: alone, or after a medium Fluid's map does not hold."""
    assert fluidbase.fastest_level(["HDD"]) == 0
    assert fluidbase.fastest_level(["NVMe", "HDD"]) == 1
    assert fluidbase.fastest_level(["HDD", "SSD"]) == 1
