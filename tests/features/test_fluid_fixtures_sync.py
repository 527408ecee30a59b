"""fluidgen's facts about edits of running runtimes, mount sync, Alluxio mount options and
operation support, checked against cases mined from Fluid's own Go unit tests at the commits
versions.py targets (tests/fluid_fixtures/sync/{mount_delta,runtime_sync,alluxio_mount_options,
operations}.yaml: each block names its Go test file, test and commit)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.base import versions
from fluidgen.compile.plan import classify
from fluidgen.engines.alluxio import OptionSetTwice, mount_options
from fluidgen.engines.engine_table import BY_KIND
from fluidgen.fluid.fluidbase import mount_delta
from fluidgen.fluid.sync import APPLIED, ON_RESTART, RECREATE, ROLLING
from tests.harness.fluid_src import COMMITS, need_tree

HERE = Path(__file__).parent.parent / "fluid_fixtures" / "sync"
FILES = ("mount_delta.yaml", "runtime_sync.yaml", "alluxio_mount_options.yaml", "operations.yaml")


def _load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((HERE / name).read_text())
    assert isinstance(data, dict)
    return data


def _blocks(name: str) -> list[dict[str, Any]]:
    return list(_load(name)["mined"])


def _cases(name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(block, case) for block in _blocks(name) for case in block["cases"]]


def _id(item: tuple[dict[str, Any], dict[str, Any]]) -> str:
    block, case = item
    return f"{block['version']}:{Path(block['path']).name}:{case['name']}"


@pytest.mark.parametrize("name", FILES)
def test_fixture_blocks_name_their_source(name: str) -> None:
    """Every block names a targeted version, its commit, a Go test file and test; every case a name."""
    data = _load(name)
    assert data["fact"] and data["mined"]
    for block in data["mined"]:
        assert block["version"] in versions.NAMES
        assert block["commit"] == COMMITS[block["version"]]
        assert block["path"].endswith("_test.go") and block["test"]
        assert block["cases"] and all(c["name"] for c in block["cases"])


@pytest.mark.parametrize("name", FILES)
def test_fixture_cases_are_in_fluids_tests(name: str) -> None:
    """The Go test file exists at the block's version, with its test and every case name in it."""
    problems = []
    for block in _blocks(name):
        path = need_tree(block["version"]) / block["path"]
        if not path.is_file():
            problems.append(f"{block['path']} does not exist at {block['version']}")
            continue
        text = path.read_text(errors="replace")
        named = re.findall(r'"([^"]+)"', block["test"]) or [t.strip() for t in block["test"].split(",")]
        problems += [f"{block['path']}@{block['version']}: no {n!r}" for n in named if n not in text]
        problems += [f"{block['path']}@{block['version']}: no case {c['name']!r}" for c in block["cases"]
                     if c["name"] not in text]
    assert not problems, "\n".join(problems)


# -- mount delta ----------------------------------------------------------------------------

@pytest.mark.parametrize("item", _cases("mount_delta.yaml"), ids=_id)
def test_mount_delta(item: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """fluidgen.fluid.fluidbase.mount_delta = pkg/utils/dataset.go AnalyzePathsDelta."""
    _, case = item
    delta = mount_delta(case["spec"], case["status"])
    assert list(delta.add) == case["add"] and list(delta.remove) == case["remove"]
    if "class_mounts_ufs" not in case:
        assert delta.update == case["update"]


def _dataset(mounts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "d", "namespace": "ns"},
            "spec": {"mounts": [{"mountPoint": "oss://b/p", **m} for m in mounts]}}


def _runtime(kind: str, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": kind, "metadata": {"name": "d", "namespace": "ns"},
            "spec": spec or {}}


def _class(mounts_ufs: bool) -> dict[str, Any]:
    master = {"executionEntries": {"mountUFS": {"command": ["mount.sh"]}}} if mounts_ufs else None
    topology: dict[str, Any] = {"worker": {}}
    if master:
        topology["master"] = master
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "CacheRuntimeClass", "metadata": {"name": "c"},
            "fileSystemType": "curvine", "topology": topology}


