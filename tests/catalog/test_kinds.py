"""fluidgen/catalog/kinds.py: the kind table against Fluid. Every Fluid kind fluidgen emits is
served as data.fluid.io/v1alpha1 (api/v1alpha1/groupversion_info.go Group, Version) with the
scope of its real CRD (tests/conftest.py `crds`, both versions); Datasets and runtimes take
DNS-1035 names (validation.IsDNS1035Label in dataset_controller.go and runtime_controller.go
ReconcileInternal); the apply order, Argo CD waves and the defaults for kinds it does not know."""

from __future__ import annotations

import re

import pytest

from fluidgen.catalog import kinds
from fluidgen.catalog.kinds import namespaced, rank, sync_wave, table
from fluidgen.io.crds import CrdSet
from tests.harness.fluid_src import TREES, need_tree


@pytest.mark.parametrize("version", sorted(TREES))
def test_fluid_kinds_are_data_fluid_io_v1alpha1(version: str) -> None:
    text = (need_tree(version) / "api/v1alpha1/groupversion_info.go").read_text()
    assert re.search(r'Group\s+=\s+"data\.fluid\.io"', text) and re.search(r'Version\s+=\s+"v1alpha1"', text)
    for kind in ("Dataset", "AlluxioRuntime", "ThinRuntimeProfile", "DataLoad", "DataMigrate", "DataBackup",
                 "DataProcess"):
        assert table()[kind].api_version == "data.fluid.io/v1alpha1", kind


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_every_fluid_row_has_its_crds_scope(version: str, crds: dict[str, CrdSet]) -> None:
    scopes = crds[version].scopes
    fluid = [row for row in table().values() if (row.api_version, row.kind) in scopes]  # the version's kinds
    assert len(fluid) >= 12
    for row in fluid:
        assert scopes[(row.api_version, row.kind)] == ("Namespaced" if row.namespaced else "Cluster"), row.kind
    assert scopes[("data.fluid.io/v1alpha1", "ThinRuntimeProfile")] == "Cluster"


@pytest.mark.parametrize("version", sorted(TREES))
def test_datasets_and_runtimes_take_dns1035_names(version: str) -> None:
    root = need_tree(version)
    for path in ("pkg/controllers/v1alpha1/dataset/dataset_controller.go", "pkg/controllers/runtime_controller.go"):
        assert "validation.IsDNS1035Label(" in (root / path).read_text(), path
    assert table()["Dataset"].name_rule == table()["JuiceFSRuntime"].name_rule == "dns1035"
    assert table()["DataLoad"].name_rule == table()["Secret"].name_rule == "dns1123-subdomain"


def test_the_apply_order_puts_what_is_mounted_first() -> None:
    order = ["Secret", "PersistentVolume", "PersistentVolumeClaim", "ThinRuntimeProfile", "Dataset", "AlluxioRuntime",
             "Role", "DataLoad", "Job"]
    assert [rank(k) for k in order] == list(range(9))
    assert rank("NoSuchKind") == 9
    assert [sync_wave(k) for k in order] == [0, 0, 0, 1, 1, 1, 0, 2, 3]
    assert sync_wave("NoSuchKind") == 3


def test_scope_of_core_and_unknown_kinds_and_a_missing_row() -> None:
    assert namespaced("PersistentVolume") is False and namespaced("PersistentVolumeClaim") is True
    assert namespaced("NoSuchKind") is True
    assert table().get("NoSuchKind") is None
    with pytest.raises(KeyError):
        table()["NoSuchKind"]
    assert list(table())[:3] == ["Secret", "ExternalSecret", "PersistentVolume"]
    assert len(table()) == len(set(table()))


def test_the_gitops_annotation_names() -> None:
    assert kinds.SYNC_WAVE_ANNOTATION == "argocd.argoproj.io/sync-wave"
    assert kinds.FLUX_SUBSTITUTE_ANNOTATION == "kustomize.toolkit.fluxcd.io/substitute"
    assert kinds.FLUX_FORCE_ANNOTATION == "kustomize.toolkit.fluxcd.io/force"


def test_every_fluid_row_is_a_kind_of_some_fluid_version(crds: dict[str, CrdSet]) -> None:
    known = {key for crd_set in crds.values() for key in crd_set.scopes}
    rows = {(r.api_version, r.kind) for r in table().values() if r.api_version == "data.fluid.io/v1alpha1"}
    assert rows <= known and ("data.fluid.io/v1alpha1", "GooseFSRuntime") in rows
