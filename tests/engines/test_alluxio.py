"""fluidgen/engines/alluxio.py's facts where its mutation run (issue 42) found no test: each test
drives fluidgen's own code (init's starter, the FUSE memory budget) against Fluid's Go code at
both commits of ../shared/fluid-src (v1.0.8 de578cd, master a826600)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from ruamel.yaml import YAML

from fluidgen.base.quantity import to_bytes
from fluidgen.base.versions import NAMES
from fluidgen.commands.init import starter
from fluidgen.engines import alluxio
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree

FIXTURES = Path(__file__).parent.parent / "fluid_fixtures"


def _sensitive_keys(root: Path) -> set[str]:
    """pkg/utils/security/filter.go sensitiveKeys: the Alluxio mount credentials Fluid redacts
    from the `alluxio fs mount` commands it logs (FilterCommand)."""
    text = (root / "pkg/utils/security/filter.go").read_text()
    block = re.search(r"var sensitiveKeys map\[string\]bool = map\[string\]bool\{(.*?)\n\}", text, re.S)
    assert block, "sensitiveKeys not found"
    return set(re.findall(r'"([^"]+)":\s*true', block.group(1)))


@pytest.mark.parametrize("version", NAMES)
@pytest.mark.parametrize("scheme", ["oss", "s3", "s3a"])
def test_a_starter_asks_for_the_credentials_fluid_redacts(scheme: str, version: str) -> None:
    """`fluidgen init --engine alluxio` for an oss://, s3:// or s3a:// source asks for one key pair
    (credentials.fromEnv): exactly the pair of that store among the names Fluid treats as Alluxio
    mount credentials (security.FilterCommand, used when the Alluxio engine logs its mount command)."""
    doc: dict[str, Any] = YAML(typ="safe").load(starter("alluxio", f"{scheme}://bucket/path", "demo"))
    asked = set(doc["source"][0]["credentials"]["fromEnv"])
    sensitive = _sensitive_keys(need_tree(version))
    prefix = "fs.oss." if scheme == "oss" else "aws."
    assert asked == {k for k in sensitive if k.startswith(prefix)}
    assert len(asked) == 2


def _fluid_fuse_memory_default(root: Path) -> str:
    """transform_resources.go transformResourcesForFuse: a zero FUSE memory limit becomes this."""
    text = (root / "pkg/ddc/alluxio/transform_resources.go").read_text()
    body = text[text.index("func (e *AlluxioEngine) transformResourcesForFuse"):]
    m = re.search(r'memLimit := resource\.MustParse\("([^"]+)"\)', body)
    assert m
    return m.group(1)


def _fluid_default_fuse_jvm() -> list[str]:
    """optimizeDefaultFuse's JVM options, as mined from its Go test (alluxio_transform_optimization.yaml)."""
    doc = YAML(typ="safe").load((FIXTURES / "alluxio_transform_optimization.yaml").read_text())
    (jvm,) = {tuple(c["expect"]["fuse_jvm"]) for c in doc["cases"] if "fuse_jvm" in c["expect"]}
    return list(jvm)


@pytest.mark.parametrize("version", NAMES)
def test_the_fuse_memory_budget_pairs_fluids_default_jvm_with_its_zero_limit(version: str) -> None:
    """fuse_memory_limit (the memory limit a profile's FUSE JVM needs, FG check of runtime fields):
    for Fluid's own default FUSE JVM (-Xmx16G + MaxDirectMemorySize=32g) it is the limit Fluid
    gives a zero one (50Gi), and it moves with the heap and the direct memory alike."""
    default = _fluid_default_fuse_jvm()
    zero = int(to_bytes(_fluid_fuse_memory_default(need_tree(version))))
    assert alluxio.fuse_memory_limit(default) == zero
    smaller = [o.replace("-Xmx16G", "-Xmx8G") for o in default]
    assert alluxio.fuse_memory_limit(smaller) == zero - 8 * 2**30
    less_direct = [o.replace("MaxDirectMemorySize=32g", "MaxDirectMemorySize=16g") for o in default]
    assert alluxio.fuse_memory_limit(less_direct) == zero - 16 * 2**30
    assert alluxio.fuse_memory_limit([o for o in default if not o.startswith("-Xmx")]) is None
    assert alluxio.fuse_memory_limit([o for o in default if "MaxDirectMemorySize" not in o]) is None


