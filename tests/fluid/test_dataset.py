"""fluid/dataset.py: the names of what Fluid creates for a bound Dataset, and where a Dataset names
the Secrets its encryptOptions read.

Fluid's facts (../shared/fluid-src, both commits):
- pkg/ddc/base/pv.go GetPersistentVolumeName: the PersistentVolume is `<namespace>-<name>`; the
  rows of its own table test (pkg/ddc/base/pv_test.go TestGetPersistentVolumeName) are the
  fixtures (v1.0.8's deprecated-name row aside: a PV of an old release, not one Fluid creates now).
- pkg/utils/dataset/volume/create.go CreatePersistentVolumeClaimForRuntime: the claim is named
  runtime.GetName() (the Dataset's name) in runtime.GetNamespace().
- api/v1alpha1/dataset_types.go: the json path of a Secret's name from a Dataset, field by field
  (Dataset.spec -> DatasetSpec.mounts -> Mount.encryptOptions | DatasetSpec.sharedEncryptOptions ->
  EncryptOption.valueFrom -> EncryptOptionSource.secretKeyRef -> SecretKeySelector.name).
SECRET_REFS is read by compile/output.py's kustomize nameReference entries (the Secret's referral)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from fluidgen.base.versions import NAMES
from fluidgen.compile.output import name_reference_specs
from fluidgen.fluid.dataset import SECRET_REFS, created_volume_names
from tests.harness.fluid_src import need_tree

_ROW = re.compile(r'runtimeName:\s*"([^"]+)",\s*runtimeNamespace:\s*"([^"]+)",\s*'
                  r'(?:isDeprecatedPVName:\s*(true|false),\s*)?expectedPVName:\s*"([^"]+)"')


def _pv_rows(root: Path) -> list[tuple[str, str, str]]:
    text = (root / "pkg/ddc/base/pv_test.go").read_text()
    body = text.split("func TestGetPersistentVolumeName(", 1)[1]
    return [(name, ns, pv) for name, ns, deprecated, pv in _ROW.findall(body) if deprecated != "true"]


@pytest.mark.parametrize("version", NAMES)
def test_the_persistent_volume_is_named_as_fluids_own_test_table(version: str) -> None:
    root = need_tree(version)
    rows = _pv_rows(root)
    assert len(rows) >= 2, rows
    for name, namespace, pv in rows:
        assert created_volume_names(name, namespace)["PersistentVolume"] == pv
    go = (root / "pkg/ddc/base/pv.go").read_text()
    assert 'pvName := fmt.Sprintf("%s-%s", info.GetNamespace(), info.GetName())' in go


@pytest.mark.parametrize("version", NAMES)
def test_the_claim_is_named_like_the_dataset(version: str) -> None:
    text = (need_tree(version) / "pkg/utils/dataset/volume/create.go").read_text()
    body = text.split("func CreatePersistentVolumeClaimForRuntime(", 1)[1].split("\n}\n", 1)[0]
    assert re.search(r"pvc := &corev1\.PersistentVolumeClaim\{\s*ObjectMeta: metav1\.ObjectMeta\{\s*"
                     r"Name:\s*runtime\.GetName\(\),\s*Namespace:\s*runtime\.GetNamespace\(\),", body)
    for name, namespace in (("imagenet", "ml"), ("spark", "fluid")):
        assert created_volume_names(name, namespace)["PersistentVolumeClaim"] == name


@cache
def _structs(root: Path) -> dict[str, dict[str, str]]:
    """Go struct -> {json name: element type} for api/v1alpha1 (slices and pointers unwrapped)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted((root / "api/v1alpha1").glob("*.go")):
        if path.name.endswith("_test.go") or path.name.startswith(("zz_", "openapi")):
            continue
        for name, body in re.findall(r"^type (\w+) struct \{\n(.*?)^\}", path.read_text(), re.M | re.S):
            fields = out.setdefault(name, {})
            for go_type, tag in re.findall(r'^\s+\w+\s+([\w\[\]*.]+)\s+`json:"([^",]*)', body, re.M):
                fields[tag] = go_type.lstrip("[]*")
    return out


def _resolve(root: Path, path: str) -> str:
    """The Go type at a kustomize field path from a Dataset (KeyError: no such field)."""
    structs, here = _structs(root), "Dataset"
    for key in path.split("/"):
        here = structs[here][key]
    return here


@pytest.mark.parametrize("version", NAMES)
def test_each_secret_ref_is_the_secret_name_of_an_encrypt_option(version: str) -> None:
    root = need_tree(version)
    for path in SECRET_REFS.value:
        assert path.endswith("/valueFrom/secretKeyRef/name")
        assert _resolve(root, path.removesuffix("/valueFrom/secretKeyRef/name")) == "EncryptOption"
        assert _resolve(root, path.removesuffix("/name")) == "SecretKeySelector"
        assert _resolve(root, path) == "string"
    # every list of EncryptOption a Dataset has is covered: per mount and shared
    holders = {p.rsplit("/", 3)[0] for p in SECRET_REFS.value}
    assert holders == {"spec/mounts/encryptOptions", "spec/sharedEncryptOptions"}
    with pytest.raises(KeyError):
        _resolve(root, "spec/mounts/encryptOption/valueFrom/secretKeyRef/name")  # the resolver is not kind


def test_kustomize_renames_the_secret_at_every_secret_ref() -> None:
    secret = next(e for e in name_reference_specs() if e["kind"] == "Secret")
    paths = {f["path"] for f in secret["fieldSpecs"] if f["kind"] == "Dataset"}
    assert paths == set(SECRET_REFS.value)
