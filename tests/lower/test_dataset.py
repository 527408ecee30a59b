"""lower/dataset.py: the Dataset, and the Secrets (or ExternalSecrets) its credentials make.

What is held: two mounts sharing a secretName share one Secret, and the module refuses the two
ways that cannot be one Secret (a key with two values; one block generated, the other an
ExternalSecret); a Secret value is the base64 of its UTF-8 bytes (Kubernetes Secret.data); an
ExternalSecret owns the Secret it makes, a creationPolicy the ESO CRD has; the placement and
nodeAffinity are Fluid's (api/v1alpha1 constant.go PlacementMode, dataset_types.go
CacheableNodeAffinity.Required, a core NodeSelector); an override of a field the spec computes
names the key to use; and the access modes as overridden are the ones a training job mounts with.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import SHARED, run_cli
from tests.harness.fluid_src import TREES, need_tree

HEAD = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo, namespace: ml}
runtime:
  engine: alluxio
  replicas: 1
  cache: [{medium: MEM, quota: 1Gi}]
"""


def write_spec(tmp_path: Path, body: dict[str, Any], credentials: list[dict[str, Any]] | None = None) -> Path:
    """HEAD, one https mount per credentials block (none: one mount without), then `body`."""
    creds = credentials if credentials is not None else [{}]
    source = [{"uri": f"https://example.com/{i}/", "name": f"m{i}", **({"credentials": c} if c else {})}
              for i, c in enumerate(creds)]
    text = HEAD + yaml.safe_dump({"source": source}, sort_keys=False, default_flow_style=None, width=1000)
    path = tmp_path / "spec.yaml"
    path.write_text(text + (yaml.safe_dump(body, sort_keys=False) if body else ""))
    return path


def build(path: Path, **env: str) -> list[dict[str, Any]]:
    result = run_cli("build", str(path), env=env)
    assert result.code == 0, result.err
    return list(yaml.safe_load_all(result.out))


def test_one_key_with_two_values_in_a_shared_secret_is_refused(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {}, [{"secretName": "shared", "fromEnv": {"k.a": "VAR_A"}},
                                     {"secretName": "shared", "fromEnv": {"k.a": "VAR_B"}}])
    result = run_cli("build", str(spec), env={"VAR_A": "v4lue-1", "VAR_B": "v4lue-2"})
    assert result.code == 1 and result.out == ""
    assert ('source[1].credentials: Secret "shared" would get two different values for key k.a; give the mounts '
            "different secretName values") in result.err, result.err
    assert "v4lue" not in result.err  # the values are never shown


def test_mounts_sharing_a_secret_name_and_agreeing_make_one_secret_with_every_key(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {}, [{"secretName": "shared", "fromEnv": {"k.a": "VAR_A"}},
                                     {"secretName": "shared", "fromEnv": {"k.a": "VAR_A", "k.b": "VAR_B"}}])
    docs = build(spec, VAR_A="é", VAR_B="b")
    secrets = [d for d in docs if d["kind"] == "Secret"]
    assert len(secrets) == 1 and secrets[0]["metadata"]["name"] == "shared"
    assert secrets[0]["type"] == "Opaque"
    assert secrets[0]["data"] == {"k.a": "w6k=", "k.b": "Yg=="}  # base64 of the UTF-8 bytes c3 a9, and of "b"


def test_a_generated_and_an_external_secret_of_one_name_are_refused(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {}, [
        {"secretName": "shared", "externalSecret": {"store": "vault", "remoteKey": "team/oss", "properties": ["k.a"]}},
        {"secretName": "shared", "fromEnv": {"k.a": "VAR_A"}}])
    result = run_cli("build", str(spec), env={"VAR_A": "a"})
    assert result.code == 1
    assert ('source[1].credentials: two credentials blocks make Secret "shared" in different ways; give them '
            "different secretName values") in result.err, result.err


