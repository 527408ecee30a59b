"""One home per fact: the engine table is complete, and each fact lives in one place.

An engine missing a fact fails here, by name; so does a runtime kind or a Fluid version
written anywhere in the package outside its engine module or the version table.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from fluidgen.base import versions
from fluidgen.catalog import kinds, schemas
from fluidgen.engines import engine_table
from fluidgen.engines.contract import Engine
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid.operations import OPERATIONS
from fluidgen.lint import RULES
from fluidgen.spec import profiles
from tests.conftest import ROOT, run_cli

PACKAGE = ROOT / "fluidgen"
SOURCES = sorted(PACKAGE.rglob("*.py"))
NAMES = sorted(ENGINES)


def _files_mentioning(text: str) -> list[str]:
    pattern = re.compile(rf"(?<![A-Za-z]){re.escape(text)}(?![A-Za-z])")
    return sorted(str(p.relative_to(ROOT)) for p in SOURCES if pattern.search(p.read_text()))


def _module(engine: Engine) -> str:
    """The engine module that declares `engine` (one engine = one module)."""
    found = [m for m in vars(engine_table).values()
             if isinstance(m, ModuleType) and getattr(m, "ENGINE", None) is engine]
    assert len(found) == 1
    return str(Path(str(found[0].__file__)).relative_to(ROOT))


@pytest.mark.parametrize("name", NAMES)
def test_engine_declares_every_fact(name: str) -> None:
    engine = ENGINES[name]
    assert engine.name == name and engine.kind.endswith("Runtime")
    assert engine.doc.strip() and "Sources" in engine.doc  # where its facts come from
    assert engine.spec["type"] == "object" and engine.spec["properties"]
    assert engine.operations <= set(OPERATIONS)
    if engine.lowering.default_profile is None:
        assert len(engine.lowering.no_default_profile.split()) >= 5, "say why no bundled profile fits every use"
    else:
        assert engine.lowering.default_profile in profiles.bundled_names()
        assert profiles.load_profile(engine.lowering.default_profile).engine == name
    assert engine.created.objects, "what Fluid's controllers create for this runtime"
    assert engine.mounts.schemes is None or set(engine.mounts.storage) <= engine.mounts.schemes
    assert any(versions.has(v, name) for v in versions.NAMES)
    assert kinds.table()[engine.kind].rank == kinds.RANK_RUNTIME
    for extra in engine.extra_kinds:
        assert extra.kind in kinds.table()
    for version in versions.NAMES:
        assert (engine.kind in schemas.kinds(version)) == versions.has(version, name)


@pytest.mark.parametrize("name", NAMES)
def test_runtime_kind_is_written_only_in_its_engine_module(name: str) -> None:
    engine = ENGINES[name]
    for kind in (engine.kind, *(x.kind for x in engine.extra_kinds)):
        assert _files_mentioning(kind) == [_module(engine)], kind


@pytest.mark.parametrize("version", versions.NAMES)
def test_fluid_version_is_written_only_in_the_version_table(version: str) -> None:
    assert _files_mentioning(version) == ["fluidgen/base/versions.py"]


def test_rule_ids_are_unique_and_every_engine_rule_is_collected() -> None:
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    for engine in ENGINES.values():
        assert {r.id for r in engine.rules} <= set(ids)


def test_no_kind_list_outside_the_tables() -> None:
    """Lists of runtime kinds are derived: no module spells out two engines' kinds together."""
    kinds_written = {e.kind for e in ENGINES.values()}
    for path in SOURCES:
        found = {k for k in kinds_written if re.search(rf"\b{k}\b", path.read_text())}
        assert len(found) <= 1, (path, found)


def test_every_golden_case_folder_is_one_scenario() -> None:
    """Golden folders are scenarios; Fluid versions are a parameter, not a folder suffix."""
    for case in (ROOT / "golden").glob("*/*"):
        assert not any(case.name.endswith(v) for v in versions.NAMES), case


@pytest.mark.parametrize(("engine", "kind"), [("alluxio", "AlluxioRuntime"), ("juicefs", "JuiceFSRuntime")])
def test_a_cache_without_mounts_is_refused_as_fluidgen_rule(tmp_path: Path, engine: str, kind: str) -> None:
    """Fluid refuses a JuiceFS Dataset without mounts and runs an Alluxio one with an empty
    namespace; fluidgen refuses both, and says why without claiming Fluid refuses it."""
    spec = tmp_path / "s.yaml"
    spec.write_text(f"apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {{name: a}}\n"
                    f"source: []\nruntime: {{engine: {engine}}}\n")
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == ""
    assert f"s.yaml:4:1: error: source: a Dataset without mounts serves no storage through {kind}: give at least " \
        "one source" in result.err


ONE_PATH_SPECS = {
    "thin": "runtime:\n  engine: thin\n  cache: [{medium: SSD, path: [/mnt/a, /mnt/b], quota: 10Gi}]\n"
            "  thin: {fileSystemType: fuse, profile: {fuse: {image: example.com/fuse}}}\n",
    "vineyard": "runtime:\n  engine: vineyard\n  cache: [{medium: MEM, quota: 4Gi}, "
                "{medium: SSD, path: [/mnt/a, /mnt/b], quota: 10Gi}]\n",
}


@pytest.mark.parametrize(("engine", "kind", "level"), [("thin", "ThinRuntime", 0), ("vineyard", "VineyardRuntime", 1)])
def test_a_tier_with_several_paths_is_refused_where_fluid_takes_the_path_whole(
        tmp_path: Path, engine: str, kind: str, level: int) -> None:
    """Thin's FUSE cache dir and Vineyard's spill path are a level's path as given, one hostPath
    (Lowering.one_path_per_tier's sources): two paths joined with ',' became one directory
    named '/mnt/a,/mnt/b'. One path builds; the engines that split paths take two."""
    spec = tmp_path / "s.yaml"
    source = "" if engine == "vineyard" else "source: [{uri: 'minio://b/x'}]\n"
    text = f"apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {{name: a}}\n{source}" \
        + ONE_PATH_SPECS[engine]
    spec.write_text(text)
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == ""
    assert f"error: runtime.cache[{level}].path: {kind} uses a cache tier's path whole, as one directory: these 2 " \
        "paths would be one directory named '/mnt/a,/mnt/b'; give one path" in result.err
    spec.write_text(text.replace("[/mnt/a, /mnt/b]", "/mnt/a"))
    assert run_cli("build", str(spec)).code == 0
    assert not ENGINES["alluxio"].lowering.one_path_per_tier
