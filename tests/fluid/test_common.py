"""fluid/common.py: the API group and version of every Fluid kind, and the enums and the quotaList
pattern the shared schema pieces carry, against Fluid's Go markers at each commit.

Fluid's facts (../shared/fluid-src, both commits):
- api/v1alpha1/groupversion_info.go: `Group = "data.fluid.io"`, `Version = "v1alpha1"`.
- api/v1alpha1/common.go Level: `+kubebuilder:validation:Enum=MEM;SSD;HDD` (mediumtype),
  `Enum=hostPath;emptyDir` (volumeType), and the quotaList `+kubebuilder:validation:Pattern`.
- every runtime's networkMode: `+kubebuilder:validation:Enum=HostNetwork;"";ContainerNetwork`.
The group reaches the build's objects (apiVersion) and the kustomize namespace fieldSpecs of the data
operations (compile/output.py namespace_field_specs: the mutation run's surviving `GROUP = None`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from fluidgen.base.versions import NAMES
from fluidgen.compile.output import namespace_field_specs
from fluidgen.fluid import common
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree
from tests.lower.test_workloads import write_spec


def _group_version(root: Path) -> tuple[str, str]:
    text = (root / "api/v1alpha1/groupversion_info.go").read_text()
    group = re.search(r'^\s*Group\s*=\s*"([^"]+)"', text, re.M)
    version = re.search(r'^\s*Version\s*=\s*"([^"]+)"', text, re.M)
    assert group and version
    return group[1], version[1]


def _markers(root: Path, marker: str) -> set[str]:
    """Every value of a kubebuilder marker across api/v1alpha1 (Go string escapes undone)."""
    found: set[str] = set()
    for path in (root / "api/v1alpha1").glob("*_types.go"):
        found.update(re.findall(rf"// \+kubebuilder:validation:{marker}[:=]+(.*)$", path.read_text(), re.M))
    found.update(re.findall(rf"// \+kubebuilder:validation:{marker}[:=]+(.*)$",
                            (root / "api/v1alpha1/common.go").read_text(), re.M))
    return found


@pytest.mark.parametrize("version", NAMES)
def test_the_group_is_fluids_in_the_operations_namespace_field_specs(version: str) -> None:
    group, _ = _group_version(need_tree(version))
    specs = namespace_field_specs()
    assert specs and {s["group"] for s in specs} == {group}


@pytest.mark.parametrize("version", NAMES)
def test_every_built_fluid_object_has_fluids_group_version(version: str, tmp_path: Path) -> None:
    group, api = _group_version(need_tree(version))
    result = run_cli("build", str(write_spec(tmp_path, {}, fluid=version)))
    assert result.code == 0, result.err
    fluid = [d for d in yaml.safe_load_all(result.out) if d["apiVersion"].startswith(f"{group}/")]
    assert {d["kind"] for d in fluid} >= {"Dataset", "AlluxioRuntime"}
    assert {d["apiVersion"] for d in fluid} == {f"{group}/{api}"} == {common.GROUP_VERSION}


@pytest.mark.parametrize("version", NAMES)
def test_the_level_enums_and_quota_list_pattern_are_fluids(version: str) -> None:
    root = need_tree(version)
    enums = _markers(root, "Enum")
    assert "MEM;SSD;HDD" in enums and "hostPath;emptyDir" in enums
    level = common.LEVEL["properties"]
    assert level["mediumtype"]["enum"] == ["MEM", "SSD", "HDD"]
    assert level["volumeType"]["enum"] == ["hostPath", "emptyDir"]
    (pattern,) = {p for p in _markers(root, "Pattern") if "[KMGTPE]i" in p and p.count(",") >= 1}
    go = pattern.strip()
    assert go.startswith('"') and go.endswith('"')
    assert go[1:-1].replace("\\\\", "\\") == common.QUOTA_LIST["pattern"]


@pytest.mark.parametrize("version", NAMES)
def test_network_mode_enum_is_fluids(version: str) -> None:
    assert 'HostNetwork;"";ContainerNetwork' in _markers(need_tree(version), "Enum")
    assert common.NETWORK_MODE["enum"] == ["HostNetwork", "", "ContainerNetwork"]
