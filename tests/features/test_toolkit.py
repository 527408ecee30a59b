"""The toolkit modules the layering made: URI and reference facts (uri.py) and the safe reads
of manifests of any shape (manifest.py) that rules, engines and lowering share."""

from __future__ import annotations

from typing import Any

import pytest

from fluidgen.base import manifest, uri


@pytest.mark.parametrize(("given", "scheme"), [
    ("oss://bucket/dir/", "oss"), ("S3://b/", "s3"), ("juicefs:///", "juicefs"), ("server:/export", ""),
    ("", ""), ("dataset://ns/name", "dataset")])
def test_scheme_of(given: str, scheme: str) -> None:
    assert uri.scheme_of(given) == scheme


@pytest.mark.parametrize(("point", "reference", "native"), [
    ("dataset://team/imagenet", True, False), ("DATASET://team/imagenet", False, False),
    ("pvc://claim/sub", False, True), ("local:///mnt/data", False, True), ("oss://b/", False, False),
    (None, False, False), (42, False, False)])
def test_fluid_scheme_prefixes(point: object, reference: bool, native: bool) -> None:
    """Fluid tests prefixes as written (IsFluidRefSchema, IsFluidNativeScheme): case counts."""
    assert uri.is_reference(point) is reference
    assert uri.is_native(point) is native


def _dataset(mounts: object, name: str = "d", namespace: str | None = "ns") -> manifest.Manifest:
    return {"kind": "Dataset", "metadata": {"name": name, "namespace": namespace}, "spec": {"mounts": mounts}}


def test_reads_survive_any_shape() -> None:
    broken: manifest.Manifest = {"kind": 3, "metadata": [], "spec": "x"}
    assert manifest.kind_of(broken) == "3" and manifest.meta(broken) == {} and manifest.spec_of(broken) == {}
    assert manifest.fuse_spec(broken) == {} and manifest.levels_of(broken) == [] and manifest.mounts_of(broken) == []
    assert list(manifest.components_of(broken)) == [] and manifest.mapping([1]) == {} and manifest.items({}) == []


def test_fuse_options_split_both_forms() -> None:
    obj = {"spec": {"fuse": {"args": ["fuse", "-oro,kernel_cache", "--fuse-opts=attr_timeout=7200, max_read=131072",
                                      7]}}}
    assert manifest.fuse_options(obj) == [(0, "fuse"), (1, "ro"), (1, "kernel_cache"), (2, "attr_timeout=7200"),
                                          (2, "max_read=131072")]


def test_jvm_flag_takes_the_last_and_names_given_skips_malformed() -> None:
    assert manifest.jvm_flag(["-Xmx4G", 5, "-Xmx8G"], "-Xmx") == (2, "8G")
    assert manifest.jvm_flag("-Xmx4G", "-Xmx") is None
    assert manifest.names_given([{"name": "a"}, {"name": 1}, "b", {"name": "c"}]) == [(0, "a"), (3, "c")]


def test_levels_and_mounts_of() -> None:
    runtime = {"kind": "AlluxioRuntime", "spec": {"tieredstore": {"levels": [{"mediumtype": "MEM"}, "odd"]}}}
    assert manifest.levels_of(runtime) == [{"mediumtype": "MEM"}, "odd"]
    assert manifest.mounts_of(runtime) == []  # only a Dataset has mounts
    assert manifest.mounts_of(_dataset([{"mountPoint": "oss://b/"}, "x"])) == [{"mountPoint": "oss://b/"}]


def test_walk_strings_paths() -> None:
    assert list(manifest.walk_strings({"a": ["x", {"b": "y"}], "c": 1})) == [(("a", 0), "x"), (("a", 1, "b"), "y")]


@pytest.mark.parametrize(("mounts", "reference"), [
    ([{"mountPoint": "dataset://ns/other"}], True),
    ([{"mountPoint": "dataset://ns/a"}, {"mountPoint": "oss://b/"}], False),
    ([], False), ("dataset://ns/other", False)])
def test_is_reference_dataset(mounts: object, reference: bool) -> None:
    assert manifest.is_reference_dataset(_dataset(mounts)) is reference


def test_fluid_runtime_at_binds_by_name_and_namespace() -> None:
    dataset = _dataset([])
    objects = [{"kind": "ThinRuntimeProfile", "metadata": {"name": "d", "namespace": "ns"}},
               {"kind": "JindoRuntime", "metadata": {"name": "d", "namespace": "other"}},
               {"kind": "JindoRuntime", "metadata": {"name": "d", "namespace": "ns"}}]
    assert manifest.fluid_runtime_at(dataset, objects) is objects[2]
    assert manifest.fluid_runtime_at(dataset, objects[:2]) is None
    assert manifest.same_place(dataset, objects[2]) and not manifest.same_place(dataset, objects[1])


