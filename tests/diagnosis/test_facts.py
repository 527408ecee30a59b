"""fluidgen/diagnosis/facts.py: the texts `fluidgen diagnose` matches are the ones Fluid writes,
read from Fluid's source at v1.0.8 and v1.1.0-dev (tests/harness/fluid_src.py): the event reasons
of pkg/common/constants.go, the Dataset phase of api/v1alpha1/dataset_types.go, the CSI driver's
name (pkg/common/volume.go CSIDriver), the runtime controller's event message
(pkg/controllers/runtime_controller.go ReconcileInternal), the chart's default kubelet rootDir and
CSI DaemonSet name, the dataloader's missing-path line; and the families' Markdown table."""

from __future__ import annotations

import re

import pytest

from fluidgen.diagnosis import facts
from tests.harness.fluid_src import TREES, need_tree

VERSIONS = sorted(TREES)


def go_const(version: str, path: str, name: str) -> str:
    """The string value of Go constant `name` (`Name = "x"` or `Name Type = "x"`) in Fluid's `path`."""
    text = (need_tree(version) / path).read_text()
    found = re.findall(rf'^\s*{name}(?:\s+\w+)?\s*=\s*"([^"]*)"', text, re.M)
    assert len(found) == 1, (version, path, name, found)
    return str(found[0])


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("said", "name"), [
    (facts.ERROR_PROCESS_RUNTIME, "ErrorProcessRuntimeReason"),
    (facts.TARGET_NOT_FOUND, "TargetDatasetNotFound"),
    (facts.RUNTIME_NOT_READY, "RuntimeNotReady"),
    (facts.OPERATION_FAILED, "DataOperationFailed"),
    (facts.OPERATION_EXECUTION_FAILED, "DataOperationExecutionFailed"),
])
def test_event_reasons_are_fluids_constants(version: str, said: facts.Said, name: str) -> None:
    assert said.text == go_const(version, "pkg/common/constants.go", name)


@pytest.mark.parametrize("version", VERSIONS)
def test_dataset_phase_and_csi_driver_name_are_fluids(version: str) -> None:
    assert facts.NOT_BOUND.text == go_const(version, "api/v1alpha1/dataset_types.go", "NotBoundDatasetPhase")
    assert facts.CSI_DRIVER.text == go_const(version, "pkg/common/volume.go", "CSIDriver")


@pytest.mark.parametrize("version", VERSIONS)
def test_the_runtime_without_a_dataset_message_is_the_controllers_event(version: str) -> None:
    """runtime_controller.go ReconcileInternal records ErrorProcessRuntimeReason with this message."""
    text = (need_tree(version) / "pkg/controllers/runtime_controller.go").read_text()
    event = re.search(r'Recorder\.Event\(runtime, corev1\.EventTypeWarning, common\.ErrorProcessRuntimeReason, '
                      r'"([^"]*)"\)', text)
    assert event is not None
    assert event.group(1).startswith(facts.NO_DATASET.text)
    assert facts.NO_DATASET.text == "No dataset can be bound to the runtime"


@pytest.mark.parametrize("version", VERSIONS)
def test_chart_facts_csi_daemonset_root_dir_and_missing_paths(version: str) -> None:
    root = need_tree(version)
    daemonset = (root / "charts/fluid/fluid/templates/csi/daemonset.yaml").read_text()
    assert re.search(r"^  name: (\S+)$", daemonset, re.M).group(1) == facts.CSI_PLUGIN_POD.text  # type: ignore[union-attr]
    values = (root / "charts/fluid/fluid/values.yaml").read_text()
    assert re.search(rf"^\s+{facts.KUBELET_ROOT_DIR.text}: /var/lib/kubelet$", values, re.M)
    loader = (root / "charts/fluid-dataloader/alluxio/templates/configmap.yaml").read_text()
    assert f"dataLoad failed because {facts.PATHS_NOT_EXIST.text}." in loader


def test_elsewhere_and_fluid_sources_cite_their_project() -> None:
    assert facts.cite(facts.k8s("pkg/a.go", "F", "n")) == "kubernetes/kubernetes pkg/a.go F"
    assert facts.cite(facts.NOT_BOUND.sources[0]).startswith(
        "fluid-cloudnative/fluid api/v1alpha1/dataset_types.go NotBoundDatasetPhase")


def test_the_table_has_a_row_per_family_with_its_sources_sorted() -> None:
    rows = facts.table().splitlines()
    assert rows[:2] == ["| family | evidence it reads | sources | tests |", "| --- | --- | --- | --- |"]
    assert [r.split(" | ")[0] for r in rows[2:]] == [
        "| scheduling", "| crash", "| mount", "| csi", "| binding", "| volume", "| operation", "| image", "| name",
        "| version", "| cache"]
    version_row = rows[-2]
    assert version_row.endswith("| tests/diagnosis/test_run.py test_version_* |")
    cites = rows[2].split(" | ")[2].split("; ")  # scheduling: 7 texts, 7 distinct sources
    assert cites == sorted(cites) and len(cites) == 7
    assert facts.page().startswith("# `fluidgen diagnose`: the failure families\n\n")
