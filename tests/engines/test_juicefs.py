"""fluidgen/engines/juicefs.py's cache facts where its mutation run (issue 42) found no test,
driven through fluidgen's own build and lint against Fluid's Go code (both commits of
../shared/fluid-src: pkg/ddc/juicefs/transform_fuse.go genMountOptions, `cacheSize :=
q.Value() >> 20`, the cache-size in MiB; genValue, the cache-dir joined with ":";
pkg/ddc/base/runtime.go convertToTieredstoreInfo, one quotaList entry per ","-split path)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from fluidgen.base.quantity import to_bytes
from fluidgen.base.versions import NAMES
from fluidgen.commands.init import starter
from fluidgen.compile.plan import classify, edit_facts
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid.sync import ON_RESTART, RECREATE, ROLLING
from fluidgen.lint.storage import PLACEHOLDER
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree

LEVEL = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: jfs, namespace: default}}
spec: {{mounts: [{{mountPoint: "juicefs:///", name: jfs}}]}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JuiceFSRuntime
metadata: {{name: jfs, namespace: default}}
spec:
  tieredstore:
    levels: [{{mediumtype: SSD, path: /cache, quota: {quota}}}]
"""


def _cache_size_shift(root: Path) -> int:
    """The right shift genMountOptions applies to a tier's quota (bytes) for cache-size."""
    text = (root / "pkg/ddc/juicefs/transform_fuse.go").read_text()
    m = re.search(r"cacheSize := q\.Value\(\) >> (\d+)\n", text)
    assert m, "genMountOptions no longer shifts the quota"
    return int(m.group(1))


@pytest.mark.parametrize("quota", ['"0"', '"1"', '"40960"', '"1048575"', '"1048576"', "1Mi", "512Ki", "2047Ki", "40Gi"])
@pytest.mark.parametrize("version", NAMES)
def test_fg117_fires_exactly_where_fluids_cache_size_is_zero(tmp_path: Path, quota: str, version: str) -> None:
    """FG117 for a quota that Fluid turns into cache-size 0 (1 byte up to 1 MiB - 1), with the
    bytes it is and, for a bare number, the MiB it was likely meant as; none from 1 MiB on, and
    none for a quota of 0 (no cache asked for: nothing was meant as MiB)."""
    shift = _cache_size_shift(need_tree(version))
    size = int(to_bytes(quota.strip('"')))
    manifests = tmp_path / "m.yaml"
    manifests.write_text(LEVEL.format(quota=quota))
    result = run_cli("lint", str(manifests))
    if size > 0 and size >> shift == 0:
        assert result.code == 1 and "error [FG117]" in result.err, result.err
        assert f"is {size} bytes, so the JuiceFS cache-size becomes 0 MiB" in result.err
        bare = quota.strip('"')
        hint = f"; did you mean {bare}Mi?" if bare.isdigit() else ""
        assert result.err.rstrip("\n").endswith(
            f"error [FG117]: spec.tieredstore.levels[0].quota: quota {bare} is {size} bytes, so the JuiceFS "
            f"cache-size becomes 0 MiB and nothing is cached{hint}"), result.err
    else:
        assert "FG117" not in result.err, result.err


SEVERAL_DIRS = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {{name: jfs, namespace: default}}
source:
  - uri: juicefs:///
    credentials:
      existingSecret: {{name: jfs, keys: [metaurl]}}
runtime:
  engine: juicefs
  cache:
    - {{medium: SSD, path: [/c1, /c2], quota: [{quotas}]}}