@pytest.mark.parametrize("version", NAMES)
def test_the_dataset_owner_joins_the_second_fuse_arg_of_two_or_more(version: str) -> None:
    """transform_fuse.go transformFuse: `len(value.Fuse.Args) > 1 && dataset.Spec.Owner != nil`
    appends uid=,gid= to Args[1]; then allow_other unless Args[1] has an allow_ option. fuse_args on
    an image before 2.8.0 (no mount path appended), with two args and with one."""
    text = (need_tree(version) / "pkg/ddc/alluxio/transform_fuse.go").read_text()
    assert "if len(value.Fuse.Args) > 1 && dataset.Spec.Owner != nil {" in text
    two, _ = alluxio.fuse_args(["fuse", "--fuse-opts=kernel_cache,ro"], True, None, "2.7.2", "/x", owner=(1000, 100))
    assert two == ["fuse", "--fuse-opts=kernel_cache,ro,uid=1000,gid=100,allow_other"]
    one, _ = alluxio.fuse_args(["fuse"], True, None, "2.7.2", "/x", owner=(1000, 100))
    assert one == ["fuse"]
    allowed, _ = alluxio.fuse_args(["fuse", "--fuse-opts=allow_root"], True, None, "2.7.2", "/x")
    assert allowed == ["fuse", "--fuse-opts=allow_root"]


def _go_defaults(root: Path) -> dict[str, str]:
    """optimizeDefaultProperties' unconditional setDefaultProperties calls, in order (a later call
    of a key overwrites an earlier one: setDefaultProperties checks only the runtime's own properties)."""
    text = (root / "pkg/ddc/alluxio/transform_optimization.go").read_text()
    start = text.index("func (e *AlluxioEngine) optimizeDefaultProperties(")
    body = text[start:text.index("\n}\n", start)]
    calls = re.findall(r'^\tsetDefaultProperties\(runtime, value, "([^"]+)", "([^"]*)"\)', body, re.M)
    assert len(calls) > 40, "optimizeDefaultProperties no longer reads as this test expects"
    return dict(calls)


@pytest.mark.parametrize("version", NAMES)
def test_every_unconditional_default_property_is_fluids(version: str) -> None:
    """default_properties (what an AlluxioRuntime ends with; lint's libfuse and journal checks read
    DEFAULT_PROPERTIES, which it starts from) holds each property Fluid sets whatever the runtime, with Fluid's
    value, read from transform_optimization.go optimizeDefaultProperties; the journal type follows
    the master count (EMBEDDED above one, else UFS)."""
    root = need_tree(version)
    got = alluxio.default_properties({})
    wrong = {k: (got.get(k), v) for k, v in _go_defaults(root).items() if got.get(k) != v}
    assert not wrong, wrong
    text = (root / "pkg/ddc/alluxio/transform_optimization.go").read_text()
    assert re.search(r'if value\.Master\.Replicas > 1 \{\n\t\tsetDefaultProperties\(runtime, value, '
                     r'"alluxio\.master\.journal\.type", "EMBEDDED"\)\n\t\} else \{\n\t\tsetDefaultProperties\('
                     r'runtime, value, "alluxio\.master\.journal\.type", "UFS"\)', text)
    assert got["alluxio.master.journal.type"] == "UFS"
    assert alluxio.default_properties({}, masters=2)["alluxio.master.journal.type"] == "EMBEDDED"
    assert alluxio.default_properties({"alluxio.user.block.size.bytes.default": "64MB"})[
        "alluxio.user.block.size.bytes.default"] == "64MB"  # the runtime's own value stays
    # direct memory IO only for a read-only Dataset of one level with one cache path
    assert "if readOnly && len(tieredstoreInfo.Levels) == 1 && len(tieredstoreInfo.Levels[0].CachePaths) == 1 {" \
        in text
    assert "alluxio.user.direct.memory.io.enabled" not in got
    assert "alluxio.user.direct.memory.io.enabled" not in alluxio.default_properties({}, read_only=True)
    assert alluxio.default_properties({}, read_only=True, one_cache_path=True)[
        "alluxio.user.direct.memory.io.enabled"] == "true"


