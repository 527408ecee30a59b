"""lint/fuse_jvm.py: FG111's 1800MB line for a MEMORY client cache, where each property set is
read, and FG110's worker budget with the MEM tier a Memory emptyDir charges to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lint.test_lint import dataset, runtime

CACHE = "{alluxio.user.client.cache.store.type: MEMORY, alluxio.user.client.cache.size: SIZE}"


def _lint(tmp_path: Path, spec: str, kind: str = "AlluxioRuntime") -> str:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(), runtime(kind, spec)]))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err
    return result.err


@pytest.mark.parametrize(("size", "fires"), [("1800MB", False), ("1700MB", False), ("1801MB", True),
                                             ("2GB", True)])
@pytest.mark.parametrize("where", ["properties", "fuse"])
def test_fg111_draws_the_line_at_1800mb_in_either_property_set(tmp_path: Path, size: str, fires: bool,
                                                             where: str) -> None:
    props = CACHE.replace("SIZE", size)
    spec = f"properties: {props}" if where == "properties" else f"fuse: {{properties: {props}}}"
    err = _lint(tmp_path, spec)
    key = "spec.properties" if where == "properties" else "spec.fuse.properties"
    assert (f'[FG111]: {key}["alluxio.user.client.cache.size"]:' in err) is fires, err


def test_fg111_reads_the_fuse_properties_when_the_runtimes_hold_no_memory_cache(tmp_path: Path) -> None:
    err = _lint(tmp_path, "properties: {alluxio.user.client.cache.store.type: LOCAL}\n"
                          f"fuse: {{properties: {CACHE.replace('SIZE', '4GB')}}}")
    assert '[FG111]: spec.fuse.properties["alluxio.user.client.cache.size"]:' in err, err


@pytest.mark.parametrize(("quota", "fires"), [("4Gi", False), ("12Gi", True)])
def test_fg110_charges_a_workers_memory_emptydir_tier_to_the_worker(tmp_path: Path, quota: str, fires: bool) -> None:
    """A MEM tier on an emptyDir is memory the worker container is charged for (Kubernetes: a Memory
    emptyDir counts against the limit): 8Gi of heap + the tier against a 16Gi limit."""
    err = _lint(tmp_path, "worker:\n  jvmOptions: [-Xmx8G]\n  resources: {limits: {memory: 16Gi}}\n"
                          "tieredstore:\n  levels:\n"
                          f"    - {{mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: {quota}}}")
    assert ("[FG110]: spec.worker.resources.limits.memory:" in err) is fires, err
    if fires:
        assert "heap 8.0GiB + MEM tier 12.0GiB exceeds the worker memory limit 16Gi" in err, err


def test_fg111_reads_a_lower_case_size_and_says_the_line(tmp_path: Path) -> None:
    err = _lint(tmp_path, f"properties: {CACHE.replace('SIZE', '2000mb')}")
    assert ('[FG111]: spec.properties["alluxio.user.client.cache.size"]: a MEMORY client cache of 2000mb lives on '
            "the JVM heap; keep it within 1800MB") in err, err


def test_fg107_and_fg109_say_why_at_the_flag(tmp_path: Path) -> None:
    err = _lint(tmp_path, "fuse:\n  args: [fuse, --fuse-opts=direct_io]\n"
                          "  jvmOptions: [-XX:ActiveProcessorCount=8]\n  resources: {limits: {cpu: '4', memory: 8Gi}}")
    assert ("[FG109]: spec.fuse.jvmOptions[0]: ActiveProcessorCount=8 is above the fuse CPU limit (4); the JVM "
            "sizes thread pools for CPUs it cannot use") in err, err
    assert "[FG107]" in err and ("direct_io disables the page cache and read-ahead and is unstable under heavy IO; "
                                 "use kernel_cache") in err, err


@pytest.mark.parametrize(("heap", "tier", "said"), [
    ("6G", "MEM", None),  # 6G within 4Gi + the 4Gi MEM tier Fluid adds to the FUSE limit
    ("6G", "SSD", "heap 6.0GiB exceeds the fuse memory limit 4Gi"),  # an SSD tier adds nothing
    ("10G", "MEM", "heap 10.0GiB exceeds the fuse memory limit 4Gi + the MEM tiers' 4.0GiB Fluid adds to it"),
    ("8G", "MEM", None),  # exactly the limit and the tier: it fits
    ("8589934593", "MEM", "heap 8.0GiB exceeds the fuse memory limit 4Gi + the MEM tiers' 4.0GiB Fluid adds to it"),
])
def test_fg110_counts_the_mem_tiers_fluid_adds_to_an_alluxio_fuse_limit(tmp_path: Path, heap: str, tier: str,
                                                                       said: str | None) -> None:
    """pkg/ddc/alluxio/transform_resources.go transformResourcesForFuse (the engine's FUSE_RESOURCES
    fact): with limits.memory set, Fluid adds every MEM tier's quota to the FUSE memory limit."""
    path = "/dev/shm" if tier == "MEM" else "/mnt/ssd"
    err = _lint(tmp_path, f"fuse:\n  jvmOptions: [-Xmx{heap}]\n  resources: {{limits: {{memory: 4Gi}}}}\n"
                          f"tieredstore:\n  levels: [{{mediumtype: {tier}, path: {path}, quota: 4Gi}}]")
    if said is None:
        assert "[FG110]" not in err, err
    else:
        assert f"[FG110]: spec.fuse.resources.limits.memory: {said}; the container will be OOM-killed" in err, err


