"""fluidgen's Fluid facts against the cases of Fluid's own Go unit tests (tests/fluid_fixtures/).

Each fixture case names its kind; CHECKS maps a kind to the fluidgen fact it exercises. A case
of a kind without a check fails, so no mined case is left unchecked. Where Fluid's source trees
are on the machine, each case's Go test is looked up at each commit it names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from fluidgen.base.quantity import to_bytes
from fluidgen.base.versions import NAMES
from fluidgen.engines import alluxio, efc, jindo
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid import fluidbase
from fluidgen.fluid.operations import OPERATIONS, PARALLEL_WORKERS

from .conftest import RESULTS
from .fluid_src import COMMITS, need_tree

FIXTURES = Path(__file__).parent / "fluid_fixtures"
Case = dict[str, Any]


def _load() -> list[tuple[str, Case, dict[str, Any]]]:
    out = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        doc = YAML(typ="safe").load(path.read_text())
        for case in doc["cases"]:
            out.append((path.name, case, doc))
    return out


CASES = _load()


# -- checks: one per kind ---------------------------------------------------------------------

def _mount_path(given: Case, expect: Case, version: str) -> None:
    assert fluidbase.mount_path(given["name"], given["path"]) == expect["path"]


def _alluxio_root(given: Case, expect: Case, version: str) -> None:
    mounts = [(m.get("name"), m["mountPoint"], m.get("path")) for m in given["mounts"]]
    assert fluidbase.alluxio_root_ufs(mounts) == (expect["root"], expect["mount"])


def _tier_split(given: Case, expect: Case, version: str) -> None:
    args = (given.get("path", ""), given.get("quota"), given.get("quotaList", ""))
    if expect.get("error"):
        with pytest.raises(fluidbase.TierError):
            fluidbase.tier_paths(*args)
        return
    got = fluidbase.tier_paths(*args)
    assert got == [(p, Decimal(to_bytes(q))) for p, q in expect["paths"]]


def _reference_subpath(given: Case, expect: Case, version: str) -> None:
    assert fluidbase.reference_subpath(given["mountPoint"]) == expect["subpath"]


def _reference_alone(given: Case, expect: Case, version: str) -> None:
    is_reference, problem = fluidbase.reference_dataset(given["mounts"])
    assert (is_reference, problem is not None) == (expect["reference"], expect["error"])


def _reference_modes(given: Case, expect: Case, version: str) -> None:
    assert fluidbase.reference_access_modes(given["reference"], given["referenced"]) == expect["modes"]


def _host_network(given: Case, expect: Case, version: str) -> None:
    assert fluidbase.host_network(given["networkMode"]) is expect["hostNetwork"]


def _operation_name(given: Case, expect: Case, version: str) -> None:
    op = OPERATIONS[given["kind"]]
    what = given["object"]
    if what == "release":
        got = op.release_name(given["name"])
    elif what == "parallel-workers":
        got = PARALLEL_WORKERS.format(release=given["release"])
    elif "release" in given:  # Fluid's helper names the Job from the release name
        assert op.job_name.startswith(op.release)
        got = given["release"] + op.job_name[len(op.release):]
    else:
        got = op.job_name.format(name=given["name"])
    assert got == expect["name"]


def _alluxio_property(given: Case, expect: Case, version: str) -> None:
    http = bool(given.get("mounts")) and all(m.startswith(("http://", "https://")) for m in given["mounts"])
    got = alluxio.default_properties(given["properties"], http_only=http)
    for key, value in expect.items():
        assert got[key] == value, key


def _alluxio_jvm(given: Case, expect: Case, version: str) -> None:
    got = list(given["jvmOptions"]) or list(alluxio.DEFAULT_JVM[given["component"]])
    if "options" in expect:
        assert got == expect["options"]
    else:
        assert got[expect["index"]] == expect["option"]


def _alluxio_optimize_fuse(given: Case, expect: Case, version: str) -> None:
    args = alluxio.optimized_fuse_args(given["args"], given["read_only"], given["libfuse"],
                                       given["mount_path_in_args"], given["mount_path"])
    assert args == expect["args"]
    if "fuse_jvm" in expect:
        assert list(alluxio.DEFAULT_JVM["fuse"]) == expect["fuse_jvm"]


def _alluxio_transform_fuse(given: Case, expect: Case, version: str) -> None:
    args, env = alluxio.fuse_args(given["args"], given["read_only"], given["libfuse"], given["image_tag"],
                                  given.get("mount_path", ""))
    assert (args, env) == (expect["args"], expect["mount_point_env"])


def _jindo_fuse_args(given: Case, expect: Case, version: str) -> None:
    args = jindo.fuse_args(given["args"], given["read_only"], given["mounts"], version)
    for arg, present in expect["contains"].items():
        assert (arg in args) is present, (arg, args)


def _vineyard_tiers(given: Case, expect: Case, version: str) -> None:
    engine = ENGINES["vineyard"]
    if expect.get("error"):  # fluidgen refuses a VineyardRuntime without a tier (engines/vineyard.py _finish)
        assert not given["levels"] and not engine.lowering.single_tier
        return
    assert not engine.lowering.single_tier  # every level is kept
    assert [lv["mediumtype"] for lv in given["levels"]] == [lv["mediumtype"] for lv in expect["levels"]]
    assert engine.lowering.mem_default_path is None  # a MEM level keeps only its quota


def _efc_worker_tier(given: Case, expect: Case, version: str) -> None:
    got = efc.worker_cache_gb(int(to_bytes(given["quota"])))
    if expect["error"]:
        assert got is None
    else:
        assert got == expect["cache_capacity_gb"]


def _juicefs_cache_dirs(given: Case, expect: Case, version: str) -> None:
    separator = ENGINES["juicefs"].lowering.path_separator
    assert [p for p in given["cache-dir"].split(separator) if p] == expect["dirs"]
    assert separator.join(expect["dirs"]) == given["cache-dir"]  # what fluidgen writes for these directories


CHECKS: dict[str, Callable[[Case, Case, str], None]] = {
    "alluxio-default-property": _alluxio_property,
    "alluxio-jvm": _alluxio_jvm,
    "alluxio-optimize-fuse": _alluxio_optimize_fuse,
    "alluxio-transform-fuse": _alluxio_transform_fuse,
    "jindo-fuse-args": _jindo_fuse_args,
    "vineyard-tiers": _vineyard_tiers,
    "efc-worker-tier": _efc_worker_tier,
    "juicefs-cache-dirs": _juicefs_cache_dirs,
    "mount-path": _mount_path,
    "alluxio-root-ufs": _alluxio_root,
    "tier-split": _tier_split,
    "reference-subpath": _reference_subpath,
    "reference-alone": _reference_alone,
    "reference-access-modes": _reference_modes,
    "fuse-host-network": _host_network,
    "operation-name": _operation_name,
}


@pytest.mark.parametrize(("file", "case", "doc"), CASES, ids=[f"{f}:{c['id']}" for f, c, _ in CASES])
def test_fluid_case(file: str, case: Case, doc: dict[str, Any]) -> None:
    assert case["kind"] in CHECKS, f"no fluidgen fact checks kind {case['kind']}"
    assert set(case["tests"]) <= set(NAMES), "tests are named per versions.py version"
    for version in case["tests"]:
        CHECKS[case["kind"]](case["given"], case["expect"], version)


@pytest.mark.parametrize("file", sorted(p.name for p in FIXTURES.glob("*.yaml")))
def test_fixture_names_fluid_tests_that_exist(file: str) -> None:
    """Each case's Go test is in the cited test file at each commit it names."""
    doc = YAML(typ="safe").load((FIXTURES / file).read_text())
    assert doc["commits"] == {v: COMMITS[v] for v in NAMES}
    missing = []
    for case in doc["cases"]:
        for version, test in case["tests"].items():
            text = (need_tree(version) / case.get("source", doc["source"])).read_text()
            for part in test.split(" / "):
                if not re.search(re.escape(part.strip()), text):
                    missing.append(f"{case['id']} at {version}: {part!r}")
    assert not missing, "\n".join(missing)


def test_fixture_counts() -> None:
    """How many cases, from which Fluid test files, at which commits (printed at the end)."""
    counts: dict[str, object] = {}
    for _, case, doc in CASES:
        for version in case["tests"]:
            key = f"{case.get('source', doc['source'])} @ {COMMITS[version]}"
            counts[key] = int(str(counts.get(key, 0))) + 1
    counts["total cases"] = len(CASES)
    RESULTS["cases mined from Fluid's Go tests"] = counts
    assert len(CASES) >= 65  # the floor: cases are added, never dropped quietly
