"""Shared pieces of the lint rules: the finding type and safe walks over manifests."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..diagnostics import PathT, Severity

RUNTIME_KINDS = frozenset({"AlluxioRuntime", "JindoRuntime", "JuiceFSRuntime", "EFCRuntime", "ThinRuntime",
                           "VineyardRuntime", "GooseFSRuntime"})
SINGLE_TIER = frozenset({"JindoRuntime", "JuiceFSRuntime", "EFCRuntime"})
DNS1035 = re.compile(r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$")
SECRET_OPTION = re.compile(r"(accesskeysecret|secretkey|secret-key|secret_key|password|token|metaurl)$",
                           re.IGNORECASE)
PLACEHOLDER = re.compile(r"<[A-Za-z_][A-Za-z0-9_ -]*>")
MEMORY_CLIENT_CACHE_LIMIT = 1800 * 2**20


@dataclass(frozen=True)
class Finding:
    path: PathT
    message: str


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    reason: str
    check: Callable[[dict[str, Any], list[dict[str, Any]]], Iterator[Finding]]


def walk_strings(value: Any, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_strings(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_strings(v, (*path, i))
    elif isinstance(value, str):
        yield path, value


def fuse_spec(obj: dict[str, Any]) -> dict[str, Any]:
    fuse = (obj.get("spec") or {}).get("fuse")
    return fuse if isinstance(fuse, dict) else {}


def fuse_options(obj: dict[str, Any]) -> list[tuple[int, str]]:
    out = []
    for i, arg in enumerate(fuse_spec(obj).get("args") or []):
        if isinstance(arg, str):
            body = arg.split("=", 1)[1] if arg.startswith("--fuse-opts=") else arg.removeprefix("-o")
            out += [(i, o.strip()) for o in body.split(",")]
    return out


def levels_of(obj: dict[str, Any]) -> list[Any]:
    levels = (((obj.get("spec") or {}).get("tieredstore") or {}).get("levels")) or []
    return levels if isinstance(levels, list) else []


def mounts_of(obj: dict[str, Any]) -> list[Any]:
    mounts = ((obj.get("spec") or {}).get("mounts")) or [] if obj.get("kind") == "Dataset" else []
    return [m for m in mounts if isinstance(m, dict)] if isinstance(mounts, list) else []


def components_of(obj: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    spec = obj.get("spec") or {}
    for name in ("master", "worker", "fuse", "jobMaster", "jobWorker"):
        comp = spec.get(name)
        if isinstance(comp, dict):
            yield name, comp


def jvm_flag(options: list[Any], flag: str) -> tuple[int, str] | None:
    found = None
    for i, opt in enumerate(options):
        if isinstance(opt, str) and opt.startswith(flag):
            found = (i, opt[len(flag):])
    return found
