"""Rules about FUSE mounts and JVM sizing: the AlluxioFuse tuning guide and container limits."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..quantity import cpu_to_millis, java_size_to_bytes, to_bytes
from .base import MEMORY_CLIENT_CACHE_LIMIT, Finding, components_of, fuse_options, fuse_spec, jvm_flag, mounts_of


def fuse_direct_io(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    for i, opt in fuse_options(obj):
        if opt == "direct_io":
            yield Finding(("spec", "fuse", "args", i), "direct_io disables the page cache and read-ahead "
                                                       "and is unstable under heavy IO; use kernel_cache")


def kernel_cache_needs_jni(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "AlluxioRuntime":
        return
    props = {**((obj.get("spec") or {}).get("properties") or {}), **(fuse_spec(obj).get("properties") or {})}
    for i, opt in fuse_options(obj):
        if opt == "kernel_cache" and props.get("alluxio.fuse.jnifuse.enabled") != "true":
            yield Finding(("spec", "fuse", "args", i), "kernel_cache needs the JNI FUSE; set "
                                                       'alluxio.fuse.jnifuse.enabled: "true"')


def client_cache_size(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    spec = obj.get("spec") or {}
    for base, props in ((("spec", "properties"), spec.get("properties")),
                        (("spec", "fuse", "properties"), fuse_spec(obj).get("properties"))):
        if not isinstance(props, dict) or props.get("alluxio.user.client.cache.store.type") != "MEMORY":
            continue
        size = props.get("alluxio.user.client.cache.size", "512MB")
        parsed = java_size_to_bytes(str(size).removesuffix("B").removesuffix("b"))
        if parsed is not None and parsed > MEMORY_CLIENT_CACHE_LIMIT:
            yield Finding((*base, "alluxio.user.client.cache.size"),
                          f"a MEMORY client cache of {size} lives on the JVM heap; keep it within 1800MB")


def processor_count(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    for name, comp in components_of(obj):
        found = jvm_flag(comp.get("jvmOptions") or [], "-XX:ActiveProcessorCount=")
        limit = ((comp.get("resources") or {}).get("limits") or {}).get("cpu")
        if found is None or limit is None or not found[1].isdigit():
            continue
        millis = cpu_to_millis(limit)
        if millis is not None and int(found[1]) * 1000 > millis:
            yield Finding(("spec", name, "jvmOptions", found[0]),
                          f"ActiveProcessorCount={found[1]} is above the {name} CPU limit ({limit}); "
                          "the JVM sizes thread pools for CPUs it cannot use")


def jvm_memory_budget(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    spec = obj.get("spec") or {}
    for name, comp in components_of(obj):
        limit = ((comp.get("resources") or {}).get("limits") or {}).get("memory")
        if limit is None:
            continue
        options = comp.get("jvmOptions") or []
        parts = {}
        for flag, label in (("-Xmx", "heap"), ("-XX:MaxDirectMemorySize=", "direct memory")):
            found = jvm_flag(options, flag)
            size = java_size_to_bytes(found[1]) if found else None
            if size:
                parts[label] = size
        if name == "worker":
            for level in ((spec.get("tieredstore") or {}).get("levels")) or []:
                if level.get("mediumtype") == "MEM" and level.get("volumeType") == "emptyDir":
                    with contextlib.suppress(ValueError):
                        parts["MEM tier"] = int(to_bytes(level.get("quota", 0)))
        try:
            budget = int(to_bytes(str(limit)))
        except ValueError:
            continue
        if parts and sum(parts.values()) > budget:
            used = " + ".join(f"{k} {v / 2**30:.1f}GiB" for k, v in parts.items())
            yield Finding(("spec", name, "resources", "limits", "memory"),
                          f"{used} exceeds the {name} memory limit {limit}; the container will be OOM-killed")


def fuse_metadata_timeouts(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    opts = fuse_options(obj)
    names = {o.split("=", 1)[0] for _, o in opts}
    if "kernel_cache" in names:
        missing = [n for n in ("attr_timeout", "entry_timeout") if n not in names]
        if missing:
            where = next(i for i, o in opts if o == "kernel_cache")
            yield Finding(("spec", "fuse", "args", where),
                          f"kernel_cache without {' and '.join(missing)} keeps the 1 s default, so every "
                          "file is looked up again each second; 7200 suits read-only training data")


def jindo_args_drop_root_ns(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "JindoRuntime" or not fuse_spec(obj).get("args"):
        return
    meta = obj.get("metadata") or {}
    for d in objects:
        dmeta = d.get("metadata") or {}
        same = (dmeta.get("name"), dmeta.get("namespace")) == (meta.get("name"), meta.get("namespace"))
        if d.get("kind") == "Dataset" and same and any(m.get("path") for m in mounts_of(d)):
            yield Finding(("spec", "fuse", "args"),
                          "fuse.args replaces Fluid's JindoFuse defaults, including the -oroot_ns=jindo it adds "
                          "for mounts that set path; add it to fuse.args or drop the mount path")
