"""Argo CD health checks for Fluid's kinds and the training jobs, in Argo CD's own layouts.

Argo CD ships none for data.fluid.io, so it calls every Fluid object healthy as soon as it
exists, and sync waves never wait for a Dataset to be Bound. The Lua scripts live in
fluidgen/health/ (one per status family: Dataset, runtime, component runtime, data operation,
training job), each prefixed with common.lua; which kind gets which follows from the kind
table (the engine table says the shape of each runtime's status; Argo CD has its own check
for batch/v1 Job). Test cases for every family are in
fluidgen/health/cases.yaml and become each kind's testdata and health_test.yaml.

- write_tree(DIR): resource_customizations/<group>/<Kind>/{health.lua,
  health_test.yaml, testdata/}, the layout of argo-cd's resource_customizations.
- config_map(): an argocd-cm patch with the same scripts under
  resource.customizations.health.<group>_<Kind>.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from . import emit
from .kinds import table

FAMILIES = ("dataset", "runtime", "components", "operation", "job")


@cache
def families() -> dict[str, str]:
    """Kind -> status family, for every Fluid kind that has a status worth judging."""
    from .engines import ENGINES
    from .kinds import RANK_DATASET, RANK_OPERATION, RANK_RUNTIME, table
    from .workloads import WORKLOADS

    by_kind = {e.kind: e.status_shape for e in ENGINES.values()}
    out = {}
    for kind, info in sorted(table().items()):
        if info.rank == RANK_DATASET:
            out[kind] = "dataset"
        elif info.rank == RANK_RUNTIME:
            out[kind] = by_kind[kind]
        elif info.rank == RANK_OPERATION:
            out[kind] = "operation"
        elif kind in WORKLOADS and WORKLOADS[kind].health:
            out[kind] = "job"
    return out


def _text(name: str) -> str:
    return resources.files("fluidgen").joinpath("health", name).read_text("utf-8")


def script(family: str) -> str:
    return _text("common.lua") + "\n" + _text(f"{family}.lua")


@cache
def cases() -> dict[str, dict[str, Any]]:
    import yaml

    loaded: dict[str, dict[str, Any]] = yaml.safe_load(_text("cases.yaml"))
    return loaded


def _object(kind: str, case: str, status: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": table()[kind].api_version, "kind": kind,
                           "metadata": {"name": f"example-{case}", "namespace": "default"}}
    if status is not None:
        obj["status"] = status
    return obj


def tree() -> dict[str, str]:
    """Relative path -> text of every file in the resource_customizations layout."""
    files: dict[str, str] = {}
    for kind, family in families().items():
        base = f"resource_customizations/{table()[kind].api_version.rpartition('/')[0]}/{kind}"
        files[f"{base}/health.lua"] = script(family)
        tests = []
        for case, body in cases()[family].items():
            files[f"{base}/testdata/{case}.yaml"] = emit.dump(_object(kind, case, body["status"]))
            tests.append({"healthStatus": dict(body["expect"]), "inputPath": f"testdata/{case}.yaml"})
        files[f"{base}/health_test.yaml"] = emit.dump({"tests": tests})
    return files


def write_tree(directory: str) -> list[str]:
    written = []
    for rel, text in sorted(tree().items()):
        path = Path(directory) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(rel)
    return written


def config_map() -> str:
    """An argocd-cm patch (kubectl patch --patch-file, or a kustomize strategic merge)."""
    data = {f"resource.customizations.health.{table()[kind].api_version.rpartition('/')[0]}_{kind}": script(family)
            for kind, family in families().items()}
    return emit.dump({"apiVersion": "v1", "kind": "ConfigMap",
                      "metadata": {"name": "argocd-cm", "namespace": "argocd",
                                   "labels": {"app.kubernetes.io/part-of": "argocd"}},
                      "data": data})