def test_fg110_checks_every_component_past_one_whose_limit_is_no_quantity(tmp_path: Path) -> None:
    err = _lint(tmp_path, "master:\n  jvmOptions: [-Xmx8G]\n  resources: {limits: {memory: lots}}\n"
                          "worker:\n  jvmOptions: [-Xmx8G]\n  resources: {limits: {memory: 4Gi}}")
    assert "[FG110]: spec.worker.resources.limits.memory: heap 8.0GiB exceeds the worker memory limit 4Gi" in err, err


def _levels(*levels: str) -> str:
    return "tieredstore:\n  levels:\n" + "".join(f"    - {{{level}}}\n" for level in levels)


@pytest.mark.parametrize(("levels", "said"), [
    # two memory levels: Fluid adds both (GetLevelStorageMap sums every level of the medium)
    (("mediumtype: MEM, path: /dev/shm, quota: 2Gi", "mediumtype: MEM, path: /mnt/mem, quota: 2Gi"), None),
    # a disk level before the memory one does not end the count
    (("mediumtype: SSD, path: /mnt/ssd, quota: 100Gi", "mediumtype: MEM, path: /dev/shm, quota: 4Gi"), None),
    # one level over two paths: quotaList, one quota per path (convertToTieredstoreInfo)
    (("mediumtype: MEM, path: '/dev/shm,/mnt/mem', quotaList: '1Gi, 3Gi'",), None),
    (("mediumtype: MEM, path: '/dev/shm,/mnt/mem', quotaList: '1Gi,2Gi'",),
     "heap 8.0GiB exceeds the fuse memory limit 4Gi + the MEM tiers' 3.0GiB Fluid adds to it"),
    # SSD and HDD are disk: they add nothing
    (("mediumtype: HDD, path: /mnt/hdd, quota: 100Gi",), "heap 8.0GiB exceeds the fuse memory limit 4Gi"),
])
def test_fg110_adds_every_memory_level_and_path_and_no_disk_to_the_fuse_limit(
        tmp_path: Path, levels: tuple[str, ...], said: str | None) -> None:
    """8G of FUSE heap against a 4Gi limit, plus what Fluid adds: the quota of every level that is
    not SSD or HDD, over all its paths (pkg/utils/tieredstore/tiered_store.go GetLevelStorageMap,
    pkg/ddc/base/runtime.go convertToTieredstoreInfo)."""
    err = _lint(tmp_path, "fuse:\n  jvmOptions: [-Xmx8G]\n  resources: {limits: {memory: 4Gi}}\n" + _levels(*levels))
    if said is None:
        assert "[FG110]" not in err, err
    else:
        assert f"[FG110]: spec.fuse.resources.limits.memory: {said}; the container will be OOM-killed" in err, err


@pytest.mark.parametrize(("levels", "tier"), [
    (("mediumtype: MEM, volumeType: emptyDir, path: '/dev/shm,/mnt/mem', quotaList: '6Gi,6Gi'",), "12.0"),
    (("mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 6Gi",
      "mediumtype: MEM, volumeType: emptyDir, path: /mnt/mem, quota: 6Gi"), "12.0"),
])
def test_fg110_charges_every_path_of_a_workers_memory_emptydir_tiers(tmp_path: Path, levels: tuple[str, ...],
                                                                      tier: str) -> None:
    """Fluid's chart makes one Memory emptyDir per path of a MEM level, sized by that path's quota
    (charts/alluxio/templates/_helpers.tpl alluxio.worker.tieredstoreVolumes): the worker is charged
    for all of them. A quotaList was read as no tier, and a second level replaced the first."""
    err = _lint(tmp_path, "worker:\n  jvmOptions: [-Xmx8G]\n  resources: {limits: {memory: 16Gi}}\n" + _levels(*levels))
    assert (f"[FG110]: spec.worker.resources.limits.memory: heap 8.0GiB + MEM tier {tier}GiB exceeds the worker "
            "memory limit 16Gi; the container will be OOM-killed") in err, err


