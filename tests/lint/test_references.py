"""lint/references.py: the names Fluid derives from a runtime's or an operation's name, at the
limits Helm and Kubernetes set (FG134's boundary) and where a hand-written object takes one (FG126)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fluidgen.base.manifest_index import ManifestIndex
from fluidgen.lint.references import credential_facts, derived_names
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
    assert ("error [FG126]: metadata.name: Job warm-loader-job is the name Fluid gives an object it creates for "
            "DataLoad default/warm; rename this one\n") in err, err


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
    """FG125: with neither the operation nor its dataset (nor the operation it runs after) in a namespace
    the messages say (default), the --external hints default, and a DataLoad is also told to set
    dataset.namespace."""
    op = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: w}\n"
          "spec: {dataset: {name: ghost}, runAfter: {kind: DataLoad, name: first}}\n")
    err = lint_err(tmp_path, op)
    assert ("error [FG125]: spec.runAfter: no DataLoad named first in namespace (default) among the files given; the "
            "operation would wait for it forever. If it is applied from elsewhere, say so: "
            "--external DataLoad/default/first\n") in err, err
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



def _fg134(tmp_path: Path, *docs: str, version: str | None = None) -> list[str]:
    """FG134's findings of `fluidgen lint` (at the Fluid version given), each without its file and position."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join(docs))
    result = run_cli("lint", *(("--fluid-version", version) if version else ()), str(manifest))
    assert result.code in (0, 1), result.err
    return [line.split(": ", 1)[1] for line in result.err.splitlines() if "[FG134]" in line]


def _refused(name: str, listed: str, room: int) -> str:
    return (f"error [FG134]: metadata.name: Fluid derives names from {name} that Kubernetes or Helm refuse: "
            f"{listed}; use a name of at most {room} characters")


def test_a_runtimes_statefulset_may_have_52_characters_not_53(tmp_path: Path) -> None:
    """Alluxio's chart names its StatefulSets <fullname>-master and -worker (charts/alluxio/templates/
    master/statefulset.yaml, worker/statefulset.yaml), fullname being the runtime's name
    (pkg/ddc/alluxio/transform.go transform: FullnameOverride = e.name). A StatefulSet's pods carry
    controller-revision-hash=<name>-<hash of up to 10>, a label value of at most 63: over 52 no pod
    is created (kubernetes/kubernetes#64023). The Helm release (the name itself) fits 53 here."""
    fits, over = "a" * 45, "a" * 46
    assert _fg134(tmp_path, runtime(name=fits)) == []
    assert _fg134(tmp_path, runtime(name=over)) == [_refused(
        over, f"StatefulSet {over}-master (53 > 52); StatefulSet {over}-worker (53 > 52)", 45)]


def test_a_cacheruntimes_advanced_statefulset_may_have_52_characters_not_53(tmp_path: Path) -> None:
    """CacheRuntime (Fluid master) runs its master and worker as OpenKruise AdvancedStatefulSets named
    <runtime>-master/-worker (pkg/common/cacheruntime.go GetCacheComponentName, pkg/ddc/cache/component/
    advanced_statefulset_manager.go); Kruise labels their pods controller-revision-hash=<name>-<hash>
    as Kubernetes does, so the StatefulSet's 52 holds. CacheRuntime installs no Helm release."""
    fits, over = "c" * 45, "c" * 46

    def cache(name: str, topology: str = "{master: {}, worker: {}, client: {}}", disabled: str = "") -> list[str]:
        klass = f"apiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntimeClass\nmetadata: {{name: k}}\n" \
                f"fileSystemType: f\ntopology: {topology}\n"
        return _fg134(tmp_path, runtime("CacheRuntime", name=name, spec=f"runtimeClassName: k\n{disabled}"), klass,
                      version="v1.1.0-dev")

    assert cache(fits) == []
    assert cache(over) == [_refused(
        over, f"AdvancedStatefulSet {over}-master (53 > 52); AdvancedStatefulSet {over}-worker (53 > 52)", 45)]
    # a component the class's topology lacks, or the runtime disables, is never made (transform_<component>.go)
    assert cache(over, "{worker: {}, client: {}}") == [_refused(over, f"AdvancedStatefulSet {over}-worker (53 > 52)",
                                                                45)]
    assert cache(over, disabled="master: {disabled: true}") == [_refused(
        over, f"AdvancedStatefulSet {over}-worker (53 > 52)", 45)]
    # without the class in the run, what it makes is not known: nothing is claimed
    assert _fg134(tmp_path, runtime("CacheRuntime", name=over, spec="runtimeClassName: k"), version="v1.1.0-dev") == []