def test_copy_tree_is_a_deep_copy_of_parsed_data() -> None:
    from fluidgen.base.merge import copy_tree

    tree = {"a": [{"b": 1}, "x"], "c": {"d": None, "e": 2.5}}
    copied = copy_tree(tree)
    assert copied == tree
    copied["a"][0]["b"] = 2
    copied["c"]["f"] = 1
    assert tree == {"a": [{"b": 1}, "x"], "c": {"d": None, "e": 2.5}}


@pytest.mark.parametrize(("obj", "found"), [
    ({"spec": {"mounts": [{"mountPoint": "oss://<bucket>/data"}]}}, ["spec.mounts.0.mountPoint"]),
    ({"spec": {"<key>": "value"}}, []),  # only values are placeholders: the key sends it to the walk
    ({"spec": {"a": "<x", "b": "y>"}}, []),  # never a match across two strings
    ({"spec": {"a": b"<bytes>", "b": "<name>"}}, ["spec.b"]),  # JSON cannot write it: walked
    ({"spec": {"a": "ünïcödé <NAME-1 two>"}}, ["spec.a"]),
])
def test_placeholders_found_with_or_without_the_json_pass(obj: dict[str, Any], found: list[str]) -> None:
    from fluidgen.base.manifest_index import ManifestIndex
    from fluidgen.lint.storage import placeholders

    index = ManifestIndex([{"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", **obj}], frozenset())
    assert [".".join(map(str, f.path)) for f in placeholders(index.entries[0], index)] == found


def test_a_build_reads_each_regular_file_once(tmp_path: Any) -> None:
    """A batch of specs sharing an env file reads it once: one state per build, under each
    read's own limit, recorded for the cache once (and never when only read as a credential)."""
    from fluidgen.base.diagnostics import FluidgenError
    from fluidgen.io.inputs import Reader

    shared, secret = tmp_path / "shared.env", tmp_path / "creds.env"
    shared.write_bytes(b"A=1\n")
    secret.write_bytes(b"KEY=value\n")
    reader = Reader()
    assert reader.read(str(shared)) == b"A=1\n"
    shared.write_bytes(b"A=2\n")  # changed half-way through the build: the build keeps one state
    assert reader.read(str(shared)) == b"A=1\n"
    with pytest.raises(FluidgenError, match="larger than"):
        reader.read(str(shared), limit=2)
    assert list(reader.inputs.files) == [str(shared)]
    assert reader.read(str(secret), record=False) == b"KEY=value\n"
    assert str(secret) not in reader.inputs.files
    assert reader.read(str(secret)) == b"KEY=value\n" and str(secret) in reader.inputs.files
    assert Reader().read(str(shared)) == b"A=2\n"  # the next build sees the file as it is


def test_origins_single_paths_win_over_layers_and_later_layers_over_earlier() -> None:
    """A bundled profile's settings are one layer traced to runtime.profile; what the spec sets
    itself (replicas, tiers, overrides) is traced path by path afterwards and wins."""
    from fluidgen.model.context import Origins

    obj: dict[str, Any] = {}
    origins = Origins()
    base = ("a.yaml", 1, 1, ("runtime",))
    profile = ("a.yaml", 9, 3, ("runtime", "profile"))
    top = ("a.yaml", 12, 3, ("runtime", "profile"))
    own = ("a.yaml", 20, 5, ("runtime", "replicas"))
    origins.add(obj, (), base)
    origins.add_all(obj, frozenset({("spec", "replicas"), ("spec", "properties", "k")}), profile)
    origins.add_all(obj, frozenset({("spec", "properties", "k")}), top)
    origins.add(obj, ("spec", "replicas"), own)
    assert origins.locate(obj, ("spec", "replicas")) == own
    assert origins.locate(obj, ("spec", "properties", "k")) == top
    assert origins.locate(obj, ("spec", "properties", "k", "deeper")) == top
    assert origins.locate(obj, ("spec", "master")) == base
    assert origins.locate({}, ("spec",)) is None


def test_fastest_level_is_fluids_tier_level_zero() -> None:
    """pkg/utils/tieredstore GetTieredLevel: level 0 is the fastest medium (MEM, SSD, HDD), in
    any written order; the first of equal media; unknown media rank nowhere."""
    from fluidgen.fluid.fluidbase import fastest_level

    assert fastest_level(["HDD", "MEM", "MEM"]) == 1
    assert fastest_level(["SSD", "HDD"]) == 0
    assert fastest_level([None, "NVMe", "HDD"]) == 2
    assert fastest_level([]) is None and fastest_level(["NVMe"]) is None
