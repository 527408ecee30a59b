"""What an engine's Fluid does with each field of its runtime and of the Dataset it serves.

Fluid's CRDs share their shapes across engines, so a field the API server accepts may be one an
engine never reads, reads under another name, or reads only under a condition. Each engine module
states, per field and Fluid version, what its Fluid does with it: one `FieldRead` (a cell of
docs/runtime-fields.md) with the source that decides it. Lowering, lint, `explain`, the profiles'
test and the page read the cells through `Fields.cell`; tests/catalog/test_runtime_fields.py checks every
cell against Fluid's code (a read field is read by the function cited, an ignored one by no code of
the engine), so a changed cell fails there. Toolkit floor: imports base only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..base.fluidsource import ALL, FluidSource, source

# How Fluid treats a field (FieldRead.how). The last three change what setting the field does.
READ = "read"  # applied as written
MERGED = "merged"  # applied, merged with what Fluid sets itself or with another field (note says how)
OWN_DEFAULT = "own default"  # applied; left out, this engine's default differs from the others' (note)
CONDITION = "condition"  # applied only when the condition in `note` holds (`when` checks it)
OTHER_NAME = "other name"  # this field is not read; `instead` is the one Fluid reads for it
IGNORED = "ignored"  # no code of the engine reads it: setting it changes nothing
HOWS = (READ, MERGED, OWN_DEFAULT, CONDITION, OTHER_NAME, IGNORED)
NOT_APPLIED = frozenset({OTHER_NAME, IGNORED})

RUNTIME = "runtime"  # the runtime object's spec
DATASET = "dataset"  # the Dataset's spec
PARTS = (RUNTIME, DATASET)

Spec = Mapping[str, Any]


@dataclass(frozen=True)
class FieldRead:
    """One cell: what the engine's Fluid does with `field` at the versions its source holds for."""

    field: str  # dotted path in the runtime's (or the Dataset's) spec: "fuse.resources", "owner"
    how: str  # one of HOWS
    source: FluidSource  # the function (or chart template) that decides it, with its versions
    # The Go selector Fluid reads the field by, on the runtime or Dataset object ("Spec.Fuse.Resources").
    # A cell that is applied names a function whose code has it; an IGNORED one: no code of the engine has it.
    go: str = ""
    note: str = ""  # the condition, the other name, the default, what Fluid adds: said to users as written
    instead: str = ""  # OTHER_NAME, IGNORED: the field (or fields) that work instead, if any
    # CONDITION: whether a runtime (or Dataset) spec meets the condition, read from the spec as written.
    when: Callable[[Spec], bool] | None = None
    # Chart text the cell rests on besides `go`: (file, text, whether it is there), checked at each version.
    evidence: tuple[tuple[str, str, bool], ...] = ()
    # fuse.resources: Fluid adds the quota of the MEM cache tiers to the memory limit it sets.
    adds_mem_tier: bool = False

    def __post_init__(self) -> None:
        if self.how not in HOWS:
            raise ValueError(f"{self.field}: how must be one of {', '.join(HOWS)}, got {self.how!r}")
        if self.how == CONDITION and (self.when is None or not self.note):
            raise ValueError(f"{self.field}: a condition cell states its condition (note) and checks it (when)")
        if self.how == OTHER_NAME and not self.instead:
            raise ValueError(f"{self.field}: an other-name cell names the field Fluid reads (instead)")

    @property
    def applied(self) -> bool:
        return self.how not in NOT_APPLIED

    def holds(self, spec: Spec) -> bool:
        """Whether setting the field in `spec` does what it says: the cell's check when it has one (a
        condition met; another name's field agreeing), else whether Fluid applies it at all."""
        return self.when(spec) if self.when is not None else self.applied

    def message(self, kind: str, where: str = "") -> str:
        """What Fluid does with the field, in one sentence: the field that works and the source."""
        cite = self.source.cite()
        note = f": {self.note}" if self.note else ""
        if self.how == IGNORED:
            fix = f"; use {self.instead}" if self.instead else "; drop it"
            return f"{kind} ignores {where}{self.field}{note}{fix} ({cite})"
        if self.how == CONDITION:
            return f"{kind} applies {where}{self.field} only on a condition{note}; {self.instead} ({cite})"
        return f"{kind} does not apply {where}{self.field} as written{note}; set {self.instead} ({cite})"

    def says(self) -> str:
        """The cell in words, for diagnostics and the page."""
        words = {READ: "read as written", MERGED: "read, merged", OWN_DEFAULT: "read, with a default of its own",
                 CONDITION: "read only on a condition", OTHER_NAME: "not read under this name",
                 IGNORED: "ignored"}[self.how]
        parts = [words]
        if self.note:
            parts.append(self.note)
        if self.instead:
            parts.append(f"to apply it: {self.instead}" if self.how == CONDITION else f"instead: {self.instead}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Fields:
    """The cells of one engine. `package` is its transform code (pkg/ddc/<engine>), `types` its API
    type's file, `base_var` the variable pkg/ddc/base/runtime.go GetRuntimeInfo reads its runtime by."""

    package: str = ""
    types: str = ""
    base_var: str = ""
    runtime: tuple[FieldRead, ...] = ()
    dataset: tuple[FieldRead, ...] = ()

    def cells(self, part: str) -> tuple[FieldRead, ...]:
        return self.runtime if part == RUNTIME else self.dataset

    def cell(self, part: str, path: tuple[str | int, ...] | str, version: str) -> FieldRead | None:
        """The cell for a setting at `path` (or below it) at `version`: the one whose field is the
        longest prefix of the path and whose source holds for the version; None: not in the matrix."""
        parts = tuple(path.split(".")) if isinstance(path, str) else tuple(str(p) for p in path)
        best: FieldRead | None = None
        for c in self.cells(part):
            f = tuple(c.field.split("."))
            if parts[:len(f)] == f and c.source.holds_for(version) and (
                    best is None or len(f) > len(best.field.split("."))):
                best = c
        return best

    def unapplied(self, part: str, spec: Spec, version: str) -> Iterator[FieldRead]:
        """The cells of the fields `spec` sets that do not do what they say at `version` (ignored,
        read under another name, or their condition unmet), each once, in the spec's order."""
        seen: set[str] = set()
        for path in set_fields(spec):
            c = self.cell(part, path, version)
            if c is not None and c.field not in seen:
                seen.add(c.field)
                if not c.holds(spec):
                    yield c

    def fields(self, part: str) -> tuple[str, ...]:
        """The fields with a cell, in the order first written."""
        return tuple(dict.fromkeys(c.field for c in self.cells(part)))


def set_fields(spec: Spec, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every value set in a spec (a leaf, an empty map or list counts as set)."""
    for key, value in spec.items():
        path = (*prefix, str(key))
        if isinstance(value, Mapping) and value:
            yield from set_fields(value, path)
        else:
            yield path


def limit(spec: Spec, component: str, resource: str) -> Any:
    """spec.<component>.resources.limits.<resource> as written, or None."""
    comp = spec.get(component)
    resources = comp.get("resources") if isinstance(comp, Mapping) else None
    limits = resources.get("limits") if isinstance(resources, Mapping) else None
    return limits.get(resource) if isinstance(limits, Mapping) else None


def memory_limit_given(component: str) -> Callable[[Spec], bool]:
    """The condition of a component's resources that Fluid applies only with a memory limit."""
    def check(spec: Spec) -> bool:
        return limit(spec, component, "memory") is not None
    return check


# -- Cells decided outside the engine's package, the same for every engine that reads them -------

_BASE = "pkg/ddc/base/runtime.go"
_AFFINITY = "pkg/ctrl/affinity.go"


def fuse_clean_policy(versions: tuple[str, ...] | None = None, field: str = "fuse.cleanPolicy",
                      go: str = "Spec.Fuse.CleanPolicy") -> FieldRead:
    """fuse.cleanPolicy: the runtime info every controller reads (pkg/ddc/base GetRuntimeInfo ->
    SetupFuseCleanPolicy); left out it is OnRuntimeDeleted."""
    return FieldRead(field, READ,
                     source(_BASE, "GetRuntimeInfo", versions or ALL,
                            note="SetupFuseCleanPolicy: an empty policy is OnRuntimeDeleted"),
                     go=go, note="left out: OnRuntimeDeleted (SetupFuseCleanPolicy)")


def dataset_node_affinity(package: str, chart: str, versions: tuple[str, ...] | None = None,
                          worker: str = "worker/statefulset.yaml") -> FieldRead:
    """The Dataset's nodeAffinity: the engine's SetupWorkers runs pkg/ctrl Helper.SetupWorkers, whose
    BuildWorkersAffinity puts its required terms on the worker StatefulSet's pods when the chart
    (charts/<chart>/templates/<worker>) gave them no affinity."""
    return FieldRead("nodeAffinity", READ, source(_AFFINITY, "BuildWorkersAffinity", versions or ALL),
                     go="Spec.NodeAffinity",
                     note="its required terms become the cache workers' node affinity (not the FUSE's)",
                     evidence=((f"{package}/worker.go", "Helper.SetupWorkers(", True),
                               (f"charts/{chart}/templates/{worker}", "affinity:", False)))


def dataset_placement(package: str, versions: tuple[str, ...] | None = None) -> FieldRead:
    """The Dataset's placement (Exclusive or Shared): the engine's transformPlacementMode."""
    return FieldRead("placement", READ, source(f"{package}/transform.go", "transformPlacementMode", versions or ALL),
                     go="Spec.PlacementMode")
