"""`fluidgen plan` against Fluid's sync code (issue 23): each class of edit with the Fluid source
that decides it, and what an ignored edit tells the user to do."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fluidgen.compile.plan import MEANING, classify, report
from fluidgen.fluid.sync import (
    APPLIED,
    EFFECTS,
    FUSE_CONFIG,
    ON_RESTART,
    RECREATE,
    ROLLING,
    SAME_PATH,
    SYNC_SOURCE,
    EditFact,
    MountSync,
)
from tests.harness.fluid_src import need_tree


def _dataset(mounts: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "d", "namespace": "ns"},
            "spec": {"mounts": mounts, **spec}}


def _runtime(kind: str, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": kind, "metadata": {"name": "d", "namespace": "ns"},
            "spec": spec or {}}


OSS = {"mountPoint": "oss://bucket/train/", "name": "train", "options": {"fs.oss.endpoint": "e1"}}


def test_alluxio_ignores_option_edits_at_an_unchanged_path() -> None:
    """pkg/utils/dataset.go AnalyzePathsDelta: only paths that appear or disappear are mounted
    (alluxio/ufs_internal.go updatingUFSWithMountCommand; configmap storage: the chart's mount.sh
    mounts only unmounted paths). `plan` used to say "applied in place" and exit 0."""
    edited = {**OSS, "options": {"fs.oss.endpoint": "e2"}, "readOnly": True}
    for version in ("v1.0.8", "v1.1.0-dev"):
        edits = classify([_dataset([OSS]), _runtime("AlluxioRuntime")],
                         [_dataset([edited]), _runtime("AlluxioRuntime")], version)
        assert [(e.path, e.effect) for e in edits] == [
            ('spec.mounts[0].options["fs.oss.endpoint"]', SAME_PATH), ("spec.mounts[0].readOnly", SAME_PATH)]
        assert all(e.ignored for e in edits)
        assert "give the mount a new name or path" in edits[0].line()
        assert "--allow-recreate" in edits[0].line()


def test_alluxio_mounts_a_renamed_mount_afresh() -> None:
    """A new name is a new namespace path (/<name>: ufs_path_builder.go GenUFSPathInUnifiedNamespace):
    the old path is unmounted and the new one mounted with the mount's current options."""
    renamed = {**OSS, "name": "train2", "options": {"fs.oss.endpoint": "e2"}}
    edits = classify([_dataset([OSS]), _runtime("AlluxioRuntime")], [_dataset([renamed]), _runtime("AlluxioRuntime")])
    assert [(e.path, e.effect, e.note) for e in edits] == [
        ("spec.mounts[0]", APPLIED, "mounted at /train2"), ("spec.mounts[0]", APPLIED, "unmounted at /train")]


def test_pvc_and_local_mounts_wait_for_a_recreated_runtime() -> None:
    """AnalyzePathsDelta skips common.IsFluidNativeScheme mounts: they reach the pods as volumes."""
    pvc = {"mountPoint": "pvc://claim/sub", "name": "extra"}
    edits = classify([_dataset([OSS]), _runtime("AlluxioRuntime")],
                     [_dataset([OSS, pvc]), _runtime("AlluxioRuntime")])
    assert [(e.path, e.effect) for e in edits] == [("spec.mounts[1]", RECREATE)]
    assert "pvc:// and local://" in edits[0].line()


def test_shared_options_reach_only_mounts_mounted_later() -> None:
    """sharedOptions are merged when a mount is mounted (updatingUFSWithMountCommand)."""
    edits = classify([_dataset([OSS], sharedOptions={"a": "1"}), _runtime("AlluxioRuntime")],
                     [_dataset([OSS], sharedOptions={"a": "2"}), _runtime("AlluxioRuntime")])
    assert [(e.path, e.effect) for e in edits] == [("spec.sharedOptions.a", SAME_PATH)]


