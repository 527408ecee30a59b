"""Validate Fluid objects against real CustomResourceDefinitions the user points at.

The CRD's openAPIV3Schema is closed the way kubectl's strict field validation
behaves: every object that lists `properties` and says nothing about
`additionalProperties` rejects unknown fields (the same rule kubeconform's
openapi2jsonschema applies), and so does the top level of the object.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .api import Problem
from .diagnostics import Diagnostic, FluidgenError


def _load_yaml_docs(path: Path) -> Iterator[Any]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with path.open("rb") as fh:
        yield from yaml.load_all(fh, Loader=loader)


def close_schema(schema: Any) -> Any:
    """A copy of an OpenAPI schema where objects with properties reject unknown keys."""
    if isinstance(schema, list):
        return [close_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: close_schema(v) for k, v in schema.items() if k != "properties"}
    if "properties" in schema:
        out["properties"] = {k: close_schema(v) for k, v in schema["properties"].items()}
        if "additionalProperties" not in schema and not schema.get(
                "x-kubernetes-preserve-unknown-fields"):
            out["additionalProperties"] = False
    return out


@dataclass
class CrdSet:
    """Compiled validators keyed by (apiVersion, kind)."""

    schemas: dict[tuple[str, str], Any]
    source: str
    _validators: dict[tuple[str, str], Any] | None = None

    @classmethod
    def load(cls, location: str | Path) -> CrdSet:
        root = Path(location)
        files = sorted(root.glob("*.y*ml")) if root.is_dir() else [root]
        if not files or not all(f.is_file() for f in files):
            raise FluidgenError([Diagnostic(str(location), 0, 0, "error",
                                            "no CRD files found (expected a directory of "
                                            "CRD YAML files or one multi-document file)")])
        schemas: dict[tuple[str, str], Any] = {}
        for f in files:
            for doc in _load_yaml_docs(f):
                for crd in _crds_in(doc):
                    schemas.update(_schemas_of(crd))
        if not schemas:
            raise FluidgenError([Diagnostic(str(location), 0, 0, "error",
                                            "no CustomResourceDefinition found")])
        return cls(schemas, str(location))

    def knows(self, api_version: str, kind: str) -> bool:
        return (api_version, kind) in self.schemas

    def check(self, obj: dict[str, Any]) -> list[Problem]:
        key = (str(obj.get("apiVersion")), str(obj.get("kind")))
        validator = self._validator(key)
        problems = []
        for err in validator.iter_errors(obj):
            path = tuple(err.absolute_path)
            if err.validator == "additionalProperties" and err.validator_value is False:
                extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
                for name in extra:
                    problems.append(Problem((*path, name), "unknown field", True,
                                            tuple(sorted(err.schema.get("properties", {})))))
                continue
            problems.append(Problem(path, _message(err)))
        return sorted(problems, key=lambda p: [str(x) for x in p.path])

    def _validator(self, key: tuple[str, str]) -> Any:
        from jsonschema import Draft7Validator

        if self._validators is None:
            self._validators = {}
        if key not in self._validators:
            self._validators[key] = Draft7Validator(self.schemas[key])
        return self._validators[key]


def _crds_in(doc: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(doc, dict):
        return
    if doc.get("kind") == "CustomResourceDefinition":
        yield doc
    elif doc.get("kind", "").endswith("List"):
        for item in doc.get("items") or []:
            yield from _crds_in(item)


def _schemas_of(crd: dict[str, Any]) -> dict[tuple[str, str], Any]:
    spec = crd.get("spec") or {}
    group, kind = str(spec.get("group")), str((spec.get("names") or {}).get("kind"))
    out = {}
    for version in spec.get("versions") or []:
        schema = ((version.get("schema") or {}).get("openAPIV3Schema")) or \
            (spec.get("validation") or {}).get("openAPIV3Schema")
        if schema:
            closed = close_schema(copy.deepcopy(schema))
            closed.setdefault("properties", {})
            closed["additionalProperties"] = False
            out[(f"{group}/{version['name']}", kind)] = closed
    return out


def _message(err: Any) -> str:
    if err.validator == "required":
        return str(err.message).replace("is a required property", "is required")
    if err.validator == "enum":
        return f"must be one of {', '.join(repr(e) for e in err.validator_value)}, got {err.instance!r}"
    if err.validator == "type":
        return f"expected {err.validator_value}, found {type(err.instance).__name__}: {err.instance!r}"
    return str(err.message)
