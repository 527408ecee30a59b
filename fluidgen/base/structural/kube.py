"""Core Kubernetes types, from the JSON Schemas that kubernetes-validate ships.

Two uses:
- Embedded types inside Fluid objects (resources, tolerations, affinity, volumes, env,
  probes, pod specs, ...). A CRD embeds the core types of the k8s.io/api version its
  project builds against, so each Fluid version names that Kubernetes minor (versions.py)
  and its objects are checked against the strict schemas of that minor.
- Core kinds fluidgen emits or reads (Secret, PersistentVolume, Job, RBAC, ...), checked
  strictly against the newest Kubernetes schemas the installed kubernetes-validate has.

Only the definitions a document refers to are ever walked; the file of a minor version is
read once per process (about 4 ms).
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

from ..diagnostics import Unavailable
from ..manifest import Tree
from ..quantity import QUANTITY_RE
from .validate import PathT, Validator

PREFIX = "io.k8s."
QUANTITY_DEF = "io.k8s.apimachinery.pkg.api.resource.Quantity"
OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
# How CRDs render the core types, where that differs from the Kubernetes OpenAPI:
# a quantity is an integer or a string matching the quantity pattern (not any number).
QUANTITY_SCHEMA: Tree = {"anyOf": [{"type": "integer"}, {"type": "string"}],
                                   "pattern": QUANTITY_RE.pattern, "x-kubernetes-int-or-string": True}
PATCHES = {QUANTITY_DEF: QUANTITY_SCHEMA}
VOLUME = "io.k8s.api.core.v1.Volume"
VOLUME_SOURCE = "io.k8s.api.core.v1.VolumeSource"
PVC = "io.k8s.api.core.v1.PersistentVolumeClaim"


class SchemasMissing(LookupError, Unavailable):
    """kubernetes-validate is not installed, or lacks the requested Kubernetes version."""


@cache
def _schema_root() -> Path:
    """The schemas folder inside the installed kubernetes-validate, found without importing the
    package (its import pulls in jsonschema, about 40 ms)."""
    spec = importlib.util.find_spec("kubernetes_validate")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise SchemasMissing("kubernetes-validate (the Kubernetes schemas fluidgen checks objects against) is not "
                             "installed in this Python environment; reinstall fluidgen, or pip install "
                             "kubernetes-validate")
    return Path(locations[0]) / "kubernetes-json-schema"


@cache
def available_versions() -> tuple[str, ...]:
    """Kubernetes minors with strict schemas, oldest first ("1.29", ...)."""
    found = []
    root = _schema_root()
    for entry in root.iterdir() if root.is_dir() else ():
        name = entry.name
        if name.startswith("v") and name.endswith("-local-strict"):
            found.append(".".join(name[1:].split("-")[0].split(".")[:2]))
    return tuple(sorted(found, key=lambda v: tuple(int(p) for p in v.split("."))))


def latest() -> str:
    versions = available_versions()
    if not versions:
        raise SchemasMissing("kubernetes-validate ships no schemas")
    return versions[-1]


@cache
def definitions(minor: str) -> Tree:
    """Every strict definition of a Kubernetes minor version, by its full name."""
    folder = _schema_root() / f"v{minor}.0-local-strict"
    try:
        data = json.loads(folder.joinpath("_definitions.json").read_bytes())
    except FileNotFoundError as exc:
        raise SchemasMissing(f"kubernetes-validate has no schemas for Kubernetes {minor}") from exc
    defs: Tree = data["$defs"]
    return defs


def ref(name: str) -> dict[str, str]:
    """A schema fragment referring to a core type, e.g. ref("api.core.v1.Toleration")."""
    return {"$ref": f"#/$defs/{PREFIX}{name}"}


@cache
def crd_embedding(minor: str) -> Tree:
    """Definitions as CRDs embed them, where that differs from the Kubernetes OpenAPI:
    an embedded ObjectMeta (a volumeClaimTemplate's metadata) is an open object, and a
    VolumeSource (which the OpenAPI inlines into Volume) is a Volume without its name, and an
    embedded whole object (a PersistentVolumeClaim template) takes any apiVersion and kind."""
    defs = definitions(minor)
    volume = defs[VOLUME]
    source = {**volume, "properties": {k: v for k, v in volume["properties"].items() if k != "name"}}
    source["required"] = [r for r in volume.get("required", ()) if r != "name"]
    claim = defs[PVC]
    claim = {**claim, "properties": {**claim["properties"], "apiVersion": {"type": "string"},
                                     "kind": {"type": "string"}}}
    return {**PATCHES, OBJECT_META: {"type": "object"}, VOLUME_SOURCE: source, PVC: claim}


def embedded_validator(schema: Tree, minor: str) -> Validator:
    """A validator for a CRD-style schema whose $refs name core types of `minor`."""
    return Validator(schema, definitions(minor), crd_embedding(minor))


@cache
def _kinds(minor: str) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for name, schema in definitions(minor).items():
        for gvk in schema.get("x-kubernetes-group-version-kind", ()):
            group, version = gvk.get("group", ""), gvk.get("version", "")
            api_version = f"{group}/{version}" if group else version
            out.setdefault((api_version, gvk["kind"]), name)
    return out


def knows(api_version: str, kind: str, minor: str | None = None) -> bool:
    return (api_version, kind) in _kinds(minor or latest())


@cache
def groups(minor: str) -> frozenset[str]:
    """The API groups Kubernetes `minor` serves itself ("" the core group): a *.k8s.io group
    outside them (snapshot.storage.k8s.io, gateway.networking.k8s.io) comes from a CRD."""
    return frozenset(api_version.rpartition("/")[0] for api_version, _ in _kinds(minor))


def _secret_value(path: PathT) -> bool:
    return len(path) >= 1 and path[0] in ("data", "stringData")


@cache
def kind_validator(api_version: str, kind: str, minor: str | None = None) -> Validator:
    """Strict validator for a whole core object (apiVersion, kind, metadata included)."""
    version = minor or latest()
    name = _kinds(version)[(api_version, kind)]
    redact = _secret_value if (api_version, kind) == ("v1", "Secret") else (lambda _p: False)
    return Validator({"$ref": f"#/$defs/{name}"}, definitions(version), PATCHES, redact)
