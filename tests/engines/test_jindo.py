"""fluidgen/engines/jindo.py's facts where its mutation run (issue 42) found no test, against
Fluid's Go code at the commits of ../shared/fluid-src that hold it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from fluidgen.engines import jindo
from tests.conftest import ROOT, run_cli
from tests.harness.fluid_src import need_tree


@pytest.mark.parametrize(("point", "bucket"), [
    ("oss://imagenet/train/", "imagenet"), ("oss://imagenet", "imagenet"), ("oss://b/x/y", "b"),
    ("oss:///train", None), ("s3://imagenet/train", None)])
def test_an_oss_mounts_bucket_is_what_fluid_cuts_at_the_first_slash(point: str, bucket: str | None) -> None:
    """pkg/ddc/jindo/oss_secret.go ParseOSSMountBucket (master: OSS keys are projected per bucket):
    strings.Cut(TrimPrefix(mountPoint, "oss://"), "/"), an empty bucket an error (None here); the
    bucket groups the mounts whose OSS keys must agree (FG135)."""
    text = (need_tree("v1.1.0-dev") / "pkg/ddc/jindo/oss_secret.go").read_text()
    assert 'bucket, _, _ := strings.Cut(strings.TrimPrefix(mountPoint, "oss://"), "/")' in text
    assert jindo._bucket({"mountPoint": point}) == bucket


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_one_quota_for_several_cache_paths_is_refused_where_fluid_indexes_one_per_path(
        version: str, tmp_path: Path) -> None:
    """jindocache transform: one `quota` is one entry of `quotas` (a quotaList is one per path), and
    transformWorkerMountPath reads quotas[index] for each path: two paths with one quota fail the
    runtime (index out of range). The build refuses it at the quota; a quota per path builds."""
    go = (need_tree(version) / "pkg/ddc/jindocache/transform.go").read_text()
    assert "quotas = append(quotas, runtime.Spec.TieredStore.Levels[0].Quota.String())" in go
    mount_path = go[go.index("func (e *JindoCacheEngine) transformWorkerMountPath"):]
    assert "Quota:      quotas[index]," in mount_path[:mount_path.index("\n}\n")]
    text = (ROOT / "golden" / "ok" / "jindo-object-stores" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    for quota, refused in (("100Gi", True), ("[100Gi, 100Gi]", False)):
        spec.write_text(re.sub(r"(?m)^  cache:.*\n(    -.*\n)*", f"  cache: [{{medium: SSD, path: [/a, /b], quota: "
                                                                   f"{quota}}}]\n", text, count=1))
        result = run_cli("build", "--fluid-version", version, str(spec))
        said = ("runtime.cache[0].quota: JindoRuntime needs a quota per cache path: with one quota for 2 paths "
                "Fluid indexes a quota for each path and fails the runtime")
        assert (said in result.err) is refused, (quota, result.err)
        assert ("give one per path, e.g. quota: [50Gi, 50Gi] (100Gi split evenly)" in result.err if refused
                else result.code == 0), result.err


@pytest.mark.parametrize(("quota", "each"), [("3Gi", "1Gi"), ("3Mi", "1Mi"), ("1Gi", "357913941"), ("3Ki", "1024")])
def test_the_even_split_is_said_in_the_largest_whole_unit(quota: str, each: str, tmp_path: Path) -> None:
    text = (ROOT / "golden" / "ok" / "jindo-object-stores" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    spec.write_text(re.sub(r"(?m)^  cache:.*\n(    -.*\n)*", f"  cache: [{{medium: SSD, path: [/a, /b, /c], quota: "
                                                               f"{quota}}}]\n", text, count=1))
    result = run_cli("build", str(spec))
    assert f"give one per path, e.g. quota: [{each}, {each}, {each}] ({quota} split evenly)" in result.err, result.err


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_a_mem_tier_over_several_paths_is_refused_at_its_paths(version: str, tmp_path: Path) -> None:
    """For a memory tier (getTieredStoreType 0) jindocache parses the joined quotas as one quantity
    (transformWorkerResources: resource.MustParse(userQuotas), which panics on "1Gi,1Gi"), and one
    quota is indexed per path (above): no quota form works over several paths."""
    root = need_tree(version)
    resources = next(p for p in ("pkg/ddc/jindocache/transform.go", "pkg/ddc/jindocache/transform_resources.go")
                     if "func (e *JindoCacheEngine) transformWorkerResources" in (root / p).read_text())
    body = (root / resources).read_text()
    body = body[body.index("func (e *JindoCacheEngine) transformWorkerResources"):]
    assert "e.getTieredStoreType(runtime) == 0" in body and "resource.MustParse(userQuotas)" in body
    text = (ROOT / "golden" / "ok" / "jindo-object-stores" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    spec.write_text(re.sub(r"(?m)^  cache:.*\n", "  cache: [{medium: MEM, path: [/a, /b], quota: [1Gi, 1Gi]}]\n",
                           text, count=1))
    result = run_cli("build", "--fluid-version", version, str(spec))
    assert result.code == 1 and "runtime.cache[0].path: JindoRuntime fails a MEM tier over 2 paths" in result.err, \
        result.err
    parsed = {"v1.0.8": "transform.go", "v1.1.0-dev": "transform_resources.go"}[version]  # the Go file moved
    assert (f"as one memory size (pkg/ddc/jindocache/{parsed} transformWorkerResources ({version})), and one quota "
            "is read per path; give one path") in result.err, result.err


_MEM_RUNTIME = """\
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: d, namespace: default}
spec:
  tieredstore: {levels: [LEVELS]}
  WORKER
