"""`fluidgen validate`: check specs and plain manifests against the target Fluid API.

Fluid kinds are checked strictly (unknown fields are errors) against fluidgen's own
model of the target version, or against CRD files given with --crds. Core kinds go
through kubernetes-validate in strict mode when it is installed.
"""

from __future__ import annotations

from typing import Any

from . import api
from .crds import CrdSet
from .diagnostics import Diagnostic, did_you_mean
from .source import Document

TOP_LEVEL = ("apiVersion", "kind", "metadata", "spec", "status")


def validate_manifest(doc: Document, version: str, crds: CrdSet | None) -> list[Diagnostic]:
    obj = doc.data
    if not isinstance(obj, dict) or "kind" not in obj or "apiVersion" not in obj:
        return [doc.diag((), "not a Kubernetes object (apiVersion and kind are required)")]
    api_version = str(obj["apiVersion"])
    if api_version.startswith("data.fluid.io/"):
        return _fluid(doc, obj, version, crds)
    if "." not in api_version.split("/")[0] or api_version.split("/")[0].endswith(".k8s.io"):
        return _core(doc, obj)
    return [doc.diag(("kind",), f"{obj['kind']} ({api_version}) is not a Fluid or core kind; not checked",
                     "info")]


def _fluid(doc: Document, obj: dict[str, Any], version: str, crds: CrdSet | None) -> list[Diagnostic]:
    if crds is not None:
        if not crds.knows(str(obj["apiVersion"]), str(obj["kind"])):
            return [doc.diag(("kind",), f"no CRD for {obj['kind']} in {crds.source}")]
        return [_problem(doc, p, f"{obj['kind']} in {crds.source}") for p in crds.check(obj)]
    model = api.spec_model(version, str(obj["kind"]))
    if model is None:
        known = sorted(api.kinds(version))
        hint = did_you_mean(str(obj["kind"]), known)
        return [doc.diag(("kind",), f"Fluid {version} has no kind {obj['kind']}{hint}")]
    out = []
    for key in obj:
        if key not in TOP_LEVEL:
            out.append(doc.diag((key,), f"unknown field{did_you_mean(key, TOP_LEVEL)}"))
    if not isinstance(obj.get("metadata"), dict) or not obj["metadata"].get("name"):
        out.append(doc.diag(("metadata",), "metadata.name is required"))
    spec = obj.get("spec", {})
    out += [_problem(doc, p, f"Fluid {version} {obj['kind']}") for p in api.check(model, spec, ("spec",))]
    return out


def _problem(doc: Document, p: api.Problem, where: str) -> Diagnostic:
    if p.unknown_field:
        hint = did_you_mean(str(p.path[-1]), p.choices)
        return doc.diag(p.path, f"unknown field: {where} has no such field{hint}", stage="validate")
    return doc.diag(p.path, p.message, stage="validate")


def _core(doc: Document, obj: dict[str, Any]) -> list[Diagnostic]:
    try:
        import kubernetes_validate as kv
    except ImportError:
        return [doc.diag((), f"{obj['kind']} not checked: install fluidgen[k8s] for strict core-kind "
                             "validation", "warning")]
    try:
        kv.validate(obj, kv.latest_version(), strict=True)
    except kv.SchemaNotFoundError:
        return [doc.diag(("kind",), f"no Kubernetes schema for {obj['apiVersion']} {obj['kind']}", "info")]
    except kv.ValidationError as exc:
        path = tuple(exc.path)
        message = str(exc.message)
        if "Additional properties are not allowed" in message:
            message = "unknown field: " + message.split("(", 1)[-1].rstrip(")")
        return [doc.diag(path, message, stage="validate")]
    return []
