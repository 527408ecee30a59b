"""`fluidgen plan` against Fluid's sync code (issue 23): each class of edit with the Fluid source
that decides it, and what an ignored edit tells the user to do."""

from __future__ import annotations

from typing import Any

from fluidgen.fluid.sync import APPLIED, RECREATE, SAME_PATH
from fluidgen.plan import classify, report


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