def test_an_external_secret_owns_the_secret_it_makes_from_each_property(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {}, [{"secretName": "oss", "externalSecret": {
        "store": "vault", "kind": "ClusterSecretStore", "remoteKey": "team/oss",
        "properties": {"k.b": "prop-b", "k.a": "prop-a"}}}])
    (external,) = [d for d in build(spec) if d["kind"] == "ExternalSecret"]
    assert external["apiVersion"] == "external-secrets.io/v1"
    assert external["metadata"] == {"name": "oss", "namespace": "ml"}
    assert external["spec"] == {
        "refreshInterval": "1h", "secretStoreRef": {"name": "vault", "kind": "ClusterSecretStore"},
        "target": {"name": "oss", "creationPolicy": "Owner"},
        "data": [{"secretKey": "k.a", "remoteRef": {"key": "team/oss", "property": "prop-a"}},
                 {"secretKey": "k.b", "remoteRef": {"key": "team/oss", "property": "prop-b"}}]}
    crd = SHARED / "external-secrets-crds" / "v2.9.0" / "external-secrets.io_externalsecrets.yaml"
    if not crd.is_file():
        pytest.skip(f"the ESO CRD is not in shared test data at {crd}")
    policy = re.search(r"creationPolicy:.*?enum:\n((?:\s+- \w+\n)+)", crd.read_text(), re.S)
    assert policy is not None and "- Owner\n" in policy.group(1)


@pytest.mark.parametrize("version", sorted(TREES))
def test_placement_and_node_affinity_are_fluids_dataset_fields(tmp_path: Path, version: str) -> None:
    root = need_tree(version)
    constants = (root / "api/v1alpha1/constant.go").read_text()
    types = (root / "api/v1alpha1/dataset_types.go").read_text()
    assert 'ExclusiveMode PlacementMode = "Exclusive"' in constants
    assert 'ShareMode PlacementMode = "Shared"' in constants
    assert 'PlacementMode PlacementMode `json:"placement,omitempty"`' in types
    assert 'Required *v1.NodeSelector `json:"required,omitempty"`' in types  # CacheableNodeAffinity
    for exclusive, mode in ((True, "Exclusive"), (False, "Shared")):
        spec = write_spec(tmp_path, {"fluid": version, "placement": {
            "exclusive": exclusive, "gpu": "V100", "nodeSelector": {"zone": "b", "pool": "gpu"}}})
        dataset = next(d for d in build(spec) if d["kind"] == "Dataset")["spec"]
        assert dataset["placement"] == mode
        assert dataset["nodeAffinity"] == {"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "aliyun.accelerator/nvidia_name", "operator": "In", "values": ["V100"]},
            {"key": "pool", "operator": "In", "values": ["gpu"]},
            {"key": "zone", "operator": "In", "values": ["b"]}]}]}}


@pytest.mark.parametrize(("field", "instead"), [("mounts", "source"), ("sharedEncryptOptions", "sharedCredentials"),
                                                ("owner", "dataset.owner")])
def test_overriding_a_computed_dataset_field_names_the_spec_key_to_use(tmp_path: Path, field: str,
                                                                       instead: str) -> None:
    spec = write_spec(tmp_path, {"dataset": {"overrides": {field: []}}})
    result = run_cli("build", str(spec))
    assert result.code == 1
    assert f"dataset.overrides.{field}: set {instead} instead; it is computed from the spec" in result.err, result.err


def test_a_job_mounts_the_dataset_with_the_access_modes_the_overrides_leave(tmp_path: Path) -> None:
    """accessModes [ReadOnlyMany] overridden to [ReadWriteMany]: the job's claim is not read-only."""
    job = {"name": "train", "kind": "PyTorchJob", "image": "pytorch", "workers": 1}
    plain = write_spec(tmp_path, {"workloads": [job]})
    assert "readOnly: true" in yaml.safe_dump(next(d for d in build(plain) if d["kind"] == "PyTorchJob"))
    spec = write_spec(tmp_path, {"dataset": {"overrides": {"accessModes": ["ReadWriteMany"]}}, "workloads": [job]})
    docs = build(spec)
    assert next(d for d in docs if d["kind"] == "Dataset")["spec"]["accessModes"] == ["ReadWriteMany"]
    assert "readOnly: true" not in yaml.safe_dump(next(d for d in docs if d["kind"] == "PyTorchJob"))
