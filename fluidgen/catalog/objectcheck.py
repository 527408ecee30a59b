"""Check one Kubernetes object the way the API server would: its schema (strictly, unknown
fields are errors) and its names.

- Fluid kinds: fluidgen's built-in model of the target Fluid version (catalog/schemas.py),
  or CRDs the user points at.
- Core kinds: the strict schemas kubernetes-validate ships (base/structural/kube.py).
- Every object: metadata names, labels and annotations (names.py), Secret data keys.
Used for what fluidgen emits (a self-check before anything is written) and by
`fluidgen validate` for hand-written manifests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import names, versions
from ..base.diagnostics import PathT, Severity, did_you_mean
from ..base.manifest import Tree
from ..base.structural import kube
from ..base.structural.validate import Problem, describe
from ..fluid.common import GROUP_VERSION
from ..io.crds import CrdSet
from . import kinds, schemas
from .kinds import table


@dataclass(frozen=True)
class ObjectProblem:
    path: PathT
    message: str
    severity: Severity = "error"
    choices: tuple[str, ...] = ()
    unknown_field: bool = False


def _from_problem(p: Problem, where: str) -> ObjectProblem:
    if p.unknown_field:
        hint = did_you_mean(str(p.path[-1]), p.choices)
        return ObjectProblem(p.path, f"unknown field: {where} has no such field{hint}", choices=p.choices,
                             unknown_field=True)
    return ObjectProblem(p.path, p.message, p.severity)


def check_object(obj: Any, version: str, crds: CrdSet | None = None) -> list[ObjectProblem]:
    identity = _identity(obj)
    if isinstance(identity, ObjectProblem):
        return [identity]
    api_version, kind = identity
    out = _schema(obj, api_version, kind, version, crds)
    out += _metadata(obj, api_version, kind)
    out += _node_labels(obj, ())
    if (api_version, kind) == ("v1", "Secret"):
        out += _secret_keys(obj)
    return out


def _identity(obj: object) -> tuple[str, str] | ObjectProblem:
    """The object's apiVersion and kind, or why it is not a Kubernetes object."""
    if not isinstance(obj, dict):
        return ObjectProblem((), f"expected a Kubernetes object (a mapping), found {describe(obj)}")
    for key in ("apiVersion", "kind"):
        if key not in obj:
            return ObjectProblem((), f"not a Kubernetes object: {key} is required")
        if not isinstance(obj[key], str) or not obj[key]:
            return ObjectProblem((key,), f"{key} must be a non-empty string")
    if obj["apiVersion"].count("/") > 1:
        return ObjectProblem(("apiVersion",), f'"{obj["apiVersion"]}" is not an API version (group/version, or v1)')
    return obj["apiVersion"], obj["kind"]


def _metadata(obj: Tree, api_version: str, kind: str) -> list[ObjectProblem]:
    if isinstance(obj.get("metadata"), dict):
        info = kinds.table().get(kind)
        rule = info.name_rule if info is not None else "dns1123-subdomain"
        return [ObjectProblem(path, message) for path, message in names.metadata_problems(obj["metadata"], rule)]
    if "metadata" in obj or kube.knows(api_version, kind) or schemas.is_fluid(api_version):
        return [ObjectProblem(("metadata",), "metadata with a name is required")]
    return []


def _node_labels(node: object, path: PathT) -> list[ObjectProblem]:
    """Every key and value a nodeSelector or a nodeAffinity's matchExpressions ask of a node label
    (names.py node_label_value: a value no node can carry matches no node), wherever it lies."""
    out: list[ObjectProblem] = []
    if isinstance(node, dict):
        for key, value in node.items():
            at = (*path, str(key))
            if key == "nodeSelector" and isinstance(value, dict):
                for label, wanted in value.items():
                    problem = names.qualified_name(str(label)) or (
                        names.node_label_value(wanted) if isinstance(wanted, str) else None)
                    if problem is not None:
                        out.append(ObjectProblem((*at, str(label)), problem))
            elif key == "nodeAffinity":
                out += _affinity_values(value, at)
            else:
                out += _node_labels(value, at)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            out += _node_labels(item, (*path, i))
    return out


def _affinity_values(node: object, path: PathT) -> list[ObjectProblem]:
    """The values of In and NotIn expressions (matchExpressions; matchFields name nodes, not labels)."""
    out: list[ObjectProblem] = []
    if isinstance(node, dict):
        values = node.get("values")
        if node.get("operator") in ("In", "NotIn") and "key" in node and isinstance(values, list):
            out += [ObjectProblem((*path, "values", i), problem) for i, v in enumerate(values)
                    if isinstance(v, str) and (problem := names.node_label_value(v, True)) is not None]
        out += [p for key, value in node.items() if key != "matchFields"
                for p in _affinity_values(value, (*path, str(key)))]
    elif isinstance(node, list):
        out += [p for i, item in enumerate(node) for p in _affinity_values(item, (*path, i))]
    return out


