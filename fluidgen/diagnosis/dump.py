"""A cluster dump read for `fluidgen diagnose`: bounded, with every secret value kept out.

What a user collects without fluidgen in the cluster (`kubectl get ... -o yaml` or `-o json`: a
`kind: List`, several files, or stdin) and, optionally, pod logs (`kubectl logs POD > DIR/POD.log`).

Bounds: a file is read up to MAX_FILE_BYTES, a YAML document up to MAX_NODES nodes (the YAML
reader's limits apply while parsing); at most MAX_OBJECTS objects are kept (the rest are counted
and said), Lists are opened MAX_LIST_DEPTH levels deep; of a log, the last MAX_LOG_BYTES are read.

Secrets: a Secret's values are read only to be recognised and masked wherever they appear (an
event message, a log line); the object kept has its name and key names only. The
last-applied-configuration annotation (it holds every applied field, Secret data included) and
managedFields are dropped, a container's env values are dropped (those under a credential name
are masked too), and any value under a credential-named key anywhere in an object is masked.
Nothing fluidgen prints about a dump passes anything but `Redactor.text`.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.emit import CONTROLS
from ..base.manifest import Tree
from ..importer.credentials import NAME_KEYS, credential_name
from ..io.inputs import Reader, inside
from ..io.yamlreader import decode, load_text

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_NODES = 4_000_000
MAX_OBJECTS = 20_000
MAX_LIST_DEPTH = 4
MAX_LOG_BYTES = 1024 * 1024
MAX_TEXT = 400  # characters of one piece of evidence (a message, a log line) that are shown
FLUID_SYSTEM = "fluid-system"  # pkg/common/constants.go NamespaceFluidSystem: the CSI plugin's pods
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
MASK = "***"


@dataclass
class Dump:
    """`namespaces`: the namespaces judged (those the specs build into); an object of another
    namespace is counted in `elsewhere` and not kept (fluid-system's and cluster-scoped ones are)."""

    namespaces: frozenset[str] | None = None
    objects: list[Tree] = field(default_factory=list)
    elsewhere: dict[str, int] = field(default_factory=dict)
    secret_values: set[str] = field(default_factory=set)
    problems: list[Diagnostic] = field(default_factory=list)  # files that could not be read
    skipped: int = 0  # documents that are not Kubernetes objects
    dropped: int = 0  # objects over MAX_OBJECTS

    def add(self, data: Any, depth: int = 0) -> None:
        if isinstance(data, Mapping) and str(data.get("kind", "")).endswith("List") and isinstance(
                data.get("items"), list):
            if depth >= MAX_LIST_DEPTH:
                self.skipped += 1
                return
            for item in data["items"]:
                self.add(item, depth + 1)
            return
        if not (isinstance(data, Mapping) and isinstance(data.get("kind"), str)
                and isinstance(data.get("metadata"), Mapping) and isinstance(data["metadata"].get("name"), str)):
            self.skipped += 1
            return
        ns = data["metadata"].get("namespace")
        if self.namespaces is not None and isinstance(ns, str) and ns and ns not in self.namespaces \
                and ns != FLUID_SYSTEM:
            self.elsewhere[ns] = self.elsewhere.get(ns, 0) + 1
            return
        if len(self.objects) >= MAX_OBJECTS:
            self.dropped += 1
            return
        self.objects.append(self._kept(data))

    def _kept(self, data: Mapping[str, Any]) -> Tree:
        if data.get("kind") == "Secret":
            return self._secret(data)
        obj: Tree = _without_secrets(data, self.secret_values)
        meta = obj["metadata"]
        meta.pop("managedFields", None)
        annotations = meta.get("annotations")
        if isinstance(annotations, dict):
            annotations.pop(LAST_APPLIED, None)
        return obj

    def _secret(self, data: Mapping[str, Any]) -> Tree:
        """Its name, namespace and key names; its values only into the masking set."""
        keys: list[str] = []
        for part, encoded in (("data", True), ("stringData", False)):
            values = data.get(part)
            if not isinstance(values, Mapping):
                continue
            for key, value in values.items():
                keys.append(str(key))
                if isinstance(value, str):
                    self.secret_values.add(value)
                    if encoded:
                        with contextlib.suppress(binascii.Error, ValueError):
                            self.secret_values.add(base64.b64decode(value, validate=True).decode("utf-8", "replace"))
        meta = data["metadata"]
        kept = {k: meta[k] for k in ("name", "namespace") if isinstance(meta.get(k), str)}
        return {"apiVersion": "v1", "kind": "Secret", "metadata": kept, "keys": sorted(set(keys))}


def _without_secrets(value: Any, found: set[str], key: str = "") -> Any:
    """A copy of `value` with credential-named values masked (and remembered) and env values dropped."""
    if isinstance(value, Mapping):
        if _is_env_entry(value):
            name = str(value.get("name"))
            if isinstance(value.get("value"), str) and credential_name(name):
                found.add(value["value"])
            return {k: _without_secrets(v, found, k) for k, v in value.items() if k != "value"}
        out = {}
        for k, v in value.items():
            if isinstance(v, str) and _holds_credential(str(k)):
                found.add(v)
                out[str(k)] = MASK
            else:
                out[str(k)] = _without_secrets(v, found, str(k))
        return out
    if isinstance(value, list):
        return [_without_secrets(v, found, key) for v in value]
    return value


def _holds_credential(key: str) -> bool:
    """A credential-named key that holds a value, not one naming a Secret (secretName, ...Ref)."""
    return credential_name(key) and key not in NAME_KEYS and not key.endswith(("Name", "Ref"))


def _is_env_entry(value: Mapping[str, Any]) -> bool:
    return isinstance(value.get("name"), str) and ("value" in value or "valueFrom" in value) and len(value) <= 3


def read_dump(paths: Iterable[str], reader: Reader | None = None, namespaces: Iterable[str] | None = None) -> Dump:
    """Every object of the dump files (`-`: stdin), JSON or YAML, Lists opened."""
    reader = reader or Reader()
    dump = Dump(frozenset(namespaces) if namespaces is not None else None)
    for path in paths:
        try:
            text = decode(path, reader.read(path, limit=MAX_FILE_BYTES, record=False))
            for data in _parse(path, text):
                dump.add(data)
        except FluidgenError as exc:
            dump.problems += exc.diagnostics
    return dump


def from_objects(objects: Iterable[Mapping[str, Any]], namespaces: Iterable[str] | None = None) -> Dump:
    dump = Dump(frozenset(namespaces) if namespaces is not None else None)
    for obj in objects:
        dump.add(obj)
    return dump


def _parse(path: str, text: str) -> list[Any]:
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise FluidgenError([Diagnostic(path, 1, 1, "error", f"not valid JSON: {exc}")]) from None
        return data if isinstance(data, list) else [data]
    return [d.data for d in load_text(path, text, max_nodes=MAX_NODES)]


# Logs -----------------------------------------------------------------------------------


def read_logs(directory: str | None, pods: Iterable[str]) -> dict[str, str]:
    """DIR/<pod>.log for each pod named (its last MAX_LOG_BYTES); a file that is not a regular
    file inside DIR (a link leading out, a FIFO) is not read."""
    if directory is None:
        return {}
    root = os.path.realpath(directory)
    out: dict[str, str] = {}
    for pod in pods:
        if not re.fullmatch(r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?", pod):
            continue
        path = os.path.join(directory, f"{pod}.log")
        real = os.path.realpath(path)
        if not inside(real, root) or not os.path.isfile(real):
            continue
        with open(real, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - MAX_LOG_BYTES))
            out[pod] = fh.read(MAX_LOG_BYTES).decode("utf-8", "replace")
    return out


# Masking --------------------------------------------------------------------------------

_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]*)(\s*[=:]\s*|\"\s*:\s*\")([^\s\"',;&]+)")
_CONTROLS = {c: " " for c in CONTROLS}


