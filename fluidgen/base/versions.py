"""The Fluid versions fluidgen targets, as data. The only place a version is named.

The engine modules and fluid/ describe every kind and field that any supported version
has. Each version here lists what changed against the version before it; what a version
offers is that union minus what later versions add and what it or earlier ones removed.
Adding a Fluid version is one entry here, plus its golden cases.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal


@dataclass(frozen=True)
class Change:
    action: Literal["add", "remove"]
    owner: str  # an engine name ("juicefs") or a Fluid kind that belongs to no engine ("DataProcess")
    field: str = ""  # a top-level spec field; empty for the whole engine or kind


@dataclass(frozen=True)
class FluidVersion:
    name: str
    kubernetes: str  # minor of k8s.io/api in Fluid's go.mod: the core types its CRDs embed
    source: str  # where the facts about this version were read
    changes: tuple[Change, ...] = ()


# The names, for facts that hold for some versions only (fluidsource.py: versions=since(V1_1_0_DEV)).
V1_0_8 = "v1.0.8"
V1_1_0_DEV = "v1.1.0-dev"

VERSIONS: tuple[FluidVersion, ...] = (
    FluidVersion(V1_0_8, "1.29", "fluid-cloudnative/fluid tag v1.0.8 (de578cd, 2025-10-30)"),
    FluidVersion(V1_1_0_DEV, "1.29", "fluid-cloudnative/fluid master a826600 (2026-07-02)", changes=(
        Change("remove", "goosefs"),  # fluid-cloudnative/fluid#5703
        Change("add", "cache"),  # the generic cache runtime and its class (api/v1alpha1/cacheruntime*_types.go)
        Change("add", "juicefs", "volumeClaimTemplates"),
        Change("add", "DataProcess", "policy"),
        Change("add", "DataProcess", "schedule"),
    )),
)

NAMES: tuple[str, ...] = tuple(v.name for v in VERSIONS)
DEFAULT: str = NAMES[0]


def get(name: str) -> FluidVersion:
    for version in VERSIONS:
        if version.name == name:
            return version
    raise KeyError(f"unsupported Fluid version {name!r}; choose one of {', '.join(NAMES)}")


@cache
def has(version: str, owner: str, field: str = "") -> bool:
    """Whether `version` has an engine or kind (or one of its spec fields)."""
    history = [(v.name, c.action) for v in VERSIONS for c in v.changes if (c.owner, c.field) == (owner, field)]
    present = not history or history[0][1] == "remove"  # first mentioned as added: absent before
    for v in VERSIONS:
        for name, action in history:
            if name == v.name:
                present = action == "add"
        if v.name == version:
            return present
    raise KeyError(version)


def added_fields(owner: str) -> dict[str, list[str]]:
    """Spec fields of `owner` that some versions lack: field -> versions that have it."""
    fields = {c.field for v in VERSIONS for c in v.changes if c.owner == owner and c.field}
    return {f: [v for v in NAMES if has(v, owner, f)] for f in sorted(fields)}


def first_with(owner: str, field: str = "") -> str | None:
    return next((v for v in NAMES if has(v, owner, field)), None)
