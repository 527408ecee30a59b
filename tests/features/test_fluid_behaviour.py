"""Issue 23 (facts-a families): what fluidgen says about Fluid holds on a cluster. Each test
names the Fluid code that decides the behaviour (fluid-cloudnative/fluid at the commits
versions.py lists; the code is the same at both unless a test says otherwise)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES, run_cli


def _spec(tmp_path: Path, text: str, name: str = "spec.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _build(path: Path, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    result = run_cli("build", str(path), *args)
    docs = [d for d in yaml.safe_load_all(result.out) if d] if result.code == 0 else []
    return result.code, docs, result.err


def _one(docs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [d for d in docs if d["kind"] == kind]
    assert len(found) == 1, [d["kind"] for d in docs]
    return found[0]


def _lint(tmp_path: Path, *docs: str) -> str:
    path = tmp_path / "manifests.yaml"
    path.write_text("\n---\n".join(textwrap.dedent(d) for d in docs))
    return run_cli("lint", str(path)).err


def _env(job: dict[str, Any]) -> dict[str, str]:
    container = job["spec"]["template"]["spec"]["containers"][0]
    return {e["name"]: e["value"] for e in container.get("env", [])}


ALLUXIO = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: imgs, namespace: default}
    source:
      - uri: https://example.com/data/
        name: NAME
    runtime: {engine: alluxio, profile: alluxio-default}
    workloads:
      - {name: train, kind: Job, image: busybox, command: [ls]}
    """


# -- where a job finds the data ------------------------------------------------------------

REFERENCE = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: view, namespace: team-b}
    source:
      - uri: URI
    runtime: {engine: thin}
    workloads:
      - {name: train, kind: Job, image: busybox, command: [ls]}
    """


# -- FUSE read-only follows the Dataset's access modes ---------------------------------------

def _fuse_args(docs: list[dict[str, Any]], kind: str) -> list[str]:
    return list(_one(docs, kind)["spec"]["fuse"]["args"])


def test_alluxio_fuse_mode_follows_access_modes(tmp_path: Path) -> None:
    """optimizeDefaultFuse (pkg/ddc/alluxio/transform_optimization.go): Fluid mounts ro when the
    Dataset is ReadOnlyMany (or names no mode, pkg/utils/dataset.go GetAccessModesOfDataset),
    rw otherwise; a profile's fuse.args replace that choice, so fluidgen puts it back."""
    base = ALLUXIO.replace("name: NAME", "name: pics")
    code, docs, err = _build(_spec(tmp_path, base))
    assert code == 0, err
    assert _fuse_args(docs, "AlluxioRuntime")[1] == "--fuse-opts=kernel_cache,ro,attr_timeout=7200,entry_timeout=7200"
    rw = base.replace("runtime:", "accessModes: [ReadWriteMany]\n    runtime:")
    code, docs, err = _build(_spec(tmp_path, rw, "rw.yaml"))
    assert code == 0, err
    assert _fuse_args(docs, "AlluxioRuntime")[1] == "--fuse-opts=kernel_cache,rw,attr_timeout=7200,entry_timeout=7200"


