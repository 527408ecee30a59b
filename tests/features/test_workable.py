"""What builds must work on Fluid, and what validate passes must pass the real API.

One test per way a manifest could pass every schema check and still fail on a cluster:
names that collide with what Fluid's controllers create, credentials the engine does not
read, quantities that cannot cache anything, typos inside embedded Kubernetes types,
names the API server refuses, data operations pointing at nothing, Helm values the chart
cannot honour, and the flagship profile under --strict.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, run_cli

OSS_SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: imagenet, namespace: default}
source:
  - uri: oss://bucket/data
    options: {fs.oss.endpoint: oss-cn-beijing.aliyuncs.com}
    credentials: {envFile: oss.env}
runtime:
  engine: alluxio
  replicas: 1
  cache: [{medium: MEM, quota: QUOTA}]
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


# --- names: nothing fluidgen emits collides with what Fluid creates ---------------------------

def test_nfs_without_a_name_gets_a_claim_that_is_not_the_datasets(tmp_path: Path) -> None:
    spec = write(tmp_path, "nfs.yaml", """\
        apiVersion: fluidgen.io/v1alpha1
        kind: CachedDataset
        metadata: {name: imagenet, namespace: default}
        source:
          - nfs: {server: nas.example.com, path: /imagenet, capacity: 150Gi}
        runtime: {engine: alluxio, replicas: 2, cache: [{medium: MEM, quota: 2Gi}]}
        """)
    result = run_cli("build", spec)
    assert result.code == 0, result.err
    import yaml

    docs = list(yaml.safe_load_all(result.out))
    claim = next(d for d in docs if d["kind"] == "PersistentVolumeClaim")
    volume = next(d for d in docs if d["kind"] == "PersistentVolume")
    dataset = next(d for d in docs if d["kind"] == "Dataset")
    # Fluid names its own claim after the Dataset and its volume <namespace>-<dataset> (pkg/ddc/base/pv.go)
    assert claim["metadata"]["name"] not in ("imagenet",)
    assert volume["metadata"]["name"] not in ("default-imagenet",)
    assert dataset["spec"]["mounts"][0]["mountPoint"] == f"pvc://{claim['metadata']['name']}"


NFS_NAMED = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: imagenet, namespace: default}
source:
  - name: imagenet
    nfs: {server: nas.example.com, path: /imagenet, capacity: 150Gi, volumeName: VOLUME}
runtime: {engine: alluxio, replicas: 2, cache: [{medium: MEM, quota: 2Gi}]}
"""


def test_nfs_mount_named_like_the_dataset_still_gets_its_own_claim(tmp_path: Path) -> None:
    spec = write(tmp_path, "nfs.yaml", NFS_NAMED.replace(", volumeName: VOLUME", ""))
    result = run_cli("build", spec)
    assert result.code == 0, result.err
    assert "mountPoint: pvc://imagenet-nfs" in result.out


@pytest.mark.parametrize(("volume", "what"), [("imagenet", "PersistentVolumeClaim"),
                                              ("default-imagenet", "PersistentVolume")])
def test_nfs_volume_named_like_fluids_own_is_refused(volume: str, what: str, tmp_path: Path) -> None:
    spec = write(tmp_path, "nfs.yaml", NFS_NAMED.replace("VOLUME", volume))
    result = run_cli("build", spec)
    assert result.code == 1 and result.out == ""
    assert "error [FG126]" in result.err and f"{what} {volume} is the name Fluid gives" in result.err


def test_handwritten_claim_named_like_a_dataset_collides(tmp_path: Path) -> None:
    manifests = write(tmp_path, "m.yaml", """\
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: imagenet, namespace: default}
        spec:
          accessModes: [ReadWriteMany]
          resources: {requests: {storage: 10Gi}}
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: Dataset
        metadata: {name: imagenet, namespace: default}
        spec:
          mounts: [{mountPoint: "pvc://imagenet", name: imagenet}]
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: AlluxioRuntime
        metadata: {name: imagenet, namespace: default}
        spec: {replicas: 1}
        """)
    result = run_cli("lint", manifests)
    assert result.code == 1
    assert "FG126" in result.err


# --- credentials: the names each engine reads, the whole set it needs -------------------------

