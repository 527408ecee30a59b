"""fluidgen/diagnosis/cluster.py: which live objects the generated ones explain. The claim and
volume Fluid makes for a bound Dataset are named as Fluid names them (pkg/ddc/base/pv.go
GetPersistentVolumeName: "<namespace>-<name>"; pkg/utils/dataset/volume/create.go
CreatePersistentVolumeClaimForRuntime: the runtime's name, which is the Dataset's), read from
Fluid's source at both versions; a pod's owner through its controller (and a CronJob's Job);
events newest first; what no spec explains; keys and labels of namespaced and cluster kinds."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from fluidgen.compile.pipeline import CompileResult
from fluidgen.diagnosis.cluster import Cluster, key_of, label, runtime_spec_key
from fluidgen.diagnosis.dump import from_objects
from tests.conftest import crds_root
from tests.harness.fluid_src import TREES, need_tree

API = "data.fluid.io/v1alpha1"
GENERATED = [{"apiVersion": API, "kind": "Dataset", "metadata": {"name": "imagenet", "namespace": "team"}},
             {"apiVersion": API, "kind": "AlluxioRuntime", "metadata": {"name": "imagenet", "namespace": "team"},
              "spec": {}},
             {"apiVersion": API, "kind": "DataLoad", "metadata": {"name": "warm", "namespace": "team"}}]


def cluster(*live: dict[str, Any]) -> Cluster:
    return Cluster(CompileResult(objects=[dict(o) for o in GENERATED]), from_objects(live))


def pod(name: str, *refs: tuple[str, str], ns: str = "team") -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": name, "namespace": ns, "ownerReferences": [{"kind": k, "name": n} for k, n in refs]}}


@pytest.mark.parametrize("version", sorted(TREES))
def test_the_datasets_claim_and_volume_are_named_as_fluid_names_them(version: str) -> None:
    root = need_tree(version)
    pv = (root / "pkg/ddc/base/pv.go").read_text()
    assert 'pvName := fmt.Sprintf("%s-%s", info.GetNamespace(), info.GetName())' in pv
    create = (root / "pkg/utils/dataset/volume/create.go").read_text()
    claim = create[create.index("func CreatePersistentVolumeClaimForRuntime"):]
    assert re.search(r"Name:\s+runtime\.GetName\(\),\s+Namespace:\s+runtime\.GetNamespace\(\)", claim)
    c = cluster()
    dataset = c.generated[("Dataset", "team", "imagenet")]
    for key in (("PersistentVolumeClaim", "team", "imagenet"), ("PersistentVolume", "", "team-imagenet")):
        found = c.owner({"kind": key[0], "metadata": {"name": key[2], "namespace": key[1] or None}})
        assert found is not None and found.obj is dataset and found.component == "claim", key


def test_keys_and_labels_drop_the_namespace_of_cluster_kinds() -> None:
    for kind in ("Node", "PersistentVolume", "StorageClass", "CSIDriver", "Namespace"):  # cluster-scoped in Kubernetes
        assert key_of({"kind": kind, "metadata": {"name": "n1", "namespace": "x"}}) == (kind, "", "n1")
    for kind in ("Pod", "Dataset", "AlluxioRuntime", "DataLoad", "CacheRuntime"):
        assert key_of({"kind": kind, "metadata": {"name": "n1", "namespace": "x"}}) == (kind, "x", "n1")


def test_every_fluid_kind_is_keyed_by_the_scope_its_crd_declares() -> None:
    """The scope comes from the kind table (catalog/kinds.py, engines' extra kinds), held here
    to each CRD's `spec.scope` at every version: ThinRuntimeProfile and CacheRuntimeClass are
    cluster-scoped, every other Fluid kind namespaced."""
    root = crds_root()
    if root is None:
        pytest.skip("Fluid CRDs not found: set FLUIDGEN_CRDS_DIR or put them in ../shared/fluid-crds")
    seen = set()
    for version in ("v1.0.8", "v1.1.0-dev"):
        for crd in sorted((root / version).glob("data.fluid.io_*.yaml")):
            doc = yaml.safe_load(crd.read_text())
            kind, scope = doc["spec"]["names"]["kind"], doc["spec"]["scope"]
            keyed = key_of({"kind": kind, "metadata": {"name": "n1", "namespace": "x"}})
            assert keyed == (kind, "" if scope == "Cluster" else "x", "n1"), (version, kind, scope)
            seen.add((kind, scope))
    assert {("ThinRuntimeProfile", "Cluster"), ("CacheRuntimeClass", "Cluster"), ("Dataset", "Namespaced")} <= seen
    assert key_of({"kind": "Pod", "metadata": "odd"}) == ("Pod", "", "")
    assert label(("Pod", "team", "p")) == "Pod team/p"
    assert label(("PersistentVolume", "", "team-imagenet")) == "PersistentVolume team-imagenet"


def test_a_pods_owner_through_its_controller_and_a_cronjobs_job() -> None:
    cron_job = {"apiVersion": "batch/v1", "kind": "Job",
                "metadata": {"name": "warm-loader-job-2911", "namespace": "team",
                             "ownerReferences": [{"kind": "CronJob", "name": "warm-loader-job"}]}}
    c = cluster(pod("imagenet-worker-0", ("StatefulSet", "imagenet-worker")),
                pod("imagenet-fuse-x", ("DaemonSet", "imagenet-fuse")),
                pod("warm-loader-job-2911-abc", ("Job", "warm-loader-job-2911")), cron_job,
                pod("stray", ("ReplicaSet", "nobody")))
    found = {p["metadata"]["name"]: (o.obj["kind"], o.component) for p, o in c.pods()}
    assert found == {"imagenet-worker-0": ("AlluxioRuntime", "worker"), "imagenet-fuse-x": ("AlluxioRuntime", "fuse"),
                     "warm-loader-job-2911-abc": ("DataLoad", "job")}


def test_events_are_newest_first_whatever_the_dump_order() -> None:
    def event(reason: str, stamp: str | None) -> dict[str, Any]:
        return {"kind": "Event", "metadata": {"name": reason, "namespace": "team"}, "reason": reason,
                "involvedObject": {"kind": "DataLoad", "name": "warm"}, **({"lastTimestamp": stamp} if stamp else {})}

    c = cluster(event("Old", "2026-11-27T10:01:00Z"), event("Undated", None), event("New", "2026-11-27T10:09:00Z"))
    assert [e.reason for e in c.events_of(("DataLoad", "team", "warm"))] == ["New", "Old", "Undated"]
    assert c.get(("Event", "team", "New")) is None  # events are not live objects


def test_unexplained_counts_other_namespaces_and_foreign_kinds() -> None:
    c = cluster(pod("p", ns="elsewhere"), {"kind": "ConfigMap", "metadata": {"name": "mine", "namespace": "team"}},
                {"kind": "ConfigMap", "metadata": {"name": "imagenet-config", "namespace": "team"}},
                pod("csi-nodeplugin-fluid-1", ns="fluid-system"), {"kind": "Node", "metadata": {"name": "n"}})
    assert c.unexplained() == ({"elsewhere": 1}, {"ConfigMap": 1})


def test_the_fuse_settings_of_a_runtime_with_a_client_are_under_client() -> None:
    assert runtime_spec_key({"spec": {"client": {}}}, "fuse") == "client"
    assert runtime_spec_key({"spec": {"client": {}, "fuse": {}}}, "fuse") == "fuse"
    assert runtime_spec_key({"spec": {"client": {}}}, "worker") == "worker"
    assert runtime_spec_key({"spec": "odd"}, "fuse") == "fuse"
