"""engines/goosefs.py: GooseFS is a v1.0.8 engine (gone at master); its data.replicas default is the
one Fluid takes for a missing value; fuse.resources apply only with a memory limit (FG140); the
starter's source is a storage Fluid hands to `goosefs fs mount` as written.

Fluid's facts (../shared/fluid-src):
- pkg/ddc/goosefs and api/v1alpha1/goosefsruntime_types.go exist at v1.0.8 and not at master.
- pkg/ddc/goosefs/transform.go transformCommonPart (v1.0.8): `if dataReplicas <= 0 { dataReplicas = 1 }`.
- pkg/ddc/goosefs/transform_resources.go transformResourcesForFuse (v1.0.8): returns before setting
  anything unless `runtime.Spec.Fuse.Resources.Limits[corev1.ResourceMemory]` is found.
- pkg/ddc/goosefs/ufs_internal.go mountUFS (v1.0.8): every mount but a Fluid-native one
  (pkg/common/fluid_ufs_scheme.go IsFluidNativeScheme: local://, pvc://) goes to
  fileUitls.Mount(goosefsPath, mount.MountPoint, ...)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from fluidgen.engines.engine_table import ENGINES
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree
from tests.lint.test_lint import dataset, runtime
from tests.lower.test_workloads import build, one, write_spec

GOOSEFS = {"engine": "goosefs", "replicas": 2, "cache": [{"medium": "MEM", "quota": "4Gi"}]}


def _body(root: Path, path: str, function: str) -> str:
    text = (root / path).read_text()
    head = re.search(rf"^func \([^)]*\) {function}\(", text, re.M)
    assert head is not None, (path, function)
    return text[head.start():text.find("\n}\n", head.start())]


def test_goosefs_is_refused_where_fluid_removed_it(tmp_path: Path) -> None:
    old, new = need_tree("v1.0.8"), need_tree("v1.1.0-dev")
    assert (old / "pkg/ddc/goosefs").is_dir() and (old / "api/v1alpha1/goosefsruntime_types.go").is_file()
    assert not (new / "pkg/ddc/goosefs").exists() and not (new / "api/v1alpha1/goosefsruntime_types.go").exists()
    assert one(build(str(write_spec(tmp_path, {}, fluid="v1.0.8", runtime=GOOSEFS))), "GooseFSRuntime")
    result = run_cli("build", str(write_spec(tmp_path, {}, fluid="v1.1.0-dev", runtime=GOOSEFS)))
    assert result.code == 1 and result.out == ""
    assert ("runtime.engine: engine goosefs is not available in Fluid v1.1.0-dev; Fluid removed it" in result.err
            and "Fluid v1.0.8 has it" in result.err), result.err


def test_data_replicas_is_written_as_fluid_defaults_it(tmp_path: Path) -> None:
    body = _body(need_tree("v1.0.8"), "pkg/ddc/goosefs/transform.go", "transformCommonPart")
    m = re.search(r"dataReplicas := runtime\.Spec\.Data\.Replicas\s*if dataReplicas <= 0 \{\s*dataReplicas = (\d+)",
                  body)
    assert m is not None
    spec = one(build(str(write_spec(tmp_path, {}, fluid="v1.0.8", runtime=GOOSEFS))), "GooseFSRuntime")["spec"]
    assert spec["data"]["replicas"] == int(m[1])


def test_fg140_reports_fuse_resources_without_a_memory_limit(tmp_path: Path) -> None:
    body = _body(need_tree("v1.0.8"), "pkg/ddc/goosefs/transform_resources.go", "transformResourcesForFuse")
    guard = body.split("value.Fuse.Resources = ", 1)[0]
    assert "if _, found := runtime.Spec.Fuse.Resources.Limits[corev1.ResourceMemory]; !found {" in guard
    manifest = tmp_path / "m.yaml"
    for resources, reported in (("{limits: {cpu: 2}}", True), ("{requests: {memory: 1Gi}}", True),
                                ("{limits: {memory: 2Gi}}", False), ("{limits: {cpu: 2, memory: 2Gi}}", False)):
        manifest.write_text("---\n".join([dataset(), runtime("GooseFSRuntime", f"fuse: {{resources: {resources}}}")]))
        result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
        assert result.code in (0, 1), result.err
        found = "[FG140]: spec.fuse.resources: GooseFSRuntime applies fuse.resources only on a condition" in result.err
        assert found is reported, (resources, result.err)


def test_fg140_reports_worker_and_job_worker_resources_without_a_worker_memory_limit(tmp_path: Path) -> None:
    """transformResourcesForWorker returns before it sets the worker's or the job worker's
    resources unless worker.resources.limits has memory (its Go test
    TestTransformResourcesForWorkerNoValue); the job worker's are set after that guard."""
    body = _body(need_tree("v1.0.8"), "pkg/ddc/goosefs/transform_resources.go", "transformResourcesForWorker")
    guard, after = body.split("value.Worker.Resources = ", 1)
    assert "if _, found := runtime.Spec.Worker.Resources.Limits[corev1.ResourceMemory]; !found {" in guard
    assert "value.JobWorker.Resources = " in after and "value.JobWorker.Resources = " not in guard
    manifest = tmp_path / "m.yaml"
    for worker, reported in (("{limits: {cpu: 2}}", True), ("{requests: {memory: 1Gi}}", True),
                             ("{limits: {memory: 2Gi}}", False)):
        manifest.write_text("---\n".join([dataset(), runtime(
            "GooseFSRuntime", f"worker: {{resources: {worker}}}\njobWorker: {{resources: {{limits: {{cpu: 1}}}}}}")]))
        result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
        assert result.code in (0, 1), result.err
        for field in ("worker", "jobWorker"):
            found = (f"[FG140]: spec.{field}.resources: GooseFSRuntime applies {field}.resources only on a condition"
                     in result.err)
            assert found is reported, (field, worker, result.err)


