"""CustomResourceDefinitions a user points at (`--crds`): a directory of CRD files, one
multi-document file, or a `kubectl get crd -o yaml` List.

Each version's openAPIV3Schema is closed the way kubectl's strict field validation behaves:
an object that lists properties and says nothing of additionalProperties rejects unknown
fields (the rule kubeconform's openapi2jsonschema applies too), and so does the top level.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Tree
from ..base.structural.validate import Problem, Validator
from .inputs import Reader, inside
from .yamlreader import decode, load_text

MAX_CRD_BYTES = 64 * 1024 * 1024
MAX_CRD_NODES = 4_000_000


def close_schema(schema: Any) -> Any:
    """A copy of an OpenAPI schema where objects with properties reject unknown keys."""
    if isinstance(schema, list):
        return [close_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: close_schema(v) for k, v in schema.items() if k != "properties"}
    if isinstance(schema.get("properties"), dict):
        out.update(_closed_properties(schema))
    return out


def _closed_properties(schema: Tree) -> Tree:
    """`properties` with each one closed, and `additionalProperties: false` unless the schema
    already says what unknown keys may do."""
    out: Tree = {"properties": {k: close_schema(v) for k, v in schema["properties"].items()}}
    if "additionalProperties" not in schema and not schema.get("x-kubernetes-preserve-unknown-fields"):
        out["additionalProperties"] = False
    return out


@dataclass
class CrdSet:
    """Validators keyed by (apiVersion, kind), built on first use."""

    schemas: dict[tuple[str, str], Any]
    source: str
    scopes: dict[tuple[str, str], str] = field(default_factory=dict)
    _validators: dict[tuple[str, str], Validator] = field(default_factory=dict)

    @classmethod
    def load(cls, location: str | Path) -> CrdSet:
        files = _crd_files(Path(location))
        if not files:
            raise FluidgenError([Diagnostic(str(location), 0, 0, "error", "no CRD files found (expected a directory "
                                            "of CRD YAML files or one multi-document file)")])
        schemas, scopes = _read_schemas(files)
        if not schemas:
            raise FluidgenError([Diagnostic(str(location), 0, 0, "error", "no CustomResourceDefinition found")])
        return cls(schemas, str(location), scopes)

    @classmethod
    def load_all(cls, locations: tuple[str, ...]) -> CrdSet:
        """Several --crds locations as one set (Fluid's, plus External Secrets', ...)."""
        sets = [cls.load(location) for location in locations]
        schemas = {k: v for s in sets for k, v in s.schemas.items()}
        scopes = {k: v for s in sets for k, v in s.scopes.items()}
        return cls(schemas, ", ".join(s.source for s in sets), scopes)

    def knows(self, api_version: str, kind: str) -> bool:
        return (api_version, kind) in self.schemas

    def validator(self, api_version: str, kind: str) -> Validator:
        key = (api_version, kind)
        if key not in self._validators:
            self._validators[key] = Validator(self.schemas[key])
        return self._validators[key]

    def check(self, obj: Tree) -> list[Problem]:
        """Problems of a whole object; metadata is checked on its own (names, labels)."""
        body = {k: v for k, v in obj.items() if k != "metadata"}
        try:
            return self.validator(str(obj.get("apiVersion")), str(obj.get("kind"))).problems(body)
        except (TypeError, AttributeError, KeyError, ValueError, IndexError, re.error, RecursionError) as exc:
            # The user's CRD, not the object, is broken: say so instead of failing.
            return [Problem((), f"cannot check against {self.source}: its schema for {obj.get('kind')} is malformed "
                                f"({type(exc).__name__})", "schema")]


def _crd_files(root: Path) -> list[Path]:
    """A directory's YAML and JSON files (regular files inside it), or the one file named."""
    if not root.is_dir():
        return [root]
    files = sorted(p for p in root.iterdir() if p.suffix in (".yaml", ".yml", ".json"))
    _only_regular_inside(root, files)
    return files


def _read_schemas(files: list[Path]) -> tuple[dict[tuple[str, str], Tree], dict[tuple[str, str], str]]:
    """The schema and the scope of every (apiVersion, kind) the CRDs in these files define."""
    reader = Reader()
    schemas: dict[tuple[str, str], Tree] = {}
    scopes: dict[tuple[str, str], str] = {}
    for f in files:
        for doc in load_text(str(f), decode(str(f), reader.read(str(f), MAX_CRD_BYTES)), MAX_CRD_NODES):
            for crd in _crds_in(doc.data):
                found = _schemas_of(crd)
                schemas.update(found)
                scopes.update(dict.fromkeys(found, str((crd.get("spec") or {}).get("scope", "Namespaced"))))
    return schemas, scopes


def _crds_in(doc: Any) -> Iterator[Tree]:
    if not isinstance(doc, dict):
        return
    if doc.get("kind") == "CustomResourceDefinition":
        yield doc
    elif str(doc.get("kind", "")).endswith("List"):
        for item in doc.get("items") or []:
            yield from _crds_in(item)


def _schemas_of(crd: Tree) -> dict[tuple[str, str], Any]:
    spec: Tree = crd["spec"] if isinstance(crd.get("spec"), dict) else {}
    names: Tree = spec["names"] if isinstance(spec.get("names"), dict) else {}
    group, kind = str(spec.get("group")), str(names.get("kind"))
    out = {}
    for version in spec.get("versions") or []:
        if not isinstance(version, dict):
            continue
        schema = _version_schema(spec, version)
        if isinstance(schema, dict):
            closed = close_schema(copy.deepcopy(schema))
            props = closed.setdefault("properties", {})
            props["metadata"] = {"type": "object"}
            # the API server keeps apiVersion and kind at a custom resource's root whatever its
            # schema lists (apiextensions-apiserver's pruning skips them, as metadata)
            props.setdefault("apiVersion", {"type": "string"})
            props.setdefault("kind", {"type": "string"})
            closed["additionalProperties"] = False
            out[(f"{group}/{version.get('name')}", kind)] = closed
    return out


def _version_schema(spec: Tree, version: Tree) -> object:
    """A version's openAPIV3Schema, else the whole CRD's (apiextensions v1beta1 `validation`)."""
    return ((version.get("schema") or {}).get("openAPIV3Schema")) or \
        (spec.get("validation") or {}).get("openAPIV3Schema")


def _only_regular_inside(root: Path, files: list[Path]) -> None:
    """A CRD directory's files must be regular files whose real path stays inside it (a
    planted FIFO would hang the read; a link could pull in any file)."""
    import os
    import stat


    real_root = os.path.realpath(root)
    problems = []
    for f in files:
        try:
            regular = stat.S_ISREG(os.stat(f).st_mode)
        except OSError as exc:
            problems.append(Diagnostic(str(f), 0, 0, "error", f"cannot read: {exc.strerror}"))
            continue
        if not inside(os.path.realpath(f), real_root):
            problems.append(Diagnostic(str(f), 0, 0, "error", f"a symbolic link that leads outside {root}; "
                                                              "name the CRD file itself with --crds"))
        elif not regular:
            problems.append(Diagnostic(str(f), 0, 0, "error", "not a regular file"))
    if problems:
        raise FluidgenError(problems)