"""


@pytest.mark.parametrize(("quotas", "one"), [("10Gi, 10Gi", "20Gi"), ("10Gi, 512Mi", str(10 * 2**30 + 512 * 2**20))])
def test_a_quota_per_juicefs_cache_dir_is_refused_with_their_sum(tmp_path: Path, quotas: str, one: str) -> None:
    """JuiceFS joins the tier's directories with ":" into one cache-dir and takes one cache-size
    for them all (genValue, genMountOptions); Fluid's runtime info splits the path on "," and
    needs one quota per piece (convertToTieredstoreInfo), so a quota per directory never sets up:
    the build refuses it at the quota and offers the one quota they add up to."""
    spec = tmp_path / "jfs.yaml"
    spec.write_text(SEVERAL_DIRS.format(quotas=quotas))
    result = run_cli("build", str(spec))
    assert result.code == 1, result.err
    assert "runtime.cache[0].quota: JuiceFS takes one cache-size for all 2 cache directories" in result.err
    assert result.err.count(f"Give one quota: {one}\n") == 1, result.err


# -- what a sync of a running JuiceFSRuntime carries (fluidgen/engines/juicefs.py _WORKER, _FUSE,
# _MOUNT_SYNC), read from pkg/ddc/juicefs at each commit -----------------------------------------

_COMMENT = re.compile(r"(^|[ \t])//.*$", re.M)
_JFS = "pkg/ddc/juicefs"


def _go(root: Path, path: str) -> str:
    return _COMMENT.sub(r"\1", (root / path).read_text())


def _func(root: Path, name: str, folder: str = _JFS) -> str:
    """The body of the Go function or method `name` in `folder` (tests left out); "" when there is none."""
    for path in sorted((root / folder).glob("*.go")):
        if not path.name.endswith("_test.go"):
            m = re.search(rf"^func (?:\([^)]*\) )?{name}\(.*?^}}", _go(root, str(path.relative_to(root))), re.M | re.S)
            if m:
                return m.group(0)
    return ""


def _go_spec_field(root: Path, dotted: str) -> tuple[str, str]:
    """(Go selector, Go type) of the JuiceFSRuntimeSpec field at the JSON path `dotted`
    (api/v1alpha1: each struct's fields by their json tags); AssertionError when Fluid has none."""
    structs: dict[str, dict[str, tuple[str, str]]] = {}
    for path in sorted((root / "api/v1alpha1").glob("*.go")):
        if not path.name.endswith("_test.go"):
            for name, body in re.findall(r"^type (\w+) struct \{(.*?)^\}", _go(root, str(path.relative_to(root))),
                                         re.M | re.S):
                structs[name] = {tag: (field, kind) for field, kind, tag in
                                 re.findall(r'^\s*(\w+)\s+(\S+)\s+`json:"([^",]*)', body, re.M)}
    kind, names = "JuiceFSRuntimeSpec", []
    for part in dotted.split("."):
        assert part in structs.get(kind.lstrip("*[]"), {}), f"{kind} has no field {part!r} ({dotted})"
        field, kind = structs[kind.lstrip("*[]")][part]
        names.append(field)
    return ".".join(names), kind


# How Fluid's transform carries each runtime field into the values SyncRuntime compares: (the
# function reading runtime.Spec.<field>, the one assigning the value field, the value field), one
# per workload the field reaches; no value field: the sync compares runtime.Spec.<field> itself.
_CARRIED: dict[str, tuple[tuple[str, str, str], ...]] = {
    "worker.nodeSelector": (("transformWorkers", "transformWorkers", "Worker.NodeSelector"),),
    "worker.volumeMounts": (("transformWorkerVolumes", "transformWorkerVolumes", "Worker.VolumeMounts"),),
    "worker.podMetadata": (("transformPodMetadata", "transformPodMetadata", "Worker.Labels"),),
    "worker.resources": (("", "", ""),),
    "worker.env": (("transformWorkers", "transformWorkers", "Worker.Envs"),),
    "worker.options": (("transformWorkers", "genWorkerMount", "Worker.Command"),),
    "juicefsVersion.image": (("transformWorkers", "transformWorkers", "Image"),),
    "juicefsVersion.imageTag": (("transformWorkers", "transformWorkers", "ImageTag"),),
    "juicefsVersion.imagePullPolicy": (("transformWorkers", "transformWorkers", "ImagePullPolicy"),),
    "fuse.volumeMounts": (("transformFuseVolumes", "transformFuseVolumes", "Fuse.VolumeMounts"),),
    "fuse.podMetadata": (("transformPodMetadata", "transformPodMetadata", "Fuse.Labels"),),
    "fuse.resources": (("", "", ""),),
    "fuse.env": (("transformFuse", "transformFuse", "Fuse.Envs"),),
    "fuse.options": (("transformFuse", "genFuseMount", "Fuse.Command"),),
    "fuse.image": (("transformFuse", "transformFuse", "Fuse.Image"),),
    "fuse.imageTag": (("transformFuse", "transformFuse", "Fuse.ImageTag"),),
    "fuse.imagePullPolicy": (("transformFuse", "transformFuse", "Fuse.ImagePullPolicy"),),
    "fuse.nodeSelector": (("transformFuseNodeSelector", "transformFuseNodeSelector", "Fuse.NodeSelector"),),
    "volumes": (("transformWorkerVolumes", "transformWorkerVolumes", "Worker.Volumes"),
                ("transformFuseVolumes", "transformFuseVolumes", "Fuse.Volumes")),
    "tieredstore": (("transformWorkers", "genWorkerMount", "Worker.Command"),
                    ("transformFuse", "genFuseMount", "Fuse.Command")),
    "podMetadata": (("transformPodMetadata", "transformPodMetadata", "Worker.Labels"),
                    ("transformPodMetadata", "transformPodMetadata", "Fuse.Labels")),
}
_SYNCS = {"worker": ("syncWorkerSpec", "checkAndSetWorkerChanges"),
          "fuse": ("syncFuseSpec", "checkAndSetFuseChanges", "updateFuseCmdConfigmapOnChanged")}


def _runtime(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "JuiceFSRuntime",
            "metadata": {"name": "jfs", "namespace": "default"}, "spec": spec}


def _synced_by(root: Path, path: str) -> set[str]:
    """The workloads whose sync (at the tree `root`) compares what the runtime field `path` becomes."""
    selector, _ = _go_spec_field(root, path)
    found = set()
    for reader, writer, value in _CARRIED[path]:
        if reader:
            assert re.search(rf"\bruntime\.Spec\.{re.escape(selector)}\b", _func(root, reader)), (reader, selector)
            assert re.search(rf"\bvalue\.{re.escape(value)}\b[^\n=]*=(?!=)", _func(root, writer)), (writer, value)
        compared = (rf"\b(?:value|latestValue)\.{re.escape(value)}\b" if value
                    else rf"\bruntime\.Spec\.{re.escape(selector)}\b")
        owners = ("fuse",) if value.startswith("Fuse.") else ("worker",) if value else ("worker", "fuse")
        for workload in owners:
            if re.search(compared, "\n".join(_func(root, f) for f in _SYNCS[workload])):
                found.add(workload)
    return found


def _edit_value(kind: str, value: str) -> object:
    """A value of the Go type `kind` (a field of JuiceFSRuntimeSpec) holding `value`."""
    return {"string": value, "map[string]string": {"k": value}, "PodMetadata": {"labels": {"k": value}},
            "[]corev1.EnvVar": [{"name": "V", "value": value}],
            "[]corev1.VolumeMount": [{"name": "v", "mountPath": f"/{value}"}],
            "[]corev1.Volume": [{"name": "v", "hostPath": {"path": f"/{value}"}}],
            "corev1.ResourceRequirements": {"limits": {"memory": f"{ord(value)}Mi"}},
            "TieredStore": {"levels": [{"mediumtype": "SSD", "path": f"/{value}", "quota": "1Gi"}]}}[kind]


def _expected_effect(root: Path, synced: set[str]) -> tuple[str, str]:
    """What an edit does given the workloads that sync it: the FUSE DaemonSet is OnDelete (chart
    values fuse.updateStrategy), so its pods decide; the worker StatefulSet is OnDelete where the
    chart or syncWorkerSpec makes it so (#5366), and rolls otherwise."""
    values = (root / "charts/juicefs/values.yaml").read_text()
    assert re.search(r"^fuse:\n(?:  .*\n|\n)*?  updateStrategy:\n    type: OnDelete$", values, re.M)
    if "fuse" in synced:
        return ON_RESTART, "fuse"
    if "worker" in synced:
        chart = (root / "charts/juicefs/templates/worker/statefulset.yaml").read_text()
        on_delete = ("OnDeleteStatefulSetStrategyType" in _func(root, "syncWorkerSpec")
                     or re.search(r"updateStrategy:\s*\n\s*type: OnDelete", chart) is not None)
        return (ON_RESTART if on_delete else ROLLING), "worker"
    return RECREATE, ""


@pytest.mark.parametrize("version", NAMES)
def test_plan_says_of_each_runtime_field_what_fluids_juicefs_sync_does(version: str) -> None:
    """Mutation run (issue 42): renaming worker.volumeMounts, worker.options, juicefsVersion or
    podMetadata in the sync edit lists survived. For each field: it is a JuiceFSRuntimeSpec field
    (api/v1alpha1), the transform reads it into a value (pkg/ddc/juicefs transform*.go), and plan
    says it is applied (by the workload whose sync compares that value: sync_runtime.go) or waits
    for a re-created runtime when no sync compares it. juicefsVersion.imagePullPolicy, like
    fuse.imagePullPolicy, is compared nowhere: plan called it applied (the whole juicefsVersion)."""
    root = need_tree(version)
    wrong = []
    for path in _CARRIED:
        _, kind = _go_spec_field(root, path)
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        for spec, value in ((before, "a"), (after, "b")):
            *parents, leaf = path.split(".")
            node = spec
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = _edit_value(kind, value)
        got = {(e.effect, e.workload) for e in classify([_runtime(before)], [_runtime(after)], version)}
        want = _expected_effect(root, _synced_by(root, path))
        if got != {want}:
            wrong.append(f"{path}: plan says {sorted(got)}, Fluid {version}: {want}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("version", NAMES)
def test_every_juicefs_sync_edit_names_a_field_fluid_syncs(version: str) -> None:
    """The engine's runtime edit list (juicefs.py _WORKER, _FUSE, and replicas) names JuiceFSRuntimeSpec
    fields only, and exactly the fields of _CARRIED whose values a sync compares at `version`."""
    root = need_tree(version)
    named = {fact.prefix for fact in edit_facts(ENGINES["juicefs"], version) if fact.prefix != "replicas"}
    for prefix in named:
        _go_spec_field(root, prefix)
    assert named == {path for path in _CARRIED if _synced_by(root, path)}


def _consts(root: Path) -> dict[str, str]:
    """pkg/ddc/juicefs/const.go: each string constant's value by its Go name."""
    return dict(re.findall(r'^\s*(\w+)\s*=\s*"([^"]*)"', _go(root, f"{_JFS}/const.go"), re.M))


def _mount_loops(root: Path) -> tuple[str, str]:
    """genValue's loops over the first mount's options and its encryptOptions."""
    body = _func(root, "genValue")
    options = re.search(r"for k, v := range mount\.Options \{(.*?)\n\t\}", body, re.S)
    secrets = re.search(r"for _, encryptOption := range mount\.EncryptOptions \{(.*?)\n\t\}", body, re.S)
    assert options and secrets, "genValue no longer reads the mount's options and encryptOptions"
    return options.group(1), secrets.group(1)


def _string_list(body: str, name: str, consts: dict[str, str]) -> set[str]:
    m = re.search(rf"{name} = \[\]string\{{([^}}]*)\}}", body)
    assert m, name
    return {consts[c.strip()] for c in m.group(1).split(",")}


def _mount_sync_dataset(options: dict[str, str]) -> dict[str, Any]:
    mount = {"mountPoint": "juicefs:///", "name": "jfs", "options": options,
             "encryptOptions": [{"name": "metaurl", "valueFrom": {"secretKeyRef": {"name": "jfs", "key": "metaurl"}}}]}
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset",
            "metadata": {"name": "jfs", "namespace": "default"}, "spec": {"mounts": [mount]}}


@pytest.mark.parametrize("version", NAMES)
def test_the_mount_options_rendered_once_are_the_ones_left_out_of_the_fuse_mount_command(version: str) -> None:
    """Mutation run (issue 42): `storage` and `bucket2` dropped from the unsynced options survived.
    A mount option edit reaches running FUSE pods through the mount command (sync_runtime.go
    isCommandChanged) unless Fluid keeps it out of that command: genValue takes the options it
    stores in value.Configs (storage and bucket: the format command) and skips quota (genQuotaCmd's),
    and buildFuseMountCmdFilter drops what it disallows (bucket2: the enterprise auth command's).
    Those wait for a re-created runtime; any other option is applied as FUSE pods restart."""
    root = need_tree(version)
    consts = _consts(root)
    loop, _ = _mount_loops(root)
    configs = {consts[c] for c in re.findall(r"case (\w+):\s*\n\s*value\.Configs\.\w+ = v\s*\n\s*continue", loop)}
    skipped = set(re.findall(r'if k != "([\w-]+)"', loop))
    filtered = _string_list(_func(root, "buildFuseMountCmdFilter"), "disallowOptionKey", consts)
    assert configs and skipped and filtered
    once = configs | skipped | filtered
    edited = sorted(once | {"writeback", "cache-partial-only"})
    old = _mount_sync_dataset(dict.fromkeys(edited, "a"))
    new = _mount_sync_dataset(dict.fromkeys(edited, "b"))
    got = {e.path: (e.effect, e.workload) for e in classify([old, _runtime({})], [new, _runtime({})], version)}
    assert got == {f"spec.mounts[0].options.{name}": (RECREATE, "") if name in once else (ON_RESTART, "fuse")
                   for name in edited}


def _credentials(root: Path) -> tuple[set[str], set[str]]:
    """(the encryptOption names genValue reads by name for a juicefs:// mount, the second bucket's key
    names the enterprise format filter lets into the auth command); genValue turns any other name
    into an environment variable the format command passes on (its default case)."""
    consts = _consts(root)
    _, loop = _mount_loops(root)
    assert re.search(r"default:.*?EncryptEnvOptions = append\(", loop, re.S)
    second = _string_list(_func(root, "buildFormatCmdFilterForEnterpriseEdition"), "allowEncryptEnvOptionKey", consts)
    return {consts[c] for c in re.findall(r"case (\w+):", loop)}, second


def _lint_jfs(tmp_path: Path, mount: str, *more: str) -> list[str]:
    docs = [f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: jfs, namespace: default}}
