from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from fluidgen.spec.specschema import spec_schema_text
from tests.conftest import EXAMPLES, ROOT, run_cli

SCHEMA_FILE = ROOT / "schemas" / "fluidgen-spec.v1alpha1.json"


def test_published_schema_is_fresh(update_golden: bool) -> None:
    text = spec_schema_text()
    if update_golden:
        SCHEMA_FILE.write_text(text)
    assert SCHEMA_FILE.read_text() == text, "run pytest --update-golden to refresh schemas/"


def test_examples_validate_against_published_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text())
    for example in sorted(EXAMPLES.glob("*.yaml")):
        for doc in yaml.safe_load_all(example.read_text()):
            jsonschema.validate(doc, schema)


def _properties(node: object, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property of the schema, nested ones included, with a readable path."""
    if not isinstance(node, dict):
        return
    for key, prop in node.get("properties", {}).items():
        yield f"{path}.{key}", prop
        yield from _properties(prop, f"{path}.{key}")
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key, []):
            yield from _properties(sub, path)
    for key in ("items", "additionalProperties"):
        yield from _properties(node.get(key), path)


def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text())
    return schema


def _defs_and_root() -> list[tuple[str, dict[str, Any]]]:
    schema = _schema()
    return [("Spec", schema), *schema["$defs"].items()]


def test_every_property_of_the_published_schema_has_a_description() -> None:
    """`fluidgen explain` and editors show only what the schema says: no field goes undocumented."""
    found = [(path, prop) for name, node in _defs_and_root() for path, prop in _properties(node, name)]
    assert len(found) > 150
    assert [path for path, prop in found if not prop.get("description")] == []


# One example of every alternative form the schema offers (anyOf beside null), at a place in a
# spec where it builds. A new alternative without an example fails the completeness test below.
FORMS: dict[str, list[tuple[str, Any]]] = {
    "CacheTier.high": [("runtime.cache.0.high", 0.95), ("runtime.cache.0.high", "0.95")],
    "CacheTier.low": [("runtime.cache.0.low", 0.7), ("runtime.cache.0.low", "0.7")],
    "CacheTier.path": [("runtime.cache.0.path", "/mnt/ssd"), ("runtime.cache.0.path", ["/mnt/a", "/mnt/b"])],
    "CacheTier.quota": [("runtime.cache.0.quota", 53687091200), ("runtime.cache.0.quota", "50Gi"),
                        ("runtime.cache.0.quota", ["50Gi"])],
    "ExistingSecret.keys": [("source.0.credentials", {"existingSecret": {"name": "s", "keys": {
        "fs.oss.accessKeyId": "id", "fs.oss.accessKeySecret": "secret"}}}),
        ("source.0.credentials", {"existingSecret": {"name": "s", "keys": [
            "fs.oss.accessKeyId", "fs.oss.accessKeySecret"]}})],
    "ExternalSecretRef.properties": [("source.0.credentials", {"externalSecret": {
        "store": "vault", "remoteKey": "oss", "properties": {"fs.oss.accessKeyId": "id",
                                                             "fs.oss.accessKeySecret": "secret"}}}),
        ("source.0.credentials", {"externalSecret": {"store": "vault", "remoteKey": "oss", "properties": [
            "fs.oss.accessKeyId", "fs.oss.accessKeySecret"]}})],
    "Load.paths": [("dataflow.0.load.paths", "/train"), ("dataflow.0.load.paths", {"path": "/train", "replicas": 2}),
                   ("dataflow.0.load.paths", ["/train", {"path": "/val", "replicas": 2}])],
    "NfsSource.capacity": [("source", [{"nfs": {"server": "nfs.example.com", "path": "/export", "capacity": 1 << 40},
                                        "name": "data"}]),
                           ("source", [{"nfs": {"server": "nfs.example.com", "path": "/export", "capacity": "1Ti"},
                                        "name": "data"}])],
    "Placement.gpu": [("placement", {"gpu": "Tesla-V100-SXM2-16GB"}), ("placement", {"gpu": ["Tesla-V100-SXM2-16GB"]})],
    "Process.command": [("dataflow", [{"process": {"mountPath": "/d", "image": "bash", "script": "ls",
                                                   "command": "bash -e"}}]),
                        ("dataflow", [{"process": {"mountPath": "/d", "image": "bash", "script": "ls",
                                                   "command": ["bash", "-e"]}}])],
    "Step.after": [("dataflow.1", {"load": {"paths": "/val"}, "after": "none"}),
                   ("dataflow.1", {"load": {"paths": "/val"}, "after": "warm"})],
    "Workload.args": [("workloads.0.args", "--epochs 3"), ("workloads.0.args", ["--epochs", "3"])],
    "Workload.command": [("workloads.0.command", "python train.py"), ("workloads.0.command", ["python", "train.py"])],
    "Workload.cpu": [("workloads.0.cpu", 8), ("workloads.0.cpu", "8")],
    "Workload.memory": [("workloads.0.memory", 1 << 36), ("workloads.0.memory", "64Gi")],
    "Workload.shm": [("workloads.0.shm", 1 << 34), ("workloads.0.shm", "16Gi")],
    "Workload.workerCommand": [("workloads.0", {"kind": "MPIJob", "workerCommand": "/usr/sbin/sshd -De"}),
                               ("workloads.0", {"kind": "MPIJob", "workerCommand": ["/usr/sbin/sshd", "-De"]})],
}

BASE_SPEC: dict[str, Any] = {
    "apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "imagenet", "namespace": "ml"},
    "source": [{"uri": "oss://bucket/imagenet/", "options": {"fs.oss.endpoint": "oss-cn-beijing.aliyuncs.com"},
                "credentials": {"existingSecret": {"name": "s", "keys": ["fs.oss.accessKeyId",
                                                                         "fs.oss.accessKeySecret"]}}}],
    "runtime": {"engine": "alluxio", "replicas": 2, "cache": [{"medium": "SSD", "path": "/mnt/ssd",
                                                                "quota": "50Gi"}]},
    "dataflow": [{"name": "warm", "load": {"paths": "/"}}, {"load": {"paths": "/val"}}],
    "workloads": [{"name": "train", "kind": "PyTorchJob", "image": "pytorch", "workers": 2}],
}


def _alternatives() -> dict[str, int]:
    sites = {}
    for name, node in _defs_and_root():
        for key, prop in node.get("properties", {}).items():
            forms = [a for a in prop.get("anyOf", []) if a != {"type": "null"}]
            if len(forms) > 1:
                sites[f"{name}.{key}"] = len(forms)
    return sites


def test_every_alternative_form_of_the_schema_has_an_example() -> None:
    assert {site: len(examples) for site, examples in FORMS.items()} == _alternatives()


def _put(spec: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    spec = copy.deepcopy(spec)
    *parents, last = dotted.split(".")
    node: Any = spec
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    if last.isdigit():
        node[int(last)] = {**node[int(last)], **value} if isinstance(value, dict) else value
    else:
        node[last] = value
    return spec


@pytest.mark.parametrize(("site", "where", "value"), [
    (site, where, value) for site, examples in FORMS.items() for where, value in examples])
def test_every_alternative_form_of_the_schema_builds(site: str, where: str, value: Any, tmp_path: Path) -> None:
    spec = _put(BASE_SPEC, where, value)
    jsonschema.validate(spec, _schema())
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    result = run_cli("build", str(path))
    assert result.code == 0, f"{site} as {value!r}: {result.err}"


@pytest.mark.parametrize("credentials", [
    {"existingSecret": {"name": "creds", "keys": []}},
    {"existingSecret": {"name": "creds", "keys": {}}},
    {"externalSecret": {"store": "vault", "remoteKey": "k", "properties": []}},
    {"externalSecret": {"store": "vault", "remoteKey": "k", "properties": {}}},
])
def test_the_published_schema_refuses_credentials_that_wire_no_option(credentials: dict[str, Any],
                                                                       tmp_path: Path) -> None:
    """An editor reading the schema flags what the build refuses: an empty key list wires no
    option to the Secret (the model says "must not be empty" at the same key)."""
    spec = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "d"},
            "source": [{"uri": "oss://b/d/", "credentials": credentials}],
            "runtime": {"engine": "alluxio", "cache": [{"medium": "MEM", "quota": "1Gi"}]}}
    validator = jsonschema.Draft202012Validator(_schema())
    (wired := copy.deepcopy(spec))["source"][0]["credentials"] = json.loads(
        json.dumps(credentials).replace("[]", '["fs.oss.accessKeyId"]').replace("{}", '{"a": "b"}'))
    assert validator.is_valid(wired), list(validator.iter_errors(wired))
    assert not validator.is_valid(spec)
    (tmp_path / "spec.yaml").write_text(json.dumps(spec))
    result = run_cli("validate", str(tmp_path / "spec.yaml"))
    assert result.code == 1 and "must not be empty" in result.err, result.err
