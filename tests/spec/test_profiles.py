from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.base import versions
from fluidgen.base.diagnostics import FluidgenError
from fluidgen.base.versions import NAMES as FLUID_VERSIONS
from fluidgen.engines.engine_table import ENGINES
from fluidgen.spec import profiles
from tests.conftest import run_cli

BUNDLED = profiles.bundled_names()


def test_bundled_profiles_exist() -> None:
    assert "alluxio-imagenet" in BUNDLED and "alluxio-default" in BUNDLED


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("version", FLUID_VERSIONS)
def test_bundled_profile_fits_every_target(name: str, version: str) -> None:
    p = profiles.load_profile(name)
    if not versions.has(version, p.engine):
        pytest.skip(f"engine {p.engine} does not exist in Fluid {version}")
    chain = profiles.chain(name, p.engine)
    _, diags = profiles.apply(chain, version, ENGINES[p.engine].kind, {})
    assert diags == []
    for entry in p.entries:
        assert len(entry.why.split()) >= 5, entry.path


def test_cycle_is_reported(tmp_path: Path) -> None:
    for a, b in (("a", "b"), ("b", "a")):
        (tmp_path / f"{a}.yaml").write_text(
            f"apiVersion: fluidgen.io/v1alpha1\nkind: Profile\nname: {a}\nengine: alluxio\n"
            f"description: x\nextends: ./{b}.yaml\nsettings: []\n")
    with pytest.raises(FluidgenError, match="cycle: a -> b -> a"):
        profiles.chain(str(tmp_path / "a.yaml"), "alluxio")


def test_engine_mismatch_is_reported() -> None:
    with pytest.raises(FluidgenError, match="is for engine alluxio, not jindo"):
        profiles.chain("alluxio-imagenet", "jindo")


def test_unknown_profile_suggests_a_name() -> None:
    with pytest.raises(KeyError, match='did you mean "alluxio-imagenet"'):
        profiles.load_profile("alluxio-imagenett")


def test_profiles_list_and_show() -> None:
    listed = run_cli("profiles", "list")
    assert listed.code == 0 and "alluxio-imagenet" in listed.out
    shown = run_cli("profiles", "show", "alluxio-imagenet")
    assert shown.code == 0
    assert "properties/alluxio.master.metastore: ROCKS" in shown.out
    assert "# from alluxio-default:" in shown.out  # settings inherited through extends
    missing = run_cli("profiles", "show", "nope")
    assert missing.code == 2


def test_profile_typo_suggests_profile_keys(tmp_path: Path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Profile\nname: p\nengine: alluxio\ndescription: x\n"
                   "settings:\n  - why: a reason long enough\n    sett: {a: b}\n")
    with pytest.raises(FluidgenError) as caught:
        profiles.load_profile(str(bad))
    assert f'{bad}:8:5: error: settings[0].sett: unknown key; did you mean "set"?' in str(caught.value)


def _golden_runtimes() -> set[tuple[str, str | None, str]]:
    """(engine, profile, Fluid version) of every golden case written as a spec."""
    import yaml

    from tests.harness.golden import GOLDEN, case_versions

    out = set()
    for case in sorted((GOLDEN / "ok").iterdir()):
        if not (case / "spec.yaml").exists():
            continue
        spec = yaml.safe_load((case / "spec.yaml").read_text())
        for version in case_versions(case):
            out.add((spec["runtime"]["engine"], spec["runtime"].get("profile"), spec.get("fluid") or version))
    return out


def test_every_engine_has_a_default_profile_with_goldens() -> None:
    goldens = _golden_runtimes()
    for name, engine in sorted(ENGINES.items()):
        if engine.lowering.default_profile is None:  # test_engines checks the reason it gives
            continue
        assert engine.lowering.default_profile == f"{name}-default" and engine.lowering.default_profile in BUNDLED, name
        for version in FLUID_VERSIONS:
            if versions.has(version, name):
                assert (name, engine.lowering.default_profile, version) in goldens, (name, version)


def test_each_waiver_is_checked_at_its_own_line(tmp_path: Path) -> None:
    """A setting's waive: an unknown rule or a reason too short at the line of its own key,
    every item reported in one pass (not the first problem at `waive:`)."""
    bad = tmp_path / "p.yaml"
    bad.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Profile\nname: p\nengine: alluxio\ndescription: x\n"
                   "settings:\n  - why: a reason long enough\n    set: {replicas: 2}\n    waive:\n"
                   "      FG109: the guide sizes the pools this way\n"
                   "      FG999: a reason long enough here\n"
                   "      FG110: short\n")
    with pytest.raises(FluidgenError) as caught:
        profiles.load_profile(str(bad))
    assert [d.render() for d in caught.value.diagnostics] == [
        f'{bad}:11:7: error: settings[0].waive.FG999: unknown lint rule FG999; did you mean "FG139"?',
        f"{bad}:12:7: error: settings[0].waive.FG110: say why the rule does not apply here, in a sentence"]
    good = bad.read_text().replace("FG999", "FG110").replace("      FG110: short\n", "")
    bad.write_text(good)
    assert profiles.load_profile(str(bad)).entries[0].waive == (
        ("FG109", "the guide sizes the pools this way"), ("FG110", "a reason long enough here"))