@pytest.mark.parametrize("item", _cases("mount_delta.yaml"), ids=_id)
def test_plan_applies_exactly_the_mount_delta(item: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """What `plan` says of a Dataset mount edit (status -> spec) for a remounting runtime: the
    added and removed paths applied, nothing else; with a class that cannot mount, nothing."""
    block, case = item
    cache = "class_mounts_ufs" in case
    kind = "CacheRuntime" if cache else "AlluxioRuntime"
    runtime = _runtime(kind, {"runtimeClassName": "c"} if cache else {})
    extra = [_class(case["class_mounts_ufs"])] if cache else []
    old = [_dataset(case["status"]), runtime, *extra]
    new = [_dataset(case["spec"]), runtime, *extra]
    edits = classify(old, new, block["version"])
    applied = sorted(e.note.split(" at ")[1].split(",")[0] for e in edits if e.effect == APPLIED)
    native = [m for m in case["spec"] if str(m.get("mountPoint", "")).startswith(("pvc://", "local://"))]
    if cache and not case["class_mounts_ufs"]:
        assert applied == [] and all(e.effect == RECREATE for e in edits) and edits
    else:
        assert applied == sorted(case["add"] + case["remove"])
        assert len(edits) == len(case["add"]) + len(case["remove"]) + len(native)
    if cache and case["master_restarted"]:
        assert edits == []  # no spec edit; the restart remount is Fluid's own, and plan names it
        assert "master" in BY_KIND["CacheRuntime"].edits.mounts[0].remount_also


# -- runtime sync ---------------------------------------------------------------------------

def _set(tree_: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, leaf = dotted.split(".")
    for part in parents:
        tree_ = tree_.setdefault(part, {})
    tree_[leaf] = value


@pytest.mark.parametrize("item", _cases("runtime_sync.yaml"), ids=_id)
def test_runtime_sync(item: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """What `plan` says of each edited runtime field matches what Fluid's sync does with it."""
    block, case = item
    old_spec: dict[str, Any] = {}
    new_spec: dict[str, Any] = {}
    for i, path in enumerate(case["paths"]):
        _set(old_spec, path, case.get("workers_scheduled", f"old{i}"))
        _set(new_spec, path, case.get("replicas", f"new{i}"))
    old, new = [_runtime(block["kind"], old_spec)], [_runtime(block["kind"], new_spec)]
    edits = classify(old, new, block["version"])
    assert len(edits) == (len(case["paths"]) if old_spec != new_spec else 0)
    for edit in edits:
        if not case["synced"]:
            assert edit.effect == RECREATE and edit.ignored, edit.line()
        elif case.get("strategy") == "OnDelete" or edit.workload == "fuse":
            assert edit.effect == ON_RESTART, edit.line()
        else:
            assert edit.effect in (APPLIED, ROLLING, ON_RESTART), edit.line()


# -- operation support ----------------------------------------------------------------------

@pytest.mark.parametrize("item", _cases("operations.yaml"), ids=_id)
def test_operation_support(item: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """Engine.operations = the kinds GetDataOperationValueFile renders (pkg/ddc/*/operate.go)."""
    block, case = item
    assert (case["operation"] in BY_KIND[block["kind"]].operations) == case["supported"]


# -- Alluxio mount options ------------------------------------------------------------------

@pytest.mark.parametrize("item", _cases("alluxio_mount_options.yaml"), ids=_id)
def test_alluxio_mount_options(item: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """engines/alluxio.py mount_options = ufs_internal.go genUFSMountOptions/genEncryptOptions, which
    FG118 (every name passes) and FG123 (which value wins) rest on."""
    _, case = item
    encrypt = [tuple(e) for e in case["encrypt"]]
    if "error" in case:
        with pytest.raises(OptionSetTwice, match=case["error"]):
            mount_options(case["options"], case["shared"], encrypt, configmap=not case["extract"])
    else:
        assert mount_options(case["options"], case["shared"], encrypt, configmap=not case["extract"]) == case["want"]