class Redactor:
    """Masks the dump's secret values and credential-named assignments in any text shown."""

    def __init__(self, values: Iterable[str]) -> None:
        self.values = sorted({v for v in values if len(v) >= 4}, key=len, reverse=True)

    def text(self, text: str, limit: int = MAX_TEXT) -> str:
        for value in self.values:
            text = text.replace(value, MASK)
        text = _ASSIGNMENT.sub(lambda m: m.group(1) + m.group(2) + MASK if credential_name(m.group(1))
                               else m.group(0), text)
        text = " ".join(text.translate(_CONTROLS).split())
        return text if len(text) <= limit else text[:limit - 1] + "…"


# Events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    kind: str
    namespace: str
    name: str
    reason: str
    message: str
    type: str
    count: int
    time: datetime | None

    def about(self) -> tuple[str, str, str]:
        return self.kind, self.namespace, self.name


def event_of(obj: Mapping[str, Any]) -> Event | None:
    """A core/v1 or events.k8s.io/v1 Event, normalised; None for another kind."""
    if obj.get("kind") != "Event":
        return None
    target = obj.get("involvedObject") or obj.get("regarding") or {}
    if not isinstance(target, Mapping):
        return None
    meta = _mapping(obj.get("metadata"))
    return Event(str(target.get("kind", "")), str(target.get("namespace") or meta.get("namespace") or ""),
                 str(target.get("name", "")), str(obj.get("reason") or ""),
                 str(obj.get("message") or obj.get("note") or ""), str(obj.get("type") or ""),
                 _count(obj), _time(_stamp(obj)))


def _stamp(obj: Mapping[str, Any]) -> Any:
    """When it last happened: core/v1 lastTimestamp; events.k8s.io series, eventTime; else creation."""
    series = _mapping(obj.get("series"))
    for found in (obj.get("lastTimestamp"), series.get("lastObservedTime"), obj.get("eventTime"),
                  obj.get("deprecatedLastTimestamp"), obj.get("firstTimestamp")):
        if found:
            return found
    return _mapping(obj.get("metadata")).get("creationTimestamp")


def _count(obj: Mapping[str, Any]) -> int:
    count = obj.get("count") or _mapping(obj.get("series")).get("count") or obj.get("deprecatedCount") or 1
    return count if isinstance(count, int) and not isinstance(count, bool) else 1


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _time(stamp: Any) -> datetime | None:
    if not isinstance(stamp, str):
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None
