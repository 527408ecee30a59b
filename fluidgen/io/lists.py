"""Kubernetes Lists (`kubectl get -o yaml`, `DatasetList`, ...) read item by item.

One reader for every command that reads objects: validate, lint and import read documents
(open_lists: each item becomes a document of its own, located at its line in the file),
pass-through, diff and the Secret checks read data (open_items). Both open a List inside a
List too, as kustomize does (kubernetes-sigs/kustomize api/resource/factory.go
Factory.inlineAnyEmbeddedLists queues a *List's items to be read again, at any depth), down
to MAX_DEPTH levels; deeper nesting is refused (never passed on unopened). secrets_in looks
at every depth without a limit, so no nesting hides a Secret from it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..base.diagnostics import Diagnostic, PathT
from .yamlreader import Document

V = TypeVar("V")
MAX_DEPTH = 4  # kubectl writes one level; a List of Lists is already unusual


def is_list(data: Any) -> bool:
    """A List object: kind List, or a kind ending in List with an `items` key (the kind alone is
    not enough: a CRD may be named so)."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        return False
    return data["kind"] == "List" or (data["kind"].endswith("List") and "items" in data)


def start(doc: Document) -> PathT:
    """The path of a document's first key: where the object starts (a document's root has no
    position of its own, so locating () would say line 1 for every document of a file)."""
    keys = [path for path in doc.positions if len(path) == 1]
    return min(keys, key=lambda path: doc.positions[path]) if keys else ()


def open_lists(docs: list[Document]) -> tuple[list[Document], list[Diagnostic]]:
    """The documents with every List replaced by its items, in order."""
    out: list[Document] = []
    problems: list[Diagnostic] = []
    for doc in docs:
        _open(doc, 0, out, problems)
    return out, problems


def _open(doc: Document, depth: int, out: list[Document], problems: list[Diagnostic]) -> None:
    if not is_list(doc.data):
        out.append(doc)
        return
    items = doc.data.get("items")
    if not isinstance(items, list):
        problems.append(doc.diag(("items",), f"a {doc.data['kind']} whose items is not a list; nothing of it is read"))
        return
    if depth >= MAX_DEPTH:
        problems.append(doc.diag((), f"a List nested more than {MAX_DEPTH} levels deep; nothing of it is read "
                                     "(write its items as documents of their own, separated by ---)"))
        return
    for item in _items(doc, items):
        _open(item, depth + 1, out, problems)


def _items(doc: Document, items: list[Any]) -> list[Document]:
    """One document per item, with the positions (and origins) below it, in one pass each."""
    return [Document(doc.file, doc.index, item, positions, origins) for item, positions, origins
            in zip(items, _per_item(doc.positions, len(items)), _per_item(doc.origins, len(items)), strict=True)]


def _per_item(table: dict[PathT, V], count: int) -> list[dict[PathT, V]]:
    out: list[dict[PathT, V]] = [{} for _ in range(count)]
    for path, value in table.items():
        if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int) and 0 <= path[1] < count:
            out[path[1]][path[2:]] = value
    return out


def open_items(data: Any, depth: int = 0) -> list[Any] | None:
    """The objects a document stands for, as kustomize reads it: itself, or the items of a List
    with each List among them opened again (a null or missing items is no item); None when
    items is not a list or Lists nest deeper than MAX_DEPTH."""
    if not is_list(data):
        return [data]
    items = data.get("items")
    if items is None:
        return []
    if not isinstance(items, list) or depth >= MAX_DEPTH:
        return None
    out: list[Any] = []
    for item in items:
        opened = open_items(item, depth + 1)
        if opened is None:
            return None
        out += opened
    return out


def secrets_in(data: Any) -> list[dict[str, Any]]:
    """Every Secret a document holds, itself or inside Lists at any depth."""
    if isinstance(data, dict) and data.get("kind") == "Secret":
        return [data]
    if is_list(data) and isinstance(data.get("items"), list):
        return [s for item in data["items"] for s in secrets_in(item)]
    return []
