"""CRDs a user points at with --crds: schemas closed the way kubectl's strict field validation
behaves (an object listing properties, silent on additionalProperties, rejects unknown fields,
and so does the top level), apiextensions v1beta1 and `kubectl get crd -o yaml` Lists read,
and a CRD directory confined to regular files whose real path stays inside it."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.io.crds import CrdSet, close_schema

CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: data.fluid.io
  scope: {scope}
  names: {{kind: Dataset}}
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {{type: string}}
          kind: {{type: string}}
          spec:
            type: object
            properties:
              mounts: {{type: array, items: {{type: object, properties: {{mountPoint: {{type: string}}}}}}}}
              options: {{type: object, additionalProperties: {{type: string}}}}
              free: {{type: object, x-kubernetes-preserve-unknown-fields: true, properties: {{a: {{type: string}}}}}}
"""


def test_close_schema_closes_objects_with_properties_only_where_the_schema_is_silent() -> None:
    schema = {"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b": {"type": "string"}}},
        "open": {"type": "object", "properties": {}, "additionalProperties": True},
        "kept": {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "properties": {"c": {}}},
        "any": {"allOf": [{"type": "object", "properties": {"d": {}}}]},
        "map": {"type": "object"}}}
    before = copy.deepcopy(schema)
    closed = close_schema(schema)
    assert closed["additionalProperties"] is False
    assert closed["properties"]["a"]["additionalProperties"] is False
    assert closed["properties"]["open"]["additionalProperties"] is True
    assert "additionalProperties" not in closed["properties"]["kept"]
    assert closed["properties"]["any"]["allOf"][0]["additionalProperties"] is False
    assert "additionalProperties" not in closed["properties"]["map"]
    assert schema == before  # a copy: the CRD as read is left alone


def test_a_loaded_crd_rejects_unknown_fields_keeps_maps_and_open_parts_and_types_metadata(tmp_path: Path) -> None:
    (tmp_path / "dataset.yaml").write_text(CRD.format(scope="Cluster"))
    crds = CrdSet.load(tmp_path)
    assert crds.knows("data.fluid.io/v1alpha1", "Dataset") and not crds.knows("data.fluid.io/v1", "Dataset")
    assert crds.scopes == {("data.fluid.io/v1alpha1", "Dataset"): "Cluster"}
    good = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "x", "labels": {}},
            "spec": {"mounts": [{"mountPoint": "oss://a"}], "options": {"k": "v"}, "free": {"z": 1}}}
    assert crds.check(good) == []
    assert crds.schemas[("data.fluid.io/v1alpha1", "Dataset")]["properties"]["metadata"] == {"type": "object"}
    bad = {**good, "extra": 1, "spec": {"mounts": [{"mountPoint": "oss://a", "typo": 1}]}}
    assert sorted(p.path for p in crds.check(bad)) == [("extra",), ("spec", "mounts", 0, "typo")]


def test_a_v1beta1_crd_in_a_kubectl_list_is_read_closed_at_the_top_and_namespaced(tmp_path: Path) -> None:
    listing = tmp_path / "crds.yaml"
    listing.write_text("apiVersion: v1\nkind: List\nitems:\n- apiVersion: apiextensions.k8s.io/v1beta1\n"
                       "  kind: CustomResourceDefinition\n  spec:\n    group: data.fluid.io\n"
                       "    names: {kind: Dataset}\n    versions: [{name: v1alpha1}]\n"
                       "    validation:\n      openAPIV3Schema:\n        type: object\n"
                       "        properties: {apiVersion: {}, kind: {}, spec: {type: object}}\n")
    crds = CrdSet.load(listing)
    assert crds.scopes == {("data.fluid.io/v1alpha1", "Dataset"): "Namespaced"}
    assert [p.path for p in crds.check({"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset",
                                        "spec": {}, "status": {}})] == [("status",)]


def test_an_empty_location_or_one_without_crds_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no yaml here\n")
    with pytest.raises(FluidgenError) as empty:
        CrdSet.load(tmp_path)
    assert (empty.value.diagnostics[0].file, empty.value.diagnostics[0].message) == (
        str(tmp_path), "no CRD files found (expected a directory of CRD YAML files or one multi-document file)")
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    with pytest.raises(FluidgenError) as none:
        CrdSet.load(tmp_path)
    assert none.value.diagnostics[0].message == "no CustomResourceDefinition found"


def test_a_crd_directory_follows_a_link_inside_and_refuses_one_to_a_sibling_sharing_its_name(
        tmp_path: Path) -> None:
    crds, sibling = tmp_path / "crds", tmp_path / "crds-other"
    crds.mkdir()
    sibling.mkdir()
    (crds / "real.yml").write_text(CRD.format(scope="Namespaced"))
    (crds / "alias.yaml").symlink_to("real.yml")
    assert CrdSet.load(crds).knows("data.fluid.io/v1alpha1", "Dataset")
    (sibling / "theirs.yaml").write_text(CRD.format(scope="Namespaced"))
    (crds / "theirs.json").symlink_to(sibling / "theirs.yaml")
    with pytest.raises(FluidgenError) as caught:
        CrdSet.load(crds)
    assert [(d.file, d.message) for d in caught.value.diagnostics] == [
        (str(crds / "theirs.json"), f"a symbolic link that leads outside {crds}; name the CRD file itself with --crds")]


def test_load_all_merges_locations_and_names_them_all(tmp_path: Path) -> None:
    for name, kind in (("a.yaml", "Dataset"), ("b.yaml", "AlluxioRuntime")):
        (tmp_path / name).write_text(CRD.format(scope="Namespaced").replace("kind: Dataset", f"kind: {kind}"))
    both = CrdSet.load_all((str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")))
    assert sorted(both.schemas) == [("data.fluid.io/v1alpha1", "AlluxioRuntime"), ("data.fluid.io/v1alpha1", "Dataset")]
    assert both.source == f"{tmp_path / 'a.yaml'}, {tmp_path / 'b.yaml'}"


def test_apiversion_and_kind_are_never_unknown_at_a_custom_resources_root(tmp_path: Path) -> None:
    """A root schema of just {type: object} is a valid structural schema; the API server keeps
    apiVersion, kind and metadata at the root whatever it lists, and prunes the rest."""
    crd = tmp_path / "crd.yaml"
    crd.write_text("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n"
                   "  group: data.fluid.io\n  names: {kind: Dataset}\n  versions:\n  - name: v1alpha1\n"
                   "    schema: {openAPIV3Schema: {type: object}}\n")
    crds = CrdSet.load(crd)
    assert crds.check({"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "x"}}) == []
    assert crds.check({"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "x"},
                       "spec": {}}) != []