@pytest.mark.parametrize(("masters", "warned"), [(1, False), (2, True), (3, True)])
def test_fg132_warns_a_ufs_journal_only_for_several_masters(tmp_path: Path, masters: int, warned: bool) -> None:
    """FG132: Fluid picks the EMBEDDED journal above one master (optimizeDefaultProperties, read in
    test_every_unconditional_default_property_is_fluids); a UFS journal is Fluid's own choice for one."""
    manifests = tmp_path / "m.yaml"
    manifests.write_text(
        "apiVersion: data.fluid.io/v1alpha1\nkind: AlluxioRuntime\nmetadata: {name: d, namespace: default}\n"
        f"spec:\n  master: {{replicas: {masters}}}\n  properties: {{alluxio.master.journal.type: UFS}}\n")
    result = run_cli("lint", str(manifests))
    assert ("FG132" in result.err) is warned, result.err


@pytest.mark.parametrize(("properties", "said_at"), [
    ("  master: {replicas: 3, properties: {alluxio.master.journal.type: UFS}}\n",
     "spec.master.properties[\"alluxio.master.journal.type\"]"),
    ("  master: {replicas: 3, properties: {alluxio.master.journal.type: EMBEDDED}}\n"
     "  properties: {alluxio.master.journal.type: UFS}\n", None),  # master.properties win for the master
    ("  master: {replicas: 3}\n  fuse: {properties: {alluxio.master.journal.type: UFS}}\n", None),  # the FUSE's only
])
def test_fg132_reads_the_properties_the_master_runs_with(tmp_path: Path, properties: str, said_at: str | None) -> None:
    """charts/alluxio/templates/config/alluxio-conf.yaml: ALLUXIO_JAVA_OPTS holds .Values.properties,
    ALLUXIO_MASTER_JAVA_OPTS .Values.master.properties after them; fuse.properties go to the FUSE."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        conf = (need_tree(version) / "charts/alluxio/templates/config/alluxio-conf.yaml").read_text()
        master = conf[conf.index("ALLUXIO_MASTER_JAVA_OPTS"):]
        assert "{{- range $key, $val := .Values.master.properties }}" in master[:master.index("JOB_MASTER")]
    manifests = tmp_path / "m.yaml"
    manifests.write_text("apiVersion: data.fluid.io/v1alpha1\nkind: AlluxioRuntime\n"
                         "metadata: {name: d, namespace: default}\nspec:\n" + properties)
    err = run_cli("lint", str(manifests)).err
    assert ("[FG132]" in err) is (said_at is not None), err
    if said_at is not None:
        assert f"warning [FG132]: {said_at}: 3 masters with a UFS journal" in err, err


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_the_fuse_limit_counts_mem_tiers_the_fuse_never_mounts(version: str) -> None:
    """transformResourcesForFuse adds every MEM level's quota (tieredstore.GetLevelStorageMap reads the
    medium only, no volume type) to a written FUSE memory limit, while the chart mounts into the FUSE
    only the levels not on an emptyDir (alluxio.fuse.tieredstoreVolumeMounts); the FUSE gets no request
    of its own, so Kubernetes takes that raised limit as the request. The fuse.resources cell says so."""
    root = need_tree(version)
    helpers = (root / "charts/alluxio/templates/_helpers.tpl").read_text()
    mounts = helpers[helpers.index('define "alluxio.fuse.tieredstoreVolumeMounts"'):]
    mounts = mounts[:mounts.index("{{- end -}}")]
    assert mounts.count('ne $type "emptyDir"') + mounts.count('ne .type "emptyDir"') == 2  # both branches
    storage = (root / "pkg/utils/tieredstore/tiered_store.go").read_text()
    storage = storage[storage.index("func GetLevelStorageMap"):]
    storage = storage[:storage.index("\n}\n")]
    assert "level.MediumType == common.SSD || level.MediumType == common.HDD" in storage
    assert "VolumeType" not in storage
    fuse = (root / "pkg/ddc/alluxio/transform_resources.go").read_text()
    fuse = fuse[fuse.index("func (e *AlluxioEngine) transformResourcesForFuse"):]
    fuse = fuse[:fuse.index("\n}\n")]
    assert "memLimit.Add(req)" in fuse and "Requests[" not in fuse
    assert "an emptyDir tier too, which the FUSE never mounts" in alluxio.FUSE_RESOURCES.note
    assert "Kubernetes takes that raised limit as the FUSE pod's request" in alluxio.FUSE_RESOURCES.note


_NO_MEDIUM_RUNTIME = """\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: d, namespace: default}
spec:
  tieredstore:
    levels:
      - {LEVEL}
