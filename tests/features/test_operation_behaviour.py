"""What `fluidgen build` says about the operation fields Fluid ignores, refuses, breaks on or
gates (fluid/operations.py CELLS, issue 37). Each test names the Fluid code its cell rests on;
each failed on main before the matrix, where the spec was accepted without a word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fluidgen.io.yamlreader import load_text
from tests.conftest import run_cli

SOURCES = {
    "alluxio": '[{uri: "https://example.com/data/"}]',
    "juicefs": '[{uri: "juicefs:///d", options: {bucket: "https://b.example.com", storage: s3}, '
               'credentials: {existingSecret: {name: s, keys: {metaurl: m}}}}]',
    "jindo": '[{uri: "oss://b/p/", options: {fs.oss.endpoint: e}}]',
    "goosefs": '[{uri: "https://example.com/data/"}]',
}


def _build(tmp_path: Path, engine: str, steps: str, version: str = "v1.0.8") -> Any:
    spec = tmp_path / "s.yaml"
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: d, namespace: ns}\n"
                    f"fluid: {version}\nsource: {SOURCES[engine]}\nruntime: {{engine: {engine}}}\ndataflow:\n{steps}")
    return run_cli("build", str(spec))


def _says(result: Any, severity: str, key: str, field: str) -> str:
    """The one diagnostic at spec key `key` about operation field `field`, with its severity."""
    found = [line for line in result.err.splitlines() if f": {severity}: {key}: " in line and f" spec.{field} " in line]
    assert len(found) == 1, result.err
    return found[0]


def _quiet(result: Any, field: str) -> None:
    assert result.code == 0, result.err
    assert f" spec.{field} " not in result.err, result.err


def _objects(result: Any, kind: str) -> list[dict[str, Any]]:
    docs = [d.data for d in load_text("out.yaml", result.out)]
    return [d for d in docs if isinstance(d, dict) and d.get("kind") == kind]


def test_alluxio_ignores_load_options(tmp_path: Path) -> None:
    """pkg/ddc/alluxio/load_data.go genDataLoadValue never sets DataLoadInfo.Options."""
    result = _build(tmp_path, "alluxio", "  - load: {paths: [/], options: {atomicCache: 'true'}}\n")
    assert result.code == 0
    line = _says(result, "warning", "dataflow[0].load.options", "options")
    assert "is ignored on alluxio" in line and "pkg/ddc/alluxio/load_data.go genDataLoadValue" in line


def test_jindo_reads_only_its_chart_option_keys(tmp_path: Path) -> None:
    """charts/fluid-dataloader/jindocache/templates/job.yaml turns only listed keys into the script's env."""
    result = _build(tmp_path, "jindo", "  - load: {paths: [/], options: {atomicCache: 'true', threads: '8'}}\n")
    line = _says(result, "warning", "dataflow[0].load.options", "options.threads")
    assert "reads only the keys" in line and "atomicCache" in line
    assert " spec.options.atomicCache " not in result.err


def test_juicefs_ignores_load_metadata_and_replicas(tmp_path: Path) -> None:
    """charts/fluid-dataloader/juicefs: job.yaml passes no NEED_LOAD_METADATA; its script runs
    `juicefs warmup` and never reads PATH_REPLICAS."""
    result = _build(tmp_path, "juicefs", "  - load: {paths: [/a], replicas: 2, metadata: true}\n")
    assert result.code == 0, result.err
    _says(result, "warning", "dataflow[0].load.metadata", "loadMetadata")
    _says(result, "warning", "dataflow[0].load.paths", "target[0].replicas")
    _quiet(_build(tmp_path, "alluxio", "  - load: {paths: [/a], replicas: 2, metadata: true}\n"), "loadMetadata")


def test_a_load_path_the_loader_splits_is_an_error(tmp_path: Path) -> None:
    """The loader charts join the paths with ':' after `nospace` (alluxio job.yaml) or with
    spaces (juicefs job.yaml), and their scripts split them again."""
    result = _build(tmp_path, "alluxio", "  - load: {paths: ['/a:b', /c]}\n")
    assert result.code == 1
    assert "job.yaml strips all whitespace" in _says(result, "error", "dataflow[0].load.paths", "target[0].path")
    result = _build(tmp_path, "juicefs", "  - load: {paths: ['/a b']}\n")
    assert result.code == 1 and "splits them on spaces" in result.err
    _quiet(_build(tmp_path, "juicefs", "  - load: {paths: ['/a:b']}\n"), "target[0].path")


def test_a_relative_load_path_is_an_error_where_the_loader_glues_it(tmp_path: Path) -> None:
    """A relative load.paths entry is refused at its own key for every engine (issue 41: a path in
    the cache namespace starts with "/"), before the cells that say where it breaks (jindocache's
    script loads jindo://<path>, juicefs's warms $MOUNTPATH<path>; docs/data-operations.md) are
    reached: the step's target paths cannot be overridden, they are computed from load.paths."""
    for engine in ("jindo", "juicefs", "alluxio"):
        result = _build(tmp_path, engine, "  - load: {paths: [raw]}\n")
        assert result.code == 1 and 'dataflow[0].load.paths[0]: "raw" is a relative path' in result.err, result.err
        assert " spec.target[0].path " not in result.err  # one error, the spec's own


