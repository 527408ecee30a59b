"""The pipeline example (examples/pipeline/imagenet_workflow.py) compiles offline to an Argo
Workflow that applies the API's objects, waits for the Dataset, then submits the job."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from types import ModuleType

import yaml

import fluidgen
from tests.conftest import EXAMPLES

SCRIPT = EXAMPLES / "pipeline" / "imagenet_workflow.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("imagenet_workflow", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_workflow_applies_the_built_objects_waits_then_trains() -> None:
    example = _example()
    built = example.objects()
    assert [o["kind"] for o in built] == ["Dataset", "AlluxioRuntime", "MPIJob"]  # no Secret with values
    assert [d for d in fluidgen.validate(built) if d.severity != "info"] == []
    workflow = yaml.safe_load(example.workflow(built).to_yaml())
    assert workflow["kind"] == "Workflow" and workflow["apiVersion"] == "argoproj.io/v1alpha1"
    templates = {t["name"]: t for t in workflow["spec"]["templates"]}
    entry = templates[workflow["spec"]["entrypoint"]]
    stages = [[step["template"] for step in group] for group in entry["steps"]]
    assert stages == [["dataset-imagenet", "alluxioruntime-imagenet"], ["mpijob-horovod-resnet50-v2-4x8-fluid"]]
    applied = [yaml.safe_load(templates[name]["resource"]["manifest"]) for stage in stages for name in stage]
    assert applied == built
    dataset = templates["dataset-imagenet"]["resource"]
    assert (dataset["action"], dataset["successCondition"], dataset["failureCondition"]) == (
        "apply", "status.phase == Bound", "status.phase == Failed")
    job = templates["mpijob-horovod-resnet50-v2-4x8-fluid"]["resource"]
    assert job["action"] == "create" and "Launcher.succeeded" in job["successCondition"]
    assert built[0]["spec"]["mounts"][0]["encryptOptions"][0]["valueFrom"]["secretKeyRef"]["name"] == "imagenet-oss"


def test_the_script_prints_the_workflow_with_no_credential_value() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert yaml.safe_load(proc.stdout)["kind"] == "Workflow"
    env_file = (EXAMPLES / "credentials" / "imagenet-oss.env").read_text()
    for line in env_file.splitlines():
        if "=" in line and not line.startswith("#"):
            assert line.partition("=")[2] not in proc.stdout