"""


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize(("level", "said"), [
    ("mediumtype: MEM, volumeType: emptyDir, volumeSource: {emptyDir: {}}, path: /dev/shm, quota: 2Gi",
     "instead of MEM (pkg/ddc/alluxio/transform.go getMediumTypeFromVolumeSource (every version)), and the worker "
     "chart makes no volume for a tier without one"),
    ("mediumtype: SSD, volumeType: emptyDir, volumeSource: {emptyDir: {sizeLimit: 1Gi}}, path: '/mnt/a,/mnt/b', "
     "quotaList: '1Gi,1Gi'", "names each path's volume after it, '-0', '-1', which is no valid volume name, so "
     "Kubernetes refuses the worker StatefulSet and the runtime gets no workers (charts/alluxio/templates/_helpers.tpl "
     "alluxio.worker.tieredstoreVolumes (every version)). Leave volumeSource out (the chart makes the emptyDirs from "
     "mediumtype: Memory for MEM, node disk for SSD or HDD)\n"),  # no medium: Memory: several paths get it for MEM only
    ("mediumtype: MEM, volumeType: emptyDir, volumeSource: {emptyDir: {medium: Memory}}, path: /dev/shm, "
     "quota: 2Gi", None),
    ("mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 2Gi", None),  # the medium is mediumtype's
    ("mediumtype: SSD, volumeType: hostPath, volumeSource: {emptyDir: {}}, path: /mnt/a, quota: 2Gi", None),
])
def test_an_emptydir_tier_without_a_medium_gets_no_volume(version: str, level: str, said: str | None,
                                                          tmp_path: Path) -> None:
    """FG137. getMediumTypeFromVolumeSource makes an emptyDir level's volumeSource.emptyDir.medium (""
    when unset) its medium type; transformCommonPart writes it once per path, joined with ','; the worker
    chart makes a tier's volume only `if .mediumtype`, and names a volume of several paths
    '<part lower>-<i>': '-0' for an empty part."""
    root = need_tree(version)
    text = (root / "pkg/ddc/alluxio/transform.go").read_text()
    assert "mediumType := e.getMediumTypeFromVolumeSource(string(level.MediumType), level)" in text
    assert 'strings.Join(*utils.FillSliceWithString(mediumType, len(paths)), ",")' in text
    helpers = (root / "charts/alluxio/templates/_helpers.tpl").read_text()
    volumes = helpers[helpers.index('define "alluxio.worker.tieredstoreVolumes"'):]
    volumes = volumes[:volumes.index("{{- end -}}")]
    assert volumes.index("{{- if .mediumtype }}") < volumes.index("- name: {{ $mediumName }}")
    assert '{{- $mediumName := printf "%v-%v" (lower $val) $i }}' in volumes
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_NO_MEDIUM_RUNTIME.replace("LEVEL", level))
    err = run_cli("lint", "--fluid-version", version, str(manifest)).err
    assert ("[FG137]" in err) is (said is not None), err
    if said is not None:
        assert "error [FG137]: spec.tieredstore.levels[0].volumeSource.emptyDir: " in err and said in err, err


_SET_DEFAULT = re.compile(r'^\s*setDefaultProperties\(runtime, (?:value|alluxioValue), "([^"]+)", "([^"]*)"\)', re.M)


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_the_http_properties_and_jvm_options_are_fluids(version: str) -> None:
    """pkg/ddc/alluxio/transform_optimization.go: the properties optimizeDefaultPropertiesAndFuseForHTTP
    sets when the runtime does not, and the JVM options optimizeDefaultForMaster,
    optimizeDefaultForWorker and optimizeDefaultFuse give a component without its own, literal for
    literal (the other defaults: the test above)."""
    go = (need_tree(version) / "pkg/ddc/alluxio/transform_optimization.go").read_text()

    def body(function: str) -> str:
        text = go[go.index(f"func (e *AlluxioEngine) {function}("):]
        return text[:text.index("\n}\n")]

    assert dict(_SET_DEFAULT.findall(body("optimizeDefaultPropertiesAndFuseForHTTP"))) == dict(alluxio.HTTP_PROPERTIES)
    for component, function in (("master", "optimizeDefaultForMaster"), ("worker", "optimizeDefaultForWorker"),
                                 ("fuse", "optimizeDefaultFuse")):
        given = re.search(r"JvmOptions = \[\]string\{(.*?)\}", body(function), re.S)
        assert given is not None, function
        assert tuple(re.findall(r'"([^"]+)"', given.group(1))) == alluxio.DEFAULT_JVM[component], component


@pytest.mark.parametrize("first", [
    "mediumtype: MEM, volumeType: emptyDir, volumeSource: {emptyDir: {medium: Memory}}, path: /dev/shm, quota: 2Gi",
    "mediumtype: MEM, volumeType: hostPath, path: /dev/shm, quota: 2Gi",
])
def test_fg137_reads_every_level_past_one_with_a_medium(tmp_path: Path, first: str) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_NO_MEDIUM_RUNTIME.replace(
        "LEVEL", first + "}\n      - {mediumtype: SSD, volumeType: emptyDir, volumeSource: {emptyDir: {}}, "
                         "path: /mnt/a, quota: 2Gi"))
    err = run_cli("lint", str(manifest)).err
    assert "error [FG137]: spec.tieredstore.levels[1].volumeSource.emptyDir: " in err, err
    assert "levels[0]" not in err.split("[FG137]", 1)[1].split("\n", 1)[0], err


_ARGS_SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: d, namespace: default}
ACCESSsource:
  - uri: s3://bucket/data/
runtime:
  engine: alluxio
  overrides:
    fuse: {args: ARGS}
"""


