"""lint/references.py: the names Fluid derives from a runtime's or an operation's name, at the
limits Helm and Kubernetes set (FG134's boundary) and where a hand-written object takes one (FG126)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fluidgen.lint.references import derived_names
from tests.conftest import run_cli
from tests.lint.test_lint import dataset, lint_err, runtime


def _dataload(name: str) -> str:
    return (f"apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {{name: {name}, namespace: default}}\n"
            "spec: {dataset: {name: d, namespace: default}}\n")


def test_a_helm_release_may_have_53_characters_not_54(tmp_path: Path) -> None:
    """Helm refuses a release name over 53 characters; a DataLoad's release is <name>-loader."""
    fits, over = "a" * 46, "a" * 47  # releases of 53 and 54 characters
    assert "HelmRelease" not in lint_err(tmp_path, dataset(), runtime(), _dataload(fits))
    err = lint_err(tmp_path, dataset(), runtime(), _dataload(over))
    assert f"HelmRelease {over}-loader (54 > 53)" in err, err


def test_a_runtime_is_its_own_helm_release(tmp_path: Path) -> None:
    name = "r" * 54
    err = lint_err(tmp_path, dataset(name=name, mounts=f'[{{mountPoint: "https://example.com/data", name: {name}}}]'),
                runtime(name=name))
    assert f"HelmRelease {name} (54 > 53)" in err, err


def test_a_handwritten_job_named_like_a_dataloads_job_collides(tmp_path: Path) -> None:
    job = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: warm-loader-job, namespace: default}\n"
           "spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}\n")
    err = lint_err(tmp_path, dataset(), runtime(), _dataload("warm"), job)
    assert "[FG126]" in err and "warm-loader-job" in err, err


def test_an_operation_outside_its_datasets_namespace_and_a_missing_run_after_are_reported_whole(
        tmp_path: Path) -> None:
    """FG125: the namespace mismatch at spec.dataset.namespace; runAfter without a namespace is looked up
    in the operation's own namespace, and the --external hint names that namespace."""
    op = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: w, namespace: team}\n"
          "spec: {dataset: {name: d, namespace: default}, runAfter: {kind: DataLoad, name: ghost}}\n")
    err = lint_err(tmp_path, dataset(), runtime(), op)
    assert ("error [FG125]: spec.dataset.namespace: the Dataset is in namespace default but this DataLoad is in "
            "team; Fluid runs an operation only in its Dataset's namespace\n") in err, err
    assert ("error [FG125]: spec.runAfter: no DataLoad named ghost in namespace team among the files given; the "
            "operation would wait for it forever. If it is applied from elsewhere, say so: "
            "--external DataLoad/team/ghost\n") in err, err


def test_an_over_long_name_is_reported_whole_with_the_room_left(tmp_path: Path) -> None:
    """FG134 lists each refused name with its length and limit, and says how long the name may be:
    <name>-loader must fit 53, so 47 characters leave room for 46."""
    name = "a" * 47
    err = lint_err(tmp_path, dataset(), runtime(), _dataload(name))
    assert (f"error [FG134]: metadata.name: Fluid derives names from {name} that Kubernetes or Helm refuse: "
            f"HelmRelease {name}-loader (54 > 53); use a name of at most 46 characters\n") in err, err


def test_a_handwritten_claim_named_like_a_datasets_claim_is_reported_whole(tmp_path: Path) -> None:
    """FG126 names the kind, the taken name and the Dataset (namespace/name) Fluid creates the claim for."""
    pvc = ("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: d, namespace: default}\n"
           "spec: {accessModes: [ReadOnlyMany], resources: {requests: {storage: 1Ti}}}\n")
    err = lint_err(tmp_path, dataset(), runtime(), pvc)
    assert ("error [FG126]: metadata.name: PersistentVolumeClaim d is the name Fluid gives an object it creates "
            "for Dataset default/d; rename this one\n") in err, err