def test_fg110_counts_the_mem_tiers_fluid_adds_to_the_worker_memory_limit(tmp_path: Path) -> None:
    """Fluid sets the worker's memory limit to the written one plus every MEM tier's quota
    (transformResourcesForWorker over GetLevelStorageMap; its Go test: 2Gi + a 20Gi MEM tier is
    22Gi): a worker JVM over the written limit but within the one Fluid sets is no finding."""
    body = _body(need_tree("v1.0.8"), "pkg/ddc/goosefs/transform_resources.go", "transformResourcesForWorker")
    assert "storageMap := tieredstore.GetLevelStorageMap(runtimeInfo)" in body and "memLimit.Add(req)" in body
    manifest = tmp_path / "m.yaml"
    tier = "tieredstore: {levels: [{mediumtype: MEM, path: /dev/shm, quota: 8Gi, high: '0.9', low: '0.5'}]}"
    for heap, reported in (("6G", False), ("11G", False), ("13G", True)):
        manifest.write_text("---\n".join([dataset(), runtime(
            "GooseFSRuntime", f"worker: {{jvmOptions: [-Xmx{heap}], resources: {{limits: {{memory: 4Gi}}}}}}\n"
                              + tier)]))
        result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
        assert result.code in (0, 1), result.err
        assert ("[FG110]" in result.err) is reported, (heap, result.err)