spec:
  mounts:
    - mountPoint: juicefs:///
      name: jfs
{textwrap.indent(mount, "      ")}""", """\
apiVersion: data.fluid.io/v1alpha1
kind: JuiceFSRuntime
metadata: {name: jfs, namespace: default}
spec: {replicas: 1}
""", *more]
    manifests = tmp_path / "m.yaml"
    manifests.write_text("---\n".join(docs))
    result = run_cli("lint", str(manifests))
    assert result.code in (0, 1), result.err
    # "<file>:<line>:<col>: error [FG...]: <key>: <message>" -> "error [FG...]: <key>: <message>"
    return [line.split(": ", 1)[1] for line in result.err.splitlines() if line.startswith(f"{manifests}:")]


def _secret_refs(names: list[str]) -> str:
    return "encryptOptions:\n" + "".join(f"  - {{name: {n}, valueFrom: {{secretKeyRef: {{name: s, key: k}}}}}}\n"
                                         for n in names)


@pytest.mark.parametrize("version", NAMES)
def test_each_credential_juicefs_reads_is_one_in_plain_options(tmp_path: Path, version: str) -> None:
    """Mutation run (issue 42): a misspelt secret-key2 among the credential names survived. FG101
    flags, in a juicefs:// mount's plain options, every name JuiceFS reads as a credential: those
    genValue reads from encryptOptions (metaurl, token, access-key, secret-key) and the second
    bucket's keys the enterprise auth command takes (access-key2, secret-key2), whose names no
    generic credential pattern catches."""
    read, second = _credentials(need_tree(version))
    names = sorted(read | second)
    found = _lint_jfs(tmp_path, "options: {" + ", ".join(f"{n}: x" for n in names) + "}\n" + _secret_refs(["metaurl"]))
    said = "is in plain options; move it to encryptOptions backed by a Secret (fluidgen: credentials.fromEnv/fromFile)"
    unflagged = [n for n in names if f"error [FG101]: spec.mounts[0].options.{n}: credential {n} {said}" not in found]
    assert unflagged == [], found


@pytest.mark.parametrize("version", NAMES)
def test_the_second_buckets_keys_and_any_other_encrypt_option_are_read(tmp_path: Path, version: str) -> None:
    """Mutation run (issue 42): a misspelt access-key2 in the second key pair and `other_names_read`
    False survived. The second bucket's two keys given together, and a name genValue makes an
    environment variable, draw no FG118; one key of the pair without the other does."""
    read, second = _credentials(need_tree(version))
    assert not read & {"custom-env"}
    both = _lint_jfs(tmp_path, _secret_refs(["metaurl", *sorted(second), "custom-env"]))
    assert [f for f in both if "[FG118]" in f] == [], both
    for given in sorted(second):
        (other,) = second - {given}
        half = _lint_jfs(tmp_path, _secret_refs(["metaurl", given]))
        assert [f for f in half if "[FG118]" in f] == [
            f"error [FG118]: spec.mounts[0]: {given} without {other}: JuiceFSRuntime needs both "
            f"{' and '.join(sorted(second))} for juicefs://"], half


@pytest.mark.parametrize("version", NAMES)
def test_the_juicefs_starter_sets_what_the_format_command_needs(version: str) -> None:
    """Mutation run (issue 42): the starter's suggested `storage` option (its name, its value)
    survived. genFormatCmd formats the volume with --storage and --bucket only when both are given
    (otherwise --no-update): the starter `fluidgen init --engine juicefs` writes exactly those two
    options (the names genValue stores them under), each value wholly a placeholder to fill in."""
    root = need_tree(version)
    consts = _consts(root)
    loop, _ = _mount_loops(root)
    stored = {field: consts[c] for c, field in re.findall(r"case (\w+):\s*\n\s*value\.Configs\.(\w+) = v", loop)}
    assert re.search(r'if value\.Configs\.Storage == "" \|\| value\.Configs\.Bucket == "" \{\s*'
                     r'args = append\(args, "--no-update"\)', _func(root, "genFormatCmd"))
    doc: dict[str, Any] = YAML(typ="safe").load(starter("juicefs", "juicefs:///", "demo"))
    options = doc["source"][0]["options"]
    assert set(options) == {stored["Storage"], stored["Bucket"]}
    assert all(PLACEHOLDER.fullmatch(value) for value in options.values()), options


_MIGRATE_S3 = """\
apiVersion: data.fluid.io/v1alpha1
kind: DataMigrate
metadata: {{name: m, namespace: default}}
spec:
  from: {{dataset: {{name: jfs, namespace: default}}}}
  to:
    externalStorage:
      uri: s3://bucket/imagenet/
{refs}"""


@pytest.mark.parametrize("version", NAMES)
def test_a_datamigrate_to_any_other_scheme_reads_the_names_gen_data_url_reads(tmp_path: Path, version: str) -> None:
    """Mutation run (issue 42): JuiceFS's DataMigrate storage for any scheme ("*") misnamed survived.
    data_migrate.go genDataUrl builds the `juicefs sync` URL of an external storage of any scheme
    (s3:// here) from the encryptOptions it names (access-key, secret-key, token): an s3:// end
    with those draws nothing, and a name it does not read is reported with the ones it does."""
    body = _func(need_tree(version), "genDataUrl")
    read = sorted(set(re.findall(r'case "([\w-]+)":', body[body.index("data.ExternalStorage.EncryptOptions"):])))
    assert read
    refs = textwrap.indent(_secret_refs([*read, "fs.s3.accessKeyId"]), "      ")
    found = _lint_jfs(tmp_path, _secret_refs(["metaurl"]), _MIGRATE_S3.format(refs=refs))
    assert [f for f in found if "[FG118]" in f] == [
        f"error [FG118]: spec.to.externalStorage.encryptOptions[{len(read)}].name: JuiceFSRuntime does not read "
        f"fs.s3.accessKeyId for s3:// (it reads {', '.join(read)})"], found


@pytest.mark.parametrize("scheme", ["oss", "cos", "obs", "s3"])
def test_a_datamigrate_to_oss_cos_or_obs_names_the_endpoint_in_the_bucket(tmp_path: Path, scheme: str) -> None:
    """JuiceFS's DataMigrate hands the external URI to `juicefs sync` as written (data_migrate.go
    genDataUrl: url.Parse, then only the user info is set); for oss://, cos:// and obs:// that
    command wants the endpoint in the bucket's host (MIGRATE_STORAGE endpoint_in_uri). An s3://
    end is not held to it."""
    said = (f"{scheme}:// to `juicefs sync`, which needs the endpoint in the URI: "
            f"{scheme}://<BUCKET>.<ENDPOINT>/<PATH>")
    refs = textwrap.indent(_secret_refs(["access-key", "secret-key"]), "      ")
    bare = _MIGRATE_S3.replace("s3://bucket/imagenet/", f"{scheme}://bucket/imagenet/").format(refs=refs)
    found = _lint_jfs(tmp_path, _secret_refs(["metaurl"]), bare)
    assert any(said in f for f in found) is (scheme != "s3"), found
    hosted = _MIGRATE_S3.replace("s3://bucket/imagenet/", f"{scheme}://bucket.example-endpoint.com/imagenet/")
    assert not any(said in f for f in _lint_jfs(tmp_path, _secret_refs(["metaurl"]), hosted.format(refs=refs)))


def test_fg117_reads_every_level_past_one_whose_quota_is_no_size(tmp_path: Path) -> None:
    manifests = tmp_path / "m.yaml"
    manifests.write_text(LEVEL.format(quota="1").replace(
        "levels: [{mediumtype: SSD, path: /cache, quota: 1}]",
        "levels: [{mediumtype: MEM, path: /m, quota: lots}, {mediumtype: SSD, path: /cache, quota: 4096}]"))
    result = run_cli("lint", str(manifests))
    assert "error [FG117]: spec.tieredstore.levels[1].quota: quota 4096 is 4096 bytes" in result.err, result.err


def test_one_juicefs_cache_dir_with_several_quotas_is_the_generic_count_error_only(tmp_path: Path) -> None:
    """Several quotas for one directory are the quota count's error (lower/runtime.py); JuiceFS's
    own message is for several directories only."""
    spec = tmp_path / "jfs.yaml"
    spec.write_text(SEVERAL_DIRS.format(quotas="10Gi, 10Gi").replace("path: [/c1, /c2]", "path: [/c1]"))
    result = run_cli("build", str(spec))
    assert result.code == 1 and "2 quotas for 1 path" in result.err, result.err
    assert "JuiceFS takes one cache-size" not in result.err, result.err