def test_an_operation_without_namespaces_is_looked_up_in_the_default_namespace(tmp_path: Path) -> None:
    """FG125: with neither the operation nor its dataset in a namespace the message says (default), the
    --external hint default, and a DataLoad is also told to set dataset.namespace."""
    op = "apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: w}\nspec: {dataset: {name: ghost}}\n"
    err = lint_err(tmp_path, op)
    assert ("error [FG125]: spec.dataset: no Dataset named ghost in namespace (default) among the files given; the "
            "operation would fail. If it is applied from elsewhere, say so: --external Dataset/default/ghost\n") in err
    assert ("error [FG125]: spec.dataset: set dataset.namespace: Fluid fails a DataLoad whose dataset namespace is "
            "empty or differs from its own (pkg/controllers/v1alpha1/dataload)\n") in err, err


def _migrate(parallelism: int) -> str:
    return ("apiVersion: data.fluid.io/v1alpha1\nkind: DataMigrate\nmetadata: {name: m, namespace: default}\n"
            "spec: {from: {dataset: {name: d, namespace: default}}, to: {externalStorage: {uri: 's3://b/p'}}, "
            f"parallelism: {parallelism}}}\n")


def test_a_parallel_datamigrate_also_creates_a_workers_statefulset_and_service() -> None:
    """Over parallelism 1 Fluid runs workers named <release>-workers (GetParallelOperationWorkersName)."""
    assert derived_names(yaml.safe_load(_migrate(1))) == [("Job", "m-migrate-migrate")]
    assert derived_names(yaml.safe_load(_migrate(2))) == [("Job", "m-migrate-migrate"),
                                                         ("StatefulSet", "m-migrate-workers"),
                                                         ("Service", "m-migrate-workers")]


def test_a_cron_dataload_creates_a_cronjob_and_a_databackup_a_pod() -> None:
    """A Cron policy installs the chart's CronJob instead of the Job; a DataBackup runs as a Pod."""
    cron = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: w, namespace: default}\n"
            "spec: {dataset: {name: d, namespace: default}, policy: Cron, schedule: '* * * * *'}\n")
    backup = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataBackup\nmetadata: {name: b, namespace: default}\n"
              "spec: {dataset: d, backupPath: 'pvc://x/'}\n")
    assert derived_names(yaml.safe_load(cron)) == [("CronJob", "w-loader-job")]
    assert derived_names(yaml.safe_load(backup)) == [("Pod", "b-pod")]


def test_a_ttl_is_no_warning_on_a_cron_or_on_event_operation(tmp_path: Path) -> None:
    """FG130: Fluid keeps an operation on a Cron or OnEvent policy despite its TTL (GetTTL), so only Once warns."""
    def load(policy: str) -> str:
        return ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: w, namespace: default}\n"
                f"spec: {{dataset: {{name: d, namespace: default}}, policy: {policy}, schedule: '* * * * *', "
                "ttlSecondsAfterFinished: 300}\n")
    for policy in ("Cron", "OnEvent"):
        err = lint_err(tmp_path, dataset(), runtime(), load(policy))
        assert "[FG130]" not in err, (policy, err)
    assert "[FG130]" in lint_err(tmp_path, dataset(), runtime(), load("Once"))


def test_a_juicefs_mount_without_metaurl_or_token_is_reported_whole(tmp_path: Path) -> None:
    """FG118: JuiceFS needs metaurl (community) or token (enterprise) among a juicefs:// mount's
    encryptOptions (fluidgen/engines/juicefs.py STORAGE, from pkg/ddc/juicefs/transform_fuse.go genValue)."""
    err = lint_err(tmp_path, dataset(mounts='[{mountPoint: "juicefs:///", name: d}]'), runtime("JuiceFSRuntime"))
    assert "error [FG118]: spec.mounts[0]: JuiceFSRuntime needs one of metaurl, token for juicefs://\n" in err, err