def test_a_cron_dataloads_cronjob_may_have_52_characters_not_53(tmp_path: Path) -> None:
    """With policy Cron the loader chart renders a CronJob named <release>-job
    (charts/fluid-dataloader/alluxio/templates/cronjob.yaml: printf "%s-job" .Release.Name), the release
    being <name>-loader (pkg/utils/dataload.go GetDataLoadReleaseName). Kubernetes refuses a CronJob
    name over 52: it appends 11 characters to name the Jobs (pkg/apis/batch/validation
    ValidateCronJobCreate)."""
    def cron(name: str) -> str:
        return _dataload(name).replace("namespace: default}}", "namespace: default}, policy: Cron, "
                                                                "schedule: '0 0 * * *'}")
    fits, over = "c" * 41, "c" * 42  # CronJobs <name>-loader-job of 52 and 53 characters
    assert _fg134(tmp_path, dataset(), runtime(), cron(fits)) == []
    assert _fg134(tmp_path, dataset(), runtime(), cron(over)) == [_refused(
        over, f"CronJob {over}-loader-job (53 > 52)", 41)]


def test_a_dataloads_job_may_have_63_characters_not_64(tmp_path: Path) -> None:
    """A DataLoad's Job is <release>-job (pkg/utils/dataload.go GetDataLoadJobName), its pods labelled
    job-name=<Job name>, a label value of at most 63. The release itself is over Helm's 53 first; the
    Job is listed with it from 64 characters, each refused name joined by "; "."""
    fits, over = "j" * 52, "j" * 53  # Jobs of 63 and 64 characters
    assert _fg134(tmp_path, dataset(), runtime(), _dataload(fits)) == [_refused(
        fits, f"HelmRelease {fits}-loader (59 > 53)", 46)]
    assert _fg134(tmp_path, dataset(), runtime(), _dataload(over)) == [_refused(
        over, f"HelmRelease {over}-loader (60 > 53); Job {over}-loader-job (64 > 63)", 46)]


def test_a_runtimes_service_may_have_63_characters_not_64(tmp_path: Path) -> None:
    """Alluxio's chart makes a Service <fullname>-master-<i> per master (charts/alluxio/templates/master/
    service.yaml); a Service name is a DNS-1035 label (Kubernetes ValidateServiceName): 63 at most."""
    fits, over = "s" * 54, "s" * 55  # Services <name>-master-0 of 63 and 64 characters
    assert _fg134(tmp_path, runtime(name=fits)) == [_refused(
        fits, f"HelmRelease {fits} (54 > 53); StatefulSet {fits}-master (61 > 52); "
              f"StatefulSet {fits}-worker (61 > 52)", 45)]
    assert _fg134(tmp_path, runtime(name=over)) == [_refused(
        over, f"HelmRelease {over} (55 > 53); StatefulSet {over}-master (62 > 52); "
              f"StatefulSet {over}-worker (62 > 52); Service {over}-master-0 (64 > 63)", 45)]


def _claim(name: str, namespace: str | None = "default", kind: str = "PersistentVolumeClaim") -> str:
    ns = f", namespace: {namespace}" if namespace else ""
    return (f"apiVersion: v1\nkind: {kind}\nmetadata: {{name: {name}{ns}}}\n"
            "spec: {accessModes: [ReadOnlyMany], resources: {requests: {storage: 1Ti}}}\n")


def test_a_handwritten_volume_named_like_a_datasets_volume_is_reported_whole(tmp_path: Path) -> None:
    """Fluid names a Dataset's PersistentVolume <namespace>-<name> (pkg/ddc/base/pv.go
    GetPersistentVolumeName). A PersistentVolume is cluster-scoped: a namespace written on it is
    dropped, so it still takes that name."""
    pv = _claim("default-d", kind="PersistentVolume")
    err = lint_err(tmp_path, dataset(), runtime(), pv)
    assert ("error [FG126]: metadata.name: PersistentVolume default-d is the name Fluid gives an object it creates "
            "for Dataset default/d; rename this one\n") in err, err


