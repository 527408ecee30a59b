"""Rules about storage, names, credentials and placement: what Fluid's controllers reject or
silently mis-handle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..diagnostics import did_you_mean
from ..quantity import QUANTITY_RE, quantity_hint
from .base import (
    DNS1035,
    PLACEHOLDER,
    RUNTIME_KINDS,
    SECRET_OPTION,
    SINGLE_TIER,
    Finding,
    fuse_spec,
    levels_of,
    mounts_of,
    walk_strings,
)


def plain_credentials(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "Dataset":
        return
    spec = obj.get("spec") or {}
    for i, mount in enumerate(spec.get("mounts") or []):
        for key in (mount.get("options") or {}):
            if SECRET_OPTION.search(key):
                yield Finding(("spec", "mounts", i, "options", key),
                              f"credential {key} is in plain options; move it to encryptOptions backed "
                              "by a Secret (fluidgen: credentials.fromEnv/fromFile)")
    for key in (spec.get("sharedOptions") or {}):
        if SECRET_OPTION.search(key):
            yield Finding(("spec", "sharedOptions", key), f"credential {key} is in plain sharedOptions; "
                                                          "use sharedEncryptOptions")


def placeholders(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    for path, text in walk_strings(obj):
        match = PLACEHOLDER.search(text)
        if match:
            yield Finding(path, f"placeholder {match.group(0)} was never filled in")


def nfs_version_conflict(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "PersistentVolume":
        return
    options = (obj.get("spec") or {}).get("mountOptions") or []
    versions = [(i, o.split("=", 1)[1]) for i, o in enumerate(options)
                if isinstance(o, str) and o.split("=", 1)[0] in ("vers", "nfsvers") and "=" in o]
    if len({v for _, v in versions}) > 1:
        said = ", ".join(options[i] for i, _ in versions)
        yield Finding(("spec", "mountOptions", versions[-1][0]),
                      f"conflicting NFS versions ({said}); the last one wins, keep only the one you mean")


def runtime_binding(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") not in RUNTIME_KINDS:
        return
    meta = obj.get("metadata") or {}
    datasets = [o for o in objects if o.get("kind") == "Dataset"]
    if not datasets:
        return
    key = (meta.get("namespace"), meta.get("name"))
    if key not in {((d.get("metadata") or {}).get("namespace"), (d.get("metadata") or {}).get("name"))
                   for d in datasets}:
        yield Finding(("metadata", "name"), f"no Dataset named {meta.get('name')} in namespace "
                                            f"{meta.get('namespace') or '(default)'}; Fluid binds a runtime "
                                            "to the Dataset with the same namespace and name")


def dns_names(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") in RUNTIME_KINDS | {"Dataset"}:
        name = str((obj.get("metadata") or {}).get("name", ""))
        if not DNS1035.match(name):
            yield Finding(("metadata", "name"), f'"{name}" is not a DNS-1035 label; Fluid will not '
                                                "reconcile this object")


def watermarks(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    levels = (((obj.get("spec") or {}).get("tieredstore") or {}).get("levels")) or []
    for i, level in enumerate(levels):
        try:
            high, low = float(level.get("high", "nan")), float(level.get("low", "nan"))
        except (TypeError, ValueError):
            continue
        if high <= low:
            yield Finding(("spec", "tieredstore", "levels", i, "low"),
                          f"low watermark {level['low']} must be below high watermark {level['high']}")


def _quota_problems(level: dict[str, Any], separator: str) -> Iterator[tuple[str, str]]:
    paths = [p for p in str(level.get("path", "")).split(separator) if p]
    quota, quota_list = level.get("quota"), level.get("quotaList")
    if quota is None and quota_list is None:
        yield "quota", "set quota or quotaList; Fluid refuses a level with neither"
    if isinstance(quota, str) and not QUANTITY_RE.match(quota):
        yield "quota", quantity_hint(quota)
    if isinstance(quota_list, str):
        items = [q.strip() for q in quota_list.split(",")]
        if len(items) < 2:
            yield "quotaList", f'quotaList "{quota_list}" holds one value; use quota for a single size'
        elif quota_list != ",".join(items) or not all(QUANTITY_RE.match(q) for q in items):
            yield "quotaList", f'quotaList "{quota_list}" must be sizes joined by "," with no spaces'
        elif paths and len(items) != len(paths):
            yield "quotaList", f"{len(items)} quotas for {len(paths)} paths; give one quota per path"


def quota_forms(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    separator = ":" if obj.get("kind") == "JuiceFSRuntime" else ","
    for i, level in enumerate(levels_of(obj)):
        if isinstance(level, dict):
            for key, message in _quota_problems(level, separator):
                yield Finding(("spec", "tieredstore", "levels", i, key), message)


def single_tier(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") in SINGLE_TIER and len(levels_of(obj)) > 1:
        yield Finding(("spec", "tieredstore", "levels", 1),
                      f"{obj['kind']} only uses the first tieredstore level; the others are ignored")


def juicefs_byte_quota(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "JuiceFSRuntime":
        return
    for i, level in enumerate(levels_of(obj)):
        quota = level.get("quota") if isinstance(level, dict) else None
        if isinstance(quota, int) and quota < 2**20:
            yield Finding(("spec", "tieredstore", "levels", i, "quota"),
                          f"quota {quota} is in bytes, so the JuiceFS cache-size becomes {quota >> 20} MiB; "
                          f"did you mean {quota}Mi?")


def mount_uniqueness(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    seen: dict[tuple[str, str], int] = {}
    for i, m in enumerate(mounts_of(obj)):
        name = str(m.get("name", ""))
        for label, value in (("name", name), ("path", str(m.get("path") or f"/{name}"))):
            if value and (label, value) in seen:
                yield Finding(("spec", "mounts", i, label if label in m else "mountPoint"),
                              f'mount {label} "{value}" is also used by mounts[{seen[(label, value)]}]')
            seen.setdefault((label, value), i)


def reference_dataset_alone(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    mounts = mounts_of(obj)
    for i, m in enumerate(mounts):
        if str(m.get("mountPoint", "")).startswith("dataset://") and len(mounts) > 1:
            yield Finding(("spec", "mounts", i, "mountPoint"),
                          "a dataset:// mount must be the only mount of its Dataset")


def _bound_datasets(runtime: dict[str, Any], objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Datasets a runtime binds to: same namespace and name."""
    meta = runtime.get("metadata") or {}
    return [d for d in objects if d.get("kind") == "Dataset"
            and ((d.get("metadata") or {}).get("name"), (d.get("metadata") or {}).get("namespace"))
            == (meta.get("name"), meta.get("namespace"))]


