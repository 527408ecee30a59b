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

from fluidgen import api
from fluidgen.base.quantity import to_bytes
from fluidgen.base.versions import NAMES
from fluidgen.engines import alluxio, efc, jindo
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid import fluidbase
from fluidgen.fluid.operations import OPERATIONS, PARALLEL_WORKERS
from fluidgen.importer import mapping
from tests.conftest import RESULTS
from tests.harness.fluid_src import COMMITS, need_tree

FIXTURES = Path(__file__).parent.parent / "fluid_fixtures"
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
        got = PARALLEL_WORKERS.value.format(release=given["release"])
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


def _built(engine: str, version: str, **runtime: Any) -> tuple[dict[str, Any], list[str]]:
    """The runtime spec fluidgen builds for `engine` with these runtime keys, and the build's errors."""
    spec: dict[str, Any] = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
                            "metadata": {"name": "d", "namespace": "default"},
                            "runtime": {"engine": engine, "replicas": 1, **runtime}}
    sources = {"alluxio": "https://example.com/data/", "juicefs": "juicefs:///"}
    if engine in sources:
        spec["source"] = [{"uri": sources[engine], "name": "data"}]
        if engine == "juicefs":
            spec["source"][0]["credentials"] = {"existingSecret": {"name": "jfs", "keys": ["metaurl"]}}
    built = api.build(spec, fluid_version=version)
    errors = [d.message for d in built.diagnostics if d.severity == "error"]
    found = [o for o in built.objects if o.get("kind") == ENGINES[engine].kind]
    return (dict(found[0]["spec"]) if found else {}), errors


def _alluxio_jvm(given: Case, expect: Case, version: str) -> None:
    """Fluid keeps a component's given jvmOptions as they are and uses its defaults only for none
    (optimizeDefaultForMaster, -Worker, optimizeDefaultFuse): fluidgen passes given options through
    unchanged, writes none of its own (so Fluid's defaults hold), and records those defaults."""
    component = given["component"]
    overrides = {component: {"jvmOptions": list(given["jvmOptions"])}} if given["jvmOptions"] else {}
    runtime, errors = _built("alluxio", version, overrides=overrides)
    assert not errors, errors
    written = runtime.get(component, {}).get("jvmOptions")
    if "options" in expect:
        assert written == expect["options"]
    else:
        assert written is None  # nothing written: Fluid's own default is used
        assert alluxio.DEFAULT_JVM[component][expect["index"]] == expect["option"]


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
    """A VineyardRuntime without a tier fails in Fluid; a MEM level keeps its medium and quota and
    no path. Through fluidgen's build: the refusal (engines/vineyard.py _finish) and the levels."""
    cache = [{"medium": lv["mediumtype"], "quota": lv["quota"]} for lv in given["levels"]]
    runtime, errors = _built("vineyard", version, **({"cache": cache} if cache else {}))
    if expect.get("error"):
        assert any("needs a cache tier" in e for e in errors), errors
        return
    assert not errors, errors
    levels = runtime["tieredstore"]["levels"]
    assert [(lv["mediumtype"], lv["quota"]) for lv in levels] == [(lv["mediumtype"], lv["quota"])
                                                                   for lv in expect["levels"]]
    assert all("path" not in lv for lv in levels if lv["mediumtype"] == "MEM")  # a MEM level keeps only its quota


def _efc_worker_tier(given: Case, expect: Case, version: str) -> None:
    got = efc.worker_cache_gb(int(to_bytes(given["quota"])))
    if expect["error"]:
        assert got is None
    else:
        assert got == expect["cache_capacity_gb"]


def _juicefs_cache_dirs(given: Case, expect: Case, version: str) -> None:
    """JuiceFS splits cache-dir on ":" into one volume per directory: a tier of these directories,
    built by fluidgen, is written as exactly that cache-dir (and read back by import as them)."""
    runtime, errors = _built("juicefs", version, cache=[{"medium": "SSD", "path": expect["dirs"], "quota": "10Gi"}])
    assert not errors, errors
    assert runtime["tieredstore"]["levels"][0]["path"] == given["cache-dir"]
    tier = mapping.tier_path({"path": given["cache-dir"]}, ENGINES["juicefs"].lowering.path_separator)
    assert tier["path"] == (expect["dirs"] if len(expect["dirs"]) > 1 else expect["dirs"][0])


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


# -- the fluidbase facts at their edges (what the mined cases leave open; found by mutation) -----

def test_mount_path_edges() -> None:
    """pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace: an absolute path as given, else
    "/" + the name with its leading slashes trimmed (strings.TrimLeft); no name and no path: "/"."""
    assert fluidbase.mount_path(None, None) == "/"
    assert fluidbase.mount_path("", "") == "/"
    assert fluidbase.mount_path("//pics", None) == "/pics"
    assert fluidbase.mount_path("Xray", "") == "/Xray"  # only slashes are trimmed
    assert fluidbase.mount_path("pics", "relative/dir") == "/pics"
    assert fluidbase.mount_path("pics", "/abs/dir") == "/abs/dir"


