"""Every Fluid fact carries its source as data (fluidgen/base/fluidsource.py), and every source
cited exists: the file at each version it claims, with the function in it."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import fluidgen
from fluidgen.base import versions
from fluidgen.base.fluidsource import (
    ALL,
    Fact,
    FluidSource,
    all_sources,
    before,
    fact,
    for_version,
    holding,
    since,
    source,
    sources_of_function,
    unsourced,
)
from fluidgen.base.versions import V1_0_8, V1_1_0_DEV
from tests.harness.fluid_src import FOLDERS, need_tree


def _modules() -> Iterator[Any]:
    for info in pkgutil.walk_packages(fluidgen.__path__, "fluidgen."):
        if info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def _walk(value: Any, seen: set[int], depth: int = 0) -> Iterator[FluidSource]:
    if id(value) in seen or depth > 8 or isinstance(value, (str, bytes, int, float, type)):
        return
    seen.add(id(value))
    if callable(value):
        yield from sources_of_function(value)
    elif isinstance(value, FluidSource):
        yield value
    elif isinstance(value, Fact):
        yield from value.sources
    elif dataclasses.is_dataclass(value):
        yield from all_sources(value)
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name), seen, depth + 1)
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _walk(v, seen, depth + 1)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for v in value:
            yield from _walk(v, seen, depth + 1)


def cited_sources() -> dict[FluidSource, str]:
    """Every FluidSource reachable from a module's globals -> the first module citing it."""
    out: dict[FluidSource, str] = {}
    seen: set[int] = set()
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            for s in _walk(value, seen):
                out.setdefault(s, module.__name__)
    return out


def test_source_record_is_checked() -> None:
    s = source("pkg/utils/ufs_path_builder.go", "GenUFSPathInUnifiedNamespace")
    assert s.versions == ALL == versions.NAMES and s.holds_for(V1_0_8)
    assert s.cite() == "pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace (every version)"
    only = source("pkg/common/cacheruntime.go", "GetCacheRuntimeConfigConfigMapName", versions=since(V1_1_0_DEV))
    assert not only.holds_for(V1_0_8) and only.cite().endswith(f"({V1_1_0_DEV})")
    assert before(V1_1_0_DEV) == (V1_0_8,) and since(V1_0_8) == ALL
    for bad in (("/abs/path.go", "f"), ("../x.go", "f"), ("", "f"), ("pkg/x.go", "")):
        with pytest.raises(ValueError):
            source(*bad)
    with pytest.raises(ValueError):
        source("pkg/x.go", "f", versions=("v9.9.9",))
    with pytest.raises(ValueError):
        fact("a value without a source")


def test_version_dependent_facts_pick_one_per_version() -> None:
    old = fact("always", source("pkg/ddc/jindocache/transform.go", "transformFuseArg", versions=before(V1_1_0_DEV)))
    new = fact("one mount", source("pkg/ddc/jindocache/transform.go", "transformFuseArg", versions=since(V1_1_0_DEV)))
    assert for_version(V1_0_8, old, new) == "always"
    assert for_version(V1_1_0_DEV, old, new) == "one mount"
    with pytest.raises(LookupError):
        for_version(V1_0_8, old, old)


def test_a_function_fluid_moved_within_its_go_package_is_one_fact() -> None:
    """jindocache's transformWorkerResources is in transform.go at v1.0.8 and transform_resources.go on
    master: cited at each, it holds for both (FG136 runs at both). The same name in another package, or
    a chart, is another fact: each must hold."""
    old = source("pkg/ddc/jindocache/transform.go", "transformWorkerResources", versions=before(V1_1_0_DEV))
    new = source("pkg/ddc/jindocache/transform_resources.go", "transformWorkerResources", versions=since(V1_1_0_DEV))
    assert holding((old, new)) == ALL
    other = source("pkg/ddc/goosefs/transform_resources.go", "transformWorkerResources", versions=(V1_0_8,))
    assert holding((old, new, other)) == (V1_0_8,)
    chart = source("charts/a/templates/x.yaml", "t", versions=(V1_0_8,))
    assert holding((chart, source("charts/a/templates/y.yaml", "t", versions=(V1_1_0_DEV,)))) == ()


@dataclass(frozen=True)
class _Record:
    layout: str = "root"
    limit: int = 0
    sources: Mapping[str, FluidSource] = field(default_factory=dict)


def test_unsourced_lists_set_fields_without_a_source() -> None:
    assert unsourced(_Record()) == []
    assert unsourced(_Record(layout="per-mount", limit=3)) == ["layout", "limit"]
    cited = _Record(layout="per-mount", sources={"layout": source("pkg/utils/ufs_path_builder.go", "GenUFSPath")})
    assert unsourced(cited) == []
    with pytest.raises(TypeError):
        unsourced(_Record)


