"""Rules about FUSE mounts and JVM sizing: the AlluxioFuse tuning guide and container limits."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..manifest import components_of, fuse_options, fuse_spec, jvm_flag, levels_of, spec_of
from ..quantity import cpu_to_millis, java_size_to_bytes, to_bytes
from ..rules import Finding, Object

MEMORY_CLIENT_CACHE_LIMIT = 1800 * 2**20


def fuse_direct_io(obj: Object, _: list[Object]) -> Iterator[Finding]:
    for i, opt in fuse_options(obj):
        if opt == "direct_io":
            yield Finding(("spec", "fuse", "args", i), "direct_io disables the page cache and read-ahead "
                                                       "and is unstable under heavy IO; use kernel_cache")


def client_cache_size(obj: Object, _: list[Object]) -> Iterator[Finding]:
    spec = spec_of(obj)
    for base, props in ((("spec", "properties"), spec.get("properties")),
                        (("spec", "fuse", "properties"), fuse_spec(obj).get("properties"))):
        if not isinstance(props, dict) or props.get("alluxio.user.client.cache.store.type") != "MEMORY":
            continue
        size = props.get("alluxio.user.client.cache.size", "512MB")
        parsed = java_size_to_bytes(str(size).removesuffix("B").removesuffix("b"))
        if parsed is not None and parsed > MEMORY_CLIENT_CACHE_LIMIT:
            yield Finding((*base, "alluxio.user.client.cache.size"),
                          f"a MEMORY client cache of {size} lives on the JVM heap; keep it within 1800MB")


def processor_count(obj: Object, _: list[Object]) -> Iterator[Finding]:
    for name, comp in components_of(obj):
        found = jvm_flag(comp.get("jvmOptions"), "-XX:ActiveProcessorCount=")
        resources = comp.get("resources")
        limits = resources.get("limits") if isinstance(resources, dict) else None
        limit = limits.get("cpu") if isinstance(limits, dict) else None
        if found is None or limit is None or not found[1].isdigit():
            continue
        millis = cpu_to_millis(limit)
        if millis is not None and int(found[1]) * 1000 > millis:
            yield Finding(("spec", name, "jvmOptions", found[0]),
                          f"ActiveProcessorCount={found[1]} is above the {name} CPU limit ({limit}); "
                          "the JVM sizes thread pools for CPUs it cannot use")


def jvm_memory_budget(obj: Object, _: list[Object]) -> Iterator[Finding]:
    for name, comp in components_of(obj):
        resources = comp.get("resources")
        limits = resources.get("limits") if isinstance(resources, dict) else None
        limit = limits.get("memory") if isinstance(limits, dict) else None
        if limit is None:
            continue
        parts = {}
        for flag, label in (("-Xmx", "heap"), ("-XX:MaxDirectMemorySize=", "direct memory")):
            found = jvm_flag(comp.get("jvmOptions"), flag)
            size = java_size_to_bytes(found[1]) if found else None
            if size:
                parts[label] = size
        if name == "worker":
            for level in levels_of(obj):
                in_memory = isinstance(level, dict) and level.get("mediumtype") == "MEM"
                if in_memory and level.get("volumeType") == "emptyDir":
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


def fuse_metadata_timeouts(obj: Object, _: list[Object]) -> Iterator[Finding]:
    opts = fuse_options(obj)
    names = {o.split("=", 1)[0] for _, o in opts}
    if "kernel_cache" in names:
        missing = [n for n in ("attr_timeout", "entry_timeout") if n not in names]
        if missing:
            where = next(i for i, o in opts if o == "kernel_cache")
            yield Finding(("spec", "fuse", "args", where),
                          f"kernel_cache without {' and '.join(missing)} keeps the 1 s default, so every "
                          "file is looked up again each second; 7200 suits read-only training data")
