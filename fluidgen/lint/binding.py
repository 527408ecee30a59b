"""How the objects of one lint run refer to each other, read through the engine table: which
kinds are runtimes, which engine a runtime is, and the Dataset and runtime bound by name."""

from __future__ import annotations

from ..contract import Engine
from ..engine_table import BY_KIND, RUNTIME_KINDS
from ..manifest import Manifest, kind_of, meta, same_place


def is_runtime(obj: Manifest) -> bool:
    return kind_of(obj) in RUNTIME_KINDS


def engine_of(obj: Manifest) -> Engine | None:
    return BY_KIND.get(kind_of(obj))


def bound_runtime(dataset: Manifest, objects: list[Manifest]) -> Manifest | None:
    """The runtime a Dataset binds to: a runtime with the same namespace and name."""
    return next((o for o in objects if is_runtime(o) and same_place(o, dataset)), None)


def bound_dataset(runtime: Manifest, objects: list[Manifest]) -> Manifest | None:
    return next((o for o in objects if kind_of(o) == "Dataset" and same_place(o, runtime)), None)


def find(objects: list[Manifest], kind: str, name: object, namespace: object) -> Manifest | None:
    """The object of that kind, name and namespace; no namespace counts as "default" on both sides
    (kubectl applies such a manifest to the context's namespace, "default" unless set)."""
    want = namespace or "default"
    return next((o for o in objects if kind_of(o) == kind and meta(o).get("name") == name
                 and (meta(o).get("namespace") or "default") == want), None)
