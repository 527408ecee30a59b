"""lint/storage.py: the edges of FG112 (a positive size is any size above zero) and FG106 (every
level's watermarks are checked, past a level whose watermarks are not numbers); FG101's credential
names and messages; FG124's message."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest

from fluidgen.base.manifest_index import Entry, ManifestIndex
from fluidgen.lint.storage import placeholders
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree
from tests.lint.test_lint import dataset, lint_err, runtime


def _lint(tmp_path: Path, levels: str) -> str:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(), runtime("AlluxioRuntime", f"tieredstore:\n  levels:\n{levels}")]))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err
    return result.err


def test_fg112_takes_a_one_byte_quota_as_positive(tmp_path: Path) -> None:
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: '/a,/b', quotaList: '1,2Gi'}\n")
    assert "[FG112]" not in err, err
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: '/a,/b', quotaList: '0,2Gi'}\n")
    assert "[FG112]" in err and "zero or negative" in err, err


def test_fg106_checks_every_level_past_one_it_cannot_read(tmp_path: Path) -> None:
    err = _lint(tmp_path, "    - {mediumtype: MEM, path: /dev/shm, quota: 1Gi, high: 'x', low: '0.5'}\n"
                          "    - {mediumtype: SSD, path: /ssd, quota: 9Gi, high: '0.5', low: '0.9'}\n")
    assert "[FG106]: spec.tieredstore.levels[1].low: low watermark 0.9 must be below high watermark 0.5" in err, err


def test_fg101_names_the_credential_in_plain_options_and_in_plain_shared_options(tmp_path: Path) -> None:
    """A mount's options and the Dataset's sharedOptions are plain fields (api/v1alpha1/dataset_types.go
    SharedOptions, EncryptOptions): a credential there is said at its own key, with where it goes."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(
        mounts="[{mountPoint: 'oss://b/p', name: d, options: {fs.oss.accessKeySecret: x}}]",
        extra="  sharedOptions: {fs.oss.endpoint: e, fs.s3a.secret.key: y}\n"), runtime()]))
    result = run_cli("lint", str(manifest))
    assert result.code == 1, result.err
    found = [line.split(": error ", 1)[1] for line in result.err.splitlines() if "[FG101]" in line]
    assert found == [
        '[FG101]: spec.mounts[0].options["fs.oss.accessKeySecret"]: credential fs.oss.accessKeySecret is in plain '
        "options; move it to encryptOptions backed by a Secret (fluidgen: credentials.fromEnv/fromFile)",
        '[FG101]: spec.sharedOptions["fs.s3a.secret.key"]: credential fs.s3a.secret.key is in plain sharedOptions; '
        "use sharedEncryptOptions"], result.err


def test_fg124_says_why_a_root_mount_beside_others_never_appears(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(
        mounts="[{mountPoint: 'oss://b/train/', name: train, path: /}, {mountPoint: 'oss://b/val/', name: val}]"),
        runtime()]))
    result = run_cli("lint", str(manifest))
    assert ('[FG124]: spec.mounts[0].path: path "/" on one mount of 2 is never mounted: AlluxioRuntime keeps its '
            "local /underFSStorage at the root and skips a mount at a path already mounted, which the root always "
            "is. Drop path (the mount appears at /<name>) or the other mounts") in result.err, result.err


