"""Issue 23 (facts-a families): what fluidgen says about Fluid holds on a cluster. Each test
names the Fluid code that decides the behaviour (fluid-cloudnative/fluid at the commits
versions.py lists; the code is the same at both unless a test says otherwise)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml

from .conftest import EXAMPLES, run_cli


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
    path.write_text("---\n".join(textwrap.dedent(d) for d in docs))
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
