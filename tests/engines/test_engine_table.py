"""One home per fact: the engine table is complete, and each fact lives in one place.

An engine missing a fact fails here, by name; so does a runtime kind or a Fluid version
written anywhere in the package outside its engine module or the version table.
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

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
# engine_index.py is generated from the engine modules and checked against them below
# (test_the_engine_index_is_what_the_engine_modules_declare): a derived copy, as schemas/ is.
INDEX_FILE = PACKAGE / "engines" / "engine_index.py"
# catalog/explain_index.py likewise, from the engines' cells (tests/lower/test_keyfacts.py).
GENERATED = {INDEX_FILE, PACKAGE / "catalog" / "explain_index.py"}
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if p not in GENERATED)
NAMES = sorted(ENGINES)


def _files_mentioning(text: str) -> list[str]:
    pattern = re.compile(rf"(?<![A-Za-z]){re.escape(text)}(?![A-Za-z])")
    return sorted(str(p.relative_to(ROOT)) for p in SOURCES if pattern.search(p.read_text()))


def _module(engine: Engine) -> str:
    """The engine module that declares `engine` (one engine = one module)."""
    module = import_module(f"fluidgen.engines.{engine_table.INDEX[engine.name].module}")
    assert getattr(module, "ENGINE", None) is engine
    return str(Path(str(module.__file__)).relative_to(ROOT))


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


# -- the table is lazy: an engine module is imported when something names it (issue 39) ------

def test_the_engine_index_is_what_the_engine_modules_declare() -> None:
    """engine_index.py is generated from the engine modules: change an engine's kind, extra kinds,
    section key or reference flag there and this fails until `python -m
    fluidgen.engines.engine_table` writes the index again."""
    assert INDEX_FILE.read_text() == engine_table.index_source()
    assert tuple(e.name for e in ENGINES.values()) == engine_table.NAMES
    for name, row in engine_table.INDEX.items():
        engine = ENGINES[name]
        assert (row.kind, row.extra_kinds) == (engine.kind, tuple(x.kind for x in engine.extra_kinds))
        assert row.section == (engine.section.key if engine.section else None)
        assert row.references == engine.mounts.references


def test_the_index_would_see_a_changed_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index check can fail: an engine whose module declares another kind is written anew."""
    import dataclasses

    thin = import_module("fluidgen.engines.thin")
    monkeypatch.setattr(thin, "ENGINE", dataclasses.replace(thin.ENGINE, kind="ThinnerRuntime"))
    assert "'ThinnerRuntime'" in engine_table.index_source()
    assert INDEX_FILE.read_text() != engine_table.index_source()


LOADED_BY = """
import contextlib, io, sys
from fluidgen.cli import run
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = run(sys.argv[1:])
print(code, " ".join(sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("fluidgen.engines."))))
"""


def _engines_loaded_by(*args: str) -> tuple[int, set[str]]:
    import os
    import subprocess
    import sys

    found = subprocess.run([sys.executable, "-c", LOADED_BY, *args], capture_output=True, text=True, check=True,
                           env={**os.environ, "FLUIDGEN_NO_CACHE": "1"}, timeout=300)
    code, _, modules = found.stdout.strip().partition(" ")
    return int(code), set(modules.split()) - {"contract", "engine_table", "engine_index"}


@pytest.mark.parametrize(("example", "engine"), [("alluxio-imagenet-oss.yaml", "alluxio"),
                                                 ("jindo-imagenet-oss.yaml", "jindo"),
                                                 ("juicefs-mnist-pipeline.yaml", "juicefs")])
def test_a_build_imports_the_engine_its_spec_names_and_no_other(example: str, engine: str) -> None:
    """A build compiles, lints and checks one spec against the Fluid model with the engine module
    its spec names, and imports no other (before issue 39 the table imported all eight)."""
    code, loaded = _engines_loaded_by("build", str(ROOT / "examples" / example))
    assert code == 0 and loaded == {engine}


def test_a_thin_spec_imports_thin_and_a_section_of_another_engine_imports_that_engine(tmp_path: Path) -> None:
    """The spec model for a spec is built for the engines it names: a thin spec loads thin; a spec
    that writes another engine's section loads that engine too, to refuse it as before."""
    spec = tmp_path / "s.yaml"
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: a}\n"
                    + ONE_PATH_SPECS["thin"].replace("[/mnt/a, /mnt/b]", "/mnt/a")
                    + "source: [{uri: 'minio://b/x'}]\n")
    assert _engines_loaded_by("build", str(spec)) == (0, {"thin"})
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: a}\n"
                    "source: [{uri: 'oss://b/x'}]\nruntime: {engine: alluxio, cacheClass: {name: c}}\n")
    # alluxio brings no section of its own: parsing needs the cache engine's, and fails there
    assert _engines_loaded_by("build", str(spec)) == (1, {"cacheruntime"})
    result = run_cli("build", str(spec))
    assert result.code == 1 and "runtime.cacheClass: only applies to engine cache, not alluxio" in result.err


