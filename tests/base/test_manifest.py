"""fluidgen/base/manifest.py: safe reads of Kubernetes objects as parsed YAML. The shapes
tests/features/test_toolkit.py checks (reads of broken objects, fuse options in both forms,
jvm_flag, levels and mounts, is_reference_dataset) are not repeated; this file holds the
component sections, the string walk from a given path, the edges of fuse_options and of the
runtime a Dataset binds to."""

from __future__ import annotations

from typing import Any

import pytest

from fluidgen.base import manifest


def test_components_are_the_jvm_style_sections_a_runtime_has_in_spec_order() -> None:
    """AlluxioRuntimeSpec (fluid-src v1.0.8 api/v1alpha1/alluxioruntime_types.go) has master,
    jobMaster, worker, jobWorker and fuse; a section of the wrong shape is skipped, other keys
    are no components."""
    spec = {"fuse": {"f": 1}, "jobWorker": {"jw": 1}, "worker": "odd", "jobMaster": {}, "master": {"m": 1},
            "tieredstore": {"levels": []}, "properties": {}}
    assert list(manifest.components_of({"spec": spec})) == [
        ("master", {"m": 1}), ("fuse", {"f": 1}), ("jobMaster", {}), ("jobWorker", {"jw": 1})]


def test_walk_strings_starts_from_the_path_given_and_enters_lists_of_lists() -> None:
    tree = {"args": [["-o", 1], {"k": "v"}], "n": None, "b": True}
    assert list(manifest.walk_strings(tree, ("spec", "fuse"))) == [
        (("spec", "fuse", "args", 0, 0), "-o"), (("spec", "fuse", "args", 1, "k"), "v")]
    assert list(manifest.walk_strings("top")) == [((), "top")]


@pytest.mark.parametrize(("args", "options"), [
    ("-o ro", []),  # args must be a list
    (["-o"], [(0, "")]),
    (["allow_other"], [(0, "allow_other")]),  # no prefix: the whole argument
    (["--fuse-opts=a=1,b"], [(0, "a=1"), (0, "b")]),  # split at the first "=" only
    (["--fuse-opts"], [(0, "--fuse-opts")]),  # without "=" it is no --fuse-opts= form
    (["x-oro"], [(0, "x-oro")]),  # "-o" counts at the start only
])
def test_fuse_options_edges(args: object, options: list[tuple[int, str]]) -> None:
    assert manifest.fuse_options({"spec": {"fuse": {"args": args}}}) == options


def test_jvm_flag_matches_a_prefix_and_may_read_an_empty_value() -> None:
    assert manifest.jvm_flag(["-XX:MaxDirectMemorySize=8g", "-Xmx"], "-XX:MaxDirectMemorySize=") == (0, "8g")
    assert manifest.jvm_flag(["-Xmx"], "-Xmx") == (0, "")
    assert manifest.jvm_flag(["-xmx4g"], "-Xmx") is None  # case counts


def test_the_runtime_of_a_dataset_is_a_kind_ending_in_runtime_at_its_name() -> None:
    """Fluid's runtime kinds are <Engine>Runtime (master api/v1alpha1: AlluxioRuntime, CacheRuntime,
    EFCRuntime, JindoRuntime, JuiceFSRuntime, ThinRuntime, VineyardRuntime); CacheRuntimeClass and
    ThinRuntimeProfile, which share the prefix, are no runtimes."""
    dataset: dict[str, Any] = {"kind": "Dataset", "metadata": {"name": "d", "namespace": "ns"}}
    place = {"name": "d", "namespace": "ns"}
    cls = {"kind": "CacheRuntimeClass", "metadata": place}
    runtime = {"kind": "CacheRuntime", "metadata": place}
    other = {"kind": "JuiceFSRuntime", "metadata": place}
    assert manifest.fluid_runtime_at(dataset, [cls, runtime, other]) is runtime  # the first that fits
    assert manifest.fluid_runtime_at(dataset, [cls]) is None
    assert manifest.fluid_runtime_at(dataset, [{"kind": "CacheRuntime", "metadata": {"name": "d"}}]) is None


def test_a_kind_of_nothing_is_empty_and_a_good_mapping_is_returned_as_is() -> None:
    assert manifest.kind_of({}) == ""
    meta = {"name": "a"}
    spec = {"x": 1}
    obj = {"metadata": meta, "spec": spec}
    assert manifest.meta(obj) is meta and manifest.spec_of(obj) is spec
    assert manifest.mapping(meta) is meta and manifest.items(listed := [1]) is listed