def test_a_dataset_and_a_claim_without_namespaces_collide(tmp_path: Path) -> None:
    """Neither object names a namespace, so both land in the same one (kubectl's); an object before
    them whose name is not a string does not stop the table of names Fluid creates."""
    odd = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [x]}\ndata: {}\n"
    unplaced = dataset().replace(", namespace: default}", "}")
    assert "namespace" not in unplaced.split("spec:")[0]
    err = lint_err(tmp_path, odd, unplaced, _claim("d", namespace=None))
    assert "[FG126]: metadata.name: PersistentVolumeClaim d is the name Fluid gives an object it creates" in err, err


@pytest.mark.parametrize("dataset_ns,claim_ns", [(None, "default"), ("default", None)])
def test_no_namespace_is_the_default_namespace_on_either_side_of_a_collision(
        tmp_path: Path, dataset_ns: str | None, claim_ns: str | None) -> None:
    """An object without a namespace lands in kubectl's, "default" unless set, as the index's lookups
    take it (ManifestIndex.find): a Dataset written without one collides with a claim written in
    `default` and back, and the message names the namespace the Dataset lands in, with the
    PersistentVolume name Fluid derives there (pkg/ddc/base/pv.go GetPersistentVolumeName). The
    runtime in `default` binds to that Dataset (FG104 is silent)."""
    data = dataset() if dataset_ns else dataset().replace(", namespace: default}", "}")
    err = lint_err(tmp_path, data, runtime(), _claim("d", namespace=claim_ns),
                   _claim("default-d", namespace=None, kind="PersistentVolume"))
    assert ("error [FG126]: metadata.name: PersistentVolumeClaim d is the name Fluid gives an object it creates "
            "for Dataset default/d; rename this one\n") in err, err
    assert ("error [FG126]: metadata.name: PersistentVolume default-d is the name Fluid gives an object it "
            "creates for Dataset default/d; rename this one\n") in err, err
    assert "FG104" not in err, err


def test_a_handwritten_service_named_like_a_runtimes_service_collides(tmp_path: Path) -> None:
    """Alluxio's chart makes the Service <name>-master-0 (charts/alluxio/templates/master/service.yaml)."""
    svc = ("apiVersion: v1\nkind: Service\nmetadata: {name: d-master-0, namespace: default}\n"
           "spec: {ports: [{port: 80}]}\n")
    err = lint_err(tmp_path, dataset(), runtime(), svc)
    assert ("error [FG126]: metadata.name: Service d-master-0 is the name Fluid gives an object it creates for "
            "AlluxioRuntime default/d; rename this one\n") in err, err


def test_a_cacheruntimes_service_is_taken_only_where_its_class_makes_it(tmp_path: Path) -> None:
    """The cache engine makes svc-<name>-<component> only for a component its class's topology defines
    with service.headless (transform_common.go initComponentValue); without the class in the run
    FG126 claims none of it."""
    svc = ("apiVersion: v1\nkind: Service\nmetadata: {name: svc-d-master, namespace: default}\n"
           "spec: {ports: [{port: 80}]}\n")

    def err(topology: str | None, *more: str, namespace: str = "") -> str:
        meta = f"{{name: k, namespace: {namespace}}}" if namespace else "{name: k}"
        klass = tuple(f"apiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntimeClass\nmetadata: {meta}\n"
                      f"fileSystemType: f\ntopology: {t}\n" for t in ((topology, *more) if topology else ()))
        manifest = tmp_path / "m.yaml"
        manifest.write_text("---\n".join((dataset(), runtime("CacheRuntime", "runtimeClassName: k"), svc, *klass)))
        return run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest)).err

    taken = ("error [FG126]: metadata.name: Service svc-d-master is the name Fluid gives an object it creates for "
             "CacheRuntime default/d; rename this one")
    assert taken in err("{master: {service: {headless: {}}}, worker: {}}")
    assert "[FG126]" not in err("{master: {}, worker: {service: {headless: {}}}}")
    assert "[FG126]" not in err(None)
    # cluster-scoped: a namespace written on the class changes nothing; of two, the last applied stands
    assert taken in err("{master: {service: {headless: {}}}, worker: {}}", namespace="team")
    assert taken in err("{master: {}}", "{master: {service: {headless: {}}}}")
    assert "[FG126]" not in err("{master: {service: {headless: {}}}}", "{master: {}}")