# Cited files in folders of Fluid's repository that the shared trees do not hold (fluid_src.FOLDERS),
# each with why it stays cited; any other path outside those folders is a problem.
OUTSIDE_TREES = {
    "cmd/fluidapp/app/fluidapp.go": "fluidapp's controller manager, which registers the DataflowAffinity gate; "
                                    "the gate and its default (off) are checked in pkg/dataflow/features.go",
    "docs/en/samples/s3_configuration.md": "FG102's <bucket-name>: a documentation placeholder, not code",
}


def test_every_cited_source_exists_in_fluid() -> None:
    """The file exists at every version the source claims, and names the function. A file in a
    folder the shared trees lack is one of OUTSIDE_TREES, said there."""
    cited = cited_sources()
    roots = {v: need_tree(v) for v in versions.NAMES}
    problems = []
    outside = set()
    for s, module in sorted(cited.items(), key=lambda kv: (kv[0].path, kv[0].function)):
        if s.path.split("/", 1)[0] not in FOLDERS:
            outside.add(s.path)
            if s.path not in OUTSIDE_TREES:
                problems.append(f"{module}: {s.path} is outside the folders the shared trees hold ({FOLDERS})")
            continue
        for version in s.versions:
            path = roots[version] / s.path
            if not path.is_file():
                problems.append(f"{module}: {s.path} does not exist at {version}")
            elif not re.search(rf"(?<![\w]){re.escape(s.function)}(?![\w])", path.read_text(errors="replace")):
                problems.append(f"{module}: {s.path} has no {s.function} at {version}")
    problems += [f"OUTSIDE_TREES names {p}, which nothing cites" for p in sorted(set(OUTSIDE_TREES) - outside)]
    assert not problems, "\n".join(problems)


def test_every_fact_function_of_fluidbase_names_its_source() -> None:
    import inspect

    from fluidgen.fluid import fluidbase

    for name, fn in vars(fluidbase).items():
        if inspect.isfunction(fn) and fn.__module__ == fluidbase.__name__ and not name.startswith("_"):
            assert sources_of_function(fn), f"fluidbase.{name} computes a Fluid fact without its source"


# Fields of the engine contract that are fluidgen's own choices, not facts about Fluid, or that
# carry their source themselves (a Storage its source, options_in_properties and fuse_mode_source are one).
CHOICES = {"lowering": frozenset({"default_profile", "no_default_profile", "removed_note", "computed",
                                  "fuse_mode_source"}),
           "mounts": frozenset({"storage", "migrate_storage", "options_in_properties"})}


# Facts every engine asserts about itself whether it sets them or keeps the default (the shape
# of its status, where its data appears, how it takes mounts): each engine names their source.
ALWAYS = {"health": frozenset({"status_shape", "partial_workers_ready"}), "workloads": frozenset({"data_layout"}),
          "mounts": frozenset({"single_mount", "needs_mounts", "references"}),
          "lowering": frozenset({"path_separator", "mem_default_path", "single_tier", "emptydir_needs_path",
                                 "default_replicas"}),
          "created": frozenset({"chart_fullname"})}

# ALWAYS facts an engine's lowering never reads: (engine, field) -> why; no source is asked for them.
NOT_READ = {
    ("cache", "path_separator"): "its generate hook (_level) writes hostPath paths as a list",
    ("cache", "mem_default_path"): "its generate hook (_level) writes a MEM tier as a Memory emptyDir, no path",
    ("cache", "chart_fullname"): "no Helm chart: its objects are named by GetCacheComponentName, no {full}",
}


def always_for(name: str, part: str) -> frozenset[str]:
    """The ALWAYS facts of `part` that engine `name` must source (those its lowering reads)."""
    return frozenset(f for f in ALWAYS.get(part, frozenset()) if (name, f) not in NOT_READ)


def unsourced_facts(engines: Mapping[str, Any], part: str) -> dict[str, list[str]]:
    """Engine name -> the facts of its `part` record that need a source and have none."""
    found = {name: unsourced(getattr(engine, part), CHOICES.get(part, frozenset()), always_for(name, part))
             for name, engine in sorted(engines.items())}
    return {name: fields for name, fields in found.items() if fields}


@pytest.mark.parametrize("part", ["lowering", "created", "workloads", "mounts", "health"])
def test_every_engine_fact_names_its_source(part: str) -> None:
    """An engine that sets a Fluid fact in its lowering, created, workloads, mounts or health
    record says where Fluid decides it, beside the value (the record's sources); a new fact
    without one fails. Mounts.schemes has no default, and the ALWAYS facts hold at their
    default too: every engine names their source."""
    from fluidgen.engines.engine_table import ENGINES

    missing = unsourced_facts(ENGINES, part)
    assert not missing, f"{part} facts without a Fluid source: {missing}"