JUICEFS_MIGRATE = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: jfs, namespace: default}
fluid: v1.1.0-dev
source:
  - uri: juicefs:///
    options: {storage: minio, bucket: "http://minio:9000/minio/test"}
    credentials:
      existingSecret: {name: jfs-secret, keys: [access-key, secret-key, metaurl]}
runtime: {engine: juicefs, cache: [{medium: MEM, quota: 1Gi}]}
dataflow:
  - name: from-oss
    migrate:
      from: FROM
      to: /raw/
      credentials:
        existingSecret: {name: oss, keys: KEYS}
"""


def test_juicefs_migrate_with_oss_style_keys_names_what_juicefs_reads(tmp_path: Path) -> None:
    spec = write(tmp_path, "jfs.yaml", JUICEFS_MIGRATE.replace("FROM", "oss://bucket/data")
                 .replace("KEYS", "[fs.oss.accessKeyId, fs.oss.accessKeySecret]"))
    result = run_cli("build", spec)
    assert result.code == 1 and result.out == ""
    errors = [line for line in result.err.splitlines() if "FG118" in line]
    assert any("fs.oss.accessKeyId" in e and "access-key" in e and "secret-key" in e for e in errors), result.err
    # juicefs sync takes the endpoint from the URI's host (pkg/ddc/juicefs/data_migrate.go)
    assert any("endpoint in the URI" in e for e in errors), result.err


def test_juicefs_migrate_with_juicefs_keys_and_endpoint_builds(tmp_path: Path) -> None:
    spec = write(tmp_path, "jfs.yaml", JUICEFS_MIGRATE.replace("FROM", "oss://bucket.oss-cn-beijing.aliyuncs.com/data")
                 .replace("KEYS", "[access-key, secret-key]"))
    result = run_cli("build", "--strict", spec)
    assert result.code == 0, result.err


def test_env_file_missing_the_secret_half_names_the_missing_key(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=AKID\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi"))
    result = run_cli("build", spec)
    assert result.code == 1 and result.out == ""
    assert "missing fs.oss.accessKeySecret" in result.err
    assert "AKID" not in result.err


# --- quantities that cannot cache anything ----------------------------------------------------

@pytest.mark.parametrize("quota", ["-5Gi", "0", '"0Gi"'])
def test_zero_and_negative_quotas_are_errors_in_build(quota: str, tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", quota))
    result = run_cli("build", spec)
    assert result.code == 1 and result.out == ""
    assert "runtime.cache[0].quota" in result.err and "positive" in result.err


@pytest.mark.parametrize(("engine", "quota"), [("alluxio", "50"), ("jindo", "50"), ("alluxio", '"100"'),
                                               ("juicefs", "40960")])
def test_a_bare_number_quota_is_refused_with_the_unit_it_likely_meant(engine: str, quota: str,
                                                                      tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", quota).replace("engine: alluxio",
                                                                                 f"engine: {engine}"))
    result = run_cli("build", spec)
    number = quota.strip('"')
    assert result.code == 1 and result.out == "", result.err
    assert "runtime.cache[0].quota" in result.err and f"did you mean {number}Gi?" in result.err


def test_a_bare_number_of_bytes_that_is_plainly_bytes_is_kept(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    result = run_cli("build", write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "53687091200")))
    assert result.code == 0, result.err
    assert "quota: \"53687091200\"" in result.out


def test_a_relative_cache_path_is_refused(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("{medium: MEM, quota: QUOTA}",
                                                        "{medium: SSD, path: var/lib/docker/alluxio, quota: 5Gi}"))
    result = run_cli("build", spec)
    assert result.code == 1 and result.out == ""
    assert "runtime.cache[0].path" in result.err and '"/var/lib/docker/alluxio"' in result.err


@pytest.mark.parametrize(("paths", "target"), [
    ("/train", [{"path": "/train"}]),
    ("{path: /train, replicas: 2}", [{"path": "/train", "replicas": 2}]),
    ("[/train, {path: /val, replicas: 2}]", [{"path": "/train"}, {"path": "/val", "replicas": 2}]),
])
def test_every_documented_load_paths_form_builds(paths: str, target: list[dict[str, Any]], tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi") + f"dataflow:\n  - load: {{paths: {paths}}}\n")
    result = run_cli("build", spec)
    assert result.code == 0, result.err
    import yaml

    load = next(d for d in yaml.safe_load_all(result.out) if d["kind"] == "DataLoad")
    assert load["spec"]["target"] == target


@pytest.mark.parametrize("quota", ["-5Gi", "0"])
def test_zero_and_negative_quotas_are_errors_in_lint(quota: str, tmp_path: Path) -> None:
    manifests = write(tmp_path, "m.yaml", f"""\
        apiVersion: data.fluid.io/v1alpha1
        kind: Dataset
        metadata: {{name: d, namespace: default}}
        spec: {{mounts: [{{mountPoint: "https://example.com/data", name: d}}]}}
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: AlluxioRuntime
        metadata: {{name: d, namespace: default}}
        spec:
          replicas: 1
          tieredstore:
            levels: [{{mediumtype: MEM, path: /dev/shm, quota: {quota}}}]
        """)
    result = run_cli("lint", manifests)
    assert result.code == 1
    assert "FG112" in result.err and "levels[0].quota" in result.err


def test_juicefs_quota_in_bytes_is_an_error(tmp_path: Path) -> None:
    manifests = write(tmp_path, "m.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: Dataset
        metadata: {name: jfs, namespace: default}
        spec: {mounts: [{mountPoint: "juicefs:///", name: jfs}]}
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: JuiceFSRuntime
        metadata: {name: jfs, namespace: default}
        spec:
          tieredstore:
            levels: [{mediumtype: SSD, path: /cache, quota: "40960"}]
        """)
    result = run_cli("lint", manifests)
    assert result.code == 1 and "error [FG117]" in result.err and "40960Mi" in result.err


