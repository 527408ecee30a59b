"""What every runtime module declares, and helpers shared by all lowering stages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..api import GROUP_VERSION
from ..diagnostics import Diagnostic
from ..source import Document
from ..spec import Spec

OPERATIONS = ("DataMigrate", "DataProcess", "DataLoad", "DataBackup")


@dataclass(frozen=True)
class Engine:
    """A Fluid runtime as fluidgen drives it. Facts from fluid-api-notes.md, per runtime."""

    name: str
    kind: str
    doc: str
    schemes: frozenset[str] | None  # accepted mountPoint schemes; None: any scheme
    operations: frozenset[str]
    path_separator: str = ","  # between several cache paths of one level
    single_tier: bool = True  # the engine reads only tieredstore.levels[0]
    single_mount: bool = False  # the engine uses only the first mount
    needs_mounts: bool = True
    defaults: Mapping[str, Any] = field(default_factory=dict)
    # scheme -> encryptOption names the engine reads for that storage
    secret_keys: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # scheme -> options that must be present on a mount
    required_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    versions: frozenset[str] = frozenset({"v1.0.8", "v1.1.0-dev"})
    removed_note: str = ""


@dataclass
class Context:
    """One spec being compiled: the parsed spec, where it came from, the target."""

    spec: Spec
    doc: Document
    version: str
    namespace: str
    env: Mapping[str, str]
    read_credentials: bool = True
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.metadata.name


def metadata(ctx: Context, name: str, namespaced: bool = True) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if namespaced:
        meta["namespace"] = ctx.namespace
    if ctx.spec.metadata.labels:
        meta["labels"] = dict(ctx.spec.metadata.labels)
    if ctx.spec.metadata.annotations:
        meta["annotations"] = dict(ctx.spec.metadata.annotations)
    return meta


def fluid_object(ctx: Context, kind: str, name: str, spec: dict[str, Any],
                 namespaced: bool = True) -> dict[str, Any]:
    return {"apiVersion": GROUP_VERSION, "kind": kind,
            "metadata": metadata(ctx, name, namespaced), "spec": spec}


def scheme_of(uri: str) -> str:
    head, sep, _ = uri.partition("://")
    return head.lower() if sep else ""
