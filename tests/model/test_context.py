"""model/context.py: one spec being compiled, and where each generated value came from.

What is held: Origins finds the deepest traced path, a single path's trace wins over a layer
traced at once (a bundled profile's) and a later layer over an earlier one, and a waiver covers
its path and below for its rule only; the access modes are the spec's until the Dataset is built,
then the built ones; an object's metadata carries the spec's labels with its own on top; a Fluid
object's apiVersion is Fluid's GroupVersion (api/v1alpha1/groupversion_info.go), a cache runtime
class (top_level) has its fields beside metadata; a Context without the API model says so.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from fluidgen.io.inputs import Reader
from fluidgen.io.yamlreader import load_text
from fluidgen.lower.view import spec_view
from fluidgen.model.context import Context, Origins
from fluidgen.spec.spec import parse_spec
from tests.harness.fluid_src import TREES, need_tree

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo, namespace: ml, labels: {team: a, tier: gold}}
source: [{uri: "https://e.com/d/"}]
accessModes: [ReadWriteMany]
runtime: {engine: alluxio, cache: [{medium: MEM, quota: 1Gi}], labels: {tier: cache}}
"""


def context() -> Context:
    doc = load_text("spec.yaml", SPEC)[0]
    return Context(spec_view(parse_spec(doc)), doc, "v1.0.8", "ml", {}, cast(Reader, None))


def test_locate_finds_the_deepest_trace_and_a_single_path_beats_a_layer() -> None:
    origins, obj = Origins(), cast(dict[str, Any], {"spec": {}})
    assert origins.locate(obj, ("spec", "a")) is None
    origins.add_all(obj, frozenset({("spec", "a"), ("spec", "a", "b")}), ("profile", 1, 1, ("runtime", "profile")))
    origins.add_all(obj, frozenset({("spec", "a", "b")}), ("later", 2, 2, ()))
    assert origins.locate(obj, ("spec", "a", "b", "c")) == ("later", 2, 2, ())  # a later layer wins
    assert origins.locate(obj, ("spec", "a", "x")) == ("profile", 1, 1, ("runtime", "profile"))
    origins.add(obj, ("spec", "a", "b"), ("spec.yaml", 9, 3, ("runtime", "overrides", "a", "b")))
    assert origins.locate(obj, ("spec", "a", "b", "c")) == ("spec.yaml", 9, 3, ("runtime", "overrides", "a", "b"))
    assert origins.locate({"spec": {}}, ("spec", "a")) is None  # traces belong to their object


def test_a_waiver_covers_its_path_and_below_for_its_rule_only() -> None:
    origins, obj = Origins(), cast(dict[str, Any], {"spec": {}})
    origins.waive(obj, ("spec", "fuse"), frozenset({"FG2", "FG1"}))
    assert origins.waived(obj, ("spec", "fuse", "args", 0), "FG1")
    assert origins.waived(obj, ("spec", "fuse"), "FG2")
    assert not origins.waived(obj, ("spec", "fuseX"), "FG1") and not origins.waived(obj, ("spec",), "FG1")
    assert not origins.waived(obj, ("spec", "fuse"), "FG3")
    origins.waive(obj, ("spec", "master"), frozenset({"FG9", "FG4", "FG7", "FG3", "FG8", "FG5"}))
    assert origins.waivers(obj) == [("FG1", ("spec", "fuse")), ("FG2", ("spec", "fuse"))] + [
        (rule, ("spec", "master")) for rule in ("FG3", "FG4", "FG5", "FG7", "FG8", "FG9")]  # in order, rules sorted


def test_access_modes_are_the_specs_until_the_dataset_is_built() -> None:
    ctx = context()
    assert ctx.access_modes() == ["ReadWriteMany"]
    ctx.built_access_modes = []  # dataset.overrides deleted them
    assert ctx.access_modes() == []


def test_metadata_carries_the_specs_labels_with_the_objects_own_on_top() -> None:
    ctx = context()
    assert ctx.metadata("demo") == {"name": "demo", "namespace": "ml", "labels": {"team": "a", "tier": "gold"}}
    assert ctx.metadata("demo", namespaced=False, own=ctx.spec.runtime) == {
        "name": "demo", "labels": {"team": "a", "tier": "cache"}}


@pytest.mark.parametrize("version", sorted(TREES))
def test_a_fluid_object_is_of_fluids_group_version_and_a_runtime_class_is_top_level(version: str) -> None:
    source = (need_tree(version) / "api/v1alpha1/groupversion_info.go").read_text()
    assert 'Group   = "data.fluid.io"' in source and 'Version = "v1alpha1"' in source
    ctx = context()
    spec: dict[str, Any] = {"a": 1}
    obj = ctx.fluid_object("Dataset", "demo", spec, at=("metadata", "name"))
    assert obj["apiVersion"] == "data.fluid.io/v1alpha1" and obj["spec"] == {"a": 1}
    top = ctx.fluid_object("CacheRuntimeClass", "demo", spec, namespaced=False, top_level=True)
    assert top == {"apiVersion": "data.fluid.io/v1alpha1", "kind": "CacheRuntimeClass",
                   "metadata": {"name": "demo", "labels": {"team": "a", "tier": "gold"}}, "a": 1}
    assert ctx.origins.locate(obj, ("spec", "a")) == ("spec.yaml", 3, 12, ("metadata", "name"))


def test_a_context_without_the_api_model_says_so() -> None:
    with pytest.raises(RuntimeError, match="made without the Fluid API model"):
        context().spec_validator("v1.0.8", "Dataset")
