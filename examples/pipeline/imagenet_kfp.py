"""A Kubeflow Pipelines (KFP v2) pipeline whose first component caches ImageNet with Fluid.

Fluid's own KFP sample builds the Dataset and runtime with the fluid-client-python models
inside a component. Here the component builds them with `fluidgen.build` from the spec (the
same spec, checks and tuned output as `fluidgen build`), applies them with the `kubernetes`
client (server-side apply, so a rerun leaves a bound Dataset as it is) and waits until Fluid
has bound the Dataset (`fluidgen.health`: the rule of fluidgen's Argo CD and Flux checks).
Steps that read the data follow it and mount the Dataset's claim, which Fluid names like the
Dataset (the component's output).

    python examples/pipeline/imagenet_kfp.py > imagenet-kfp.yaml   # compiles offline
    # upload imagenet-kfp.yaml to Kubeflow Pipelines (needs a cluster)

The spec travels as a pipeline parameter; its credentials stay in the cluster (a reference to
a Secret named imagenet-oss with keys fs.oss.accessKeyId and fs.oss.accessKeySecret), and its
metadata.namespace is left out so the run's `namespace` parameter applies. The component's
image installs fluidgen with pip (FLUIDGEN_PIP: a requirement such as
"fluidgen @ git+https://<your fluidgen repository>@<commit>"; default "fluidgen"). The
pipeline's service account needs create/get/patch on Datasets and AlluxioRuntimes there.

Requires: pip install fluidgen kfp
"""


import json
import os
import sys
from pathlib import Path

import yaml
from kfp import compiler, dsl

EXAMPLES = Path(__file__).resolve().parent.parent
SPEC = EXAMPLES / "alluxio-imagenet-oss.yaml"
SECRET = {"name": "imagenet-oss", "keys": ["fs.oss.accessKeyId", "fs.oss.accessKeySecret"]}
FLUIDGEN_PIP = os.environ.get("FLUIDGEN_PIP", "fluidgen")


def spec_text() -> str:
    """The ImageNet spec, credentials by reference, namespace left to the run; on one line
    (JSON, which YAML reads): KFP copies a parameter's default into a comment of the file."""
    spec = yaml.safe_load(SPEC.read_text())
    spec["metadata"].pop("namespace", None)
    for source in spec["source"]:
        source["credentials"] = {"existingSecret": SECRET}
    return json.dumps(spec)


@dsl.component(base_image="python:3.11-slim", packages_to_install=[FLUIDGEN_PIP, "kubernetes"])
def cache_dataset(spec: str, namespace: str, timeout_seconds: int = 3600) -> str:
    """Build the spec with fluidgen, apply the objects, wait until the Dataset is bound;
    returns the Dataset's name (its claim has the same name)."""
    import time

    import yaml
    from kubernetes import client, config, dynamic

    import fluidgen

    build = fluidgen.build(yaml.safe_load(spec), namespace=namespace, base_dir="/tmp")
    for diagnostic in build.diagnostics:
        print(diagnostic)
    build.raise_for_errors()  # every error at its key path; nothing applied
    config.load_incluster_config()
    api = dynamic.DynamicClient(client.ApiClient())
    dataset = None
    for obj in build.objects:
        resource = api.resources.get(api_version=obj["apiVersion"], kind=obj["kind"])
        meta = obj["metadata"]
        resource.server_side_apply(body=obj, name=meta["name"], namespace=meta.get("namespace"),
                                   field_manager="fluidgen-kfp", force_conflicts=True)
        if obj["kind"] == "Dataset":
            dataset = (resource, meta["name"], meta["namespace"])
    if dataset is None:
        raise RuntimeError("the spec built no Dataset")
    resource, name, ns = dataset
    deadline = time.monotonic() + timeout_seconds
    while True:
        health = fluidgen.health(resource.get(name=name, namespace=ns).to_dict())
        print(f"Dataset {ns}/{name}: {health.status}: {health.message}")
        if health.status == "Healthy":
            return str(name)
        if health.status == "Degraded" or time.monotonic() > deadline:
            raise RuntimeError(f"Dataset {ns}/{name} is not bound: {health.status}: {health.message}")
        time.sleep(10)


@dsl.pipeline(name="imagenet-fluid", description="Cache ImageNet with Fluid, built by fluidgen.")
def imagenet_pipeline(namespace: str = "kubeflow-user", spec: str = spec_text()) -> str:
    # Steps that read the data come after this one and mount the claim it names
    # (kfp-kubernetes: kubernetes.mount_pvc(task, pvc_name=cached.output, mount_path="/data")).
    cached = cache_dataset(spec=spec, namespace=namespace)
    return cached.output


def compile_to(path: str) -> None:
    compiler.Compiler().compile(imagenet_pipeline, package_path=path)


def main() -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "pipeline.yaml")
        compile_to(out)
        sys.stdout.write(Path(out).read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