def test_an_operations_dataset_is_looked_up_where_its_reference_says_else_in_its_own_namespace(
        tmp_path: Path) -> None:
    """FG125: a dataset reference with a namespace is looked up there, one without in the operation's
    namespace (index.operation_dataset); the message and the --external hint name that namespace."""
    def load(dataset_ref: str) -> str:
        return ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: w, namespace: team}\n"
                f"spec: {{dataset: {dataset_ref}}}\n")
    err = lint_err(tmp_path, load("{name: ghost}"))
    assert ("error [FG125]: spec.dataset: no Dataset named ghost in namespace team among the files given; the "
            "operation would fail. If it is applied from elsewhere, say so: --external Dataset/team/ghost\n") in err
    err = lint_err(tmp_path, load("{name: ghost, namespace: other}"))
    assert ("error [FG125]: spec.dataset: no Dataset named ghost in namespace other among the files given; the "
            "operation would fail. If it is applied from elsewhere, say so: --external Dataset/other/ghost\n") in err


def test_run_after_is_looked_up_in_the_namespace_it_names(tmp_path: Path) -> None:
    """runAfter.namespace names the preceding operation's namespace, the operation's own when empty
    (pkg/controllers/v1alpha1/dataflow/operations.go: opRefNamespace)."""
    def load(name: str, namespace: str, after: str = "") -> str:
        run_after = f", runAfter: {after}" if after else ""
        return ("apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\n"
                f"metadata: {{name: {name}, namespace: {namespace}}}\n"
                f"spec: {{dataset: {{name: d, namespace: {namespace}}}{run_after}}}\n")
    first = load("first", "team").replace("name: d, namespace: team", "name: t, namespace: team")
    team = dataset(name="t").replace("namespace: default", "namespace: team")
    found = load("w", "default", "{kind: DataLoad, name: first, namespace: team}")
    assert "spec.runAfter" not in lint_err(tmp_path, dataset(), runtime(), team, runtime(name="t").replace(
        "namespace: default", "namespace: team"), first, found)
    missing = load("w", "default", "{kind: DataLoad, name: ghost, namespace: team}")
    err = lint_err(tmp_path, dataset(), runtime(), missing)
    assert ("error [FG125]: spec.runAfter: no DataLoad named ghost in namespace team among the files given; the "
            "operation would wait for it forever. If it is applied from elsewhere, say so: "
            "--external DataLoad/team/ghost\n") in err, err


def test_a_datamigrate_to_a_claim_or_a_host_path_reads_no_credentials(tmp_path: Path) -> None:
    """JuiceFS's migration takes pvc:// and local:// (Fluid's native schemes, pkg/common/fluid_ufs_scheme.go
    IsFluidNativeScheme) as volumes, reading no encryptOptions (pkg/ddc/juicefs/data_migrate.go genDataUrl);
    any other URI goes to `juicefs sync` with access-key and secret-key together."""
    def migrate(uri: str) -> str:
        return ("apiVersion: data.fluid.io/v1alpha1\nkind: DataMigrate\nmetadata: {name: m, namespace: default}\n"
                f"spec: {{from: {{dataset: {{name: d, namespace: default}}}}, to: {{externalStorage: {{uri: '{uri}', "
                "encryptOptions: [{name: access-key, valueFrom: {secretKeyRef: {name: s, key: ak}}}]}}}\n")
    juicefs = (dataset(mounts='[{mountPoint: "juicefs:///", name: d, encryptOptions: [{name: metaurl, '
                              'valueFrom: {secretKeyRef: {name: s, key: m}}}]}]'), runtime("JuiceFSRuntime"))
    for uri in ("pvc://claim/sub", "local:///mnt/data"):
        err = lint_err(tmp_path, *juicefs, migrate(uri))
        assert "[FG118]" not in err, (uri, err)
    err = lint_err(tmp_path, *juicefs, migrate("s3://b.e/p"))
    assert "[FG118]: spec.to.externalStorage.encryptOptions: access-key without secret-key" in err, err



