"""Rules about storage, names, tiers and placement: what Fluid's controllers reject or
silently mis-handle, for any engine (engine-specific rules live in the engine modules)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..diagnostics import PathT
from ..engine_table import ENGINES
from ..kinds import table
from ..manifest import kind_of, levels_of, meta, mounts_of, spec_of, walk_strings
from ..names import dns1035_label, dns1123_subdomain
from ..quantity import QUANTITY_RE, quantity_hint, to_bytes
from ..rules import Finding, Object
from ..uri import is_reference, scheme_of
from .binding import bound_runtime, engine_of

SECRET_OPTION = re.compile(r"(accesskeysecret|secretkey|secret-key|secret_key|password|token|metaurl)$",
                           re.IGNORECASE)
PLACEHOLDER = re.compile(r"<[A-Za-z_][A-Za-z0-9_ -]*>")

SINGLE_TIER = frozenset(e.kind for e in ENGINES.values() if e.lowering.single_tier)


def plain_credentials(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    if kind_of(obj) != "Dataset":
        return
    spec = spec_of(obj)
    runtime = bound_runtime(obj, objects)
    engine = engine_of(runtime) if runtime is not None else None
    for i, mount in enumerate(mounts_of(obj)):
        options = mount.get("options")
        # The engine's own credential names for this storage (fs.oss.accessKeyId beside the secret),
        # as well as every name that looks like a secret.
        facts = engine.mounts.storage.get(scheme_of(str(mount.get("mountPoint", "")))) if engine is not None else None
        read_as_secret = facts.secret_options if facts is not None else frozenset()
        for key in options if isinstance(options, dict) else {}:
            if SECRET_OPTION.search(str(key)) or key in read_as_secret:
                yield Finding(("spec", "mounts", i, "options", key),
                              f"credential {key} is in plain options; move it to encryptOptions backed "
                              "by a Secret (fluidgen: credentials.fromEnv/fromFile)")
    shared = spec.get("sharedOptions")
    for key in shared if isinstance(shared, dict) else {}:
        if SECRET_OPTION.search(str(key)):
            yield Finding(("spec", "sharedOptions", key), f"credential {key} is in plain sharedOptions; "
                                                          "use sharedEncryptOptions")


def placeholders(obj: Object, _: list[Object]) -> Iterator[Finding]:
    if kind_of(obj) == "Secret":  # never look into, or quote, Secret values
        return
    for path, text in walk_strings(obj):
        match = PLACEHOLDER.search(text)
        if match:
            yield Finding(path, f"placeholder {match.group(0)} was never filled in")


def nfs_version_conflict(obj: Object, _: list[Object]) -> Iterator[Finding]:
    if kind_of(obj) != "PersistentVolume":
        return
    options = spec_of(obj).get("mountOptions")
    options = options if isinstance(options, list) else []
    versions = [(i, o.split("=", 1)[1]) for i, o in enumerate(options)
                if isinstance(o, str) and o.split("=", 1)[0] in ("vers", "nfsvers") and "=" in o]
    if len({v for _, v in versions}) > 1:
        said = ", ".join(options[i] for i, _ in versions)
        yield Finding(("spec", "mountOptions", versions[-1][0]),
                      f"conflicting NFS versions ({said}); the last one wins, keep only the one you mean")


def dns_names(obj: Object, _: list[Object]) -> Iterator[Finding]:
    """The name rule of the kind table: DNS-1035 labels for Datasets and runtimes (Fluid), a
    DNS-1123 subdomain for everything else (the API server)."""
    name = meta(obj).get("name")
    if not isinstance(name, str):
        return
    info = table().get(kind_of(obj))
    problem = dns1035_label(name) if info is not None and info.name_rule == "dns1035" else dns1123_subdomain(name)
    if problem is not None:
        yield Finding(("metadata", "name"), problem)


def watermarks(obj: Object, _: list[Object]) -> Iterator[Finding]:
    for i, level in enumerate(levels_of(obj)):
        if not isinstance(level, dict):
            continue
        try:
            high, low = float(level.get("high", "nan")), float(level.get("low", "nan"))
        except (TypeError, ValueError):
            continue
        if high <= low:
            yield Finding(("spec", "tieredstore", "levels", i, "low"),
                          f"low watermark {level['low']} must be below high watermark {level['high']}")


def _quota_problems(level: dict[str, object], separator: str) -> Iterator[tuple[str, str]]:
    paths = [p for p in str(level.get("path", "")).split(separator) if p]
    quota, quota_list = level.get("quota"), level.get("quotaList")
    if quota is None and quota_list is None:
        yield "quota", "set quota or quotaList; Fluid refuses a level with neither"
    if isinstance(quota, str) and not QUANTITY_RE.match(quota):
        yield "quota", quantity_hint(quota)
    elif isinstance(quota, str | int) and not isinstance(quota, bool) and _not_positive(quota):
        yield "quota", f"quota {quota} leaves no room to cache anything; give a positive size such as 10Gi"
    if isinstance(quota_list, str):
        items = [q.strip() for q in quota_list.split(",")]
        if len(items) < 2:
            yield "quotaList", f'quotaList "{quota_list}" holds one value; use quota for a single size'
        elif quota_list != ",".join(items) or not all(QUANTITY_RE.match(q) for q in items):
            yield "quotaList", f'quotaList "{quota_list}" must be sizes joined by "," with no spaces'
        elif any(_not_positive(q) for q in items):
            yield "quotaList", f'quotaList "{quota_list}" has a size that is zero or negative'
        elif paths and len(items) != len(paths):
            yield "quotaList", f"{len(items)} quotas for {len(paths)} paths; give one quota per path"


def _not_positive(quantity: str | int) -> bool:
    try:
        return to_bytes(quantity) <= 0
    except ValueError:
        return False


def quota_forms(obj: Object, _: list[Object]) -> Iterator[Finding]:
    engine = engine_of(obj)
    separator = engine.lowering.path_separator if engine is not None else ","
    for i, level in enumerate(levels_of(obj)):
        if isinstance(level, dict):
            for key, message in _quota_problems(level, separator):
                yield Finding(("spec", "tieredstore", "levels", i, key), message)


def single_tier(obj: Object, _: list[Object]) -> Iterator[Finding]:
    if kind_of(obj) in SINGLE_TIER and len(levels_of(obj)) > 1:
        yield Finding(("spec", "tieredstore", "levels", 1),
                      f"{kind_of(obj)} only uses the first tieredstore level; the others are ignored")


def distinct_media(obj: Object, _: list[Object]) -> Iterator[Finding]:
    seen: dict[str, int] = {}
    for i, level in enumerate(levels_of(obj)):
        medium = level.get("mediumtype") if isinstance(level, dict) else None
        if isinstance(medium, str):
            if medium in seen:
                yield Finding(("spec", "tieredstore", "levels", i, "mediumtype"),
                              f"levels[{seen[medium]}] already uses {medium}; each medium may appear once (put "
                              "several directories in that level's path)")
            seen.setdefault(medium, i)


def mount_uniqueness(obj: Object, _: list[Object]) -> Iterator[Finding]:
    seen: dict[tuple[str, str], int] = {}
    for i, m in enumerate(mounts_of(obj)):
        name = str(m.get("name", ""))
        for label, value in (("name", name), ("path", str(m.get("path") or f"/{name}"))):
            if value and (label, value) in seen:
                yield Finding(("spec", "mounts", i, label if label in m else "mountPoint"),
                              f'mount {label} "{value}" is also used by mounts[{seen[(label, value)]}]')
            seen.setdefault((label, value), i)


def negative_resources(obj: Object, _: list[Object]) -> Iterator[Finding]:
    """Requests and limits below zero (the API server refuses them in every pod Fluid makes)."""
    for path, value in _resource_quantities(obj.get("spec"), ("spec",)):
        try:
            if to_bytes(value) < 0:
                yield Finding(path, f"{value} is negative; resource requests and limits cannot be")
        except ValueError:
            continue


def _resource_quantities(value: object, path: PathT) -> Iterator[tuple[PathT, str | int]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("requests", "limits") and isinstance(item, dict) and path and path[-1] == "resources":
                for name, amount in item.items():
                    if isinstance(amount, str | int) and not isinstance(amount, bool):
                        yield (*path, key, name), amount
            else:
                yield from _resource_quantities(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _resource_quantities(item, (*path, i))


def reference_dataset_alone(obj: Object, _: list[Object]) -> Iterator[Finding]:
    mounts = mounts_of(obj)
    for i, m in enumerate(mounts):
        if is_reference(m.get("mountPoint", "")) and len(mounts) > 1:
            yield Finding(("spec", "mounts", i, "mountPoint"), "a dataset:// mount must be the only mount of its "
                                                               "Dataset")
