"""`--target alluxio-helm`: values for the upstream Alluxio chart from the same spec and profile."""

from __future__ import annotations

import yaml

from fluidgen.compile.helm import DATA_REPLICAS_PROPERTY
from tests.conftest import EXAMPLES, run_cli
from tests.features.test_examples import CREDS, reference
from tests.harness.golden import ok_outputs

# Top-level keys of the upstream chart's values.yaml (ecosystem notes, chart 0.6.x).
CHART_KEYS = {"fullnameOverride", "image", "imageTag", "imagePullPolicy", "user", "group", "fsGroup",
              "serviceAccount", "imagePullSecrets", "properties", "jvmOptions", "mounts", "nodeSelector",
              "tolerations", "master", "jobMaster", "journal", "metastore", "worker", "jobWorker", "tieredstore",
              "proxy", "shortCircuit", "fuse", "secrets", "configmaps", "metrics", "logserver", "hostAliases", "csi"}
LEVEL_KEYS = {"level", "alias", "mediumtype", "path", "type", "name", "quota", "high", "low"}


def test_helm_golden_values_use_only_chart_keys() -> None:
    cases = ok_outputs("alluxio-helm")
    assert cases
    for _, _, text in cases:
        values = yaml.safe_load(text)
        assert set(values) <= CHART_KEYS
        for level in values["tieredstore"]["levels"]:
            assert set(level) <= LEVEL_KEYS


def test_helm_values_carry_the_profile_tuning_without_credentials() -> None:
    result = run_cli("build", "--target", "alluxio-helm", str(EXAMPLES / "alluxio-imagenet-oss.yaml"), env={})
    assert result.code == 0, result.err
    values = yaml.safe_load(result.out)
    ref = reference("alluxio-imagenet-oss.yaml")["AlluxioRuntime"]["spec"]
    # the guide's properties plus libfuse 2, which its FUSE options need (profiles/alluxio-imagenet.yaml)
    assert {k: v for k, v in values["properties"].items()
            if not k.startswith("alluxio.master.mount") and k != DATA_REPLICAS_PROPERTY} == \
        {**ref["properties"], "alluxio.fuse.jnifuse.libfuse.version": "2"}
    # What Fluid itself sets from data.replicas (pkg/ddc/alluxio/transform.go transformCommonPart)
    assert values["properties"][DATA_REPLICAS_PROPERTY] == "1"
    assert values["properties"]["alluxio.master.mount.table.root.ufs"] == "oss://imagenet-bucket/imagenet/"
    for component in ("master", "worker"):
        assert values[component]["jvmOptions"] == ref[component]["jvmOptions"]
    assert values["fuse"]["jvmOptions"] == ref["fuse"]["jvmOptions"]
    assert values["fuse"]["mountOptions"] == ref["fuse"]["args"][1].split("=", 1)[1]
    assert values["tieredstore"]["levels"] == [{"level": 0, "alias": "SSD", "mediumtype": "SSD", "type": "hostPath",
                                                "path": "/var/lib/docker/alluxio", "quota": "50Gi",
                                                "high": "0.99", "low": "0.8"}]
    for secret in CREDS.values():
        assert secret not in result.out + result.err
    assert "credentials are not written to Helm values" in result.err


def test_helm_multi_path_level_and_multiple_gpu_models(tmp_path: object) -> None:
    from pathlib import Path

    spec = Path(str(tmp_path)) / "spec.yaml"
    spec.write_text("""apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: d}
source: [{uri: "hdfs://nn:8020/data"}]
placement: {gpu: [A100, H100]}
runtime:
  engine: alluxio
  cache: [{medium: SSD, path: [/a, /b], quota: [1Ti, 2Ti]}]
""")
    result = run_cli("build", "--target", "alluxio-helm", str(spec), env={})
    assert result.code == 1 and "cannot say aliyun.accelerator/nvidia_name In ['A100', 'H100']" in result.err
    spec.write_text(spec.read_text().replace("[A100, H100]", "A100"))
    ok = yaml.safe_load(run_cli("build", "--target", "alluxio-helm", str(spec), env={}).out)
    assert ok["tieredstore"]["levels"][0] | {} == {"level": 0, "alias": "SSD", "mediumtype": "SSD,SSD",
                                                   "path": "/a,/b", "type": "hostPath", "quota": "1Ti,2Ti"}


def test_helm_target_warns_of_no_dropped_data_the_spec_never_set() -> None:
    result = run_cli("build", "--target", "alluxio-helm", str(EXAMPLES / "alluxio-imagenet-oss.yaml"), env={})
    assert result.code == 0, result.err
    assert "no equivalent" not in result.err