def test_the_named_engines_of_a_spec() -> None:
    from fluidgen.spec.spec import named_engines

    assert named_engines({"runtime": {"engine": "jindo"}}) == ("jindo",)
    assert named_engines({"runtime": {"engine": "alluxio", "thin": None}}) == ("alluxio", "thin")
    # not an engine's name, or no runtime: every engine (the error lists the names)
    assert named_engines({"runtime": {"engine": "alluxo"}}) == engine_table.NAMES
    assert named_engines({"runtime": "alluxio"}) == engine_table.NAMES


def test_the_lazy_kind_sets_of_lint_rules_are_the_engine_facts() -> None:
    """A rule whose kinds come from an engine fact (KindsWhere) holds what the eager derivation
    held, and is never empty (an empty kind set would make the rule read every kind)."""
    from fluidgen.lint.fuse_mode import FUSE_MODE_KINDS
    from fluidgen.lint.storage import SINGLE_TIER

    assert set(SINGLE_TIER) == {e.kind for e in ENGINES.values() if e.lowering.single_tier} != set()
    assert set(FUSE_MODE_KINDS) == {e.kind for e in ENGINES.values() if e.lowering.fuse_mode_source} != set()
    assert "Dataset" not in SINGLE_TIER and all(k in SINGLE_TIER for k in SINGLE_TIER)


@pytest.mark.parametrize("rule", [r for e in ENGINES.values() for r in e.rules], ids=lambda r: str(r.id))
def test_an_engine_rule_speaks_only_where_its_engine_has_an_object(rule: object) -> None:
    """lint runs an engine's rules only on a run that holds a kind of that engine (rules_for with
    the engines of the run): each engine rule reports its own example, and nothing once the
    objects of its engine's kinds are taken out of it."""
    from fluidgen.base.rules import Rule
    from fluidgen.io.yamlreader import load_text
    from fluidgen.lint import engines_in, index_of

    assert isinstance(rule, Rule)
    owner = next(e for e in ENGINES.values() if rule in e.rules)
    own = {owner.kind, *(x.kind for x in owner.extra_kinds)}
    objects = [d.data for d in load_text("example.yaml", rule.example.manifest) if isinstance(d.data, dict)]
    for version in rule.versions:
        index = index_of(objects, version)
        assert owner.name in engines_in(index)
        assert any(f for e in index.entries if rule.applies_to(e.kind) for f in rule.check(e, index)), version
        others = [o for o in objects if o.get("kind") not in own]
        rest = index_of(others, version)
        assert not [f for e in rest.entries if rule.applies_to(e.kind) for f in rule.check(e, rest)], version


# Public functions of the engine modules that compute fluidgen's own choices, not facts about Fluid.
OWN_FUNCTIONS = {("thin", "refers_only"): "whether the spec's sources are all dataset:// (the spec, not Fluid)",
                 ("thin", "profile_name"): "the name fluidgen gives a generated ThinRuntimeProfile"}


def test_every_fact_function_of_an_engine_names_its_source() -> None:
    """A public function of an engine module computes a fact about Fluid (fuse args, mount options,
    memory budgets): it names its Fluid source with @decided_by (base/test_fluidsource.py checks the
    cited files and functions exist). Issue 42: jindo.fuse_args without its @decided_by survived."""
    import inspect

    from fluidgen.base.fluidsource import sources_of_function

    modules = [import_module(f"fluidgen.engines.{row.module}") for row in engine_table.INDEX.values()]
    assert {m.ENGINE.name for m in modules} == set(ENGINES)
    seen = set()
    for module in modules:
        for fn_name, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == module.__name__ and not fn_name.startswith("_"):
                key = (module.__name__.rsplit(".", 1)[1], fn_name)
                seen.add(key)
                assert key in OWN_FUNCTIONS or sources_of_function(fn), \
                    f"{module.__name__}.{fn_name} computes a Fluid fact without its source"
    assert set(OWN_FUNCTIONS) <= seen, "an exemption names no function"


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_starter_names_every_option_its_storage_requires(engine: str) -> None:
    """`fluidgen init --source scheme://...` writes the storage's suggested options as placeholders;
    an option the engine requires (FG118) that the starter left out would make the user's first
    build fail on a name the starter never showed."""
    for scheme, storage in ENGINES[engine].mounts.storage.items():
        assert set(storage.options) <= set(storage.suggested), (scheme, storage.options, storage.suggested)
        # each value one placeholder, <NAME>, which FG102 refuses until it is filled in
        assert all(re.fullmatch(r"<[A-Z0-9_]+>", v) for v in storage.suggested.values()), storage.suggested
    # the starter's source: placeholders and the scheme's own characters only, none at the edges
    source = ENGINES[engine].starter.source  # "" for an engine that takes no mounts (Engine checks it)
    assert not source or re.fullmatch(r"([a-z0-9]+|<[A-Z_]+>)://([A-Za-z0-9_./:-]|<[A-Z_]+>)*", source), source
