"""fluidgen/catalog/objectcheck.py: one object checked as the API server would. What is not a
Kubernetes object; a Fluid kind at a version whose CRDs lack it (the real CRDs, tests/conftest.py
`crds`: CacheRuntime only at v1.1.0-dev, GooseFSRuntime only at v1.0.8), a wrong group version,
unknown fields with the name meant, names Fluid refuses (IsDNS1035Label); the user's CRDs instead
of the model; kinds of no schema; node label keys and values no node can carry; Secret keys."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fluidgen.catalog.objectcheck import check_object
from fluidgen.io.crds import CrdSet
from tests.conftest import crds_root

FLUID = "data.fluid.io/v1alpha1"


def said(obj: Any, version: str = "v1.0.8", crds: CrdSet | None = None) -> list[tuple[tuple[str | int, ...], str, str]]:
    return [(p.path, p.message, p.severity) for p in check_object(obj, version, crds)]


@pytest.mark.parametrize(("obj", "expected"), [
    ([1], [((), "expected a Kubernetes object (a mapping), found a list", "error")]),
    ({"kind": "Dataset"}, [((), "not a Kubernetes object: apiVersion is required", "error")]),
    ({"apiVersion": FLUID}, [((), "not a Kubernetes object: kind is required", "error")]),
    ({"apiVersion": FLUID, "kind": 3}, [(("kind",), "kind must be a non-empty string", "error")]),
    ({"apiVersion": "a/b/c", "kind": "X"}, [(("apiVersion",), '"a/b/c" is not an API version (group/version, or v1)',
                                            "error")]),
])
def test_what_is_not_a_kubernetes_object(obj: Any, expected: list[Any]) -> None:
    assert said(obj) == expected


@pytest.mark.parametrize(("kind", "has", "lacks"), [("CacheRuntime", "v1.1.0-dev", "v1.0.8"),
                                                    ("GooseFSRuntime", "v1.0.8", "v1.1.0-dev")])
def test_a_kind_of_one_fluid_version_only(kind: str, has: str, lacks: str, crds: dict[str, CrdSet]) -> None:
    assert crds[has].knows(FLUID, kind) and not crds[lacks].knows(FLUID, kind)
    obj = {"apiVersion": FLUID, "kind": kind, "metadata": {"name": "demo"}}
    assert said(obj, lacks) == [(("kind",), f"Fluid {lacks} has no kind {kind} (Fluid {has} has it); choose the "
                                            "version with --fluid-version", "error")]
    assert said(obj, has) == []


def test_fluid_group_version_unknown_fields_and_names() -> None:
    assert said({"apiVersion": "data.fluid.io/v1beta1", "kind": "Dataset", "metadata": {"name": "a"}}) == [
        (("apiVersion",), "Fluid serves Dataset as data.fluid.io/v1alpha1, not data.fluid.io/v1beta1", "error")]
    assert said({"apiVersion": FLUID, "kind": "Datasett", "metadata": {"name": "a"}}) == [
        (("kind",), 'Fluid has no kind Datasett; did you mean "Dataset"?', "error")]
    assert said({"apiVersion": FLUID, "kind": "Dataset", "metadata": {"name": "a"}, "spec": {"mountz": []}}) == [
        (("spec", "mountz"), 'unknown field: Fluid v1.0.8 Dataset has no such field; did you mean "mounts"?', "error")]
    (name,) = said({"apiVersion": FLUID, "kind": "Dataset", "metadata": {"name": "a.b"}})
    assert name[0] == ("metadata", "name") and name[1].startswith('"a.b" is not a DNS-1035 label')
    assert said({"apiVersion": FLUID, "kind": "DataLoad", "metadata": {"name": "a.b"}}) == []  # a subdomain
    assert said({"apiVersion": FLUID, "kind": "Dataset"}) == [(("metadata",), "metadata with a name is required",
                                                               "error")]


def test_the_users_crds_replace_the_model() -> None:
    root = crds_root()
    if root is None:
        pytest.skip("Fluid CRDs not found")
    only = CrdSet.load(root / "v1.0.8" / "data.fluid.io_datasets.yaml")
    dataset = {"apiVersion": FLUID, "kind": "Dataset", "metadata": {"name": "a"}, "spec": {"mountz": []}}
    assert said(dataset, crds=only) == [(("spec", "mountz"), "unknown field: Dataset in "
                                         f"{only.source} has no such field; did you mean \"mounts\"?", "error")]
    load = {"apiVersion": FLUID, "kind": "DataLoad", "metadata": {"name": "a"}}
    assert said(load, crds=only) == [(("kind",), f"no CRD for DataLoad ({FLUID}) in {only.source}", "error")]


def test_kinds_without_a_schema() -> None:
    ((path, message, severity),) = said({"apiVersion": "v1", "kind": "Frob", "metadata": {"name": "s"}})
    assert (path, severity) == (("kind",), "error")
    assert re.fullmatch(r"Kubernetes 1\.\d+ has no kind Frob in v1", message)
    ((_, message, severity),) = said({"apiVersion": "storage.k8s.io/v1", "kind": "Frob", "metadata": {"name": "s"}})
    assert severity == "error" and re.fullmatch(r"Kubernetes 1\.\d+ has no kind Frob in storage\.k8s\.io/v1", message)
    ((_, message, severity),) = said({"apiVersion": "apps/v2", "kind": "Deployment", "metadata": {"name": "s"}})
    assert severity == "error" and re.fullmatch(r"Kubernetes 1\.\d+ has no kind Deployment in apps/v2", message)
    # a *.k8s.io group Kubernetes does not serve itself is a CRD's: VolumeSnapshot, the Gateway API
    for api, kind in (("snapshot.storage.k8s.io/v1", "VolumeSnapshot"), ("gateway.networking.k8s.io/v1", "Gateway")):
        assert said({"apiVersion": api, "kind": kind, "metadata": {"name": "s"}}) == [
            (("kind",), f"{kind} ({api}) is not a kind fluidgen knows; not checked (give its CRD with --crds to "
                        "check it)", "info")]
    assert said({"apiVersion": "example.com/v1", "kind": "Frob", "metadata": {"name": "s"}}) == [
        (("kind",), "Frob (example.com/v1) is not a kind fluidgen knows; not checked (give its CRD with --crds to "
                    "check it)", "info")]
    assert said({"apiVersion": "external-secrets.io/v1", "kind": "ExternalSecret", "metadata": {"name": "s"}}) == [
        (("kind",), "ExternalSecret (external-secrets.io/v1) not checked: its project's CRD is not built in; give "
                    "it with --crds to check it", "info")]
    assert said({"apiVersion": "example.com/v1", "kind": "Frob"}) == [
        (("kind",), "Frob (example.com/v1) is not a kind fluidgen knows; not checked (give its CRD with --crds to "
                    "check it)", "info")]  # no metadata asked of a kind nobody knows


def test_node_labels_no_node_can_carry_and_secret_keys() -> None:
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "gpu", "operator": "In", "values": ["ok", "not ok"]},
                              {"key": "gpu", "operator": "Exists", "values": ["not ok"]}],
         "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["not ok"]}]}]}}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"containers": [{"name": "c", "image": "x"}], "nodeSelector": {"bad key!": "v", "k": "v v"},
                    "affinity": affinity}}
    assert [p[0] for p in said(pod)] == [
        ("spec", "nodeSelector", "bad key!"), ("spec", "nodeSelector", "k"),
        ("spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms",
         0, "matchExpressions", 0, "values", 1)]
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a b": "eA=="},
              "stringData": {"fs.oss.accessKeyId": "x"}}
    assert [p[0] for p in said(secret)] == [("data", "a b")]
