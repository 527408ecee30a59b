"""fluidgen/base/structural/kube.py: the core Kubernetes schemas kubernetes-validate ships, as
fluidgen finds them (which minors, the newest, a clear error when they are missing), as CRDs
embed them (VolumeSource, ObjectMeta, a whole PersistentVolumeClaim), and the strict validator
of a core kind (a Secret's values never quoted)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from fluidgen.base.diagnostics import Unavailable
from fluidgen.base.structural import dsl, kube

_CACHED = (kube._schema_root, kube.available_versions, kube.definitions, kube.crd_embedding, kube._kinds,
           kube.kind_validator)


@pytest.fixture
def schemas_at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """kubernetes-validate's schema folder replaced by an empty one the test fills."""
    for function in _CACHED:
        function.cache_clear()
    monkeypatch.setattr(kube, "_schema_root", lambda: tmp_path)
    yield tmp_path
    monkeypatch.undo()
    for function in _CACHED:
        function.cache_clear()


def test_the_minors_are_read_from_the_strict_folders_and_sorted_as_numbers(schemas_at: Path) -> None:
    for name in ("v1.10.0-local-strict", "v1.9.0-local-strict", "v1.10.0-local", "v1.11.0-standalone",
                 "master-local-strict"):
        (schemas_at / name).mkdir()
    assert kube.available_versions() == ("1.9", "1.10")  # as strings, "1.10" would sort first
    assert kube.latest() == "1.10"


def test_no_schemas_at_all_is_said_plainly(schemas_at: Path) -> None:
    with pytest.raises(kube.SchemasMissing) as caught:
        kube.latest()
    assert str(caught.value) == "kubernetes-validate ships no schemas"
    with pytest.raises(kube.SchemasMissing) as missing:
        kube.definitions("1.29")
    assert str(missing.value) == "kubernetes-validate has no schemas for Kubernetes 1.29"


def test_without_kubernetes_validate_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    kube._schema_root.cache_clear()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    try:
        with pytest.raises(kube.SchemasMissing) as caught:
            kube._schema_root()
    finally:
        monkeypatch.undo()
        kube._schema_root.cache_clear()
    assert isinstance(caught.value, Unavailable) and isinstance(caught.value, LookupError)
    assert "pip install kubernetes-validate" in str(caught.value)
    assert str(caught.value).startswith("kubernetes-validate (the Kubernetes schemas fluidgen checks objects "
                                        "against) is not installed in this Python environment")


def test_the_installed_schemas_hold_the_minor_fluid_embeds() -> None:
    """Both Fluid commits build against k8s.io/api v0.29.15 (go.mod): Kubernetes 1.29."""
    assert "1.29" in kube.available_versions()
    assert kube.latest() == kube.available_versions()[-1]


@pytest.mark.parametrize(("api_version", "kind", "minor", "known"), [
    ("v1", "Secret", "1.29", True), ("apps/v1", "Deployment", "1.29", True), ("batch/v1", "Job", "1.29", True),
    ("v1", "Deployment", "1.29", False),  # the group is part of the apiVersion
    ("data.fluid.io/v1alpha1", "Dataset", "1.29", False),  # a custom resource is no core kind
    ("resource.k8s.io/v1", "ResourceClaim", "1.29", False),  # resource.k8s.io/v1 is GA from Kubernetes 1.34 ...
    ("resource.k8s.io/v1", "ResourceClaim", "1.34", True),
    ("resource.k8s.io/v1alpha2", "ResourceClaim", "1.29", True),  # ... 1.29 served v1alpha2
])
def test_a_core_kind_is_known_by_group_version_and_kind_at_a_minor(api_version: str, kind: str, minor: str,
                                                                    known: bool) -> None:
    if minor not in kube.available_versions():
        pytest.skip(f"the installed kubernetes-validate has no Kubernetes {minor} schemas")
    assert kube.knows(api_version, kind, minor) is known


def test_a_volume_source_is_a_volume_without_its_name() -> None:
    """core/v1 types.go: `type Volume struct { Name string; VolumeSource }` (inlined): a CRD field
    of type VolumeSource takes every source and no name."""
    check = kube.embedded_validator(dsl.k8s("core.v1.VolumeSource"), "1.29")
    assert check.problems({"emptyDir": {"sizeLimit": "1Gi"}}) == []
    assert [(p.path, p.keyword) for p in check.problems({"name": "cache", "emptyDir": {}})] == [(("name",), "unknown")]


def test_an_embedded_claim_template_takes_any_kind_and_open_metadata() -> None:
    """Fluid master data.fluid.io_juicefsruntimes.yaml, spec.volumeClaimTemplates[]: apiVersion
    and kind are {type: string} and metadata {type: object}; the strict Kubernetes 1.29 schema
    of a PersistentVolumeClaim itself takes apiVersion v1 and a known metadata field only."""
    template = {"apiVersion": "v9", "kind": "Claim", "metadata": {"name": "c", "custom": 1},
                "spec": {"accessModes": ["ReadWriteOnce"]}}
    assert kube.embedded_validator(dsl.k8s("core.v1.PersistentVolumeClaim"), "1.29").problems(template) == []
    strict = kube.kind_validator("v1", "PersistentVolumeClaim", "1.29")
    assert {p.path for p in strict.problems(template)} >= {("apiVersion",), ("metadata", "custom")}


def test_a_quantity_inside_a_core_type_is_checked_as_crds_check_it() -> None:
    check = kube.embedded_validator(dsl.k8s("core.v1.ResourceRequirements"), "1.29")
    assert check.problems({"limits": {"memory": "4Gi", "cpu": 2}}) == []
    assert [p.message for p in check.problems({"limits": {"memory": "4GB"}})] == [
        '"4GB" is not a Kubernetes quantity; write "4Gi" (binary) or "4G" (decimal)']


def test_a_secrets_values_are_never_quoted_in_a_problem_but_its_metadata_is() -> None:
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "labels": {"on": True}},
              "stringData": {"password": True}}
    messages = {p.path: p.message for p in kube.kind_validator("v1", "Secret", "1.29").problems(secret)}
    assert messages[("stringData", "password")] == "expected a string, found a boolean"
    assert messages[("metadata", "labels", "on")] == 'expected a string, found a boolean; quote it: "true"'
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"flag": True}}
    assert [p.message for p in kube.kind_validator("v1", "ConfigMap", "1.29").problems(config)] == [
        'expected a string, found a boolean; quote it: "true"']


def test_the_groups_kubernetes_serves_itself_are_read_from_its_kinds() -> None:
    served = kube.groups(kube.latest())
    assert {"", "apps", "batch", "storage.k8s.io", "networking.k8s.io", "rbac.authorization.k8s.io"} <= served
    assert not {"snapshot.storage.k8s.io", "gateway.networking.k8s.io", "v1", "apps/v1"} & served