def test_negative_resources_are_errors(tmp_path: Path) -> None:
    manifests = write(tmp_path, "m.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: Dataset
        metadata: {name: d, namespace: default}
        spec: {mounts: [{mountPoint: "https://example.com/data", name: d}]}
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: AlluxioRuntime
        metadata: {name: d, namespace: default}
        spec:
          replicas: 1
          worker: {resources: {limits: {memory: -4Gi}}}
        """)
    result = run_cli("lint", manifests)
    assert result.code == 1 and "FG129" in result.err and "spec.worker.resources.limits.memory" in result.err


# --- embedded Kubernetes types are checked strictly -------------------------------------------

RUNTIME_HEAD = """\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: d, namespace: default}
spec:
  replicas: 1
"""
DATASET_HEAD = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: d, namespace: default}
spec:
  mounts: [{mountPoint: "https://example.com/data", name: d}]
"""
PROCESS_HEAD = """\
apiVersion: data.fluid.io/v1alpha1
kind: DataProcess
metadata: {name: p, namespace: default}
spec:
  dataset: {name: d, namespace: default, mountPath: /data}
"""
# (head, body under spec, the key path the error names): one typo each, inside a Kubernetes type
# embedded in a Fluid CRD. Runtime probes also go through runtime.overrides in a spec.
EMBEDDED_TYPOS = [
    (RUNTIME_HEAD, "  master: {resources: {limit: {memory: 1Gi}}}", "spec.master.resources.limit"),
    (RUNTIME_HEAD, "  worker: {resources: {requests: {memory: 1GB}}}", "spec.worker.resources.requests.memory"),
    (PROCESS_HEAD, "  processor: {script: {image: debian, command: [bash], source: 'true', "
                   "env: [{name: A, valueFromm: {}}]}}", "spec.processor.script.env[0].valueFromm"),
    (PROCESS_HEAD, "  processor: {script: {image: debian, command: [bash], source: 'true', "
                   "env: [{name: A, valueFrom: {secretKeyRef: {nme: s, key: k}}}]}}",
     "spec.processor.script.env[0].valueFrom.secretKeyRef.nme"),
    (RUNTIME_HEAD, "  volumes: [{name: v, hostpath: {path: /data}}]", "spec.volumes[0].hostpath"),
    (RUNTIME_HEAD, "  volumes: [{name: v, persistentVolumeClaim: {claimname: c}}]",
     "spec.volumes[0].persistentVolumeClaim.claimname"),
    (RUNTIME_HEAD, "  worker: {volumeMounts: [{name: v, mountpath: /data}]}", "spec.worker.volumeMounts[0].mountpath"),
    (RUNTIME_HEAD, "  fuse: {volumeMounts: [{name: v, mountPath: /data, readonly: true}]}",
     "spec.fuse.volumeMounts[0].readonly"),
    (RUNTIME_HEAD, "  imagePullSecrets: [{nam: regcred}]", "spec.imagePullSecrets[0].nam"),
    (DATASET_HEAD, "  tolerations: [{key: gpu, operater: Exists}]", "spec.tolerations[0].operater"),
    (DATASET_HEAD, "  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpression: []}]}}",
     "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpression"),
    (PROCESS_HEAD, "  processor: {script: {image: debian, command: [bash], source: 'true', "
                   "resources: {limitz: {cpu: 1}}}}", "spec.processor.script.resources.limitz"),
]