def _secret_keys(obj: Tree) -> list[ObjectProblem]:
    out = []
    for field in ("data", "stringData"):
        values = obj.get(field)
        for key in values if isinstance(values, dict) else {}:
            if (problem := names.secret_key(str(key))) is not None:
                out.append(ObjectProblem((field, str(key)), problem))
    return out


def _schema(obj: Tree, api_version: str, kind: str, version: str, crds: CrdSet | None) -> list[ObjectProblem]:
    if schemas.is_fluid(api_version):
        return _fluid_schema(obj, api_version, kind, version, crds)
    if crds is not None and crds.knows(api_version, kind):
        return _crd_problems(obj, kind, crds)
    try:
        if kube.knows(api_version, kind):
            return [_from_problem(p, f"Kubernetes {kube.latest()} {kind}")
                    for p in kube.kind_validator(api_version, kind).problems(obj)]
    except kube.SchemasMissing as exc:
        return [ObjectProblem((), f"{kind} not checked: {exc}", "warning")]
    return _not_checked(api_version, kind)


def _fluid_schema(obj: Tree, api_version: str, kind: str, version: str,
                  crds: CrdSet | None) -> list[ObjectProblem]:
    """A Fluid kind: against the user's Fluid CRDs when they give some, else the built-in model."""
    if crds is not None and any(schemas.is_fluid(v) for v, _ in crds.schemas):
        if not crds.knows(api_version, kind):
            return [ObjectProblem(("kind",), f"no CRD for {kind} ({api_version}) in {crds.source}")]
        return _crd_problems(obj, kind, crds)
    return _fluid({k: v for k, v in obj.items() if k != "metadata"}, api_version, kind, version)


def _crd_problems(obj: Tree, kind: str, crds: CrdSet) -> list[ObjectProblem]:
    return [_from_problem(p, f"{kind} in {crds.source}") for p in crds.check(obj)]


def _not_checked(api_version: str, kind: str) -> list[ObjectProblem]:
    """A kind with no schema here: an error in a group Kubernetes serves itself (a CRD's group
    has a dot, so a group without one is Kubernetes'), else a note: a *.k8s.io group Kubernetes
    does not serve (VolumeSnapshot's snapshot.storage.k8s.io) is a CRD's."""
    group = api_version.rpartition("/")[0]
    if "." not in group or group in kube.groups(kube.latest()):
        return [ObjectProblem(("kind",), f"Kubernetes {kube.latest()} has no kind {kind} in {api_version}")]
    if kind in table():  # emitted by fluidgen, defined by another project (External Secrets, ...)
        return [ObjectProblem(("kind",), f"{kind} ({api_version}) not checked: its project's CRD is not built in; "
                                         "give it with --crds to check it", "info")]
    return [ObjectProblem(("kind",), f"{kind} ({api_version}) is not a kind fluidgen knows; not checked (give its CRD "
                                     "with --crds to check it)", "info")]


def _fluid(body: Tree, api_version: str, kind: str, version: str) -> list[ObjectProblem]:
    # The findings are a pure function of the body: a batch of specs sharing a profile checks
    # the same runtime spec again and again (keyed by its repr: same content, same order).
    key = (version, api_version, kind, repr(body))
    found = _CHECKED.get(key)
    if found is None:
        found = tuple(_fluid_uncached(body, api_version, kind, version))
        if len(_CHECKED) < _CHECKED_MAX:
            _CHECKED[key] = found
    return list(found)


_CHECKED: dict[tuple[str, str, str, str], tuple[ObjectProblem, ...]] = {}
_CHECKED_MAX = 4096


def _fluid_uncached(body: Tree, api_version: str, kind: str, version: str) -> list[ObjectProblem]:
    if schemas.kind_of(version, kind) is None:
        elsewhere = [v for v in versions.NAMES if schemas.kind_of(v, kind) is not None]
        if elsewhere:
            return [ObjectProblem(("kind",), f"Fluid {version} has no kind {kind} (Fluid {', '.join(elsewhere)} "
                                             "has it); choose the version with --fluid-version")]
        return [ObjectProblem(("kind",), f"Fluid has no kind {kind}{did_you_mean(kind, schemas.kinds(version))}")]
    if api_version != GROUP_VERSION:
        return [ObjectProblem(("apiVersion",), f"Fluid serves {kind} as {GROUP_VERSION}, not {api_version}")]
    return [_from_problem(p, f"Fluid {version} {kind}") for p in schemas.validator(version, kind).problems(body)]
