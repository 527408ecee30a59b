"""An Argo Workflow, written with Hera, that trains ResNet-50 on ImageNet cached by Fluid.

The fluidgen Python API builds the objects (the ImageNet spec with the 4x8 MPI training
overlay); the workflow applies the Dataset and its AlluxioRuntime, waits until Fluid has
bound the Dataset, then submits the MPIJob and waits for it to finish.

    python examples/pipeline/imagenet_workflow.py > imagenet-train.yaml   # offline
    argo submit imagenet-train.yaml                                       # needs a cluster

The credentials stay in the cluster: the spec's envFile is replaced by a reference to a
Secret named imagenet-oss (keys fs.oss.accessKeyId and fs.oss.accessKeySecret), so no value
is written into the workflow. The workflow's service account needs create/get/patch on
Datasets, AlluxioRuntimes and MPIJobs in the namespace.

Requires: pip install fluidgen hera
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml
from hera.workflows import Resource, Steps, Workflow

import fluidgen

EXAMPLES = Path(__file__).resolve().parent.parent
SPEC = EXAMPLES / "alluxio-imagenet-oss.yaml"
TRAINING = EXAMPLES / "overlays" / "train-resnet50-mpi.yaml"
SECRET = {"name": "imagenet-oss", "keys": ["fs.oss.accessKeyId", "fs.oss.accessKeySecret"]}
WAIT_FOR = {"Dataset", "MPIJob"}  # Fluid binds the Dataset once its runtime is ready

def objects() -> list[dict[str, Any]]:
    """The Fluid objects and the training job, built with the fluidgen API."""
    spec = yaml.safe_load(SPEC.read_text())
    for source in spec["source"]:
        source["credentials"] = {"existingSecret": SECRET}
    build = fluidgen.build(spec, overlays=[TRAINING])
    build.raise_for_errors()  # a FluidgenError listing every problem, each at its key path
    return build.objects


def workflow(built: list[dict[str, Any]]) -> Workflow:
    def step_name(obj: dict[str, Any]) -> str:
        return f"{obj['kind'].lower()}-{obj['metadata']['name']}"[:63]

    def resource(obj: dict[str, Any], action: str) -> Resource:
        # When the step is done: fluidgen's health table (the same rules as its Argo CD and Flux
        # checks); the runtime's step only applies it, the Dataset's waits until it is bound.
        ready = fluidgen.readiness(obj["kind"]) if obj["kind"] in WAIT_FOR else None
        return Resource(name=step_name(obj), action=action, manifest=fluidgen.Build([obj]).yaml(),
                        success_condition=ready.success_condition if ready else None,
                        failure_condition=ready.failure_condition if ready else None)

    jobs = [o for o in built if o["kind"] == "MPIJob"]
    fluid = [o for o in built if o not in jobs]
    namespace = built[0]["metadata"]["namespace"]
    with Workflow(generate_name="imagenet-train-", entrypoint="train", namespace=namespace,
                  service_account_name="imagenet-train") as w:
        # apply: a rerun of the workflow leaves an existing, bound Dataset as it is
        dataset_steps = [resource(o, "apply") for o in fluid]
        job_steps = [resource(o, "create") for o in jobs]
        with Steps(name="train") as steps:
            with steps.parallel():  # the Dataset and its runtime together; Fluid binds them
                for template in dataset_steps:
                    template()
            for template in job_steps:
                template()
    return w


def main() -> int:
    sys.stdout.write(workflow(objects()).to_yaml())
    return 0


if __name__ == "__main__":
    sys.exit(main())
