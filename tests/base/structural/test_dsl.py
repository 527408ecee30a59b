"""fluidgen/base/structural/dsl.py: the helpers that write fluidgen's structural schemas. Each
must write the OpenAPI v3 keywords Kubernetes' CRDs use (apiextensions JSONSchemaProps: type,
format, enum, pattern, minLength, minimum, maximum, items, minItems, properties, required,
additionalProperties), objects closed the way kubectl's strict field validation treats them, and
quantities as Fluid's CRDs render them."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from fluidgen.base.structural import dsl, kube
from fluidgen.base.structural.validate import Validator
from tests.conftest import SHARED


@pytest.mark.parametrize(("schema", "written"), [
    (dsl.string(), {"type": "string"}),
    (dsl.string(enum=("Always", "Never")), {"type": "string", "enum": ["Always", "Never"]}),
    (dsl.string(pattern="^a$", min_length=0), {"type": "string", "pattern": "^a$", "minLength": 0}),  # 0 is kept
    (dsl.int32(), {"type": "integer", "format": "int32"}),
    (dsl.int32(0, 0), {"type": "integer", "format": "int32", "minimum": 0, "maximum": 0}),
    (dsl.int32(maximum=5), {"type": "integer", "format": "int32", "maximum": 5}),
    (dsl.int64(1), {"type": "integer", "format": "int64", "minimum": 1}),
    (dsl.int64(), {"type": "integer", "format": "int64"}),
    (dsl.array(dsl.STR), {"type": "array", "items": {"type": "string"}}),
    (dsl.array(dsl.INT, 0), {"type": "array", "items": {"type": "integer"}, "minItems": 0}),
    (dsl.map_of(dsl.BOOL), {"type": "object", "additionalProperties": {"type": "boolean"}}),
    (dsl.k8s_list("core.v1.Toleration"),
     {"type": "array", "items": {"$ref": "#/$defs/io.k8s.api.core.v1.Toleration"}}),
])
def test_each_helper_writes_the_crd_keywords(schema: dict[str, Any], written: dict[str, Any]) -> None:
    assert schema == written


def test_an_object_is_closed_and_requires_only_what_it_names() -> None:
    assert dsl.obj(name=dsl.STR) == {"type": "object", "properties": {"name": {"type": "string"}},
                                     "additionalProperties": False}  # no empty "required"
    assert dsl.obj(("name",), name=dsl.STR)["required"] == ["name"]
    assert dsl.fields({"mount-point": dsl.STR}, ("mount-point",)) == {
        "type": "object", "properties": {"mount-point": {"type": "string"}}, "additionalProperties": False,
        "required": ["mount-point"]}


def test_a_closed_object_refuses_a_field_it_does_not_name() -> None:
    problems = Validator(dsl.obj(name=dsl.STR)).problems({"name": "a", "nmae": "b"})
    assert [(p.path, p.keyword, p.choices) for p in problems] == [(("nmae",), "unknown", ("name",))]


def test_extend_keeps_the_base_and_its_required_and_overrides_a_property() -> None:
    base = dsl.obj(("a",), a=dsl.STR, b=dsl.STR)
    assert dsl.extend(base, b=dsl.INT, c=dsl.BOOL) == {
        "type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean"}},
        "additionalProperties": False, "required": ["a"]}
    assert base["properties"]["b"] == {"type": "string"}  # the base is unchanged


def test_k8s_names_a_core_type_by_its_kubernetes_openapi_name() -> None:
    """The Kubernetes OpenAPI names core types io.k8s.api.<group>.<version>.<Type>
    (io.k8s.api.core.v1.Toleration), the names kubernetes-validate's definitions carry."""
    assert dsl.k8s("core.v1.Toleration") == {"$ref": "#/$defs/io.k8s.api.core.v1.Toleration"}
    assert "io.k8s.api.core.v1.Toleration" in kube.definitions("1.29")


def test_a_quantity_is_written_as_fluids_crds_write_it() -> None:
    """data.fluid.io_alluxioruntimes.yaml (v1.0.8): spec.tieredstore.levels[].quota, a
    resource.Quantity, is anyOf integer or string, the quantity pattern, x-kubernetes-int-or-string."""
    path = SHARED / "fluid-crds" / "v1.0.8" / "data.fluid.io_alluxioruntimes.yaml"
    if not path.is_file():
        pytest.skip(f"shared test data missing: {path}")
    crd = yaml.safe_load(path.read_text())
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    quota = spec["tieredstore"]["properties"]["levels"]["items"]["properties"]["quota"]
    assert quota == dsl.QUANTITY
    assert quota["pattern"] == dsl.QUANTITY_PATTERN