@pytest.mark.parametrize(("access", "args", "built"), [
    ("", "[fuse, '--fuse-opts=kernel_cache,ro']", ["fuse", "--fuse-opts=kernel_cache,ro"]),  # ro given: kept once
    ("", "[fuse, '--fuse-opts=rw']", ["fuse", "--fuse-opts=rw"]),  # the user's rw is the user's
    ("", "[fuse, '--fuse-opts=kernel_cache']", ["fuse", "--fuse-opts=kernel_cache,ro"]),
    ("", "[fuse, '--fuse-opts=attr_timeout=7200']", ["fuse", "--fuse-opts=ro,attr_timeout=7200"]),
    ("accessModes: [ReadWriteMany]\n", "[fuse, '--fuse-opts=kernel_cache']", ["fuse", "--fuse-opts=kernel_cache,rw"]),
    ("", "[fuse]", ["fuse"]),  # no --fuse-opts to put the mode in: left as given
])
def test_fuse_args_get_the_datasets_mode_once(access: str, args: str, built: list[str], tmp_path: Path) -> None:
    """optimizeDefaultFuse: fuse.args replace Fluid's set, its ro or rw included; the build puts the
    mode Fluid would choose back when the args name neither (after kernel_cache, where Fluid's set has it)."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(_ARGS_SPEC.replace("ACCESS", access).replace("ARGS", args))
    result = run_cli("build", str(spec))
    assert result.code == 0, result.err
    runtime = next(d for d in yaml.safe_load_all(result.out) if d["kind"] == "AlluxioRuntime")
    assert runtime["spec"]["fuse"]["args"][:2] == built, runtime["spec"]["fuse"]["args"]


@pytest.mark.parametrize(("scheme", "required"), [("oss", True), ("s3", False), ("s3a", False), ("cos", False),
                                                  ("obs", False)])
def test_only_oss_needs_its_key_pair_on_every_alluxio_mount(scheme: str, required: bool, tmp_path: Path) -> None:
    """Alluxio's OSS UFS refuses a mount without its key id, secret and endpoint
    (OSSUnderFileSystemFactory.checkOSSCredentials); the others mount without keys (instance roles,
    anonymous buckets): FG118 asks for the OSS pair only."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: d, namespace: default}}