def test_the_starter_source_reaches_goosefs_mount_as_written(tmp_path: Path) -> None:
    """init's starter, placeholders filled, builds at v1.0.8; its mountPoint is the Dataset's as
    written, of a scheme the engine declares, and not a Fluid-native one mountUFS skips."""
    root = need_tree("v1.0.8")
    mount = _body(root, "pkg/ddc/goosefs/ufs_internal.go", "mountUFS")
    assert "if common.IsFluidNativeScheme(mount.MountPoint) {\n\t\t\tcontinue" in mount
    assert "fileUitls.Mount(goosefsPath, mount.MountPoint," in mount
    schemes = (root / "pkg/common/fluid_ufs_scheme.go").read_text()
    consts = dict(re.findall(r'^\s*(\w+)\s+FluidUFSScheme = "(\w+)://"', schemes, re.M))
    native_body = schemes.split("func IsFluidNativeScheme(", 1)[1].split("\n}\n", 1)[0]
    native = {consts[c] for c in re.findall(r"strings\.HasPrefix\(s, (\w+)\.String\(\)\)", native_body)}
    starter = run_cli("init", "--engine", "goosefs")
    assert starter.code == 0, starter.err
    spec = yaml.safe_load(starter.out)
    spec["source"][0]["uri"] = uri = spec["source"][0]["uri"].replace("<BUCKET>", "b-1250000000").replace(
        "<PATH>", "data")
    spec.pop("placement", None)
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    (point,) = [m["mountPoint"] for m in one(build(str(path)), "Dataset")["spec"]["mounts"]]
    scheme = point.split("://", 1)[0]
    declared = ENGINES["goosefs"].mounts.schemes
    assert point == uri and declared is not None and scheme in declared
    assert native == {"local", "pvc"} and scheme not in native


def test_goosefs_merges_every_mounts_options_into_the_datasets_shared_map() -> None:
    """ufs_internal.go (v1.0.8): genUFSMountOptions starts from the Dataset's SharedOptions map itself
    when it is not empty (no copy) and writes the mount's options and encryptOption values into it;
    mountUFS calls it for every mount but a native one, on one Dataset, and returns at the first
    error; genEncryptOptions refuses a name already set (engines/goosefs.py refused_encrypt_options)."""
    root = need_tree("v1.0.8")
    gen = _body(root, "pkg/ddc/goosefs/ufs_internal.go", "genUFSMountOptions")
    assert re.search(r"if len\(SharedOptions\) > 0 \{\s*mOptions = SharedOptions\s*\}", gen), gen
    assert gen.index("m.Options") < gen.index("genEncryptOptions(SharedEncryptOptions") < gen.index(
        "genEncryptOptions(m.EncryptOptions"), gen
    mount = _body(root, "pkg/ddc/goosefs/ufs_internal.go", "mountUFS")
    loop = mount[mount.index("for _, mount := range dataset.Spec.Mounts"):]
    assert loop.index("IsFluidNativeScheme(mount.MountPoint)") < loop.index("continue") < loop.index(
        "e.genUFSMountOptions(mount, dataset.Spec.SharedOptions, dataset.Spec.SharedEncryptOptions)"), loop
    refuse = _body(root, "pkg/ddc/goosefs/ufs_internal.go", "genEncryptOptions")
    assert "if _, ok := mOptions[item.Name]; ok {" in refuse and "is set more than one times" in refuse