@pytest.mark.parametrize(("name", "flagged"), [
    ("fs.s3a.secret.key", True), ("aws.secretKey", True), ("fs.cosn.userinfo.secret_key", True),
    ("fs.oss.accessKeySecret", True), ("fs.obs.access.key.secret", True), ("token", True), ("metaurl", True),
    ("fs.s3a.endpoint", False), ("secret.key.provider.path", False), ("fs.oss.endpoint", False),
])
def test_fg101_reads_a_secret_key_however_its_words_are_joined(tmp_path: Path, name: str, flagged: bool) -> None:
    """On a runtime of no engine that names the option itself (ThinRuntime): the name alone decides."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(mounts=f"[{{mountPoint: 'https://e.com/d', name: d, "
                                                     f"options: {{{name}: x}}}}]"), runtime("ThinRuntime")]))
    assert ("[FG101]" in run_cli("lint", str(manifest)).err) is flagged


def test_fg102_never_reads_or_quotes_a_secrets_values(tmp_path: Path) -> None:
    """A password may look like `<anything>`: a Secret's data is neither checked nor echoed."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text("apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\n"
                        "stringData: {password: <s3cr3t>}\n---\napiVersion: v1\nkind: ConfigMap\n"
                        "metadata: {name: c, namespace: default}\ndata: {bucket: <bucket-name>}\n")
    result = run_cli("lint", str(manifest))
    assert "s3cr3t" not in result.err + result.out
    assert [line.split(": error ", 1)[1] for line in result.err.splitlines() if "FG102" in line] == [
        "[FG102]: data.bucket: placeholder <bucket-name> was never filled in"], result.err


_PV = """\
apiVersion: v1
kind: PersistentVolume
metadata: {{name: p}}
spec:
  capacity: {{storage: 1Gi}}
  accessModes: [ReadWriteMany]
  nfs: {{server: 10.0.0.1, path: /x}}
  mountOptions: [{options}]
"""


def test_fg103_nfs_conflict_is_said_at_the_last_version_option_and_not_for_one_version(tmp_path: Path) -> None:
    """Two different NFS versions are flagged at the last one (the one that wins); one version alone is not."""
    manifest = tmp_path / "pv.yaml"
    manifest.write_text(_PV.format(options="hard, nfsvers=4.1, vers=3, noatime, vers=4"))
    err = run_cli("lint", str(manifest)).err
    assert ("spec.mountOptions[4]: conflicting NFS versions (nfsvers=4.1, vers=3, vers=4); the last one wins, "
            "keep only the one you mean") in err, err
    manifest.write_text(_PV.format(options="hard, nfsvers=4.1"))
    assert "conflicting NFS versions" not in run_cli("lint", str(manifest)).err


def test_fg106_takes_equal_watermarks_as_a_low_not_below_the_high(tmp_path: Path) -> None:
    """The low watermark must be strictly below the high one: equal ones are flagged."""
    err = _lint(tmp_path, "    - {mediumtype: MEM, path: /dev/shm, quota: 1Gi, high: '0.8', low: '0.8'}\n")
    assert "[FG106]: spec.tieredstore.levels[0].low: low watermark 0.8 must be below high watermark 0.8" in err, err


def test_fg112_says_its_whole_messages_for_a_zero_quota_a_zero_in_quota_list_and_one_path(tmp_path: Path) -> None:
    """Each of FG112's messages is said in full, with the path counted in the singular."""
    err = _lint(tmp_path, "    - {mediumtype: MEM, path: /dev/shm, quota: '0'}\n")
    assert ("[FG112]: spec.tieredstore.levels[0].quota: quota 0 leaves no room to cache anything; "
            "give a positive size such as 10Gi") in err, err
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: '/a,/b', quotaList: '0,2Gi'}\n")
    assert 'spec.tieredstore.levels[0].quotaList: quotaList "0,2Gi" has a size that is zero or negative' in err, err
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: /a, quotaList: '1Gi,2Gi'}\n")
    assert ('spec.tieredstore.levels[0].quotaList: 2 quotas for 1 path (Fluid splits path on "," to match them; '
            "the runtime never sets up); give one quota per path, or one quota") in err, err


def test_fg129_flags_only_below_zero_past_an_unreadable_quantity_and_not_a_limit_range(tmp_path: Path) -> None:
    """FG129 is said for a quantity below zero (zero is a valid request), with its whole message, also after
    a quantity it cannot read; a LimitRange's spec.limits is a list of ranges, not a pod's resources."""
    err = lint_err(tmp_path, dataset(), runtime(spec="worker:\n  resources: {requests: {cpu: '0', memory: 'x'}, "
                                                   "limits: {memory: -1Gi}}"),
                   "apiVersion: v1\nkind: LimitRange\nmetadata: {name: l, namespace: default}\n"
                   "spec:\n  limits: [{type: Container, max: {memory: 1Gi}}]\n")
    assert [line.split(": ", 1)[1] for line in err.splitlines() if "[FG129]" in line] == [
        "error [FG129]: spec.worker.resources.limits.memory: -1Gi is negative; resource requests and limits cannot be"
    ], err