"""


def _go(version: str, path: str, function: str) -> str:
    text = (need_tree(version) / path).read_text()
    body = text[text.index(function):]
    return body[:body.index("\n}\n")]


def _jindo_worker_resources(version: str) -> str:
    root = need_tree(version)
    path = next(p for p in ("pkg/ddc/jindocache/transform.go", "pkg/ddc/jindocache/transform_resources.go")
                if "func (e *JindoCacheEngine) transformWorkerResources" in (root / p).read_text())
    assert path == next(s.path for s in jindo.WORKER_REQUEST if version in s.versions)
    return _go(version, path, "func (e *JindoCacheEngine) transformWorkerResources")


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize(("levels", "worker", "said"), [
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "", "quota 500Mi as 500m"),
    ("{mediumtype: MEM, path: /dev/shm, quota: 1.5Gi}", "", "quota 1.5Gi (Kubernetes spells it 1536Mi) as 1536m"),
    ("{mediumtype: MEM, path: /dev/shm, quotaList: 1024Mi}", "", "quota 1024Mi as 1024m"),
    ("{mediumtype: MEM, path: /dev/shm, quota: 2048Mi}", "", None),  # spelled 2Gi: 2g, back to 2Gi
    ("{mediumtype: MEM, path: /dev/shm, quota: 500M}", "", None),  # decimal: no Mi to rewrite
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi, quotaList: 500Mi}", "", None),  # two entries: FG112's
    ("{mediumtype: MEM, path: '/dev/shm/a,/dev/shm/b', quotaList: '500Mi,500Mi'}", "", None),  # two entries
    ("{mediumtype: MEM, path: /dev/shm, quota: 512Ki}", "", None),
    ("{mediumtype: SSD, path: /mnt/ssd, quota: 500Mi}", "", None),  # no memory tier: no request set
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}, {mediumtype: SSD, path: /mnt/ssd, quota: 1Gi}", "",
     None),  # getTieredStoreType reads the last level's medium
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}, {mediumtype: HDD, path: /mnt/hdd, quota: 1Gi}", "",
     None),
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "worker: {resources: {requests: {memory: 1Gi}}}", None),
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "worker: {resources: {requests: {memory: 500Mi}}}",
     None),  # a request of the quota itself is kept
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "worker: {resources: {requests: {memory: 500m}}}",
     "the worker's memory request stays at 500m instead of rising to 500Mi"),  # equal to what Fluid reads
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "worker: {resources: {requests: {memory: 100Mi}}}",
     "the worker's memory request stays at 100Mi instead of rising to 500Mi"),
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "worker: {resources: {requests: {memory: lots}}}",
     "the worker's memory request becomes 500m (0.5 bytes) instead of 500Mi"),  # no quantity: not kept
    ("{mediumtype: MEM, path: /dev/shm, quota: 500Mi}", "worker: {resources: {requests: {memory: 0}}}",
     "the worker's memory request becomes 500m (0.5 bytes) instead of 500Mi"),
])
def test_a_mem_tier_quota_in_mi_is_read_as_milli_bytes_for_the_worker_request(
        version: str, levels: str, worker: str, said: str | None, tmp_path: Path) -> None:
    """FG136. jindocache transform takes levels[0]'s quota through TransformQuantityToJindoUnit (its
    String(), an Mi suffix written m) and quotaList entries as written with Mi -> m; for a memory tier
    (getTieredStoreType: the last level) transformWorkerResources turns only g back into Gi, MustParses
    the rest (m is milli) and sets it as the memory request unless the written one is at least that."""
    unit = _go(version, "pkg/utils/quantity.go", "func TransformQuantityToJindoUnit")
    assert "value = q.String()" in unit and 'value = strings.ReplaceAll(value, "Mi", "m")' in unit
    transform = _go(version, "pkg/ddc/jindocache/transform.go", "func (e *JindoCacheEngine) transform(")
    assert "utils.TransformQuantityToJindoUnit(runtime.Spec.TieredStore.Levels[0].Quota)" in transform
    assert 'value = strings.ReplaceAll(value, "Mi", "m")' in transform
    tiered = _go(version, "pkg/ddc/jindocache/utils.go", "func (e *JindoCacheEngine) getTieredStoreType")
    assert "for _, level := range runtime.Spec.TieredStore.Levels {" in tiered
    body = _jindo_worker_resources(version)
    assert 'userQuotas = strings.ReplaceAll(userQuotas, "g", "Gi")' in body
    assert "userQuotasQuantity := resource.MustParse(userQuotas)" in body
    assert "userQuotasQuantity.Cmp(*runtime.Spec.Worker.Resources.Requests.Memory()) > 0" in body
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_MEM_RUNTIME.replace("LEVELS", levels).replace("WORKER", worker))
    err = run_cli("lint", "--fluid-version", version, str(manifest)).err
    assert ("[FG136]" in err) is (said is not None), err
    if said is not None:
        line = next(x for x in err.splitlines() if "[FG136]" in x)
        assert said in line and "error [FG136]: spec.tieredstore.levels[0].quota" in line, line
        if said.startswith("the worker's"):  # the consequence, in its sentence
            assert f"So {said}, and Fluid no longer refuses" in line, line


@pytest.mark.parametrize(("version", "request_from"), [("v1.0.8", "transform.go"),
                                                      ("v1.1.0-dev", "transform_resources.go")])
def test_fg136_says_the_whole_story(version: str, request_from: str, tmp_path: Path) -> None:
    """1.5Gi is spelled 1536Mi, read as 1536m: a request of 1.536 bytes; the whole Gi above it is 2Gi."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_MEM_RUNTIME.replace("LEVELS", "{mediumtype: MEM, path: /dev/shm, quota: 1.5Gi}")
                        .replace("WORKER", ""))
    err = run_cli("lint", "--fluid-version", version, str(manifest)).err
    assert (f"{manifest}:5:60: error [FG136]: spec.tieredstore.levels[0].quota: Fluid reads this MEM tier's quota "
            "1.5Gi (Kubernetes spells it 1536Mi) as 1536m for the worker's memory request: Jindo's unit writes Mi as "
            "m (pkg/utils/quantity.go TransformQuantityToJindoUnit (every version)), and m is milli in a Kubernetes "
            f"quantity (pkg/ddc/jindocache/{request_from} transformWorkerResources ({version})). So the worker's "
            "memory request becomes 1536m (1.536 bytes) instead of 1.5Gi, and Fluid no longer refuses a quota above "
            "the worker's memory limit. Write the quota in whole Gi (e.g. 2Gi), or give "
            "worker.resources.requests.memory of at least 1.5Gi\n") in err, err


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_a_spec_with_a_jindo_mem_tier_in_mi_is_refused_at_its_cache(version: str, tmp_path: Path) -> None:
    """The build lints what it lowers: a JindoRuntime MEM tier of 500Mi (a worker memory request of 500m
    on Fluid, FG136) is refused at runtime.cache[0]; 1Gi builds."""
    text = (ROOT / "golden" / "ok" / "jindo-object-stores" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    for quota, refused in (("500Mi", True), ("1Gi", False)):
        spec.write_text(re.sub(r"(?m)^  cache:.*\n", f"  cache: [{{medium: MEM, path: [/dev/shm], quota: {quota}}}]\n",
                               text, count=1))
        result = run_cli("build", "--fluid-version", version, str(spec))
        assert (result.code == 1) is refused, result.err
        assert ("error [FG136]: runtime.cache[0]" in result.err) is refused, result.err
        assert ("Write the quota in whole Gi (e.g. 1Gi)" in result.err) is refused, result.err


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
@pytest.mark.parametrize("scheme", sorted(jindo.STORAGE))
def test_each_storages_names_are_the_ones_transform_reads_for_its_scheme(version: str, scheme: str) -> None:
    """pkg/ddc/jindocache/transform.go transformMaster: a mount's scheme sets mountType ("oss" unless
    a later prefix test changes it), and its credentials are the encryptOptions named
    fs.<mountType>.accessKeyId and .accessKeySecret; the options each storage asks for or suggests are
    read as mount.Options["..."] there."""
    go = (need_tree(version) / "pkg/ddc/jindocache/transform.go").read_text()
    body = go[go.index("func (e *JindoCacheEngine) transformMaster("):]
    body = body[:body.index("\n}\n")]
    if scheme == "oss":
        assert 'mountType := "oss"' in body
    else:
        assert re.search(rf'strings\.HasPrefix\(mount\.MountPoint, "{scheme}://"\) \{{\s+mountType = "{scheme}"', body)
    assert 'key == "fs."+mountType+".accessKeyId"' in body and 'key == "fs."+mountType+".accessKeySecret"' in body
    storage = jindo.STORAGE[scheme]
    pair = frozenset({f"fs.{scheme}.accessKeyId", f"fs.{scheme}.accessKeySecret"})
    assert storage.secret_options == pair and storage.pairs == (pair,)
    for option in (*storage.options, *storage.suggested):
        assert f'mount.Options["{option}"]' in body, option


def _shared_pair(scheme: str, mount: str) -> str:
    """A Dataset whose shared encryptOptions take the key id from Secret ids and the key secret from
    Secret secrets, with one mount, and its JindoRuntime."""
    return f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: d, namespace: default}}