def test_a_section_added_whole_is_classified_leaf_by_leaf() -> None:
    """An added fuse: section holds fields synced and fields ignored; each is said separately."""
    old = [_runtime("JuiceFSRuntime")]
    fuse = {"resources": {"limits": {"memory": "1Gi"}}, "cleanPolicy": "OnDemand"}
    new = [_runtime("JuiceFSRuntime", {"fuse": fuse})]
    edits = classify(old, new, "v1.0.8")
    assert [(e.path, e.ignored) for e in edits] == [("spec.fuse.cleanPolicy", True),
                                                    ("spec.fuse.resources.limits.memory", False)]


def test_every_ignored_edit_says_what_to_do() -> None:
    rerun = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "DataLoad", "metadata": {"name": "w", "namespace": "ns"},
             "spec": {"target": [{"path": "/a"}]}}
    edited = {**rerun, "spec": {"target": [{"path": "/b"}]}}
    text = report(classify([rerun, _runtime("AlluxioRuntime", {"properties": {"a": "1"}})],
                           [edited, _runtime("AlluxioRuntime", {"properties": {"a": "2"}})]))
    assert "--operation-names hashed" in text and "delete the runtime and apply again" in text


def _runtime_edit(kind: str, dotted: str, version: str, old: Any = "a", new: Any = "b") -> tuple[str, str]:
    *parents, leaf = dotted.split(".")
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    for tree_, value in ((before, old), (after, new)):
        node = tree_
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    (edit,) = classify([_runtime(kind, before)], [_runtime(kind, after)], version)
    return edit.effect, edit.workload


