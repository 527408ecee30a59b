"""Flux: health expressions and Kustomizations for a fluidgen build.

Flux judges health with kstatus, which calls any object without `Ready`/`Stalled` conditions
"Current" as soon as it exists: every Fluid object and training job. Since
kustomize-controller v1.5 a Kustomization can carry `healthCheckExprs` (CEL `current`,
`failed`, `inProgress` per apiVersion/kind). `health_exprs(version)` renders the one health
table (fluidgen/catalog/healthcheck.py) to them, one entry per kind (a group-only entry would also
match the status-less kinds engines bring, such as runtime classes and profiles).

Each family's rules hold in order (the first that holds decides), so every expression is the
same chain of CEL conditionals, answering true where the rule's status is the one asked for.
Flux parses each expression with no declared variables and evaluates it over the object's
top-level fields (fluxcd/pkg runtime/cel NewExpression, StatusEvaluator.Evaluate), so a
field is read as `string(...)` behind a `has` for every level of its path, and reads as ''
when missing. An object with no status has no `status` variable: every expression fails to
evaluate and Flux reports the object Unknown (kstatus), which the wait treats as not ready yet,
as the rules' "in progress".

`kustomizations(...)` orders data before training: one Kustomization for Secrets,
ExternalSecrets, Datasets, runtimes and data operations (wait, the health expressions, a
timeout that covers a DataLoad), and one for the workloads in DIR/workloads with `dependsOn`
on the first (no wait: a training job's completion is not a deployment's health).

`fluidgen flux health`: its arguments record and `execute(args) -> exit code`; `flux
kustomization` (which compiles) is flux_kustomization.py.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass

from ..base import emit, versions
from ..base.manifest import Manifest, Tree
from ..catalog.healthcheck import FAMILIES, Cond, Family, Is, NoStatus, Pred, Status, family_of
from ..catalog.kinds import RANK_WORKLOAD, rank, table
from ..engines.engine_table import INDEX
from ..fluid.jobkinds import WORKLOADS
from ..fluid.operations import OPERATIONS
from ..io import settings
from .usage import EXIT_OK, resolve

API_VERSION = "kustomize.toolkit.fluxcd.io/v1"
VERDICTS: dict[Status, str] = {"Healthy": "current", "Degraded": "failed", "Progressing": "inProgress",
                               "Suspended": "inProgress"}
WORKLOADS_DIR = "workloads"  # where build -o puts the workloads in Flux mode (fluidgen/compile/output.py)


def _cel_string(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _guarded(path: str) -> str:
    parts = path.split(".")
    return " && ".join(f"has({'.'.join(parts[:i])})" for i in range(2, len(parts) + 1))


def _cel_text(path: str) -> str:
    """The field as text, as healthcheck.text reads it: string() gives a string itself, a
    boolean as 'true'/'false' and an integer in decimal (cel-go's string conversions)."""
    return f"({_guarded(path)} ? string({path}) : '')"


def _cel_pred(pred: Pred) -> str:
    if isinstance(pred, NoStatus):
        # An object without status cannot be evaluated at all: Flux reports it Unknown.
        return "false"
    if isinstance(pred, Is):
        if len(pred.values) == 1:
            return f"{_cel_text(pred.path)} == {_cel_string(pred.values[0])}"
        return f"{_cel_text(pred.path)} in [{', '.join(_cel_string(v) for v in pred.values)}]"
    if isinstance(pred, Cond):
        # a condition without type or status is not an error (cel-go: no such key), only no match
        return (f"(has(status.conditions) && status.conditions.exists(c, has(c.type) && has(c.status) && "
                f"c.type == {_cel_string(pred.type)} && c.status == 'True'))")
    return f"!({_cel_pred(pred.pred)})"


def cel(family: Family, verdict: str) -> str:
    """The CEL expression that is true where the family's rules give `verdict` (Flux's
    current, failed or inProgress)."""
    out: list[tuple[str, str]] = []
    tail = "false"
    for rule in family.rules:
        answer = "true" if VERDICTS[rule.status] == verdict else "false"
        if not rule.when:
            tail = answer
            break
        if isinstance(rule.when[0], NoStatus) and len(rule.when) == 1:
            continue  # never holds where an expression can be evaluated
        out.append((" && ".join(_cel_pred(p) for p in rule.when), answer))
    while out and out[-1][1] == tail:  # `C ? x : x` is x
        out.pop()
    return "".join(f"({test}) ? {answer} : " for test, answer in out) + tail


def health_entry(api_version: str, kind: str, family: Family) -> Tree:
    return {"apiVersion": api_version, "kind": kind, "current": cel(family, "current"),
            "failed": cel(family, "failed"), "inProgress": cel(family, "inProgress")}


def judged_kinds(version: str) -> list[str]:
    """The kinds fluidgen emits on `version` that have a status to judge, batch/v1 Job aside
    (kstatus judges it)."""
    runtimes = {row.kind: name for name, row in INDEX.items()}
    return [kind for kind in family_of() if _judged(kind, version, runtimes)]


def _judged(kind: str, version: str, runtimes: dict[str, str]) -> bool:
    """Whether `version` has the kind (a runtime: its engine) and the kind has a status to
    judge (a training job: when its kind reports one)."""
    if kind in runtimes:
        return versions.has(version, runtimes[kind])
    if kind in WORKLOADS:
        return WORKLOADS[kind].health
    return versions.has(version, kind)


def health_exprs(version: str) -> list[Tree]:
    return [health_entry(table()[kind].api_version, kind, FAMILIES[family_of()[kind]])
            for kind in judged_kinds(version)]


# Kustomizations ---------------------------------------------------------------------------

SOURCE_KINDS = ("GitRepository", "OCIRepository", "Bucket", "ExternalArtifact")  # sourceRef.kind in the CRD
DURATION = r"^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$"  # the CRD's pattern for interval and timeout
DEFAULT_INTERVAL = "10m"
# Health checks and apply share `timeout` (default: the interval). A DataLoad copies the data
# set into the cache before the data Kustomization is Ready: ImageNet's ~144 GiB at ~100 MB/s
# is ~25 minutes, so two hours leave room for slower stores; --timeout sets another.
TIMEOUT_WITH_OPERATIONS = "2h"
TIMEOUT = "30m"  # the runtime's pods pull images and start
DECRYPTION_SECRET = "sops-age"  # flux's documented name for the age key Secret


def _data_health_exprs(fluid_versions: Iterable[str]) -> list[Tree]:
    """The health expressions of every kind but the workloads that the versions emit."""
    judged = sorted({k for v in fluid_versions for k in judged_kinds(v) if k not in WORKLOADS})
    return [health_entry(table()[k].api_version, k, FAMILIES[family_of()[k]]) for k in judged]


def kustomizations(objects: list[Manifest], fluid_versions: Iterable[str], *, name: str, path: str,
                   source: tuple[str, str], namespace: str = "flux-system", interval: str = DEFAULT_INTERVAL,
                   timeout: str | None = None, decryption_secret: str = DECRYPTION_SECRET) -> list[Manifest]:
    """The Flux Kustomizations that apply a build written by `build --gitops flux -o DIR`, with
    DIR at `path` in the source: the data first, the workloads (DIR/workloads) after it."""
    kinds = {str(o["kind"]) for o in objects}
    jobs = any(rank(k) >= RANK_WORKLOAD for k in kinds)
    if timeout is None:
        timeout = TIMEOUT_WITH_OPERATIONS if kinds & set(OPERATIONS) else TIMEOUT
    source_ref = {"kind": source[0], "name": source[1]}
    data: Tree = {
        "interval": interval, "path": path.rstrip("/") or ".", "prune": True, "sourceRef": source_ref,
        "wait": True, "timeout": timeout, "healthCheckExprs": _data_health_exprs(fluid_versions),
    }
    if "Secret" in kinds:
        data["decryption"] = {"provider": "sops", "secretRef": {"name": decryption_secret}}
    out = [{"apiVersion": API_VERSION, "kind": "Kustomization",
            "metadata": {"name": f"{name}-data", "namespace": namespace}, "spec": data}]
    if jobs:
        out.append({"apiVersion": API_VERSION, "kind": "Kustomization",
                    "metadata": {"name": f"{name}-workloads", "namespace": namespace},
                    "spec": {"interval": interval, "path": f"{data['path'].rstrip('/')}/{WORKLOADS_DIR}",
                             "prune": True, "sourceRef": source_ref, "dependsOn": [{"name": f"{name}-data"}],
                             # a training job's completion is not a deployment's health: apply, never wait
                             "wait": False, "timeout": TIMEOUT}})
    return out


# The command line ---------------------------------------------------------------------------

@dataclass(frozen=True)
class HealthArgs:
    fluid_version: str | None = None


def execute(args: HealthArgs) -> int:
    """`flux health`: the health expressions of the target version's kinds."""
    version = resolve(settings.fluid_version, args.fluid_version) or versions.DEFAULT
    sys.stdout.write(emit.dump({"healthCheckExprs": health_exprs(version)}))
    return EXIT_OK