JINDO = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: imgs, namespace: default}
    MODES
    source:
      - uri: oss://bucket/imgs/
        options: {fs.oss.endpoint: oss-cn-shanghai-internal.aliyuncs.com}
        credentials: {existingSecret: {name: oss, keys: {fs.oss.accessKeyId: id, fs.oss.accessKeySecret: key}}}
    runtime: {engine: jindo, profile: jindo-default}
    """


def test_jindo_fuse_mode_follows_access_modes(tmp_path: Path) -> None:
    """pkg/ddc/jindocache/transform.go transformFuseArg: -oro only for a read-only Dataset."""
    code, docs, err = _build(_spec(tmp_path, JINDO.replace("MODES", "")))
    assert code == 0, err
    assert "-oro" in _fuse_args(docs, "JindoRuntime")
    code, docs, err = _build(_spec(tmp_path, JINDO.replace("MODES", "accessModes: [ReadWriteMany]"), "rw.yaml"))
    assert code == 0, err
    assert "-oro" not in _fuse_args(docs, "JindoRuntime")


def test_no_bundled_profile_pins_the_fuse_mode() -> None:
    """ro/rw is the Dataset's to decide (fluidgen adds it per access mode), not a profile's."""
    for path in sorted((EXAMPLES.parent / "profiles").glob("*.yaml")):
        for setting in yaml.safe_load(path.read_text())["settings"]:
            for arg in setting["set"].get("fuse/args", []):
                options = arg.removeprefix("--fuse-opts=").removeprefix("-o").split(",")
                assert not {"ro", "rw"} & set(options), f"{path.name} pins the FUSE mode in {arg}"


DATASET = """\
    apiVersion: data.fluid.io/v1alpha1
    kind: Dataset
    metadata: {name: d, namespace: default}
    spec:
      MODES
      mounts: [{mountPoint: "https://example.com/data", name: d}]
    """


def _runtime(kind: str, spec: str) -> str:
    return f"""\
    apiVersion: data.fluid.io/v1alpha1
    kind: {kind}
    metadata: {{name: d, namespace: default}}
    spec:
{textwrap.indent(textwrap.dedent(spec), "      ")}"""


def test_fg131_fuse_args_that_disagree_with_the_access_modes(tmp_path: Path) -> None:
    ro_args = 'fuse: {args: [fuse, "--fuse-opts=kernel_cache,attr_timeout=7200"]}'
    err = _lint(tmp_path, DATASET.replace("MODES", ""), _runtime("AlluxioRuntime", ro_args))
    assert "FG131" in err and "ro" in err
    err = _lint(tmp_path, DATASET.replace("MODES", "accessModes: [ReadWriteMany]"),
                _runtime("JindoRuntime", "fuse: {args: [-okernel_cache, -oro]}"))
    assert "FG131" in err
    err = _lint(tmp_path, DATASET.replace("MODES", ""),
                _runtime("AlluxioRuntime", 'fuse: {args: [fuse, "--fuse-opts=kernel_cache,ro"]}'))
    assert "FG131" not in err


# -- libfuse version and the journal -----------------------------------------------------------

def test_fg133_libfuse2_options_need_libfuse2(tmp_path: Path) -> None:
    """Fluid runs libfuse 3 unless alluxio.fuse.jnifuse.libfuse.version is "2"
    (optimizeDefaultProperties), and uses nonempty/max_read only for libfuse 2
    (optimizeDefaultFuse); libfuse 3 refuses nonempty (Fluid #3235)."""
    args = 'fuse: {args: [fuse, "--fuse-opts=kernel_cache,ro,max_read=131072,nonempty"]}'
    err = _lint(tmp_path, DATASET.replace("MODES", ""), _runtime("AlluxioRuntime", args))
    assert "FG133" in err and "nonempty" in err
    pinned = args + '\nproperties: {alluxio.fuse.jnifuse.libfuse.version: "2"}'
    err = _lint(tmp_path, DATASET.replace("MODES", ""), _runtime("AlluxioRuntime", pinned))
    assert "FG133" not in err


def test_readme_headline_example_mounts_with_its_libfuse() -> None:
    result = run_cli("build", str(EXAMPLES / "alluxio-imagenet-oss.yaml"))
    assert result.code == 0 and "FG133" not in result.err
    runtime = _one([d for d in yaml.safe_load_all(result.out) if d], "AlluxioRuntime")
    assert runtime["spec"]["properties"]["alluxio.fuse.jnifuse.libfuse.version"] == "2"
    assert "nonempty" in runtime["spec"]["fuse"]["args"][1]


def test_fg132_ufs_journal_with_several_masters(tmp_path: Path) -> None:
    """optimizeDefaultProperties: Fluid chooses EMBEDDED for master replicas > 1, UFS for one."""
    spec = 'master: {replicas: 3}\nproperties: {alluxio.master.journal.type: UFS}'
    assert "FG132" in _lint(tmp_path, DATASET.replace("MODES", ""), _runtime("AlluxioRuntime", spec))
    spec = 'properties: {alluxio.master.journal.type: UFS}'
    assert "FG132" not in _lint(tmp_path, DATASET.replace("MODES", ""), _runtime("AlluxioRuntime", spec))


# -- engine limits -----------------------------------------------------------------------------

JUICEFS = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: jfs, namespace: default}
    source:
      - uri: juicefs:///demo
        options: {bucket: https://b.oss-cn-hangzhou.aliyuncs.com, storage: oss}
        credentials: {existingSecret: {name: s, keys: {metaurl: m, access-key: a, secret-key: k}}}
    runtime:
      engine: juicefs
      cache: [{medium: SSD, path: [/mnt/c1, /mnt/c2], quota: QUOTA}]
    """


VINEYARD = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: vy, namespace: default}
    runtime:
      engine: vineyard
      CACHE
    """


EFC = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: nas, namespace: default}
    source:
      - uri: nfs://0f1a2b3c4d-abc12.cn-zhangjiakou.nas.aliyuncs.com:/datasets/
    runtime:
      engine: efc
      cache: [{medium: MEM, quota: QUOTA}]
    """


# -- names Fluid derives, and the objects it creates --------------------------------------------

def test_unnamed_mount_is_at_the_root(tmp_path: Path) -> None:
    """pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace: /<name>, so an unnamed mount
    is at "/", and Alluxio mounts it as its root UFS (GenAlluxioUFSRootPath)."""
    code, docs, err = _build(_spec(tmp_path, ALLUXIO.replace("name: NAME", "name: null")))
    assert code == 0, err
    assert "name" not in _one(docs, "Dataset")["spec"]["mounts"][0]
    assert _env(_one(docs, "Job"))["DATA_DIR"] == "/data"
    code, docs, err = _build(_spec(tmp_path, ALLUXIO.replace("name: NAME", "name: pics"), "named.yaml"))
    assert code == 0, err
    assert _env(_one(docs, "Job"))["DATA_DIR"] == "/data/pics"


def test_reference_data_is_in_the_referenced_engines_layout(tmp_path: Path) -> None:
    """pkg/ddc/thin/referencedataset/volume.go createFusePersistentVolume: the reference's volume
    is the referenced Dataset's volume plus the subpath (pkg/ddc/base/dataset.go
    GetPhysicalDatasetSubPath), so where the data sits is decided by the referenced engine
    (/<mount name> on Alluxio, JindoCache, GooseFS, CacheRuntime), which the spec does not show."""
    code, docs, err = _build(_spec(tmp_path, REFERENCE.replace("URI", "dataset://team-a/imagenet")))
    assert code == 0, err
    assert _env(_one(docs, "Job"))["DATA_DIR"] == "/data"
    assert "dataset://team-a/imagenet" in err and "layout" in err and "dataSubPath" in err
    code, docs, err = _build(_spec(tmp_path, REFERENCE.replace("URI", "dataset://team-a/imagenet/imagenet"), "s.yaml"))
    assert code == 0, err
    assert _env(_one(docs, "Job"))["DATA_DIR"] == "/data" and "layout" not in err


def test_juicefs_cache_dirs_take_one_quota(tmp_path: Path) -> None:
    """JuiceFS splits the tier's path on ":" (pkg/ddc/juicefs/transform_fuse.go genValue) and
    reads one quota as cache-size (genMountOptions); Fluid's runtime info splits the path on ","
    and needs one quotaList entry per piece (pkg/ddc/base/runtime.go convertToTieredstoreInfo),
    so a quotaList for ":"-joined paths stops the runtime from ever setting up."""
    code, docs, err = _build(_spec(tmp_path, JUICEFS.replace("QUOTA", "80Gi")))
    assert code == 0, err
    level = _one(docs, "JuiceFSRuntime")["spec"]["tieredstore"]["levels"][0]
    assert level["path"] == "/mnt/c1:/mnt/c2" and level["quota"] == "80Gi" and "quotaList" not in level
    code, _, err = _build(_spec(tmp_path, JUICEFS.replace("QUOTA", "[40Gi, 40Gi]"), "two.yaml"))
    assert code == 1 and "runtime.cache[0].quota" in err and "80Gi" in err


def test_vineyard_keeps_every_tier_and_needs_one(tmp_path: Path) -> None:
    """pkg/ddc/vineyard/transform.go transformTieredStore: MEM is the memory, any other level
    the spill path (level 1); no level at all fails ("the tieredstore is empty")."""
    two = "cache: [{medium: MEM, quota: 4Gi}, {medium: SSD, path: /var/spill, quota: 100Gi}]"
    code, docs, err = _build(_spec(tmp_path, VINEYARD.replace("CACHE", two)))
    assert code == 0, err
    levels = _one(docs, "VineyardRuntime")["spec"]["tieredstore"]["levels"]
    assert [lv["mediumtype"] for lv in levels] == ["MEM", "SSD"] and "FG113" not in err
    code, _, err = _build(_spec(tmp_path, VINEYARD.replace("CACHE", ""), "none.yaml"))
    assert code == 1 and "runtime.cache" in err and "tieredstore is empty" in err


def test_efc_worker_tier_is_at_least_1gi(tmp_path: Path) -> None:
    """pkg/ddc/efc/transform_option.go transformWorkerOptions: below 1Gi Fluid refuses."""
    code, _, err = _build(_spec(tmp_path, EFC.replace("QUOTA", "512Mi")))
    assert code == 1 and "runtime.cache[0].quota" in err and "1Gi" in err
    code, _, err = _build(_spec(tmp_path, EFC.replace("QUOTA", "1Gi"), "ok.yaml"))
    assert code == 0, err


def test_fg134_names_fluid_derives_must_fit(tmp_path: Path) -> None:
    """Each runtime is a Helm release named after it (pkg/ddc/*/master_internal.go
    setupMasterInernal) and each operation one named <name>-loader/-migrate/-processor/-charts
    (pkg/utils/data*.go, pkg/ddc/base/operation_helm.go); Helm refuses release names over 53
    characters, and a StatefulSet name over 52 breaks its pods (controller-revision-hash)."""
    name = "a" * 46  # <name>-master and <name>-worker: 53 characters
    dataset = DATASET.replace("MODES", "").replace("{name: d,", f"{{name: {name},")
    runtime = _runtime("AlluxioRuntime", "replicas: 1").replace("{name: d,", f"{{name: {name},")
    err = _lint(tmp_path, dataset, runtime)
    assert "FG134" in err and f"{name}-master" in err and "52" in err
    ok = "a" * 45
    err = _lint(tmp_path, dataset.replace(name, ok), runtime.replace(name, ok))
    assert "FG134" not in err
    load = f"""\
    apiVersion: data.fluid.io/v1alpha1
    kind: DataLoad
    metadata: {{name: {"l" * 47}, namespace: default}}
    spec: {{dataset: {{name: d, namespace: default}}}}
    """
    err = _lint(tmp_path, DATASET.replace("MODES", ""), _runtime("AlluxioRuntime", "replicas: 1"), load)
    assert "FG134" in err and "-loader" in err and "53" in err


def test_generated_step_names_fit_helm(tmp_path: Path) -> None:
    """A step's generated name (<dataset>-step1-load) becomes <...>-loader in Helm."""
    name = "n" * 36
    spec = ALLUXIO.replace("name: NAME", "name: pics").replace("name: imgs", f"name: {name}")
    spec = spec.replace("    workloads:", "    dataflow:\n      - load: {paths: [/]}\n    workloads:")
    code, _, err = _build(_spec(tmp_path, spec))
    assert code == 1 and "FG134" in err and f"{name}-step1-load-loader" in err


def test_objects_fluid_creates() -> None:
    from fluidgen.engines.engine_table import ENGINES

    alluxio = ENGINES["alluxio"]
    ha = alluxio.created.names("d", {"master": {"replicas": 3}})
    assert {("Service", "d-master-0"), ("Service", "d-master-1"), ("Service", "d-master-2")} <= set(ha)
    assert ("Service", "d-master-1") not in alluxio.created.names("d", {})
    cache = ENGINES["cache"]
    assert ("ConfigMap", "fluid-runtime-config-d") in cache.created.names("d", {})  # pkg/common/cacheruntime.go


def test_cron_and_parallel_operations_create_their_objects(tmp_path: Path) -> None:
    """Cron policy: the chart makes a CronJob <release>-job (charts/fluid-dataloader/*/templates/
    cronjob.yaml); parallel DataMigrate: StatefulSet and Service <release>-workers
    (pkg/utils/dataoperation.go GetParallelOperationWorkersName)."""
    from fluidgen.lint.references import derived_names

    load = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "DataLoad",
            "metadata": {"name": "l", "namespace": "default"},
            "spec": {"dataset": {"name": "d", "namespace": "default"}, "policy": "Cron", "schedule": "0 * * * *"}}
    migrate = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "DataMigrate",
               "metadata": {"name": "m", "namespace": "default"},
               "spec": {"from": {}, "to": {}, "parallelism": 3}}
    assert derived_names(load) == [("CronJob", "l-loader-job")]
    assert derived_names(migrate) == [("Job", "m-migrate-migrate"), ("StatefulSet", "m-migrate-workers"),
                                      ("Service", "m-migrate-workers")]


def test_alluxio_profile_reasons_say_where_they_pin_fluids_defaults() -> None:
    """Every property a bundled Alluxio profile sets is compared with Fluid's own default
    (pkg/ddc/alluxio/transform_optimization.go optimizeDefaultProperties): a setting equal to it
    says so (it pins the default across Fluid versions), and one that differs does not claim to be
    the default."""
    from fluidgen.engines.alluxio import DEFAULT_PROPERTIES

    for name in ("alluxio-default", "alluxio-imagenet"):
        profile = yaml.safe_load((EXAMPLES.parent / "profiles" / f"{name}.yaml").read_text())
        for setting in profile["settings"]:
            why = " ".join(setting["why"].split())
            for key, value in setting["set"].items():
                prop = key.removeprefix("properties/")
                if prop == key or prop not in DEFAULT_PROPERTIES:
                    continue
                if DEFAULT_PROPERTIES[prop] == str(value):
                    assert re.search(r"\bpin(s|ned)?\b", why), f"{name}: {prop} equals Fluid's default; say it pins it"
                else:
                    assert "Fluid" in why, f"{name}: {prop} differs from Fluid's {DEFAULT_PROPERTIES[prop]}; say so"


REFERENCED = """\
    apiVersion: fluidgen.io/v1alpha1
    kind: CachedDataset
    metadata: {name: imagenet, namespace: team-a}
    source: MOUNTS
    runtime: ENGINE
    """


@pytest.mark.parametrize(("mounts", "engine", "data_dir"), [
    # Alluxio: its one mount at /<name> (GenUFSPathInUnifiedNamespace), or at / with path: /
    ("[{uri: 'https://example.com/data/', name: train}]", "{engine: alluxio, profile: alluxio-default}",
     "/data/train"),
    ("[{uri: 'https://example.com/data/', name: train, path: /}]", "{engine: alluxio, profile: alluxio-default}",
     "/data"),
    ("[{uri: 'https://example.com/data/', name: train, path: /sets/train}]",
     "{engine: alluxio, profile: alluxio-default}", "/data/sets/train"),
    # several mounts: each at its own path below the root
    ("[{uri: 'https://example.com/a/', name: a}, {uri: 'https://example.com/b/', name: b}]",
     "{engine: alluxio, profile: alluxio-default}", "/data"),
    # JuiceFS mounts its one mount at the root (genMountOptions subdir)
    ("[{uri: 'juicefs:///', name: jfs, credentials: {existingSecret: {name: s, keys: [metaurl]}}}]",
     "{engine: juicefs, replicas: 1, cache: [{medium: SSD, path: /cache, quota: 10Gi}]}", "/data"),
])
@pytest.mark.parametrize("order", ["referenced-first", "reference-first"])
def test_a_reference_to_a_dataset_built_in_the_same_run_uses_its_layout(
        mounts: str, engine: str, data_dir: str, order: str, tmp_path: Path) -> None:
    """Issue 42 (4): DATA_DIR of a dataset:// reference was the reference's root with a warning,
    even when the referenced Dataset is built in the same run; its volume is that Dataset's
    (pkg/ddc/thin/referencedataset/volume.go createFusePersistentVolume), laid out by its engine."""
    referenced = textwrap.dedent(REFERENCED.replace("MOUNTS", mounts).replace("ENGINE", engine))
    reference = textwrap.dedent(REFERENCE.replace("URI", "dataset://team-a/imagenet"))
    first, second = (referenced, reference) if order == "referenced-first" else (reference, referenced)
    both = _spec(tmp_path, first + "---\n" + second)
    code, docs, err = _build(both)
    assert code == 0, err
    assert _env(_one(docs, "Job"))["DATA_DIR"] == data_dir
    assert "layout" not in err, err
    kinds = [d["kind"] for d in docs]
    alone = _build(_spec(tmp_path, referenced, "referenced.yaml"))[1] + _build(_spec(tmp_path, reference, "r.yaml"))[1]
    assert sorted(kinds) == sorted(d["kind"] for d in alone)  # the same objects, whatever the order