def test_a_dataset_bound_to_a_runtime_kind_no_engine_declares_is_not_checked_for_credentials() -> None:
    """The index knows no engine (manifest_index.py: whoever builds it hands the runtime kinds in); a
    Dataset bound to a runtime of a kind no engine module declares has no storage facts to be read
    against, so FG118 says nothing of it (and does not fail)."""
    docs = [yaml.safe_load(dataset(mounts='[{mountPoint: "oss://b/p", name: d, encryptOptions: '
                                          '[{name: anything, valueFrom: {secretKeyRef: {name: s, key: k}}}]}]')),
            yaml.safe_load(runtime("FutureRuntime"))]
    index = ManifestIndex(docs, runtime_kinds={"FutureRuntime"})
    dataset_entry = index.entries[0]
    assert index.bound_runtime(dataset_entry) is index.entries[1]
    assert list(credential_facts(dataset_entry, index)) == []



def test_a_dataprocess_must_name_its_datasets_namespace_as_a_dataload_must(tmp_path: Path) -> None:
    """DataProcess reads the same TargetDataset as DataLoad (api/v1alpha1/dataprocess_types.go
    TargetDatasetWithMountPath), looks the Dataset up in spec.dataset.namespace (GetTargetDataset) and
    fails one whose dataset namespace differs from its own, an empty one included
    (pkg/controllers/v1alpha1/dataprocess/implement.go Validate, v1.0.8 and master)."""
    def process(dataset_ref: str) -> str:
        return ("apiVersion: data.fluid.io/v1alpha1\nkind: DataProcess\nmetadata: {name: p, namespace: default}\n"
                f"spec: {{dataset: {dataset_ref}, processor: {{script: {{image: busybox, source: 'echo hi'}}}}}}\n")
    err = lint_err(tmp_path, dataset(), runtime(), process("{name: d, mountPath: /data}"))
    assert ("error [FG125]: spec.dataset: set dataset.namespace: Fluid fails a DataProcess whose dataset namespace "
            "is empty or differs from its own (pkg/controllers/v1alpha1/dataprocess)\n") in err, err
    assert "[FG125]" not in lint_err(tmp_path, dataset(), runtime(), process("{name: d, namespace: default, "
                                                                             "mountPath: /data}"))


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
    # mount 0 is a scheme Jindo keeps no storage facts for (hdfs://): skipped, mount 1 still checked;
    # the Dataset's sharedEncryptOptions are said at their own key (jindocache/transform.go
    # transformMaster reads them with each mount's encryptOptions)
    "jindo_shared_misspelt.yaml": """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: d, namespace: default}
spec:
  sharedEncryptOptions:
    - name: fs.oss.acessKeyId
      valueFrom: {secretKeyRef: {name: s, key: k}}
  mounts:
    - {mountPoint: "hdfs://namenode:9000/data", name: h}
    - mountPoint: oss://b/p
      name: d
      options: {fs.oss.endpoint: e}
      encryptOptions:
        - name: fs.oss.accessKeySecret
          valueFrom: {secretKeyRef: {name: s, key: k2}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: d, namespace: default}
spec: {replicas: 1}
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
    ("jindo_shared_misspelt.yaml", [
        "6:7: error [FG118]: spec.sharedEncryptOptions[0].name: JindoRuntime does not read fs.oss.acessKeyId "
        'for oss:// (it reads fs.oss.accessKeyId, fs.oss.accessKeySecret); did you mean "fs.oss.accessKeyId"?',
        "10:7: error [FG118]: spec.mounts[1]: fs.oss.accessKeySecret without fs.oss.accessKeyId: JindoRuntime needs "
        "both fs.oss.accessKeyId and fs.oss.accessKeySecret for oss://"]),
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


def test_every_kind_a_runtime_names_is_cluster_scoped() -> None:
    """lint/references.py _related looks a named extra kind up by name alone, as the API server keeps a
    cluster-scoped object (ExtraKind.namespaced is held to each CRD by tests/catalog/test_kinds.py)."""
    from fluidgen.engines.engine_table import all_engines
    named = [(x.kind, x.namespaced) for e in all_engines().values() for x in e.extra_kinds if x.named_by]
    assert named and all(not scoped for _, scoped in named), named