def test_unmounted_at_root_edges() -> None:
    """GenAlluxioUFSRootPath, GenLocalStoragePath, alluxio ufs_internal.go mountUFS: only an
    object-store mount at "/" beside others is never mounted."""
    oss, pvc = "oss://b/train/", "pvc://claim"
    assert fluidbase.unmounted_at_root([("t", oss, "/")]) == []
    assert fluidbase.unmounted_at_root([]) == []
    assert fluidbase.unmounted_at_root([("t", oss, "/"), ("v", oss, None)]) == [0]
    assert fluidbase.unmounted_at_root([("v", oss, None), (None, oss, None)]) == [1]  # unnamed: "/"
    assert fluidbase.unmounted_at_root([("a", pvc, "/"), ("v", oss, None)]) == []
    assert fluidbase.unmounted_at_root([("a", oss, "/a"), ("b", oss, "/b")]) == []


def test_reference_dataset_says_why() -> None:
    """pkg/ddc/base/dataset.go CheckReferenceDataset: one dataset:// mount and nothing else."""
    assert fluidbase.reference_dataset(["dataset://a/b"]) == (True, None)
    assert fluidbase.reference_dataset(["oss://b/"]) == (False, None)
    two = fluidbase.reference_dataset(["dataset://a/b", "dataset://a/c"])
    assert two[0] is False and two[1] is not None and two[1].startswith("2 dataset:// mounts")
    mixed = fluidbase.reference_dataset(["dataset://a/b", "oss://b/"])
    assert mixed == (False, "a dataset:// mount must be the Dataset's only mount")


def test_tier_paths_say_why_fluid_fails() -> None:
    """pkg/ddc/base/runtime.go convertToTieredstoreInfo: its own messages, paths trimmed of "/"."""
    with pytest.raises(fluidbase.TierError, match="either quota or quotaList must be set"):
        fluidbase.tier_paths("/a", None)
    with pytest.raises(fluidbase.TierError, match=r"quotaList has 1 entries for 2 paths"):
        fluidbase.tier_paths("/a,/b", "1Gi", "1Gi")
    assert fluidbase.tier_paths("/a/,/b//", "2Gi") == [("/a", Decimal(2**30)), ("/b", Decimal(2**30))]
    assert fluidbase.tier_paths("/a/", None, "1Gi") == [("/a", Decimal(2**30))]


def test_is_native_and_mount_delta_edges() -> None:
    """pkg/common/fluid_ufs_scheme.go IsFluidNativeScheme; pkg/utils/dataset.go AnalyzePathsDelta."""
    assert fluidbase.is_native("pvc://claim") and fluidbase.is_native("local:///mnt")
    assert not fluidbase.is_native("oss://b/") and not fluidbase.is_native(5) and not fluidbase.is_native(None)
    none = fluidbase.mount_delta([], [])
    assert (none.add, none.remove, none.update) == ((), (), False)
    a, b, c = ({"name": n, "mountPoint": f"oss://x/{n}"} for n in "abc")
    native = {"name": "p", "mountPoint": "pvc://claim"}
    delta = fluidbase.mount_delta([c, a, native, "junk"], [b, a])
    assert (delta.add, delta.remove, delta.update) == (("/c",), ("/b",), True)
    assert fluidbase.mount_delta([a], [a, b]).update and fluidbase.mount_delta([a, b], [a]).update


def test_fastest_level_edges() -> None:
    """pkg/utils/tieredstore/tiered_store.go GetTieredLevel: MEM before SSD before HDD, the first of equals."""
    assert fluidbase.fastest_level(["SSD", "MEM"]) == 1
    assert fluidbase.fastest_level(["HDD", "SSD", "SSD"]) == 1
    assert fluidbase.fastest_level(["MEM", "MEM"]) == 0
    assert fluidbase.fastest_level(["NVMe", None]) is None
    assert fluidbase.fastest_level([]) is None


def test_read_only_and_reference_modes_edges() -> None:
    """pkg/utils/dataset.go GetAccessModesOfDataset (none is ReadOnlyMany);
    pkg/ddc/thin/referencedataset/volume.go accessModesForVirtualDataset."""
    assert fluidbase.read_only_dataset([]) and fluidbase.read_only_dataset(["ReadWriteMany", "ReadOnlyMany"])
    assert not fluidbase.read_only_dataset(["ReadWriteMany"])
    assert fluidbase.reference_access_modes([], ["ReadWriteMany"]) == ["ReadOnlyMany"]
    assert fluidbase.reference_access_modes(["ReadWriteMany"], ["ReadWriteMany"]) == ["ReadWriteMany"]
    assert fluidbase.reference_access_modes(["ReadWriteMany"], ["ReadOnlyMany"]) == ["ReadOnlyMany"]
    assert fluidbase.host_network(None) and fluidbase.host_network("HostNetwork")
    assert not fluidbase.host_network("ContainerNetwork")


def test_alluxio_root_ufs_edges() -> None:
    """GenAlluxioUFSRootPath: the one mount, not local:// or pvc://, at "/" (an unnamed one too) is
    the root; with several mounts, or a native one, the root is /underFSStorage."""
    oss = "oss://b/train/"
    assert fluidbase.alluxio_root_ufs([("t", oss, "/")]) == (oss, 0)
    assert fluidbase.alluxio_root_ufs([(None, oss, None)]) == (oss, 0)
    assert fluidbase.alluxio_root_ufs([("t", oss, "/"), ("v", oss, None)]) == ("/underFSStorage", None)
    assert fluidbase.alluxio_root_ufs([("a", "pvc://claim", "/")]) == ("/underFSStorage", None)
    assert fluidbase.alluxio_root_ufs([("t", oss, None)]) == ("/underFSStorage", None)
    assert fluidbase.alluxio_root_ufs([]) == ("/underFSStorage", None)
