"""Rules about FUSE mounts and JVM sizing: the AlluxioFuse tuning guide and container limits."""

from __future__ import annotations

from collections.abc import Iterator

from ..base.fluidsource import source
from ..base.manifest import Manifest, Tree, components_of, fuse_options, fuse_spec, jvm_flag, levels_of
from ..base.manifest_index import Entry, ManifestIndex
from ..base.quantity import cpu_to_millis, java_size_to_bytes, to_bytes
from ..base.rules import Example, Finding, Rule
from ..fluid.fields import RUNTIME
from .binding import engine_of
from .docs import runtime_head

MEMORY_CLIENT_CACHE_LIMIT = 1800 * 2**20

# Alluxio's AlluxioFuse tuning guide (its Chinese documentation, "使用Docker部署AlluxioFuse加速深度学习训练").
TUNING_GUIDE = "Alluxio documentation, AlluxioFuse deep learning tuning guide (docs.alluxio.io/os/user/stable/cn)"
OPTIMIZATION = "pkg/ddc/alluxio/transform_optimization.go"


def fuse_direct_io(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    for i, opt in fuse_options(entry.obj):
        if opt == "direct_io":
            yield Finding(("spec", "fuse", "args", i), "direct_io disables the page cache and read-ahead "
                                                       "and is unstable under heavy IO; use kernel_cache")


def client_cache_size(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    for base, props in ((("spec", "properties"), entry.spec.get("properties")),
                        (("spec", "fuse", "properties"), fuse_spec(entry.obj).get("properties"))):
        if not isinstance(props, dict) or props.get("alluxio.user.client.cache.store.type") != "MEMORY":
            continue
        size = props.get("alluxio.user.client.cache.size", "512MB")
        parsed = java_size_to_bytes(str(size).removesuffix("B").removesuffix("b"))
        if parsed is not None and parsed > MEMORY_CLIENT_CACHE_LIMIT:
            yield Finding((*base, "alluxio.user.client.cache.size"),
                          f"a MEMORY client cache of {size} lives on the JVM heap; keep it within 1800MB")


def processor_count(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    for name, comp in components_of(entry.obj):
        found = jvm_flag(comp.get("jvmOptions"), "-XX:ActiveProcessorCount=")
        limit = _limit(comp, "cpu")
        if found is None or limit is None or not found[1].isdigit():
            continue
        millis = cpu_to_millis(limit)
        if millis is not None and int(found[1]) * 1000 > millis:
            yield Finding(("spec", name, "jvmOptions", found[0]),
                          f"ActiveProcessorCount={found[1]} is above the {name} CPU limit ({limit}); "
                          "the JVM sizes thread pools for CPUs it cannot use")


def _limit(comp: Tree, resource: str) -> str | int | float | None:
    """A component's container limit of cpu or memory as written, or None (not set, or not a scalar:
    never a quantity)."""
    resources = comp.get("resources")
    limits = resources.get("limits") if isinstance(resources, dict) else None
    limit = limits.get(resource) if isinstance(limits, dict) else None
    return limit if isinstance(limit, str | int | float) else None


def jvm_memory_budget(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    engine = engine_of(entry.obj)
    for name, comp in components_of(entry.obj):
        limit = _limit(comp, "memory")
        cell = engine.fields.cell(RUNTIME, (name, "resources"), index.version) if engine else None
        if limit is None or (cell is not None and not cell.holds(entry.spec)):
            continue  # no limit, or one Fluid never applies (FG140 says so)
        parts = _jvm_memory(comp)
        memory_emptydirs = engine.lowering.worker_memory_emptydir if engine is not None else None
        if name == "worker" and memory_emptydirs is not None:
            tier = sum(_level_quota(level) for level in memory_emptydirs(levels_of(entry.obj)))
            if tier:  # none, or none that is a quantity
                parts["MEM tier"] = tier
        try:
            budget = int(to_bytes(str(limit)))
        except ValueError:
            continue
        added = _memory_tiers(entry.obj) if cell is not None and cell.adds_mem_tier else 0
        if parts and sum(parts.values()) > budget + added:
            used = " + ".join(f"{k} {v / 2**30:.1f}GiB" for k, v in parts.items())
            given = f"{limit}" + (f" + the MEM tiers' {added / 2**30:.1f}GiB Fluid adds to it" if added else "")
            yield Finding(("spec", name, "resources", "limits", "memory"),
                          f"{used} exceeds the {name} memory limit {given}; the container will be OOM-killed")


def _memory_tiers(obj: Manifest) -> int:
    """The quota of every tier Fluid counts as memory (any medium but SSD and HDD), the sum over its
    paths and levels (pkg/utils/tieredstore GetLevelStorageMap): what it adds to the FUSE memory limit."""
    return sum(_level_quota(level) for level in levels_of(obj)
               if isinstance(level, dict) and level.get("mediumtype") not in ("SSD", "HDD"))


def _level_quota(level: Tree) -> int:
    """A tier level's quota over all its paths, as Fluid reads it (pkg/ddc/base/runtime.go
    convertToTieredstoreInfo: quotaList, one per path, overrides quota, which is split over the
    paths); 0 for a quota that is no quantity (schema validation reports it)."""
    quotas = str(level["quotaList"]).split(",") if level.get("quotaList") else [level.get("quota", 0)]
    try:
        return sum(int(to_bytes(q if isinstance(q, int) else str(q).strip())) for q in quotas)
    except (ValueError, TypeError):
        return 0


def _jvm_memory(comp: Tree) -> dict[str, int]:
    """The heap and direct memory a component's jvmOptions give the JVM (those set), by label."""
    parts = {}
    for flag, label in (("-Xmx", "heap"), ("-XX:MaxDirectMemorySize=", "direct memory")):
        found = jvm_flag(comp.get("jvmOptions"), flag)
        size = java_size_to_bytes(found[1]) if found else None
        if size:
            parts[label] = size
    return parts


def fuse_metadata_timeouts(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    opts = fuse_options(entry.obj)
    names = {o.split("=", 1)[0] for _, o in opts}
    if "kernel_cache" in names:
        missing = [n for n in ("attr_timeout", "entry_timeout") if n not in names]
        if missing:
            where = next(i for i, o in opts if o == "kernel_cache")
            yield Finding(("spec", "fuse", "args", where),
                          f"kernel_cache without {' and '.join(missing)} keeps the 1 s default, so every "
                          "file is looked up again each second; 7200 suits read-only training data")


RULES = (
    Rule(
        "FG107", "warning", "direct_io bypasses the page cache (AlluxioFuse tuning guide)", fuse_direct_io,
        description="With `direct_io` among the FUSE options the kernel neither caches nor reads ahead, so "
                    "every read of a training epoch goes to the FUSE process; the AlluxioFuse guide also "
                    "reports it unstable under heavy IO. Fluid's own default for read-only data is "
                    "`kernel_cache`.",
        sources=(source(OPTIMIZATION, "optimizeDefaultFuse"),),
        elsewhere=(f"{TUNING_GUIDE}: direct_io, kernel_cache",),
        example=Example(runtime_head("alluxio") + """\
  fuse:
    args: [fuse, "--fuse-opts=direct_io,ro"]
""", "Reads skip the page cache; use kernel_cache for read-only training data.")),
    Rule(
        "FG109", "warning", "ActiveProcessorCount above the CPU limit oversizes JVM thread pools", processor_count,
        description="`-XX:ActiveProcessorCount` tells a master, worker or FUSE JVM how many CPUs it has; "
                    "thread pools are sized from it. Above the component's CPU limit the threads contend for "
                    "CPUs the container cannot use. Fluid passes `jvmOptions` to the JVM unchanged.",
        sources=(source(OPTIMIZATION, "optimizeDefaultForMaster"), source(OPTIMIZATION, "optimizeDefaultForWorker"),
                 source(OPTIMIZATION, "optimizeDefaultFuse")),
        elsewhere=("OpenJDK: -XX:ActiveProcessorCount overrides the CPU count the JVM sizes its thread pools by",),
        example=Example(runtime_head("alluxio") + """\
  fuse:
    jvmOptions: ["-XX:ActiveProcessorCount=24"]
    resources: {limits: {cpu: 8}}
""", "The FUSE JVM plans for 24 CPUs inside a container limited to 8.")),
    Rule(
        "FG110", "error", "JVM heap + direct memory (+ MEM tier) must fit the memory limit", jvm_memory_budget,
        description="A JVM's heap (`-Xmx`) and direct memory (`-XX:MaxDirectMemorySize`) live inside the "
                    "container's memory limit, and so does a worker's tier that Fluid makes a Memory emptyDir "
                    "(Alluxio, Jindo: a tier on an emptyDir of medium MEM, where a `volumeSource.emptyDir.medium` "
                    "given replaces `mediumtype` as the medium: Memory there is memory, an empty one is not); "
                    "more than the "
                    "limit and the container is OOM-killed under load. Fluid checks only the MEM tier "
                    "against the worker limit; the JVM sizes come from `jvmOptions` unchanged. The limit is "
                    "the one Fluid sets: for the FUSE of Alluxio and GooseFS, and for GooseFS's worker, the "
                    "written one plus every MEM tier's quota, and none at all without a memory limit (FG140): "
                    "read from the engine's runtime field cell, which cites the engine's code at its versions.",
        sources=(source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForWorker"),
                 source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForFuse"),
                 source("pkg/utils/tieredstore/tiered_store.go", "GetLevelStorageMap"),
                 source("pkg/ddc/base/runtime.go", "convertToTieredstoreInfo"),
                 source("charts/alluxio/templates/_helpers.tpl", "alluxio.worker.tieredstoreVolumes"),
                 source("pkg/ddc/alluxio/transform.go", "getMediumTypeFromVolumeSource"),
                 source("pkg/ddc/jindocache/transform.go", "transformWorkerMountPath"),
                 source("pkg/ddc/jindocache/transform.go", "getMediumTypeFromVolumeSource"),
                 source("pkg/ddc/juicefs/transform_volume.go", "transformWorkerCacheVolumes"),
                 source(OPTIMIZATION, "optimizeDefaultForWorker"), source(OPTIMIZATION, "optimizeDefaultFuse")),
        elsewhere=("Kubernetes: a container over its memory limit is OOM-killed; a Memory emptyDir counts "
                   "against that limit",),
        example=Example(runtime_head("alluxio") + """\
  fuse:
    jvmOptions: ["-Xmx16G", "-XX:MaxDirectMemorySize=32g"]
    resources: {limits: {memory: 32Gi}}
""", "16 GiB of heap and 32 GiB of direct memory do not fit a 32 GiB limit.")),
    Rule(
        "FG111", "warning", "a MEMORY client cache above 1800MB stresses the FUSE JVM heap", client_cache_size,
        description="With `alluxio.user.client.cache.store.type: MEMORY` the client cache lives on the FUSE "
                    "JVM heap; the AlluxioFuse guide advises at most 1800MB. Fluid sets "
                    "`alluxio.user.client.cache.enabled: false` by default and passes these properties on.",
        sources=(source(OPTIMIZATION, "optimizeDefaultProperties"),),
        elsewhere=(f"{TUNING_GUIDE}: alluxio.user.client.cache.size",),
        example=Example(runtime_head("alluxio") + """\
  properties:
    alluxio.user.client.cache.enabled: "true"
    alluxio.user.client.cache.store.type: MEMORY
    alluxio.user.client.cache.size: 4GB
""", "A 4GB client cache on the FUSE heap invites long GC pauses.")),
    Rule(
        "FG116", "warning", "kernel_cache wants long attr/entry timeouts (AlluxioFuse tuning guide)",
        fuse_metadata_timeouts,
        description="`kernel_cache` keeps file data in the page cache, but without `attr_timeout` and "
                    "`entry_timeout` the kernel asks FUSE for every file's metadata again after one second. "
                    "Fluid's default FUSE options for read-only data set both to 7200.",
        sources=(source(OPTIMIZATION, "optimizeDefaultFuse"),),
        elsewhere=(f"{TUNING_GUIDE}: attr_timeout, entry_timeout",),
        example=Example(runtime_head("alluxio") + """\
  properties: {alluxio.fuse.jnifuse.enabled: "true"}
  fuse:
    args: [fuse, "--fuse-opts=kernel_cache,ro"]
""", "Every file is looked up again each second; add attr_timeout=7200,entry_timeout=7200.")),
)