# Hand-written manifests, each a file `fluidgen lint` reads as a user's.
CASES = {
    "alluxio_oss_misspelt.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: d}
spec: {replicas: 1}
---
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: x, namespace: default}
spec:
  mounts:
    - mountPoint: oss://b/p
      name: d
      encryptOptions:
        - name: fs.oss.acessKeyId
          valueFrom: {secretKeyRef: {name: s, key: k}}
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: x, namespace: default}
spec: {replicas: 1}
""",
    "alluxio_oss_one_misspelt.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: x, namespace: default}
spec:
  mounts:
    - mountPoint: oss://b/p
      name: d
      options: {fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}
      encryptOptions:
        - name: fs.oss.acessKeyId
          valueFrom: {secretKeyRef: {name: s, key: k}}
        - name: fs.oss.accessKeySecret
          valueFrom: {secretKeyRef: {name: s, key: k2}}
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: x, namespace: default}
spec: {replicas: 1}
""",
    "efc_nfs_unparsable.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: d, namespace: default}
spec:
  mounts:
    - mountPoint: nfs://bad/x
      name: d
      encryptOptions:
        - name: token
          valueFrom: {secretKeyRef: {name: s, key: k}}
---
apiVersion: data.fluid.io/v1alpha1
kind: EFCRuntime
metadata: {name: d, namespace: default}
spec: {replicas: 1}
""",
    "jindo_oss_misspelt.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: d, namespace: default}
spec:
  mounts:
    - mountPoint: oss://b/p
      name: d
      options: {fs.oss.endpoint: e}
      encryptOptions:
        - name: fs.oss.acessKeyId
          valueFrom: {secretKeyRef: {name: s, key: k}}
        - name: fs.oss.accessKeySecret
          valueFrom: {secretKeyRef: {name: s, key: k2}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: d, namespace: default}
spec: {replicas: 1}
""",
    "juicefs_migrate_oss.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: d, namespace: default}
spec:
  mounts:
    - mountPoint: juicefs:///
      name: d
      encryptOptions:
        - name: metaurl
          valueFrom: {secretKeyRef: {name: s, key: k}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JuiceFSRuntime
metadata: {name: d, namespace: default}
spec: {replicas: 1}
---
apiVersion: data.fluid.io/v1alpha1
kind: DataMigrate
metadata: {name: m, namespace: default}
spec:
  from: {dataset: {name: d, namespace: default}}
  to:
    externalStorage:
      uri: oss://bucket/imagenet.v1/
      encryptOptions:
        - name: access-key
          valueFrom: {secretKeyRef: {name: s, key: ak}}
""",
    "operations_without_dataset.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: DataMigrate
metadata: {name: m, namespace: default}
spec:
  from: {externalStorage: {uri: s3://b.e/p/}}
  to: {externalStorage: {uri: s3://b.e/q/}}
---
apiVersion: data.fluid.io/v1alpha1
kind: DataBackup
metadata: {name: b, namespace: default}
spec: {backupPath: pvc://x/}
---
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: l, namespace: default}
spec: {dataset: {namespace: default}}
""",
}


