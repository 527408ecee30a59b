"""Every kind fluidgen emits, in one table: API version, scope, naming rule and apply order.

Fluid's kinds (the Dataset, runtimes and the kinds engines bring, data operations) come from
the one list of catalog/schemas.py (all_kinds), job kinds from jobkinds.py; the rest are listed
here. Nothing else keeps a list of kinds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..engines import engine_table
from ..fluid.common import GROUP_VERSION
from ..fluid.jobkinds import WORKLOADS
from ..fluid.operations import OPERATIONS

if TYPE_CHECKING:
    from ..engines.contract import Engine

# Apply order. DO NOT CHANGE without a reason: Secrets and volumes must exist before the
# Dataset that mounts them, the Dataset before its runtime, the runtime before data
# operations, and those before the jobs that read the data. Objects of one rank keep the
# order their spec produced them in (a pipeline's steps stay in order).
RANK_SECRET, RANK_PV, RANK_PVC, RANK_RUNTIME_SUPPORT, RANK_DATASET, RANK_RUNTIME = 0, 1, 2, 3, 4, 5
RANK_RBAC, RANK_OPERATION, RANK_WORKLOAD = 6, 7, 8


@dataclass(frozen=True)
class KindInfo:
    kind: str
    api_version: str
    rank: int
    namespaced: bool = True
    name_rule: str = "dns1123-subdomain"  # or "dns1035" (Fluid's Datasets and runtimes)


STATIC = (
    KindInfo("Secret", "v1", RANK_SECRET),
    # External Secrets Operator (credentials.externalSecret): creates the Secret in the cluster
    KindInfo("ExternalSecret", "external-secrets.io/v1", RANK_SECRET),
    KindInfo("PersistentVolume", "v1", RANK_PV, namespaced=False),
    KindInfo("PersistentVolumeClaim", "v1", RANK_PVC),
    KindInfo("Dataset", GROUP_VERSION, RANK_DATASET, name_rule="dns1035"),
    # What a data operation that submits training jobs runs as (lower/workloads.py)
    KindInfo("ServiceAccount", "v1", RANK_RBAC),
    KindInfo("Role", "rbac.authorization.k8s.io/v1", RANK_RBAC),
    KindInfo("RoleBinding", "rbac.authorization.k8s.io/v1", RANK_RBAC),
)


def _runtime_row(kind: str) -> KindInfo:
    return KindInfo(kind, GROUP_VERSION, RANK_RUNTIME, name_rule="dns1035")


def _engine_rows(engine: Engine) -> list[KindInfo]:
    return [_runtime_row(engine.kind),
            *(KindInfo(x.kind, GROUP_VERSION, RANK_RUNTIME_SUPPORT, x.namespaced) for x in engine.extra_kinds)]


class KindTable(Mapping[str, KindInfo]):
    """The table of kinds. Looking up one engine's kind imports that engine's module only;
    iterating it imports every engine (the rows in the order: static, engines, operations, jobs)."""

    def __init__(self) -> None:
        self._rows = {row.kind: row for row in (
            *STATIC, *(KindInfo(op.kind, GROUP_VERSION, RANK_OPERATION) for op in OPERATIONS.values()),
            *(KindInfo(w.kind, w.api_version, RANK_WORKLOAD) for w in WORKLOADS.values()))}

    def __getitem__(self, kind: str) -> KindInfo:
        found = self._rows.get(kind)
        if found is not None:
            return found
        if kind in engine_table.RUNTIME_KINDS:  # a runtime's row needs no more than the index
            return _runtime_row(kind)
        engine = engine_table.owner(kind)
        if engine is None:
            raise KeyError(kind)
        return next(row for row in _engine_rows(engine) if row.kind == kind)

    def _all(self) -> dict[str, KindInfo]:
        rows = [*STATIC, *(r for e in engine_table.all_engines().values() for r in _engine_rows(e))]
        rows += [r for r in self._rows.values() if r.rank in (RANK_OPERATION, RANK_WORKLOAD)]
        return {row.kind: row for row in rows}

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


@cache
def table() -> KindTable:
    return KindTable()


# Argo CD sync waves (GitOps mode), from the apply order. The Dataset and its runtime share a
# wave: the Dataset becomes Bound only once the runtime is ready, so with the health checks
# (fluidgen/catalog/health/) Argo CD waits for both before it applies the data operations.
SYNC_WAVE_ANNOTATION = "argocd.argoproj.io/sync-wave"
_WAVES = {RANK_SECRET: 0, RANK_PV: 0, RANK_PVC: 0, RANK_RBAC: 0, RANK_RUNTIME_SUPPORT: 1, RANK_DATASET: 1,
          RANK_RUNTIME: 1, RANK_OPERATION: 2, RANK_WORKLOAD: 3}


# Flux's postBuild substitution replaces ${VAR} in every built object; this annotation with the
# value "disabled" exempts one (kustomize-controller docs, "Post build variable substitution").
FLUX_SUBSTITUTE_ANNOTATION = "kustomize.toolkit.fluxcd.io/substitute"
# Flux deletes and re-creates an object carrying this annotation, with the value "enabled", when its
# apply is refused as immutable (kustomize-controller v1.9.4 internal/controller/kustomization_controller.go
# sets it as ssa ApplyOptions.ForceSelector; fluxcd/pkg ssa/v0.76.1 manager_apply.go shouldForceApply,
# ssa/errors/immutable.go IsImmutableError). An apply that succeeds never re-creates.
FLUX_FORCE_ANNOTATION = "kustomize.toolkit.fluxcd.io/force"


def sync_wave(kind: str) -> int:
    return _WAVES.get(rank(kind), _WAVES[RANK_WORKLOAD])


def rank(kind: str) -> int:
    info = table().get(kind)
    return info.rank if info is not None else RANK_WORKLOAD + 1


def namespaced(kind: str) -> bool:
    info = table().get(kind)
    return info.namespaced if info is not None else True