def test_fg139_follows_the_shared_map_from_mount_to_mount(tmp_path: Path) -> None:
    from tests.lint.test_lint import lint_err
    key = "{name: k, valueFrom: {secretKeyRef: {name: s, key: k}}}"

    def fg139(mounts: str, shared: str = "", engine: str = "GooseFSRuntime") -> list[str]:
        doc = dataset(mounts=mounts).replace("spec:\n", f"spec:\n{shared}", 1)
        return [x.split(": error [FG139]: ", 1)[1] for x in lint_err(tmp_path, doc, runtime(engine)).splitlines()
                if "[FG139]" in x]

    two = '[{mountPoint: "cosn://a/x/", name: x}, {mountPoint: "cosn://b/y/", name: y}]'
    encrypted = f"  sharedEncryptOptions: [{key}]\n"
    assert fg139(two, encrypted) == []  # no sharedOptions: a new map for each mount
    carried = fg139(two, "  sharedOptions: {r: s}\n" + encrypted)
    assert carried == [
        "spec.sharedEncryptOptions[0].name: Fluid refuses GooseFS mount 1: k is already set when this encryptOption "
        "is read ('the option k is set more than one times'). Fluid's GooseFS controller writes each mount's options "
        "and encryptOptions into the Dataset's sharedOptions when sharedOptions is not empty, and an earlier mount "
        "set k there. The mount fails, and none after it is mounted. Move sharedOptions into each mount's options"]
    # the first mount's plain option is there for the second mount's encryptOption
    leaked = fg139(f'[{{mountPoint: "cosn://a/x/", name: x, options: {{k: v}}}}, '
                   f'{{mountPoint: "cosn://b/y/", name: y, encryptOptions: [{key}]}}]', "  sharedOptions: {r: s}\n")
    assert len(leaked) == 1 and leaked[0].startswith("spec.mounts[1].encryptOptions[0].name: Fluid refuses GooseFS "
                                                     "mount 1:") and "an earlier mount set k" in leaked[0], leaked
    # a native mount is skipped: its options never reach the map
    native = f'[{{mountPoint: "pvc://c/z", name: z, options: {{k: v}}}}, ' \
             f'{{mountPoint: "cosn://b/y/", name: y, encryptOptions: [{key}]}}]'
    assert fg139(native, "  sharedOptions: {r: s}\n") == []
    # a name set twice within one mount is refused with or without sharedOptions (values are always read)
    own = fg139(f'[{{mountPoint: "cosn://a/x/", name: x, options: {{k: v}}, encryptOptions: [{key}]}}]')
    assert own == ["spec.mounts[0].encryptOptions[0].name: Fluid refuses GooseFS mount 0: k is already set when this "
                   "encryptOption is read ('the option k is set more than one times'). The mount fails, and none "
                   "after it is mounted. Give the name once"], own
    twice = fg139(f'[{{mountPoint: "cosn://a/x/", name: x, encryptOptions: [{key}, {key}]}}]')
    assert len(twice) == 1 and twice[0].startswith("spec.mounts[0].encryptOptions[1].name:") and \
        twice[0].endswith("Give the name once"), twice
    # a native mount first is skipped, not the end of the mounts
    after_native = fg139(f'[{{mountPoint: "pvc://c/z", name: z}}, {{mountPoint: "cosn://b/y/", name: y, '
                         f'options: {{k: v}}, encryptOptions: [{key}]}}]')
    assert len(after_native) == 1 and after_native[0].startswith("spec.mounts[1].encryptOptions[0].name:"), after_native
    # a refusal a third mount repeats is said once, and a sharedOption named again is the Dataset's own doing
    three = two.replace("]", ', {mountPoint: "cosn://c/z/", name: z}]')
    assert fg139(three, "  sharedOptions: {r: s}\n" + encrypted) == carried
    # and a refusal after one already said is still said
    later = two.replace("]", ', {mountPoint: "cosn://c/z/", name: z, options: {o: v}, '
                             'encryptOptions: [{name: o, valueFrom: {secretKeyRef: {name: s, key: o}}}]}]')
    assert [x.split(":", 1)[0] for x in fg139(later, "  sharedOptions: {r: s}\n" + encrypted)] == [
        "spec.sharedEncryptOptions[0].name", "spec.mounts[2].encryptOptions[0].name"]
    again = fg139('[{mountPoint: "cosn://a/x/", name: x}]', "  sharedOptions: {k: s}\n" + encrypted)
    assert len(again) == 1 and again[0].endswith("Give the name once"), again
    # a dataset:// Dataset is FG120's (Fluid serves it through a ThinRuntime only)
    assert fg139('[{mountPoint: "dataset://other/d", name: x, options: {k: v}, '
                 f'encryptOptions: [{key}]}}]') == []
    # only a Dataset bound to a GooseFSRuntime, even with one in the same run
    other = runtime("GooseFSRuntime", name="other")
    alluxio = dataset(mounts=two).replace("spec:\n", "spec:\n  sharedOptions: {r: s}\n" + encrypted, 1)
    assert "[FG139]" not in lint_err(tmp_path, alluxio, runtime("AlluxioRuntime"), other)