spec:
  sharedEncryptOptions:
    - {{name: fs.{scheme}.accessKeyId, valueFrom: {{secretKeyRef: {{name: ids, key: id}}}}}}
    - {{name: fs.{scheme}.accessKeySecret, valueFrom: {{secretKeyRef: {{name: secrets, key: secret}}}}}}
  mounts:
    - {mount}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {{name: d, namespace: default}}
"""


@pytest.mark.parametrize(("version", "scope", "advice"), [
    ("v1.0.8", "every mount", "newer Fluid projects OSS keys per bucket. Use one Secret and key per credential "
                              "name, or target a newer Fluid"),
    ("v1.1.0-dev", "every mount but the oss:// ones (their keys are projected per bucket)",
     "use one Secret and key per credential name for these mounts"),
])
def test_fg135_a_key_pair_from_two_secrets_is_said_at_the_shared_option(
        version: str, scope: str, advice: str, tmp_path: Path) -> None:
    """transformMaster (secret mount support): value.Secret is the last encryptOption's Secret, and
    the key id and key secret are keys of it, so a pair from two Secrets reads one from the wrong one."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_shared_pair("s3", "{mountPoint: \"s3://bucket/data\", name: data}"))
    result = run_cli("lint", "--fluid-version", version, str(manifest))
    assert result.err == (
        f"{manifest}:7:49: warning [FG135]: spec.sharedEncryptOptions[1].valueFrom.secretKeyRef: fs.s3.accessKeySecret "
        f"comes from Secret secrets key secret, but Fluid {version}'s JindoRuntime mounts one Secret and one key per "
        f"credential name for {scope} (the last one given wins), so the mounts cannot have different credentials "
        f"there; {advice}\n"), result.err