def test_every_storage_record_names_its_source() -> None:
    """The mounts facts left to their Storage records (per scheme, for Dataset mounts and for
    DataMigrate) each carry the Fluid code that reads their names."""
    from fluidgen.engines.engine_table import ENGINES

    missing = [f"{name}: {scheme}" for name, engine in sorted(ENGINES.items())
               for table in (engine.mounts.storage, engine.mounts.migrate_storage)
               for scheme, storage in sorted(table.items()) if storage.source is None]
    assert not missing, f"Storage records without a Fluid source: {missing}"


def test_an_unsourced_mounts_or_health_fact_fails() -> None:
    """The check reaches the new records: a set mounts or health field without a source is listed."""
    from fluidgen.engines.contract import Health, Mounts

    assert unsourced(Mounts(schemes=frozenset({"oss"}), single_mount=True), CHOICES["mounts"]) == [
        "schemes", "single_mount"]
    assert unsourced(Health(status_shape="fuse-only")) == ["status_shape"]
    cited = source("pkg/ddc/thin/status.go", "CheckAndUpdateRuntimeStatus")
    assert unsourced(Health(status_shape="fuse-only", sources={"status_shape": cited})) == []


def test_a_default_fact_without_a_source_fails() -> None:
    """The ALWAYS facts need a source at their default too: an engine whose health, workloads
    or mounts record leaves one unsourced is listed, whatever its value."""
    from fluidgen.engines.contract import Health, Mounts, Workloads
    from fluidgen.engines.engine_table import ENGINES

    assert unsourced(Health(), always=ALWAYS["health"]) == ["status_shape", "partial_workers_ready"]
    assert unsourced(Workloads(), always=ALWAYS["workloads"]) == ["data_layout"]
    schemes = source("pkg/ddc/thin/transform_config.go", "transformFuseConfig")
    assert unsourced(Mounts(schemes=None, sources={"schemes": schemes}), CHOICES["mounts"], ALWAYS["mounts"]) == [
        "single_mount", "needs_mounts", "references"]
    assert unsourced(Health()) == []  # without `always`, a default needs no source (the other facts)
    alluxio = ENGINES["alluxio"]
    bare = {"alluxio": dataclasses.replace(alluxio, health=Health(), workloads=Workloads(data_layout="per-mount"),
                                           mounts=dataclasses.replace(alluxio.mounts, sources={"schemes": schemes}))}
    assert unsourced_facts(bare, "health") == {"alluxio": ["status_shape", "partial_workers_ready"]}
    assert unsourced_facts(bare, "workloads") == {"alluxio": ["data_layout"]}
    assert unsourced_facts(bare, "mounts") == {"alluxio": ["documented_schemes", "single_mount", "needs_mounts",
                                                           "references", "alluxio_root", "encrypt_config_storage"]}


def test_a_default_lowering_or_created_fact_without_a_source_fails() -> None:
    """The lowering and created ALWAYS facts need a source at their default too: an engine that
    keeps the default tier, replicas or chart fullname without naming Fluid's code is listed."""
    from fluidgen.engines.contract import Created, Lowering
    from fluidgen.engines.engine_table import ENGINES

    assert unsourced(Lowering(), CHOICES["lowering"], ALWAYS["lowering"]) == [
        "path_separator", "mem_default_path", "single_tier", "emptydir_needs_path", "default_replicas"]
    assert unsourced(Created(objects=()), always=ALWAYS["created"]) == ["objects", "chart_fullname"]
    jindo = ENGINES["jindo"]
    kept = {k: v for k, v in jindo.lowering.sources.items() if k != "default_replicas"}
    bare = {"jindo": dataclasses.replace(jindo, lowering=dataclasses.replace(jindo.lowering, sources=kept),
                                         created=dataclasses.replace(jindo.created, sources={}))}
    assert unsourced_facts(bare, "lowering") == {"jindo": ["default_replicas"]}
    assert unsourced_facts(bare, "created") == {"jindo": ["objects", "chart_fullname"]}


def test_facts_left_unsourced_are_never_read() -> None:
    """NOT_READ holds: the cache engine generates its runtime itself (no classic tieredstore, so
    no separator or MEM path) and names no object after a chart's fullname."""
    from fluidgen.engines.contract import classic_generate
    from fluidgen.engines.engine_table import ENGINES

    for (name, fact_name), _why in NOT_READ.items():
        engine = ENGINES[name]
        if fact_name == "chart_fullname":
            assert not engine.created.helm_release
            assert all("{full}" not in pattern for _, pattern in (*engine.created.objects, *engine.created.per_master))
        else:
            assert engine.hooks.generate is not classic_generate
            assert "tieredstore" not in engine.lowering.computed  # fluidgen import reads no level path