def test_a_schedule_without_cron_and_a_ttl_with_cron_are_ignored(tmp_path: Path) -> None:
    """Only cronjob.yaml reads schedule; GetTTL gives a Cron operation no TTL (dataload/implement.go)."""
    result = _build(tmp_path, "alluxio", "  - load: {paths: [/], schedule: '0 * * * *'}\n")
    _says(result, "warning", "dataflow[0].load.schedule", "schedule")
    result = _build(tmp_path, "alluxio", "  - load: {paths: [/], policy: Cron, schedule: '0 * * * *'}\n"
                                          "    ttlSecondsAfterFinished: 60\n")
    assert "GetTTL gives no TTL" in _says(result, "warning", "dataflow[0].ttlSecondsAfterFinished",
                                          "ttlSecondsAfterFinished")


def test_the_script_image_is_split_into_image_and_tag(tmp_path: Path) -> None:
    """pkg/dataprocess/processor_types.go TransformDataProcessValues runs image + ':' + imageTag:
    main wrote image python:3.10 and no imageTag, which Fluid ran as "python:3.10:"."""
    result = _build(tmp_path, "alluxio", "  - process: {mountPath: /data, image: 'python:3.10', script: ls}\n"
                                         "  - process: {mountPath: /data, image: busybox, script: ls}\n"
                                         "  - process: {mountPath: /data, image: 'reg:5000/a/b', script: ls}\n")
    assert result.code == 0, result.err
    scripts = [p["spec"]["processor"]["script"] for p in _objects(result, "DataProcess")]
    assert [(s["image"], s["imageTag"]) for s in scripts] == [("python", "3.10"), ("busybox", "latest"),
                                                              ("reg:5000/a/b", "latest")]
    result = _build(tmp_path, "alluxio", "  - process: {mountPath: /data, image: 'a@sha256:00', script: ls}\n")
    assert result.code == 1 and "digest reference" in result.err
    result = _build(tmp_path, "alluxio", "  - process: {mountPath: /data, image: busybox, script: ls}\n"
                                         "    overrides: {processor: {script: {imageTag: null}}}\n")
    assert result.code == 1 and "InvalidImageName" in result.err


def test_a_job_processor_must_not_restart_always(tmp_path: Path) -> None:
    """charts/fluid-dataprocess/common/templates/job.yaml renders the pod spec as given into a Job."""
    pod = "{containers: [{name: c, image: busybox}]%s}"
    result = _build(tmp_path, "alluxio", f"  - process: {{mountPath: /data, job: {pod % ''}}}\n")
    assert result.code == 1 and "restartPolicy Never or OnFailure" in _says(
        result, "error", "dataflow[0].process.job", "processor.job.podSpec")
    never = pod % ", restartPolicy: Never"
    _quiet(_build(tmp_path, "alluxio", f"  - process: {{mountPath: /data, job: {never}}}\n"), "processor.job.podSpec")


def test_migrate_local_storage_and_the_migrate_fields_fluid_drops(tmp_path: Path) -> None:
    """pkg/ddc/juicefs/data_migrate.go genDataUrl handles pvc:// of the native schemes only (local://
    gives an empty URL); generateDataMigrateValueFile reads neither block nor imagePullPolicy;
    pkg/utils/datamigrate.go refuses a runtimeType no side's runtime has."""
    result = _build(tmp_path, "juicefs", "  - migrate: {from: 'local:///mnt/x', to: /raw}\n")
    assert result.code == 1 and "genDataUrl handles only pvc://" in _says(
        result, "error", "dataflow[0].migrate.from", "from.externalStorage.uri")
    dropped = "{block: true, imagePullPolicy: Always, runtimeType: alluxio}"
    result = _build(tmp_path, "juicefs", f"  - migrate: {{from: 's3://b/x', to: /raw}}\n    overrides: {dropped}\n")
    assert result.code == 1
    _says(result, "warning", "dataflow[0].overrides.block", "block")
    _says(result, "warning", "dataflow[0].overrides.imagePullPolicy", "imagePullPolicy")
    _says(result, "error", "dataflow[0].overrides.runtimeType", "runtimeType")


def test_a_backup_to_a_claim_without_a_name_is_an_error(tmp_path: Path) -> None:
    """pkg/utils/databackup.go ParseBackupRestorePath takes the claim from before the first '/'."""
    result = _build(tmp_path, "alluxio", "  - backup: {path: 'pvc:///backups/'}\n")
    assert result.code == 1 and "empty claim" in _says(result, "error", "dataflow[0].backup.path", "backupPath")
    _quiet(_build(tmp_path, "alluxio", "  - backup: {path: 'pvc://claim/backups/'}\n"), "backupPath")


def test_importing_a_script_processor_without_a_tag_says_why_it_fails(tmp_path: Path) -> None:
    """A Fluid DataProcess whose script has no imageTag runs image "busybox:" (processor_types.go
    TransformDataProcessValues): import reproduces it only through an override that drops the tag,
    and the build refuses that with the reason (main imported it as an exact round trip)."""
    (tmp_path / "p.yaml").write_text(
        "apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {name: d, namespace: ns}\n"
        "spec: {mounts: [{mountPoint: 'https://example.com/data/', name: d}]}\n---\n"
        "apiVersion: data.fluid.io/v1alpha1\nkind: AlluxioRuntime\nmetadata: {name: d, namespace: ns}\n"
        "spec: {replicas: 1, tieredstore: {levels: [{mediumtype: MEM, path: /dev/shm, quota: 1Gi}]}}\n---\n"
        "apiVersion: data.fluid.io/v1alpha1\nkind: DataProcess\nmetadata: {name: p, namespace: ns}\n"
        "spec: {dataset: {name: d, namespace: ns, mountPath: /data},\n"
        "       processor: {script: {image: busybox, command: [sh], source: ls}}}\n")
    got = run_cli("import", str(tmp_path / "p.yaml"))
    assert got.code == 1 and "InvalidImageName" in got.err, got.err