_ARGS_SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: d, namespace: default}
source:
  - uri: oss://bucket/data/
    options: {fs.oss.endpoint: oss.example.com}
runtime:
  engine: jindo
  overrides:
    fuse: {args: ARGS}
"""


@pytest.mark.parametrize(("args", "built"), [
    ("[-okernel_cache, -oro]", ["-okernel_cache", "-oro"]),  # ro given: not added twice
    ("['-oattr_timeout=7200,ro']", ["-oattr_timeout=7200,ro"]),  # ro inside one -o list
    ("[-okernel_cache]", ["-okernel_cache", "-oro"]),  # after -okernel_cache, where Fluid's set has it
    ("[-oattr_timeout=7200]", ["-oro", "-oattr_timeout=7200"]),
    ("[]", []),  # no args: Fluid's own set (transformFuseArg reads len(args) > 0), ro included
])
def test_a_read_only_datasets_fuse_args_get_ro_once(args: str, built: list[str], tmp_path: Path) -> None:
    """fuse.args replace Fluid's set, -oro included (transformFuseArg): a read-only Dataset's args get
    -oro when they lack it, and only then."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(_ARGS_SPEC.replace("ARGS", args))
    result = run_cli("build", str(spec))
    assert result.code == 0, result.err
    runtime = next(d for d in yaml.safe_load_all(result.out) if d["kind"] == "JindoRuntime")
    assert runtime["spec"]["fuse"]["args"] == built