def test_fg106_checks_the_levels_past_one_that_is_not_a_mapping(tmp_path: Path) -> None:
    """A level that is not a mapping is passed over, not the end of the levels."""
    err = _lint(tmp_path, "    - foo\n"
                          "    - {mediumtype: SSD, path: /ssd, quota: 9Gi, high: '0.5', low: '0.9'}\n")
    assert "[FG106]: spec.tieredstore.levels[1].low: low watermark 0.9 must be below high watermark 0.5" in err, err


def test_fg102_reads_a_shell_default_in_a_container_command_and_a_script_command_and_args_as_text(
        tmp_path: Path) -> None:
    """`${v:-<empty>}` in what a shell runs (a container's command, a probe's or hook's exec command, a
    DataProcess script's command and args) is the program's own text, not a placeholder; the
    expansion is dropped whole before looking for one."""
    job = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: default}\nspec:\n  template:\n"
           "    spec:\n      restartPolicy: Never\n      containers:\n      - name: c\n        image: busybox\n"
           "        command: [sh, -c, 'echo ${V:-<empty>} <${W:-x}>']\n"
           "        readinessProbe: {exec: {command: [sh, -c, 'test -s ${F:-<none>}']}}\n"
           "        lifecycle: {preStop: {exec: {command: [sh, -c, 'echo ${V:-<empty>}']}}}\n")
    process = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataProcess\nmetadata: {name: p, namespace: default}\n"
               "spec:\n  dataset: {name: d, namespace: default}\n  processor:\n    script:\n      image: busybox\n"
               "      imageTag: latest\n      command: [sh, -c, 'echo ${V:-<empty>}']\n"
               "      args: ['echo ${V:-<empty>}']\n      source: 'echo'\n")
    err = lint_err(tmp_path, dataset(), job, process)
    assert "[FG102]" not in err, err
    left = lint_err(tmp_path, job.replace("<none>}'", "x} <bucket-name>'"))
    assert "[FG102]: spec.template.spec.containers[0].readinessProbe.exec.command[2]: placeholder <bucket-name>" \
        in left, left


def test_fg114_reads_a_mount_path_given_beside_different_names(tmp_path: Path) -> None:
    """Two mounts with their own names but one path are said at the second one's path."""
    mounts = '[{mountPoint: "https://a.com/x", name: a, path: /p}, {mountPoint: "https://b.com/y", name: b, path: /p}]'
    err = lint_err(tmp_path, dataset(mounts=mounts))
    assert '[FG114]: spec.mounts[1].path: mount path "/p" is also used by mounts[0]' in err, err


def test_fg102_walks_an_object_json_cannot_write() -> None:
    """Mutation run (issue 42): the pre-check's answer for data `json.dumps` refuses survived. Files and
    the API give YAML-shaped data only, but a caller of the rule may hand it what another loader makes
    (PyYAML reads 2024-01-01 as a date): such an object is walked, never passed over as holding no
    placeholder."""
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"},
           "data": {"since": datetime.date(2024, 1, 1), "bucket": "<bucket-name>"}}
    assert [(f.path, f.message) for f in placeholders(Entry.of(obj), ManifestIndex([obj]))] == [
        (("data", "bucket"), "placeholder <bucket-name> was never filled in")]


def test_fg103_takes_an_nfs_version_as_all_the_text_after_the_first_equals_sign(tmp_path: Path) -> None:
    """Mutation run (issue 42): `split("=", 2)` for `split("=", 1)` survived. A mount option's value is
    everything after its first '=' (mount(8): option=value), so vers=4=1 asks for version "4=1", not
    4: it disagrees with nfsvers=4. (The option's name, `split(...)[0]`, is the same at any maxsplit.)"""
    manifest = tmp_path / "pv.yaml"
    manifest.write_text(_PV.format(options="nfsvers=4, vers=4=1"))
    err = run_cli("lint", str(manifest)).err
    assert ("spec.mountOptions[1]: conflicting NFS versions (nfsvers=4, vers=4=1); the last one wins, keep only "
            "the one you mean") in err, err


