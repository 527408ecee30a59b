"""fluidgen/base/versions.py: the Fluid versions fluidgen targets and what each offers.

Every expected value is read off Fluid's source at the two commits versions.py names
(../shared/fluid-src/SOURCE.md: v1.0.8 de578cd, master a826600 = fluidgen's v1.1.0-dev):
both go.mod files build against `k8s.io/api v0.29.15`; api/v1alpha1/goosefsruntime_types.go
is in v1.0.8 and gone from master; cacheruntime_types.go is in master only; JuiceFSRuntimeSpec
has `VolumeClaimTemplates ... json:"volumeClaimTemplates"` and DataProcessSpec `Policy
json:"policy"` and `Schedule json:"schedule"` in master only (api/v1alpha1/juicefsruntime_types.go,
dataprocess_types.go).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fluidgen.base import versions
from fluidgen.base.versions import Change, FluidVersion


def test_the_versions_are_fluids_v1_0_8_and_master_oldest_first() -> None:
    assert versions.NAMES == ("v1.0.8", "v1.1.0-dev")
    assert versions.DEFAULT == "v1.0.8"


@pytest.mark.parametrize("name", ["v1.0.8", "v1.1.0-dev"])
def test_each_version_embeds_the_core_types_of_kubernetes_1_29(name: str) -> None:
    """go.mod of both commits: k8s.io/api v0.29.15, so the CRDs embed Kubernetes 1.29's core types."""
    assert versions.get(name).kubernetes == "1.29"


def test_an_unknown_version_is_refused_with_the_choices() -> None:
    with pytest.raises(KeyError) as caught:
        versions.get("v1.0.7")
    assert caught.value.args[0] == "unsupported Fluid version 'v1.0.7'; choose one of v1.0.8, v1.1.0-dev"
    with pytest.raises(KeyError):
        versions.has("v1.0.7", "alluxio")


@pytest.mark.parametrize(("owner", "field", "in_old", "in_new"), [
    ("goosefs", "", True, False),  # removed in master (fluid-cloudnative/fluid#5703)
    ("cache", "", False, True),  # the generic cache runtime, new in master
    ("juicefs", "volumeClaimTemplates", False, True),
    ("DataProcess", "policy", False, True),
    ("DataProcess", "schedule", False, True),
    ("alluxio", "", True, True), ("juicefs", "", True, True), ("DataProcess", "", True, True),  # in both
    ("juicefs", "worker", True, True),  # a field no change names is in every version
])
def test_each_version_has_what_fluids_source_has_at_its_commit(owner: str, field: str, in_old: bool,
                                                                 in_new: bool) -> None:
    assert versions.has("v1.0.8", owner, field) is in_old
    assert versions.has("v1.1.0-dev", owner, field) is in_new


def test_added_fields_lists_the_versions_that_have_each_new_field() -> None:
    assert versions.added_fields("juicefs") == {"volumeClaimTemplates": ["v1.1.0-dev"]}
    assert versions.added_fields("DataProcess") == {"policy": ["v1.1.0-dev"], "schedule": ["v1.1.0-dev"]}
    assert versions.added_fields("alluxio") == {}
    assert versions.added_fields("goosefs") == {}  # the engine's removal is no field


@pytest.mark.parametrize(("owner", "field", "first"), [
    ("cache", "", "v1.1.0-dev"), ("juicefs", "volumeClaimTemplates", "v1.1.0-dev"),
    ("goosefs", "", "v1.0.8"), ("alluxio", "", "v1.0.8"),
])
def test_first_with_names_the_oldest_version_that_has_it(owner: str, field: str, first: str) -> None:
    assert versions.first_with(owner, field) == first


@pytest.fixture
def four_versions(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A made-up history, to check the rule of the module docstring: what a version offers is
    the union minus what later versions add and what it or earlier ones removed. The names sort
    against the order of the versions: order is the tuple's, never the names'."""
    history = (
        FluidVersion("z", "1.29", "test"),
        FluidVersion("y", "1.29", "test", (Change("add", "e"), Change("remove", "old"))),
        FluidVersion("x", "1.29", "test", (Change("remove", "e"), Change("add", "k", "f"))),
        FluidVersion("w", "1.29", "test", (Change("add", "e"), Change("remove", "k", "f"))),
    )
    monkeypatch.setattr(versions, "VERSIONS", history)
    monkeypatch.setattr(versions, "NAMES", tuple(v.name for v in history))
    versions.has.cache_clear()
    yield
    versions.has.cache_clear()


@pytest.mark.usefixtures("four_versions")
@pytest.mark.parametrize(("owner", "field", "present"), [
    ("e", "", [False, True, False, True]),  # added, removed, added again
    ("old", "", [True, False, False, False]),  # first mentioned as removed: there before
    ("k", "f", [False, False, True, False]),
    ("k", "", [True, True, True, True]),  # the kind itself never changed
])
def test_a_history_of_adds_and_removes_is_followed_version_by_version(owner: str, field: str,
                                                                       present: list[bool]) -> None:
    assert [versions.has(v, owner, field) for v in "zyxw"] == present
    assert versions.first_with(owner, field) == next((v for v, p in zip("zyxw", present, strict=True) if p), None)


@pytest.mark.usefixtures("four_versions")
def test_first_with_is_none_for_what_no_version_has(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versions, "VERSIONS", (FluidVersion("a", "1.29", "test", (Change("remove", "gone"),)),))
    monkeypatch.setattr(versions, "NAMES", ("a",))
    versions.has.cache_clear()
    assert versions.first_with("gone") is None