def test_fg110_adds_nothing_to_a_worker_limit_the_worker_is_held_to_the_byte(tmp_path: Path) -> None:
    """Fluid adds MEM tiers to the FUSE limit only: a worker's heap one byte over its limit is over."""
    err = _lint(tmp_path, "worker:\n  jvmOptions: [-Xmx4294967297]\n  resources: {limits: {memory: 4Gi}}\n"
                + _levels("mediumtype: MEM, path: /dev/shm, quota: 4Gi"))
    assert "[FG110]: spec.worker.resources.limits.memory: heap 4.0GiB exceeds the worker memory limit 4Gi" in err, err
    err = _lint(tmp_path, "worker:\n  jvmOptions: [-Xmx4294967296]\n  resources: {limits: {memory: 4Gi}}")
    assert "[FG110]" not in err, err


@pytest.mark.parametrize(("kind", "charged"), [("AlluxioRuntime", True), ("JindoRuntime", True),
                                               ("JuiceFSRuntime", False), ("GooseFSRuntime", False),
                                               ("EFCRuntime", False), ("VineyardRuntime", False)])
def test_fg110_charges_a_worker_for_memory_emptydir_tiers_only_where_fluid_makes_them(
        tmp_path: Path, kind: str, charged: bool) -> None:
    """A MEM tier on an emptyDir is a Memory emptyDir in the worker pod for Alluxio
    (alluxio.worker.tieredstoreVolumes) and Jindo (jindocache transformWorkerMountPath and its
    worker StatefulSet): 8Gi of it over a 4Gi worker limit is an OOM. JuiceFS makes a disk emptyDir
    whatever the medium (transformWorkerCacheVolumes: an EmptyDirVolumeSource without a medium),
    GooseFS a hostPath (transformCommonPart), Vineyard no volume; EFC keeps the first path only.
    Those are not said to OOM the worker."""
    from tests.harness.fluid_src import TREES, need_tree

    for version in sorted(TREES):
        jfs = (need_tree(version) / "pkg/ddc/juicefs/transform_volume.go").read_text()
        body = jfs[jfs.index("func (j *JuiceFSEngine) transformWorkerCacheVolumes"):]
        body = body[:body.index("\n}\n")]
        assert "EmptyDir: &corev1.EmptyDirVolumeSource{}" in body and "Medium" not in body, version
    err = _lint(tmp_path, "worker:\n  resources: {limits: {memory: 4Gi}}\n"
                + _levels("mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi"), kind)
    said = ("[FG110]: spec.worker.resources.limits.memory: MEM tier 8.0GiB exceeds the worker memory limit 4Gi; "
            "the container will be OOM-killed")
    assert (said in err) is charged, err


_MEMORY = "volumeSource: {emptyDir: {medium: Memory}}"