def _references(obj: dict[str, Any], objects: list[dict[str, Any]]) -> bool:
    """Is obj a runtime bound to a reference Dataset (only dataset:// mounts)? A dataset:// mixed
    with other mounts is FG115's finding; the runtime is fine once that is fixed."""
    if obj.get("kind") not in RUNTIME_KINDS:
        return False
    return any(mounts_of(d) and all(str(m.get("mountPoint", "")).startswith("dataset://") for m in mounts_of(d))
               for d in _bound_datasets(obj, objects))


def reference_dataset_engine(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "ThinRuntime" and _references(obj, objects):
        yield Finding(("kind",), "its Dataset is a dataset:// reference, which Fluid serves through a "
                                 f"ThinRuntime; {obj.get('kind')} cannot mount it")


def reference_dataset_spec(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") == "ThinRuntime" and _references(obj, objects):
        for key in sorted(obj.get("spec") or {}):
            yield Finding(("spec", key), "Fluid ignores the ThinRuntime spec of a reference dataset (the "
                                         "referenced dataset's runtime serves the data)")


def thin_profile_drops_ro(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "ThinRuntimeProfile":
        return
    options = fuse_spec(obj).get("options")
    if not isinstance(options, dict) or {"ro", "rw"} & set(options):
        return
    name = (obj.get("metadata") or {}).get("name")
    for runtime in objects:
        if runtime.get("kind") != "ThinRuntime" or (runtime.get("spec") or {}).get("profileName") != name:
            continue
        if {"ro", "rw"} & set(fuse_spec(runtime).get("options") or {}):
            continue
        for d in _bound_datasets(runtime, objects):
            if "ReadOnlyMany" in ((d.get("spec") or {}).get("accessModes") or ["ReadOnlyMany"]):
                yield Finding(("spec", "fuse", "options"),
                              f"these options replace the ro that Fluid adds for the ReadOnlyMany Dataset "
                              f"{(d.get('metadata') or {}).get('name')}, so its FUSE program gets no ro; "
                              "add ro: \"\"")
                return


def secret_key_names(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    from ..lower import ENGINES

    if obj.get("kind") != "Dataset":
        return
    meta = obj.get("metadata") or {}
    runtime = next((o for o in objects if o.get("kind") in RUNTIME_KINDS
                    and (o.get("metadata") or {}).get("name") == meta.get("name")
                    and (o.get("metadata") or {}).get("namespace") == meta.get("namespace")), None)
    engine = next((e for e in ENGINES.values() if runtime and e.kind == runtime.get("kind")), None)
    if engine is None:
        return
    for i, m in enumerate(mounts_of(obj)):
        scheme = str(m.get("mountPoint", "")).partition("://")[0].lower()
        expected = engine.secret_keys.get(scheme)
        for j, option in enumerate(m.get("encryptOptions") or []):
            name = option.get("name") if isinstance(option, dict) else None
            if expected and name not in expected and engine.name != "juicefs":
                hint = did_you_mean(str(name), expected)
                yield Finding(("spec", "mounts", i, "encryptOptions", j, "name"),
                              f"{engine.kind} does not read {name} for {scheme}:// (it reads "
                              f"{', '.join(sorted(expected))}){hint}")