def test_thin_replicas_are_never_synced() -> None:
    """pkg/ddc/thin/replicas.go SyncReplicas returns nil (both versions): plan said 'applied'."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        assert _runtime_edit("ThinRuntime", "replicas", version, 1, 3) == (RECREATE, "")


def test_juicefs_fuse_node_selector_is_synced_only_before_6092() -> None:
    """juicefs/sync_runtime.go checkAndSetFuseChanges: nodeSelector compared at v1.0.8, no longer at
    master (a826600 = fluid-cloudnative/fluid#6092)."""
    assert _runtime_edit("JuiceFSRuntime", "fuse.nodeSelector.zone", "v1.0.8") == (ON_RESTART, "fuse")
    assert _runtime_edit("JuiceFSRuntime", "fuse.nodeSelector.zone", "v1.1.0-dev") == (RECREATE, "")


def test_juicefs_image_pull_policy_is_never_compared() -> None:
    """juicefs/sync_runtime.go compares image and tag only, in either version."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        assert _runtime_edit("JuiceFSRuntime", "fuse.imagePullPolicy", version)[0] == RECREATE


def test_statefulsets_turn_on_delete_on_master() -> None:
    """#5366 (37c72a9): juicefs syncWorkerSpec and jindocache syncMasterSpec/syncWorkerSpec switch the
    StatefulSets to OnDelete at master; at v1.0.8 they roll."""
    for kind, path, workload in (("JuiceFSRuntime", "worker.resources.limits.cpu", "worker"),
                                 ("JindoRuntime", "master.resources.limits.cpu", "master"),
                                 ("JindoRuntime", "worker.resources.limits.cpu", "worker")):
        assert _runtime_edit(kind, path, "v1.0.8") == (ROLLING, workload)
        assert _runtime_edit(kind, path, "v1.1.0-dev") == (ON_RESTART, workload)


JFS = {"mountPoint": "juicefs:///", "name": "jfs", "options": {"bucket": "b1", "storage": "s3"},
       "encryptOptions": [{"name": "metaurl", "valueFrom": {"secretKeyRef": {"name": "jfs", "key": "metaurl"}}}]}


def test_juicefs_mount_edits_that_reach_the_mount_command() -> None:
    """juicefs/transform_fuse.go genValue/genMountOptions/genFuseMount: options and the subpath
    (subdir=) are the mount command's -o options, the part sync_runtime.go isCommandChanged compares
    and utils.go updateFuseScript rewrites; storage/bucket (format) and encryptOptions (value.Configs)
    are rendered once. plan used to call every JuiceFS mount edit ignored."""
    edited = {**JFS, "mountPoint": "juicefs:///train", "options": {"bucket": "b2", "storage": "s3", "writeback": ""},
              "encryptOptions": [{"name": "metaurl", "valueFrom": {"secretKeyRef": {"name": "jfs2", "key": "m"}}}]}
    edits = classify([_dataset([JFS]), _runtime("JuiceFSRuntime")],
                     [_dataset([edited]), _runtime("JuiceFSRuntime")], "v1.1.0-dev")
    got = {e.path: e.effect for e in edits}
    assert got == {"spec.mounts[0].mountPoint": ON_RESTART, "spec.mounts[0].options.writeback": ON_RESTART,
                   "spec.mounts[0].options.bucket": RECREATE,
                   "spec.mounts[0].encryptOptions[0].valueFrom.secretKeyRef.key": RECREATE,
                   "spec.mounts[0].encryptOptions[0].valueFrom.secretKeyRef.name": RECREATE}


def test_thin_mount_edits_reach_the_fuse_config() -> None:
    """thin/ufs.go ShouldUpdateUFS -> updateFuseConfigOnChange rewrites config.json and updateFusePod
    bumps the FUSE pods; a Secret not mounted yet reaches FUSE pods only when they are created
    (transform_config.go transformEncryptOptionsWithSecretVolumes)."""
    base = {"mountPoint": "minio://b/p", "name": "m", "options": {"url": "u1"},
            "encryptOptions": [{"name": "k", "valueFrom": {"secretKeyRef": {"name": "s1", "key": "k"}}}]}
    same_secret = {**base, "options": {"url": "u2"},
                   "encryptOptions": [{"name": "k", "valueFrom": {"secretKeyRef": {"name": "s1", "key": "k2"}}}]}
    new_secret = {**base, "encryptOptions": [{"name": "k", "valueFrom": {"secretKeyRef": {"name": "s2", "key": "k"}}}]}
    runtime = _runtime("ThinRuntime", {"profileName": "p"})
    edits = classify([_dataset([base]), runtime], [_dataset([same_secret]), runtime])
    assert {e.effect for e in edits} == {FUSE_CONFIG} and not any(e.ignored for e in edits)
    (edit,) = classify([_dataset([base]), runtime], [_dataset([new_secret]), runtime])
    assert edit.effect == RECREATE and "Secret" in edit.note



@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize(("before", "after"), [([], ["ReadWriteMany"]), (["ReadWriteMany"], ["ReadOnlyMany"])])
def test_a_juicefs_access_mode_edit_reaches_the_fuse_command_but_not_the_claim(
        version: str, before: list[str], after: list[str]) -> None:
    """Issue 42 (3): JuiceFS renders the FUSE mount command from the Dataset's access modes at every
    sync (transform_fuse.go genFuseMount adds or drops ro and the read-only cache options;
    sync_runtime.go updateFuseCmdConfigmapOnChanged writes it to the FUSE script), while the
    PersistentVolume and claim keep the modes they were created with (pkg/utils/dataset/volume/
    create.go CreatePersistentVolumeForRuntime). It was called 'ignored until re-created'."""
    old = [_dataset([JFS], **({"accessModes": before} if before else {})), _runtime("JuiceFSRuntime")]
    new = [_dataset([JFS], accessModes=after), _runtime("JuiceFSRuntime")]
    edits = classify(old, new, version)
    assert [(e.path, e.effect, e.workload) for e in edits] == [
        ("spec.accessModes" if not before else "spec.accessModes[0]", "fuse-only", "fuse")]
    line = edits[0].line()
    assert "the FUSE mount follows it as the FUSE DaemonSet's pods are recreated" in line
    assert "the PersistentVolume and claim Fluid created keep the access modes they were made with" in line
    assert "delete the runtime and apply again (plan --allow-recreate accepts this)" in line
    assert edits[0].ignored  # the claim keeps its modes: plan fails without --allow-recreate
    # Alluxio's SyncRuntime is empty: its FUSE args keep the mode they were created with
    alluxio = classify([_dataset([OSS]), _runtime("AlluxioRuntime")],
                       [_dataset([OSS], accessModes=after), _runtime("AlluxioRuntime")], version)
    assert [e.effect for e in alluxio] == ["recreate"]


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize(("before", "after"), [([], ["ReadWriteMany"]), (["ReadWriteMany"], ["ReadOnlyMany"])])
def test_a_thin_access_mode_edit_reaches_config_json_but_not_mount_options_or_the_claim(
        version: str, before: list[str], after: list[str]) -> None:
    """Issue 42 (Thin's access modes): each sync rewrites config.json from the current Dataset,
    accessModes included (thin/ufs.go updateFuseConfigOnChange -> transform_config.go
    transformFuseConfig, ReadOnlyMany when none), while the ro option Fluid gives the FUSE program
    is the FUSE DaemonSet's MOUNT_OPTIONS, rendered once (transform_fuse.go parseFuseOptions;
    SyncRuntime is empty), and the claim keeps its modes. It was called 'ignored until re-created'."""
    runtime = _runtime("ThinRuntime", {"profileName": "p"})
    mount = {"mountPoint": "minio://b/p", "name": "m"}
    old = [_dataset([mount], **({"accessModes": before} if before else {})), runtime]
    new = [_dataset([mount], accessModes=after), runtime]
    edits = classify(old, new, version)
    assert [(e.path, e.effect, e.workload) for e in edits] == [
        ("spec.accessModes" if not before else "spec.accessModes[0]", "config-only", "fuse")]
    line = edits[0].line()
    assert "written to the FUSE config file (config.json) in the running FUSE pods" in line
    assert "the FUSE DaemonSet's MOUNT_OPTIONS" in line
    assert "delete the runtime and apply again (plan --allow-recreate accepts this)" in line
    assert edits[0].ignored  # the FUSE options and the claim keep the old modes: plan fails


SCALING = ("AlluxioRuntime", "JindoRuntime", "JuiceFSRuntime", "EFCRuntime", "VineyardRuntime")


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize("kind", SCALING)
def test_a_replicas_edit_scales_the_worker_statefulset(kind: str, version: str) -> None:
    """pkg/ddc/{alluxio,jindocache,juicefs,efc,vineyard}/replicas.go SyncReplicas (both versions) hand the
    worker StatefulSet to pkg/ctrl Helper.SyncReplicas, which scales it to spec.replicas: an edit that
    plan applies in place, on the workers (thin's SyncReplicas returns nil: test_thin_replicas_...)."""
    assert _runtime_edit(kind, "replicas", version, 1, 3) == (APPLIED, "worker")


def test_goosefs_replicas_scale_the_workers_at_v1_0_8() -> None:
    """pkg/ddc/goosefs/replicas.go SyncReplicas (v1.0.8; GooseFS is gone at master)."""
    assert _runtime_edit("GooseFSRuntime", "replicas", "v1.0.8", 1, 3) == (APPLIED, "worker")


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize("kind", ["EFCRuntime", "VineyardRuntime"])
def test_a_runtime_that_never_updates_its_ufs_takes_no_mount_edit(kind: str, version: str) -> None:
    """pkg/ddc/efc/ufs.go and pkg/ddc/vineyard/ufs.go ShouldUpdateUFS return nil (both versions), so
    pkg/ddc/base/syncs.go Sync never calls UpdateOnUFSChange: a mount added or an option edited waits
    for a re-created runtime, and plan says how to apply it."""
    added = {"mountPoint": "oss://bucket/val/", "name": "val"}
    edited = {**OSS, "options": {"fs.oss.endpoint": "e2"}}
    edits = classify([_dataset([OSS]), _runtime(kind)], [_dataset([edited, added]), _runtime(kind)], version)
    assert [(e.path, e.effect) for e in edits] == [('spec.mounts[0].options["fs.oss.endpoint"]', RECREATE),
                                                   ("spec.mounts[1].mountPoint", RECREATE),
                                                   ("spec.mounts[1].name", RECREATE)]
    assert all(e.ignored and "delete the runtime and apply again" in e.line() for e in edits)


def test_a_cache_runtimes_master_and_worker_edits_are_synced_at_master() -> None:
    """pkg/ddc/cache/engine/sync.go syncRuntimeSpec (v1.1.0-dev) writes master and worker replicas in
    place and their resources and runtimeVersion as a rolling update of each AdvancedStatefulSet: the
    fields are read from its body (Spec.<Component>.<Field>), the client's none."""
    body = re.search(r"^func \(e \*CacheEngine\) syncRuntimeSpec\(.*?^}", (
        need_tree("v1.1.0-dev") / "pkg/ddc/cache/engine/sync.go").read_text(), re.M | re.S)
    assert body is not None
    synced = set(re.findall(r"runtime\.Spec\.(Master|Worker|Client)\.(Replicas|Resources|RuntimeVersion)\b",
                            body.group(0)))
    assert synced == {(c, f) for c in ("Master", "Worker") for f in ("Replicas", "Resources", "RuntimeVersion")}
    for component in ("master", "worker"):
        assert _runtime_edit("CacheRuntime", f"{component}.replicas", "v1.1.0-dev", 1, 3) == (APPLIED, component)
        assert _runtime_edit("CacheRuntime", f"{component}.runtimeVersion", "v1.1.0-dev", "a", "b") == \
            (ROLLING, component)
        assert _runtime_edit("CacheRuntime", f"{component}.resources", "v1.1.0-dev", {"limits": {"cpu": "1"}},
                             {"limits": {"cpu": "2"}}) == (ROLLING, component)
    assert _runtime_edit("CacheRuntime", "client.resources", "v1.1.0-dev", {"limits": {"cpu": "1"}},
                         {"limits": {"cpu": "2"}}) == (RECREATE, "")


@pytest.mark.parametrize("make", [
    lambda: MountSync("comand"),  # type: ignore[arg-type]
    lambda: MountSync("command", workload="fusee"),  # type: ignore[arg-type]
    lambda: MountSync("config", default="fuse_config"),
    lambda: MountSync("command", fields={"options": "rolling-update"}),
    lambda: EditFact("replicas", "aplied", SYNC_SOURCE),
    lambda: EditFact("replicas", APPLIED, SYNC_SOURCE, "workers"),  # type: ignore[arg-type]
], ids=["mode", "mount-workload", "default", "field-effect", "effect", "edit-workload"])
def test_a_misspelt_word_in_a_sync_record_is_refused_when_the_record_is_made(make: Any) -> None:
    """plan compares a mode, an effect and a workload with one word each: a misspelt one would read as
    none of them (a mount sync in mode "comand" would be taken as remounting paths) and say nothing."""
    with pytest.raises(ValueError, match="must be one of"):
        make()


def test_every_effect_has_a_meaning_plan_says() -> None:
    assert set(EFFECTS) <= set(MEANING)


def test_a_remount_note_names_its_fluid_code_and_only_then() -> None:
    """MountSync.remount_also is a claim about Fluid (what else remounts): it carries remount_sources,
    and sources without a note say nothing."""
    from fluidgen.engines.engine_table import all_engines

    syncs = [(name, sync) for name, engine in all_engines().items() for sync in engine.edits.mounts]
    assert all(bool(sync.remount_also) == bool(sync.remount_sources) for _, sync in syncs), syncs
    assert sorted(name for name, sync in syncs if sync.remount_also) == ["cache"]