@pytest.mark.parametrize(("kind", "levels", "charged"), [
    ("AlluxioRuntime", (f"mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi, {_MEMORY}",), True),
    # the emptyDir's medium "" is the medium type: no volume at all (not memory)
    ("AlluxioRuntime", ("mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi, "
                        "volumeSource: {emptyDir: {}}",), False),
    ("AlluxioRuntime", ("mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi, "
                        "volumeSource: {emptyDir: {medium: HugePages}}",), False),
    ("AlluxioRuntime", (f"mediumtype: SSD, volumeType: emptyDir, path: /mnt/a, quota: 8Gi, {_MEMORY}",), True),
    # several paths: each part's medium is Memory for MEM only, so "Memory,Memory" makes disk emptyDirs
    ("AlluxioRuntime", ("mediumtype: SSD, volumeType: emptyDir, path: '/mnt/a,/mnt/b', quotaList: '4Gi,4Gi', "
                        f"{_MEMORY}",), False),
    ("AlluxioRuntime", ("mediumtype: MEM, volumeType: emptyDir, path: '/mnt/a,/mnt/b', quotaList: '4Gi,4Gi'",),
     True),
    ("JindoRuntime", ("mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi, "
                      "volumeSource: {emptyDir: {}}",), False),  # medium "": a disk emptyDir
    ("JindoRuntime", (f"mediumtype: SSD, volumeType: emptyDir, path: /mnt/a, quota: 8Gi, {_MEMORY}",), True),
    ("JindoRuntime", (f"mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi, {_MEMORY}",), True),
    # a MEM tier on a hostPath is the node's directory, no emptyDir of the pod's
    ("JindoRuntime", ("mediumtype: MEM, volumeType: hostPath, path: /dev/shm, quota: 8Gi",), False),
    ("AlluxioRuntime", ("mediumtype: MEM, volumeType: hostPath, path: /dev/shm, quota: 8Gi",), False),
    # Alluxio reads every level: a memory emptyDir past a disk level still counts
    ("AlluxioRuntime", ("mediumtype: SSD, path: /mnt/a, quota: 8Gi",
                        "mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi"), True),
    # Jindo reads levels[0] only
    ("JindoRuntime", ("mediumtype: SSD, path: /mnt/a, quota: 8Gi",
                      "mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 8Gi"), False),
])
def test_fg110_charges_a_worker_for_the_emptydirs_whose_medium_fluid_makes_memory(
        tmp_path: Path, kind: str, levels: tuple[str, ...], charged: bool) -> None:
    """Alluxio and Jindo take an emptyDir level's volumeSource.emptyDir.medium, when given, as its medium
    type instead of its mediumtype (getMediumTypeFromVolumeSource, both commits); the charts make the
    volume Memory for MEM, nothing for SSD or HDD, else that medium quoted; Alluxio makes no volume for
    an empty one, and each path of several gets Memory for MEM only (alluxio.worker.tieredstoreVolumes)."""
    from tests.harness.fluid_src import TREES, need_tree

    for version in sorted(TREES):
        root = need_tree(version)
        for path, receiver in (("pkg/ddc/alluxio/transform.go", "(e *AlluxioEngine)"),
                               ("pkg/ddc/jindocache/transform.go", "(e *JindoCacheEngine)")):
            text = (root / path).read_text()
            body = text[text.index(f"func {receiver} getMediumTypeFromVolumeSource"):]
            assert "mediumType = string(" in body[:body.index("\n}\n")] and ".VolumeSource.EmptyDir.Medium)" in body
        helpers = (root / "charts/alluxio/templates/_helpers.tpl").read_text()
        volumes = helpers[helpers.index('define "alluxio.worker.tieredstoreVolumes"'):]
        volumes = volumes[:volumes.index("{{- end -}}")]
        assert '{{- if .mediumtype }}' in volumes and 'medium: {{ eq $val "MEM" | ternary "Memory" "" }}' in volumes
        assert ('medium: {{ eq .mediumtype "MEM" | ternary "Memory" (or (eq .mediumtype "SSD") (eq .mediumtype '
                '"HDD") | ternary "" (.mediumtype | quote)) }}') in volumes
        jindo = (root / "charts/jindocache/templates/worker/statefulset.yaml").read_text()
        assert ('medium: {{ eq $mount.mediumType "MEM" | ternary "Memory" (or (eq $mount.mediumType "SSD") '
                '(eq $mount.mediumType "HDD") | ternary "" ($mount.mediumType | quote)) }}') in jindo
    err = _lint(tmp_path, "worker:\n  resources: {limits: {memory: 4Gi}}\n" + _levels(*levels), kind)
    said = ("[FG110]: spec.worker.resources.limits.memory: MEM tier 8.0GiB exceeds the worker memory limit 4Gi; "
            "the container will be OOM-killed")
    assert (said in err) is charged, err


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_fg110_runs_at_every_version_its_alluxio_and_jindo_facts_hold(tmp_path: Path, version: str) -> None:
    """FG110 rests on Alluxio's, Jindo's and the shared tieredstore code, the same at both commits; GooseFS's
    worker limit (v1.0.8 only, where GooseFS exists) comes from its runtime field cell, which cites it.
    Citing it on the rule too made FG110 hold for v1.0.8 only: a master target was never checked."""
    from fluidgen.lint import rules_for

    assert any(r.id == "FG110" for r in rules_for(version))
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(), runtime("AlluxioRuntime", "worker:\n  resources: {limits: "
                                      "{memory: 4Gi}}\n" + _levels("mediumtype: MEM, volumeType: emptyDir, "
                                                                   "path: /dev/shm, quota: 8Gi"))]))
    err = run_cli("lint", "--fluid-version", version, str(manifest)).err
    assert ("[FG110]: spec.worker.resources.limits.memory: MEM tier 8.0GiB exceeds the worker memory limit 4Gi"
            in err), err


@pytest.mark.parametrize("kind", ["AlluxioRuntime", "JindoRuntime"])
@pytest.mark.parametrize("levels", ["tieredstore: {levels: []}\n", "tieredstore: {levels: [fast]}\n"])
def test_fg110_reads_a_worker_without_a_level_it_can_use(tmp_path: Path, kind: str, levels: str) -> None:
    """No level, or one that is no mapping (the schema's error, not a crash): no emptyDir to charge."""
    err = _lint(tmp_path, "worker:\n  resources: {limits: {memory: 4Gi}}\n" + levels, kind)
    assert "[FG110]" not in err, err