spec:
  mounts: [{{mountPoint: "{scheme}://bucket/x", name: x, options: {{fs.oss.endpoint: e, fs.cos.region: r,
             fs.cos.app.id: a, fs.obs.endpoint: e}}}}]
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {{name: d, namespace: default}}
""")
    err = run_cli("lint", str(manifest)).err
    assert ("[FG118]" in err) is required, err


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_the_default_fuse_opts_are_optimize_default_fuses(version: str) -> None:
    """optimizeDefaultFuse: without fuse.args the FUSE gets --fuse-opts per access mode, another set when
    the runtime's alluxio.fuse.jnifuse.libfuse.version property is "2"."""
    go = (need_tree(version) / "pkg/ddc/alluxio/transform_optimization.go").read_text()
    body = go[go.index("func (e *AlluxioEngine) optimizeDefaultFuse("):]
    body = body[:body.index("\n}\n")]
    sets = re.findall(r'(readOnlyFuseOpts|readWriteFuseOpts) :?= "--fuse-opts=([^"]+)"', body)
    assert sets == [("readOnlyFuseOpts", alluxio.default_fuse_opts(True, None)),
                    ("readWriteFuseOpts", alluxio.default_fuse_opts(False, None)),
                    ("readOnlyFuseOpts", alluxio.default_fuse_opts(True, "2")),
                    ("readWriteFuseOpts", alluxio.default_fuse_opts(False, "2"))], sets
    assert 'if found && libfuseVersion == "2" {' in body


def test_alluxio_takes_the_schemes_its_fluid_code_reads() -> None:
    """http:// and https:// Datasets get their own defaults (optimizeDefaultPropertiesAndFuseForHTTP reads
    common.HttpScheme and HttpsScheme); pvc:// and local:// are volumes (transformDatasetToVolume)."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        go = (need_tree(version) / "pkg/ddc/alluxio/transform_optimization.go").read_text()
        assert "common.HttpScheme.String()" in go and "common.HttpsScheme.String()" in go
    schemes = alluxio.ENGINE.mounts.schemes
    assert schemes is not None and {"http", "https", "pvc", "local"} <= schemes


@pytest.mark.parametrize("version", NAMES)
def test_a_runtime_without_a_fuse_image_tag_runs_the_charts(version: str) -> None:
    """parseFuseImage (pkg/ddc/alluxio/utils.go) takes a missing tag from ALLUXIO_FUSE_IMAGE_ENV before
    DefaultAlluxioFuseImage; Fluid's chart sets that variable from runtime.alluxio.fuse, so its tag
    decides whether the mount path goes in the args (NEW_FUSE_ARGS_FROM)."""
    root = need_tree(version)
    parse = _go_function(root / "pkg/ddc/alluxio/utils.go", "parseFuseImage")
    tag = parse[parse.index("if len(tag) == 0 {"):]
    assert tag.index("docker.GetImageTagFromEnv(common.AlluxioFuseImageEnv)") < tag.index("DefaultAlluxioFuseImage")
    assert 'AlluxioFuseImageEnv = "ALLUXIO_FUSE_IMAGE_ENV"' in (root / "pkg/common/alluxio.go").read_text()
    template = (root / "charts/fluid/fluid/templates/controller/alluxioruntime_controller.yaml").read_text()
    at = template.index("- name: ALLUXIO_FUSE_IMAGE_ENV")
    assert ".Values.runtime.alluxio.fuse.imageTag" in template[at:at + 300]
    fuse = yaml.safe_load((root / "charts/fluid/fluid/values.yaml").read_text())["runtime"]["alluxio"]["fuse"]
    assert fuse["imageName"] and str(fuse["imageTag"]) == alluxio.DEFAULT_FUSE_TAG.value
    assert alluxio.mount_path_in_args("") and not alluxio.mount_path_in_args("2.7.2")


def test_mount_options_refuse_the_first_name_fluid_reaches_twice_in_its_words() -> None:
    """genEncryptOptions (ufs_internal.go, both commits) returns at the first encryptOption whose name
    is set, sharedEncryptOptions before the mount's, with "the option %s is set more than one times";
    configmap storage refuses none, the last Secret file wins."""
    encrypt = [("b", "s", "k1"), ("a", "s", "k2"), ("b", "t", "k3")]
    with pytest.raises(alluxio.OptionSetTwice) as refused:
        alluxio.mount_options({"a": "x"}, {}, encrypt, configmap=False)
    assert str(refused.value) == "the option a is set more than one times"
    assert alluxio.mount_options({"a": "x"}, {}, encrypt) == {"a": "/etc/fluid/secrets/s/k2",
                                                            "b": "/etc/fluid/secrets/t/k3"}


@pytest.mark.parametrize(("args", "owner", "said"), [
    ('[fuse, "--fuse-opts=kernel_cache,ro"]', "", None),
    ('[fuse, --fuse-opts, "kernel_cache,ro"]', "", "',allow_other'"),
    ('[fuse, "--x=allow_root"]', "", None),  # an allow_ option: Fluid adds no allow_other
    ('[fuse, "--x=allow_root"]', "  owner: {uid: 1000, gid: 100}\n", "',uid=1000,gid=100'"),
    ('[fuse, "--x"]', "  owner: {uid: 1000, gid: 100}\n", "',uid=1000,gid=100,allow_other'"),
    ('[fuse, "--x"]', "  owner: {uid: 1000}\n", None),  # no gid: the CRD refuses it (uid, gid required)
    ('[fuse, "--x"]', "  owner: {uid: true, gid: false}\n", None),  # not integers: the CRD refuses them too
])
def test_fg142_says_what_fluid_glues_onto_a_second_arg_that_is_not_the_fuse_opts(
        args: str, owner: str, said: str | None, tmp_path: Path) -> None:
    """transform_fuse.go transformFuse (both commits): `len(value.Fuse.Args) > 1 && dataset.Spec.Owner != nil`
    appends uid=,gid= to Args[1]; then allow_other unless Args[1] contains "allow_" (alluxio.fuse_args)."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(
        "apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {name: d, namespace: default}\n"
        f"spec:\n{owner}  mounts: [{{mountPoint: 'https://example.com/x', name: x}}]\n---\n"
        "apiVersion: data.fluid.io/v1alpha1\nkind: AlluxioRuntime\nmetadata: {name: d, namespace: default}\n"
        f"spec:\n  fuse: {{args: {args}}}\n")
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err  # never an internal error
    lines = [x for x in result.err.splitlines() if "[FG142]" in x]
    if said is None:
        assert lines == []
    else:
        assert len(lines) == 1 and f"warning [FG142]: spec.fuse.args[1]: Fluid appends {said} to the second of " \
            "fuse.args, whatever it is, and this one is not --fuse-opts=...: the FUSE mounts without those options " \
            "and gets this arg changed. Put --fuse-opts=... second, where Fluid's own args have it" in lines[0], lines