_ONE_BUCKET_TWO_SECRETS = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: d, namespace: default}
spec:
  mounts:
    - mountPoint: "oss://bucket/a"
      name: a
      options: {fs.oss.endpoint: e}
      encryptOptions:
        - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: one, key: id}}}
        - {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: one, key: secret}}}
    - mountPoint: "oss://bucket/b"
      name: b
      options: {fs.oss.endpoint: e}
      encryptOptions:
        - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: two, key: id}}}
        - {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: one, key: secret}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: d, namespace: default}
"""


def test_fg138_one_bucket_from_two_secrets_is_an_error_where_fluid_refuses_the_runtime(tmp_path: Path) -> None:
    """master pkg/ddc/jindo/oss_secret.go AppendSecretProjection returns "conflicting secret projection"
    for a bucket's key taken from another Secret or key, and transformMaster returns it (Fluid's Go test
    TestJindoCacheEngine_transformMasterRejectsConflictingSameBucketSecretProjection): the runtime never
    starts, so lint exits 1. v1.0.8 mounts one Secret for every mount instead: FG135's warning."""
    go = (need_tree("v1.1.0-dev") / "pkg/ddc/jindo/oss_secret.go").read_text()
    assert 'fmt.Errorf("conflicting secret projection for %s", itemPath)' in go
    test = (need_tree("v1.1.0-dev") / "pkg/ddc/jindocache/transform_test.go").read_text()
    assert "func TestJindoCacheEngine_transformMasterRejectsConflictingSameBucketSecretProjection(" in test
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_ONE_BUCKET_TWO_SECRETS)
    master = run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest))
    assert master.code == 1, master.err
    assert master.err == (
        f"{manifest}:16:50: error [FG138]: spec.mounts[1].encryptOptions[0].valueFrom.secretKeyRef: "
        "fs.oss.accessKeyId of OSS bucket bucket comes from Secret two key id, but it is also taken from Secret one "
        "key id for this bucket; Fluid v1.1.0-dev projects one per bucket and refuses the runtime (conflicting "
        "secret projection). Use one Secret and key per credential name for the bucket\n"), master.err
    old = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
    assert old.code == 0 and "[FG138]" not in old.err and "warning [FG135]" in old.err, old.err


