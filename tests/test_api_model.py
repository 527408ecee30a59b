"""fluidgen's built-in API model never admits a field the real CRDs would reject."""

from __future__ import annotations

from typing import Any

import pytest

from fluidgen import FLUID_VERSIONS, api


def _walk(node: api.T, schema: dict[str, Any], path: str, out: list[str]) -> None:
    if node.kind in ("obj",):
        props = schema.get("properties", {})
        for name, sub in node.fields.items():
            if name not in props:
                out.append(f"{path}.{name}")
                continue
            _walk(sub, props[name], f"{path}.{name}", out)
        missing_required = node.required - set(schema.get("required", []))
        out += [f"{path}: {r} not required in CRD" for r in missing_required]
    elif node.kind in ("arr", "map") and node.item is not None:
        inner = schema.get("items") or schema.get("additionalProperties") or {}
        if isinstance(inner, dict):
            _walk(node.item, inner, f"{path}[]", out)
    elif node.enum:
        assert set(node.enum) == set(schema.get("enum", [])), path


@pytest.mark.parametrize("version", FLUID_VERSIONS)
def test_builtin_fields_exist_in_crds(version: str, crds: dict[str, Any]) -> None:
    crd_set = crds[version]
    kinds = {k for (_, k) in crd_set.schemas}
    assert api.kinds(version) <= kinds
    for kind in sorted(api.kinds(version)):
        schema = crd_set.schemas[(api.GROUP_VERSION, kind)]["properties"]["spec"]
        node = api.spec_model(version, kind)
        assert node is not None
        bad: list[str] = []
        _walk(node, schema, kind, bad)
        assert bad == []


@pytest.mark.parametrize("version", FLUID_VERSIONS)
def test_crd_spec_fields_known_to_builtin_model(version: str, crds: dict[str, Any]) -> None:
    """The other direction, two levels deep: nothing in the API is unknown to fluidgen."""
    for kind in sorted(api.kinds(version)):
        schema = crds[version].schemas[(api.GROUP_VERSION, kind)]["properties"]["spec"]
        node = api.spec_model(version, kind)
        assert node is not None
        assert set(schema["properties"]) == set(node.fields), kind


def test_goosefs_only_in_v108() -> None:
    assert "GooseFSRuntime" in api.kinds("v1.0.8")
    assert "GooseFSRuntime" not in api.kinds("v1.1.0-dev")


def test_spec_fluid_field_lists_every_supported_version() -> None:
    from typing import get_args

    from fluidgen.spec import Spec

    annotation = Spec.model_fields["fluid"].annotation
    literal = next(a for a in get_args(annotation) if a is not type(None))
    assert set(get_args(literal)) == set(FLUID_VERSIONS)