def _go_function(path: Path, name: str) -> str:
    text = path.read_text()
    head = re.search(rf"^func \([^)]*\) {name}\(", text, re.M)
    assert head is not None, (path, name)
    return text[head.start():text.find("\n}\n", head.start())]


@pytest.mark.parametrize("version", NAMES)
def test_nothing_else_remounts_an_alluxio_path_edited_in_place(version: str) -> None:
    """plan says no other way for Alluxio (MountSync.remount_also is empty), as Fluid's code holds with
    its default mount storage, configmap: PrepareUFS runs mountUFS only without it (ufs.go), so
    Status.MountTime is set only by mountUFS, by an added path (processUpdatingUFS) or by
    checkIfRemountRequired, which first needs it set; and the single master mounts at start from the
    mount ConfigMap (the chart's startupProbe runs mount.sh), which updateUFSWithMountConfigMapScript
    rewrites only through processUpdatingUFS, when a path appears or disappears."""
    root = need_tree(version)
    prepare = _go_function(root / "pkg/ddc/alluxio/ufs.go", "PrepareUFS")
    assert re.search(r"usingConfigMap := IsMountWithConfigMap\(\)\s*if !usingConfigMap \{", prepare), prepare
    assert prepare.index("e.mountUFS()") < prepare.index("} else {")
    check = _go_function(root / "pkg/ddc/alluxio/ufs.go", "checkIfRemountRequired")
    assert "runtime.Status.MountTime != nil && runtime.Status.MountTime.Before(startedAt)" in check
    internal = (root / "pkg/ddc/alluxio/ufs_internal.go").read_text()
    setters = [m.start() for m in re.finditer(r"e\.updateMountTime\(\)", internal + check)]
    assert len(setters) == 3, setters  # mountUFS, processUpdatingUFS (paths added), checkIfRemountRequired
    updating = _go_function(root / "pkg/ddc/alluxio/ufs_internal.go", "processUpdatingUFS")
    assert "if len(ufsToUpdate.ToAdd()) > 0 {\n\t\t\te.updateMountTime()" in updating
    assert internal.count("e.updateUFSWithMountConfigMapScript(") == 1
    assert "updateUFSWithMountConfigMapScript(" in updating
    chart = (root / "charts/alluxio/templates/master/statefulset.yaml").read_text()
    probe = chart.index('{{- if and (eq .Values.master.mountConfigStorage "configmap") ($isSingleMaster) }}')
    assert "/etc/fluid/scripts/mount.sh" in chart[probe:probe + 400]
    assert alluxio.ENGINE.edits.mounts[0].remount_also == ""