@pytest.mark.parametrize(("case", "said"), [
    # Jindo reads fs.oss.accessKeyId and fs.oss.accessKeySecret for oss:// and passes no other name on
    ("jindo_oss_misspelt.yaml", [
        "6:7: error [FG118]: spec.mounts[0]: fs.oss.accessKeySecret without fs.oss.accessKeyId: JindoRuntime needs "
        "both fs.oss.accessKeyId and fs.oss.accessKeySecret for oss://",
        "10:11: error [FG118]: spec.mounts[0].encryptOptions[0].name: JindoRuntime does not read fs.oss.acessKeyId "
        'for oss:// (it reads fs.oss.accessKeyId, fs.oss.accessKeySecret); did you mean "fs.oss.accessKeyId"?']),
    # EFC reads no credential for NAS, and parses only <id>.<region>.nas.aliyuncs.com
    ("efc_nfs_unparsable.yaml", [
        "6:7: error [FG118]: spec.mounts[0].mountPoint: EFCRuntime cannot parse 'nfs://bad/x'; write "
        "nfs://<FILE_SYSTEM_ID>.<REGION>.nas.aliyuncs.com:/<PATH>/",
        "9:11: error [FG118]: spec.mounts[0].encryptOptions[0].name: EFCRuntime does not read token for nfs:// "
        "(it reads no credentials at all)"]),
    # JuiceFS's DataMigrate hands the URI to `juicefs sync`, which reads oss://<bucket>.<endpoint>
    ("juicefs_migrate_oss.yaml", [
        "24:7: error [FG118]: spec.to.externalStorage.uri: JuiceFSRuntime hands oss:// to `juicefs sync`, which "
        "needs the endpoint in the URI: oss://<BUCKET>.<ENDPOINT>/<PATH>",
        "25:7: error [FG118]: spec.to.externalStorage.encryptOptions: access-key without secret-key: JuiceFSRuntime "
        "needs both access-key and secret-key for oss://"]),
    # Alluxio needs both OSS keys and the endpoint on every oss:// mount (its ufs oss code); a name it
    # would pass on, one letter off a missing one, is said at its own key with the name it stands for.
    # A runtime without a namespace is looked up in the default one (FG104).
    ("alluxio_oss_misspelt.yaml", [
        "3:12: error [FG104]: metadata.name: no Dataset named d in namespace (default) among the files given; "
        "Fluid binds a runtime to the Dataset with the same namespace and name. If it is applied from elsewhere, "
        "say so: --external Dataset/default/d",
        "11:7: error [FG118]: spec.mounts[0]: AlluxioRuntime needs fs.oss.accessKeyId and fs.oss.accessKeySecret "
        "for oss:// (missing fs.oss.accessKeyId, fs.oss.accessKeySecret)",
        '11:7: error [FG118]: spec.mounts[0]: AlluxioRuntime needs option "fs.oss.endpoint" for oss:// mounts',
        "14:11: error [FG118]: spec.mounts[0].encryptOptions[0].name: fs.oss.acessKeyId is not a name AlluxioRuntime "
        "needs fs.oss.accessKeyId and fs.oss.accessKeySecret for oss:// (missing fs.oss.accessKeyId, "
        'fs.oss.accessKeySecret); did you mean "fs.oss.accessKeyId"?']),
    # the one missing name stands behind the misspelt one: said there only, not again at the mount
    ("alluxio_oss_one_misspelt.yaml", [
        "10:11: error [FG118]: spec.mounts[0].encryptOptions[0].name: fs.oss.acessKeyId is not a name AlluxioRuntime "
        "needs fs.oss.accessKeyId and fs.oss.accessKeySecret for oss:// (missing fs.oss.accessKeyId); did you mean "
        '"fs.oss.accessKeyId"?']),
    ("operations_without_dataset.yaml", [
        "4:1: error [FG125]: spec: neither spec.from.dataset nor spec.to.dataset names a Dataset; Fluid refuses the "
        "DataMigrate (one side must be a Dataset)",
        "11:1: error [FG125]: spec.dataset: the DataBackup names no Dataset (spec.dataset); Fluid's controller cannot "
        "find what to back up",
        "16:8: error [FG125]: spec.dataset: the operation names no Dataset (spec.dataset.name); Fluid's controller "
        "cannot find what to work on"]),
])
def test_credential_uri_and_dataset_findings_are_said_whole_at_their_keys(case: str, said: list[str],
                                                                          tmp_path: Path) -> None:
    """The engines' storage facts (fluidgen/engines/jindo.py, efc.py, juicefs.py MIGRATE_STORAGE, each
    with its Fluid source) and the operations' missing Dataset (references.py _NO_DATASET), as a
    person reads them: every finding of the file, in order, at its own key."""
    path = tmp_path / case
    path.write_text(CASES[case])
    result = run_cli("lint", str(path))
    assert result.code == 1, result.err
    assert [line.removeprefix(f"{path}:") for line in result.err.splitlines() if line.startswith(str(path))] \
        == said, result.err