def test_fg135_spares_shared_options_when_every_mount_is_projected_per_bucket(tmp_path: Path) -> None:
    """At master the OSS keys of oss:// mounts are projected per bucket: when every mount is one,
    no mount reads the one Secret, so the shared options' two Secrets clash nowhere."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_shared_pair("oss", '{mountPoint: "oss://bucket/data", name: data, '
                                            'options: {fs.oss.endpoint: e}}'))
    master = run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest))
    assert master.code == 0 and "[FG135]" not in master.err and "[FG138]" not in master.err, master.err
    old = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
    assert "warning [FG135]: spec.sharedEncryptOptions[1]" in old.err, old.err


@pytest.mark.parametrize(("version", "guard"), [("v1.0.8", None), ("v1.1.0-dev", "if len(dataset.Spec.Mounts) <= 1 {")])
@pytest.mark.parametrize("mounts", [1, 2])
def test_no_symlink_follows_the_defaults_as_each_version_adds_it(version: str, guard: str | None, mounts: int) -> None:
    """transformFuseArg: v1.0.8 appends -ono_symlink to every default set; master only for a Dataset of
    at most one mount (Fluid's own Go test covers master's two cases, none v1.0.8's several mounts)."""
    go = _go(version, "pkg/ddc/jindocache/transform.go", "func (e *JindoCacheEngine) transformFuseArg(")
    before_append = go[:go.index('fuseArgs = append(fuseArgs, "-ono_symlink")')].rstrip().splitlines()[-1].strip()
    assert before_append == (guard or '}'), before_append  # master: the guard; v1.0.8: the end of the mode's else
    for read_only in (True, False):
        args = jindo.fuse_args([], read_only, mounts, version)
        assert ("-ono_symlink" in args) is (guard is None or mounts <= 1), (read_only, args)


@pytest.mark.parametrize(("modes", "mounts", "version", "said"), [
    ("", 1, "v1.0.8", "fuse.args replace Fluid's JindoFuse defaults for this read-only Dataset; of them these are not "
                      "given: -oattr_timeout=7200 -oentry_timeout=7200 -onegative_timeout=7200 -ono_symlink. Add them, "
                      "or leave fuse.args out to get Fluid's set"),
    ("  accessModes: [ReadWriteMany]\n", 1, "v1.1.0-dev",
     "fuse.args replace Fluid's JindoFuse defaults for this read-write Dataset; of them these are not given: "
     "-oauto_cache -oattr_timeout=0 -oentry_timeout=0 -onegative_timeout=0 -ono_symlink. Add them, or leave "
     "fuse.args out to get Fluid's set"),
    # -ono_symlink is Fluid's for any number of mounts at v1.0.8, for one at most since (transformFuseArg)
    ("", 2, "v1.0.8", "fuse.args replace Fluid's JindoFuse defaults for this read-only Dataset; of them these are not "
                      "given: -oattr_timeout=7200 -oentry_timeout=7200 -onegative_timeout=7200 -ono_symlink. Add them, "
                      "or leave fuse.args out to get Fluid's set"),
    ("", 2, "v1.1.0-dev", "fuse.args replace Fluid's JindoFuse defaults for this read-only Dataset; of them these are "
                          "not given: -oattr_timeout=7200 -oentry_timeout=7200 -onegative_timeout=7200. Add them, or "
                          "leave fuse.args out to get Fluid's set"),
])
def test_fg119_names_the_defaults_of_the_datasets_mode_and_mounts(modes: str, mounts: int, version: str, said: str,
                                                                  tmp_path: Path) -> None:
    """FG119 lists what Fluid's own JindoFuse args (fuse_args, transformFuseArg) have and the given ones lack."""
    listed = ", ".join(f'{{mountPoint: "oss://b/x{i}", name: x{i}, options: {{fs.oss.endpoint: e}}}}'
                       for i in range(mounts))
    manifest = tmp_path / "m.yaml"
    manifest.write_text(f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: d, namespace: default}}
spec:
{modes}  mounts: [{listed}]
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {{name: d, namespace: default}}
spec:
  fuse: {{args: [-okernel_cache]}}
""")
    err = run_cli("lint", "--fluid-version", version, str(manifest)).err
    assert f"warning [FG119]: spec.fuse.args: {said}\n" in err, err


def test_fg138_spares_one_secret_per_credential_name_across_a_buckets_mounts(tmp_path: Path) -> None:
    """Projections conflict per item (one credential name), not per bucket: the key id from one Secret
    and the key secret from another, the same for every mount of the bucket, is fine."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(_ONE_BUCKET_TWO_SECRETS.replace("{name: two, key: id}", "{name: one, key: id}")
                        .replace("{name: one, key: secret}", "{name: other, key: secret}"))
    assert manifest.read_text().count("name: other, key: secret") == 2
    result = run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest))
    assert "[FG138]" not in result.err and result.code == 0, result.err
