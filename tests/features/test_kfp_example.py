"""The KFP v2 example (examples/pipeline/imagenet_kfp.py, issue 41): its component builds the
Dataset with fluidgen.build; the pipeline compiles offline, and the component's own function
runs here against a recording stand-in for the `kubernetes` client it uses in the cluster."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
import yaml

import fluidgen
from tests.conftest import EXAMPLES

pytest.importorskip("kfp", reason="kfp is in the test extra (pip install -e '.[test]')")

SCRIPT = EXAMPLES / "pipeline" / "imagenet_kfp.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("imagenet_kfp", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pipeline_compiles_offline_to_a_component_that_calls_fluidgen_build(tmp_path: Path) -> None:
    example = _example()
    example.compile_to(str(tmp_path / "p.yaml"))
    ir = yaml.safe_load((tmp_path / "p.yaml").read_text())
    assert ir["pipelineInfo"]["name"] == "imagenet-fluid"
    (task,) = ir["root"]["dag"]["tasks"].values()
    assert task["componentRef"]["name"] == "comp-cache-dataset"
    container = ir["deploymentSpec"]["executors"]["exec-cache-dataset"]["container"]
    program = "\n".join(container["command"])
    assert "'fluidgen' 'kubernetes'" in program
    assert "fluidgen.build(yaml.safe_load(spec), namespace=namespace" in program
    assert container["args"][-1] == "cache_dataset"
    params = ir["root"]["inputDefinitions"]["parameters"]
    assert params["spec"]["defaultValue"] == example.spec_text()
    assert "namespace" not in yaml.safe_load(params["spec"]["defaultValue"])["metadata"]  # the run's applies
    assert "existingSecret" in params["spec"]["defaultValue"] and "envFile" not in params["spec"]["defaultValue"]


class _Cluster:
    """What the component does with the kubernetes client: server-side applies, then gets."""

    def __init__(self, phase: str) -> None:
        self.applied: list[dict[str, Any]] = []
        self.phase = phase

    def modules(self) -> dict[str, Any]:
        cluster = self

        class Resource:
            def __init__(self, api_version: str, kind: str) -> None:
                self.kind = kind

            def server_side_apply(self, body: dict[str, Any], name: str, namespace: str | None,
                                  field_manager: str, force_conflicts: bool) -> None:
                assert (name, namespace, field_manager) == (body["metadata"]["name"],
                                                            body["metadata"].get("namespace"), "fluidgen-kfp")
                cluster.applied.append(body)

            def get(self, name: str, namespace: str) -> Any:
                found = next(o for o in cluster.applied if o["kind"] == self.kind and o["metadata"]["name"] == name)
                return SimpleNamespace(to_dict=lambda: {**found, "status": {"phase": cluster.phase}})

        dynamic = SimpleNamespace(DynamicClient=lambda _client: SimpleNamespace(resources=SimpleNamespace(
            get=lambda api_version, kind: Resource(api_version, kind))))
        client = SimpleNamespace(ApiClient=lambda: object())
        config = SimpleNamespace(load_incluster_config=lambda: None)
        module = ModuleType("kubernetes")
        module.client, module.config, module.dynamic = client, config, dynamic  # type: ignore[attr-defined]
        return {"kubernetes": module}


def test_the_component_applies_what_fluidgen_builds_and_waits_for_the_dataset(
        monkeypatch: pytest.MonkeyPatch) -> None:
    example = _example()
    cluster = _Cluster("Bound")
    for name, module in cluster.modules().items():
        monkeypatch.setitem(sys.modules, name, module)
    got = example.cache_dataset.python_func(spec=example.spec_text(), namespace="team-a")
    assert got == "imagenet"
    expected = fluidgen.build(yaml.safe_load(example.spec_text()), namespace="team-a", base_dir="/tmp").objects
    assert cluster.applied == expected
    assert [o["kind"] for o in expected] == ["Dataset", "AlluxioRuntime"]  # no Secret: values stay in the cluster
    assert {o["metadata"]["namespace"] for o in expected} == {"team-a"}


def test_the_component_fails_on_a_dataset_fluid_cannot_bind(monkeypatch: pytest.MonkeyPatch) -> None:
    example = _example()
    cluster = _Cluster("Failed")
    monkeypatch.setitem(sys.modules, "kubernetes", cluster.modules()["kubernetes"])
    with pytest.raises(RuntimeError, match="Dataset team-a/imagenet is not bound: Degraded"):
        example.cache_dataset.python_func(spec=example.spec_text(), namespace="team-a")


def test_the_component_applies_nothing_when_the_spec_has_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    example = _example()
    cluster = _Cluster("Bound")
    monkeypatch.setitem(sys.modules, "kubernetes", cluster.modules()["kubernetes"])
    broken = example.spec_text().replace('"quota": "50Gi"', '"quota": "50GB"')
    assert broken != example.spec_text()
    with pytest.raises(fluidgen.FluidgenError, match="50GB"):
        example.cache_dataset.python_func(spec=broken, namespace="team-a")
    assert cluster.applied == []


def test_the_script_prints_the_compiled_pipeline() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert yaml.safe_load(proc.stdout)["pipelineInfo"]["name"] == "imagenet-fluid"