def _typo_id(case: tuple[str, str, str]) -> str:
    return case[2]


@pytest.mark.parametrize("case", EMBEDDED_TYPOS, ids=_typo_id)
def test_embedded_type_typo_is_an_error_in_validate(case: tuple[str, str, str], tmp_path: Path) -> None:
    head, body, where = case
    manifest = write(tmp_path, "m.yaml", head + body + "\n")
    result = run_cli("validate", manifest)
    assert result.code == 1, f"validate passed a typo at {where}"
    assert where in result.err, result.err


@pytest.mark.parametrize("case", EMBEDDED_TYPOS, ids=_typo_id)
def test_real_crds_reject_the_same_typo(case: tuple[str, str, str], crds: dict[str, Any]) -> None:
    """The probes are real mistakes: the CRDs with unknown fields as errors refuse each one."""
    import yaml

    from fluidgen.catalog.objectcheck import check_object

    head, body, where = case
    obj = yaml.safe_load(head + body + "\n")
    for version, crd_set in crds.items():
        found = [f for f in check_object(obj, version, crd_set) if f.severity == "error"]
        paths = [".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in f.path).replace(".[", "[")
                 for f in found]
        assert any(p == where or p.startswith(where) for p in paths), (version, paths)


RUNTIME_TYPOS = [c for c in EMBEDDED_TYPOS if c[0] is RUNTIME_HEAD]


@pytest.mark.parametrize("case", RUNTIME_TYPOS, ids=_typo_id)
def test_embedded_type_typo_in_overrides_fails_the_build(case: tuple[str, str, str], tmp_path: Path) -> None:
    import yaml

    _, body, where = case
    overrides = yaml.safe_load(body)
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    spec = yaml.safe_load(OSS_SPEC.replace("QUOTA", "2Gi"))
    spec["runtime"]["overrides"] = overrides
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    result = run_cli("build", str(path))
    assert result.code == 1 and result.out == "", f"build emitted a typo at {where}"
    assert where.removeprefix("spec.") in result.err, result.err


# --- names the API server refuses ---------------------------------------------------------------

def test_object_name_the_api_server_refuses(tmp_path: Path) -> None:
    manifest = write(tmp_path, "m.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: DataLoad
        metadata: {name: loadA, namespace: default}
        spec:
          dataset: {name: d, namespace: default}
        """)
    for command in ("validate", "lint"):
        result = run_cli(command, manifest)
        assert result.code == 1 and '"loadA" is not a valid Kubernetes name' in result.err, (command, result.err)


# --- cross-object checks on hand-written manifests ----------------------------------------------

def test_operations_and_run_after_must_point_at_something(tmp_path: Path) -> None:
    manifests = write(tmp_path, "m.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: DataLoad
        metadata: {name: warm, namespace: default}
        spec:
          dataset: {name: missing, namespace: default}
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: DataProcess
        metadata: {name: train, namespace: default}
        spec:
          dataset: {name: missing, namespace: default, mountPath: /data}
          runAfter: {kind: DataLoad, name: warmup, namespace: default}
          processor: {script: {image: debian, command: [bash], source: "true"}}
        ---
        apiVersion: data.fluid.io/v1alpha1
        kind: JuiceFSRuntime
        metadata: {name: orphan, namespace: default}
        spec: {}
        """)
    result = run_cli("lint", manifests)
    assert result.code == 1
    assert "no Dataset named missing" in result.err
    assert "no DataLoad named warmup" in result.err
    assert "no Dataset named orphan" in result.err


def test_external_targets_can_be_declared(tmp_path: Path) -> None:
    manifests = write(tmp_path, "m.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: DataLoad
        metadata: {name: warm, namespace: default}
        spec:
          dataset: {name: shared, namespace: default}
        """)
    alone = run_cli("lint", manifests)
    assert alone.code == 1 and "--external Dataset/default/shared" in alone.err
    declared = run_cli("lint", "--external", "Dataset/default/shared", manifests)
    assert declared.code == 0, declared.err
    malformed = run_cli("lint", "--external", "Dataset/shared", manifests)
    assert malformed.code == 1 and "expected KIND/NAMESPACE/NAME" in malformed.err


def test_references_cross_files(tmp_path: Path) -> None:
    dataset = write(tmp_path, "dataset.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: Dataset
        metadata: {name: shared, namespace: default}
        spec: {mounts: [{mountPoint: "https://example.com/data", name: shared}]}
        """)
    load = write(tmp_path, "load.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: DataLoad
        metadata: {name: warm, namespace: default}
        spec:
          dataset: {name: shared, namespace: default}
        """)
    result = run_cli("lint", dataset, load)
    assert "no Dataset named shared" not in result.err, result.err


# --- the Helm target refuses what the chart cannot express --------------------------------------

def test_helm_refuses_nfs_claims() -> None:
    result = run_cli("build", "--target", "alluxio-helm", str(EXAMPLES / "nfs-imagenet-alluxio.yaml"))
    assert result.code == 1 and result.out == ""
    assert "cannot create the NFS PersistentVolume" in result.err
    assert "pvc:// is Fluid's own mount" in result.err


def test_helm_names_its_chart_and_warns_about_memory() -> None:
    result = run_cli("build", "--target", "alluxio-helm", str(EXAMPLES / "alluxio-imagenet-oss.yaml"))
    assert result.code == 0, result.err
    assert "527b9fd" in result.err
    assert "worker JVM heap and direct memory total 44.0GiB, above the chart's default memory limit 4Gi" in result.err
    # the profile's FUSE has a memory limit (alluxio-imagenet: Fluid applies FUSE resources only with one), so the
    # chart's default does not apply to it
    assert "fuse JVM heap and direct memory" not in result.err


# --- the README's example under --strict --------------------------------------------------------

def test_readme_example_builds_clean_under_strict() -> None:
    readme = (EXAMPLES.parent / "README.md").read_text()
    assert "examples/alluxio-imagenet-oss.yaml" in readme
    result = run_cli("build", "--strict", str(EXAMPLES / "alluxio-imagenet-oss.yaml"))
    assert result.code == 0, result.err


def test_profile_waiver_is_shown_and_cannot_be_a_silent_blanket() -> None:
    shown = run_cli("profiles", "show", "alluxio-imagenet")
    assert shown.code == 0 and "waives FG109" in shown.out


# --- what the API server does with null -----------------------------------------------------------

def test_null_is_dropped_by_the_api_server_so_it_is_a_warning(tmp_path: Path) -> None:
    """Fluid's own CacheRuntimeClass sample (docs/en/samples/cacheruntime_data_operations.md)
    leaves topology components empty; the API server prunes such nulls and accepts it."""
    manifest = write(tmp_path, "m.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: CacheRuntimeClass
        metadata: {name: curvine-demo}
        fileSystemType: curvinefs
        topology:
          master:
          worker:
        """)
    result = run_cli("validate", "--fluid-version", "v1.1.0-dev", manifest)
    assert result.code == 0, result.err
    assert "warning: topology.master: null: the API server drops this key" in result.err


def test_a_required_field_given_null_is_missing(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", """\
        apiVersion: data.fluid.io/v1alpha1
        kind: Dataset
        metadata: {name: d, namespace: default}
        spec:
          mounts: [{mountPoint: }]
        """)
    result = run_cli("validate", bad)
    assert result.code == 1 and 'missing required field "mountPoint"' in result.err, result.err


# --- the first error is the real cause -----------------------------------------------------

def test_unset_credential_variables_are_the_error_not_a_missing_option(tmp_path: Path) -> None:
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi").replace(
        "credentials: {envFile: oss.env}", "credentials: {fromEnv: {fs.oss.accessKeyId: OSS_AK, "
                                           "fs.oss.accessKeySecret: OSS_SK}}"))
    result = run_cli("build", spec, env={})
    assert result.code == 1
    assert "OSS_AK is not set" in result.err and "OSS_SK is not set" in result.err
    assert "FG118" not in result.err  # the spec declares both names


def test_a_missing_env_file_is_the_only_error(tmp_path: Path) -> None:
    result = run_cli("build", write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi")), env={})
    assert result.code == 1
    assert "oss.env: cannot read" in result.err and "FG118" not in result.err
    assert result.err.count("error") == 2  # the one error and the summary line


def test_an_undeclared_name_is_still_missing_when_another_is_unset(tmp_path: Path) -> None:
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi").replace(
        "credentials: {envFile: oss.env}", "credentials: {fromEnv: {fs.oss.accessKeyId: OSS_AK}}"))
    result = run_cli("build", spec, env={})
    assert "OSS_AK is not set" in result.err and "missing fs.oss.accessKeySecret" in result.err


def test_a_wrong_credential_name_suggests_the_one_not_given_yet(tmp_path: Path) -> None:
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi").replace(
        "credentials: {envFile: oss.env}", "credentials: {fromEnv: {fs.oss.accessKeyId: AK, fs.oss.secretKey: SK}}"))
    result = run_cli("build", spec, env={"AK": "a", "SK": "b"})
    assert 'did you mean "fs.oss.accessKeySecret"?' in result.err, result.err
    assert 'did you mean "fs.oss.accessKeyId"?' not in result.err


def test_a_profile_for_another_engine_is_reported_at_the_specs_line(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi") + "  profile: jindo-default\n")
    result = run_cli("build", spec)
    assert result.code == 1
    assert f"{spec}:12:3: error: runtime.profile: " in result.err, result.err
    assert "profiles for alluxio: alluxio-default, alluxio-imagenet" in result.err
    assert "<bundled>" not in result.err


# --- nothing accepted silently -------------------------------------------------------------

def test_an_engine_credential_name_in_plain_options_is_refused(tmp_path: Path) -> None:
    """fs.oss.accessKeyId is a credential AlluxioRuntime reads (import moves it to a Secret too);
    beside a secret in credentials it would sit in plain text in the Dataset."""
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi").replace(
        "options: {fs.oss.endpoint: oss-cn-beijing.aliyuncs.com}",
        "options: {fs.oss.endpoint: oss-cn-beijing.aliyuncs.com, fs.oss.accessKeyId: LTAIexample}").replace(
        "credentials: {envFile: oss.env}", "credentials: {fromEnv: {fs.oss.accessKeySecret: SK}}"))
    result = run_cli("build", spec, env={"SK": "s"})
    assert result.code == 1 and result.out == ""
    assert 'error [FG101]: source[0].options["fs.oss.accessKeyId"]' in result.err
    assert "LTAIexample" not in result.err


@pytest.mark.parametrize(("kind", "spec", "message"), [
    ("DataLoad", "{target: [{path: /}]}", "names no Dataset (spec.dataset.name)"),
    ("DataProcess", "{processor: {script: {image: bash, source: ls}}}", "names no Dataset (spec.dataset.name)"),
    ("DataBackup", '{backupPath: "pvc://x/y/"}', "names no Dataset (spec.dataset)"),
    ("DataMigrate", '{from: {externalStorage: {uri: "s3://a/b"}}, to: {externalStorage: {uri: "s3://c/d"}}}',
     "neither spec.from.dataset nor spec.to.dataset"),
])
def test_a_data_operation_that_names_no_dataset_is_an_error(kind: str, spec: str, message: str,
                                                            tmp_path: Path) -> None:
    manifests = write(tmp_path, "op.yaml", f"""\
        apiVersion: data.fluid.io/v1alpha1
        kind: {kind}
        metadata: {{name: op, namespace: default}}
        spec: {spec}
        """)
    result = run_cli("lint", manifests)
    assert result.code == 1 and "error [FG125]" in result.err and message in result.err, result.err