def test_an_alluxio_same_path_edit_names_no_other_route() -> None:
    """plan gives the same-path advice alone for Alluxio (compile/plan.py _remount_edits)."""
    from fluidgen.compile.plan import classify
    from fluidgen.fluid.sync import SAME_PATH

    def docs(endpoint: str) -> list[dict[str, Any]]:
        return [{"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "d",
                 "namespace": "default"}, "spec": {"mounts": [{"mountPoint": "oss://b/x", "name": "x",
                                                               "options": {"fs.oss.endpoint": endpoint}}]}},
                {"apiVersion": "data.fluid.io/v1alpha1", "kind": "AlluxioRuntime",
                 "metadata": {"name": "d", "namespace": "default"}, "spec": {}}]
    edits = classify(docs("a"), docs("b"), NAMES[0])
    assert [(e.effect, e.note) for e in edits] == [(SAME_PATH, "")]


@pytest.mark.parametrize(("tag", "said"), [
    ("", "with one fuse.arg, the second FUSE arg is the mount path Fluid adds for FUSE images 2.8.0 and later (tag "
         "2.9.0), and Fluid appends ',allow_other' to it: the FUSE mounts where no pod reads. Give --fuse-opts=... as "
         "the second arg"),
    ("2.7.2", None),  # before 2.8.0 the mount path goes in MOUNT_POINT: one arg has nothing second
    ("release-2.9.3", "with one fuse.arg, the second FUSE arg is the mount path Fluid adds for FUSE images 2.8.0 and "
                      "later (tag release-2.9.3), and Fluid appends ',allow_other' to it"),
])
def test_fg142_after_one_given_arg_the_mount_path_is_second(tag: str, said: str | None, tmp_path: Path) -> None:
    """optimizeDefaultFuse (transform_optimization.go) appends the mount path and "/" to given args for a FUSE
    image 2.8.0 or later (the chart's default among them: DEFAULT_FUSE_TAG), and transformFuse then appends
    to Args[1]: after one given arg, the mount path."""
    manifest = tmp_path / "m.yaml"
    image = f", imageTag: '{tag}'" if tag else ""
    manifest.write_text("apiVersion: data.fluid.io/v1alpha1\nkind: AlluxioRuntime\n"
                        f"metadata: {{name: d, namespace: default}}\nspec:\n  fuse: {{args: [fuse]{image}}}\n")
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err  # never an internal error
    lines = [x.split("warning [FG142]: ", 1)[1] for x in result.err.splitlines() if "[FG142]" in x]
    if said is None:
        assert lines == []
    else:
        assert len(lines) == 1 and lines[0].startswith(f"spec.fuse.args: {said}"), lines


@pytest.mark.parametrize("version", NAMES)
def test_the_go_tests_image_tag_is_the_code_fallback(version: str) -> None:
    """tests/fluid_fixtures/alluxio_transform_fuse.yaml gives Go's tests' runtimes without a tag the
    DefaultAlluxioFuseImage tag (pkg/common/alluxio.go), as parseFuseImage does without the variable."""
    go = (need_tree(version) / "pkg/common/alluxio.go").read_text()
    found = re.search(r'DefaultAlluxioFuseImage = "[^":]+:([^"]+)"', go)
    fixture = (Path(__file__).parents[1] / "fluid_fixtures" / "alluxio_transform_fuse.yaml").read_text()
    assert found is not None and f"image_tag: {found.group(1)}" in fixture
    assert not alluxio.mount_path_in_args(found.group(1))