def test_fg112_never_calls_a_size_past_what_it_can_count_zero_or_negative(tmp_path: Path) -> None:
    """Mutation run (issue 42): `_not_positive`'s answer for a quantity it cannot count survived. 1e100
    is a quantity (the CRD pattern) but past 2^63 (to_bytes refuses it): FG112 does not say it leaves no
    room, in quota or in quotaList."""
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: /a, quota: '1e100'}\n"
                          "    - {mediumtype: HDD, path: '/b,/c', quotaList: '1e100,1Gi'}\n")
    assert "leaves no room" not in err and "zero or negative" not in err, err


def test_fg114_takes_a_nameless_mount_at_its_own_path(tmp_path: Path) -> None:
    """Mutation run (issue 42): a nameless mount's default name survived. Name is optional
    (api/v1alpha1/dataset_types.go Mount, +optional); a mount appears at its absolute path, else at
    /<name> (pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace): two nameless mounts at
    different paths share nothing, and two without a path meet at "/"."""
    text = (need_tree("v1.1.0-dev") / "pkg/utils/ufs_path_builder.go").read_text()
    assert re.search(r"if filepath\.IsAbs\(mount\.Path\) \{\s*return mount\.Path", text)
    apart = '[{mountPoint: "https://a.com/x", path: /a}, {mountPoint: "https://b.com/y", path: /b}]'
    assert "[FG114]" not in lint_err(tmp_path, dataset(mounts=apart))
    together = '[{mountPoint: "https://a.com/x"}, {mountPoint: "https://b.com/y"}]'
    err = lint_err(tmp_path, dataset(mounts=together))
    assert [line.split(": error ", 1)[1] for line in err.splitlines() if "[FG114]" in line] == [
        '[FG114]: spec.mounts[1].mountPoint: mount path "/" is also used by mounts[0]'], err


def test_fg129_reads_amounts_of_any_yaml_type(tmp_path: Path) -> None:
    """Mutation run (issue 42): `or` for `and` in which amounts are quantities survived. A null, a boolean
    or a float amount is no quantity string or integer, which FG129 reads: lint passes over it without
    failing and still flags the negative amount beside it."""
    err = lint_err(tmp_path, dataset(), runtime(spec="worker:\n  resources: {requests: {cpu: -0.5, memory: null, "
                                                     "nvidia.com/gpu: true}, limits: {memory: -1Gi}}"))
    assert [line.split(": ", 1)[1] for line in err.splitlines() if "[FG129]" in line] == [
        "error [FG129]: spec.worker.resources.limits.memory: -1Gi is negative; resource requests and limits cannot be"
    ], err


def test_fg102_reads_a_shell_default_as_text_only_where_a_shell_runs_it(tmp_path: Path) -> None:
    """Mutation run (issue 42): `or` for `and` in the DataProcess script test survived. A key named
    command outside a container, an exec action or a script (a ConfigMap's), and a script's image,
    are no shell's text: a placeholder in a `${v:-<word>}` there is reported."""
    config = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\n"
              "data: {command: 'echo ${V:-<bucket-name>}'}\n")
    process = ("apiVersion: data.fluid.io/v1alpha1\nkind: DataProcess\nmetadata: {name: p, namespace: default}\n"
               "spec:\n  dataset: {name: d, namespace: default}\n  processor:\n    script:\n"
               "      image: '${REGISTRY:-<registry>}/busybox'\n      imageTag: latest\n      command: [sh]\n"
               "      source: 'echo'\n")
    err = lint_err(tmp_path, dataset(), config, process)
    assert [line.split(": error ", 1)[1] for line in err.splitlines() if "[FG102]" in line] == [
        "[FG102]: data.command: placeholder <bucket-name> was never filled in",
        "[FG102]: spec.processor.script.image: placeholder <registry> was never filled in"], err
