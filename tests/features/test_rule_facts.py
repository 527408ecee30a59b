"""Lint rules against Fluid's code (issue 23): each test names the Fluid source that decides it."""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.base.versions import NAMES
from fluidgen.engines.alluxio import DEFAULT_PROPERTIES, JNI_FUSE, MOUNT_CONFIG_STORAGE
from fluidgen.engines.engine_table import all_engines
from tests.conftest import run_cli
from tests.harness.fluid_src import tree
from tests.lint.test_lint import dataset, runtime

ENCRYPT = "{{name: {n}, valueFrom: {{secretKeyRef: {{name: s, key: {k}}}}}}}"


def _lint(tmp_path: Path, *docs: str) -> str:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join(docs))
    return run_cli("lint", str(manifest)).err


def test_alluxio_reads_every_credential_name(tmp_path: Path) -> None:
    """pkg/ddc/alluxio/ufs_internal.go genUFSMountOptions passes every option and encryptOption name to
    `alluxio fs mount`: FG118 refused Alluxio's canonical s3a.accessKeyId/s3a.secretKey."""
    encrypt = ", ".join(ENCRYPT.format(n=n, k=n) for n in ("s3a.accessKeyId", "s3a.secretKey"))
    err = _lint(tmp_path, dataset(mounts=f'[{{mountPoint: "s3://b/p", name: d, encryptOptions: [{encrypt}]}}]'),
                runtime())
    assert "[FG118]" not in err, err


def test_an_option_also_given_encrypted_is_a_warning_saying_which_wins(tmp_path: Path) -> None:
    """Fluid's default ALLUXIO_MOUNT_CONFIG_STORAGE is configmap (alluxio/ufs.go IsMountWithConfigMap;
    charts/fluid/fluid/values.yaml runtime.alluxio.mountConfigStorage), where genUFSMountOptions writes
    the encryptOption over the option; only other storages fail the mount (genEncryptOptions)."""
    assert MOUNT_CONFIG_STORAGE.value == "configmap"
    for version in ("v1.0.8", "v1.1.0-dev"):
        root = tree(version)
        if root is not None:
            assert "mountConfigStorage: configmap" in (root / "charts/fluid/fluid/values.yaml").read_text()
    encrypt = ENCRYPT.format(n="fs.oss.accessKeyId", k="id")
    err = _lint(tmp_path, dataset(mounts='[{mountPoint: "oss://b/p", name: d, options: {fs.oss.endpoint: e, '
                                         f'fs.oss.accessKeyId: x}}, encryptOptions: [{encrypt}]}}]'), runtime())
    line = next(x for x in err.splitlines() if "[FG123]" in x)
    assert "warning [FG123]" in line and "this encryptOption's Secret file wins silently" in line
    # a sharedOptions name is every mount's option (transformUFS merges it under each mount's options)
    shared = dataset(mounts=f'[{{mountPoint: "oss://b/p", name: d, options: {{fs.oss.endpoint: e}}, '
                            f'encryptOptions: [{encrypt}]}}]').replace("spec:\n", "spec:\n  sharedOptions: "
                                                                       "{fs.oss.accessKeyId: x}\n", 1)
    assert "sharedOptions" in shared
    assert "warning [FG123]: spec.mounts[0].encryptOptions[0].name" in _lint(tmp_path, shared, runtime())


def _fg123(err: str) -> list[str]:
    return [x.split(": warning [FG123]: ", 1)[1] for x in err.splitlines() if "[FG123]" in x]


def test_every_name_an_encryptoption_sets_twice_is_said_once_at_the_later_one(tmp_path: Path) -> None:
    """genEncryptOptions (alluxio and thin ufs_internal.go, both commits) refuses an encryptOption whose
    name is already set, by an option or by an earlier encryptOption, sharedEncryptOptions first
    (genUFSMountOptions, extractMountOptions): FG123 looked only at a mount's own encryptOptions."""
    key, endpoint = ENCRYPT.format(n="fs.oss.accessKeyId", k="id"), ENCRYPT.format(n="fs.oss.endpoint", k="e")
    region = ENCRYPT.format(n="fs.oss.region", k="r")
    mounts = f'[{{mountPoint: "oss://b/p", name: p, encryptOptions: [{key}]}}, ' \
             f'{{mountPoint: "oss://b/q", name: q, options: {{fs.oss.endpoint: e2, fs.oss.region: r}}, ' \
             f'encryptOptions: [{region}]}}]'
    doc = dataset(mounts=mounts).replace("spec:\n", f"spec:\n  sharedOptions: {{fs.oss.endpoint: e}}\n"
                                                     f"  sharedEncryptOptions: [{key}, {endpoint}]\n", 1)
    said = _fg123(_lint(tmp_path, doc, runtime()))
    tail = ("With Fluid's default config storage (configmap) this encryptOption's Secret file wins silently; a Fluid "
            "whose ALLUXIO_MOUNT_CONFIG_STORAGE reads the Secrets' values fails on it ('set more than one "
            "times'). ")
    assert said == [
        "spec.sharedEncryptOptions[1].name: fs.oss.endpoint is set twice for every mount: by spec.sharedOptions and "
        f"by this encryptOption. {tail}Drop it from spec.sharedOptions; the Secret keeps it out of the Dataset",
        "spec.mounts[0].encryptOptions[0].name: fs.oss.accessKeyId is set twice for mount 0: by "
        f"spec.sharedEncryptOptions[0] and by this encryptOption. {tail}Keep one of the two",
        # found after mount 1 met the shared clash said already
        "spec.mounts[1].encryptOptions[0].name: fs.oss.region is set twice for mount 1: by spec.mounts[1].options and "
        f"by this encryptOption. {tail}Drop it from spec.mounts[1].options; the Secret keeps it out of the Dataset",
    ], said
    # a mount's own option names the mount, and the shared encryptOption is the later one
    own = doc.replace("  sharedOptions: {fs.oss.endpoint: e}\n", "")
    assert _fg123(_lint(tmp_path, own, runtime()))[0].startswith(
        "spec.sharedEncryptOptions[1].name: fs.oss.endpoint is set twice for mount 1: by spec.mounts[1].options "
        "and by this encryptOption.")
    # the same Dataset on a ThinRuntime (its THIN_FUSE_CONFIG_STORAGE), and none on Jindo (no such merge)
    thin = _fg123(_lint(tmp_path, doc, runtime("ThinRuntime", "profileName: p")))
    assert len(thin) == 3 and all("a Fluid whose THIN_FUSE_CONFIG_STORAGE reads" in x for x in thin), thin
    assert _fg123(_lint(tmp_path, doc, runtime("JindoRuntime"))) == []
    # Fluid's ThinRuntime of a dataset:// reference never merges the options (the reference engine)
    reference = dataset(mounts=f'[{{mountPoint: "dataset://other/d", name: p, options: {{fs.oss.accessKeyId: x}}, '
                               f'encryptOptions: [{key}]}}]')
    assert _fg123(_lint(tmp_path, reference, runtime("ThinRuntime", "profileName: p"))) == []
    # a pvc:// mount is a volume to Alluxio, which reads none of its options; the thin engine writes every
    # mount into its FUSE config (thin transform_config.go transformFuseConfig)
    volume = dataset(mounts=f'[{{mountPoint: "pvc://claim/d", name: v, options: {{fs.oss.accessKeyId: x}}, '
                            f'encryptOptions: [{key}]}}]')
    assert _fg123(_lint(tmp_path, volume, runtime())) == []
    assert len(_fg123(_lint(tmp_path, volume, runtime("ThinRuntime", "profileName: p")))) == 1


@pytest.mark.parametrize("version", NAMES)
def test_the_config_storages_are_fluids_own(version: str) -> None:
    """Mounts.encrypt_config_storage names the variable each controller reads, and its chart sets
    configmap (alluxio const.go MountConfigStorage, thin transform_config.go EnvFuseConfigStorage)."""
    root = tree(version)
    if root is None:
        pytest.skip("no Fluid tree")
    named = {n: e.mounts.encrypt_config_storage for n, e in all_engines().items() if e.mounts.encrypt_config_storage}
    assert named == {"alluxio": "ALLUXIO_MOUNT_CONFIG_STORAGE", "thin": "THIN_FUSE_CONFIG_STORAGE"}
    assert f'MountConfigStorage   = "{named["alluxio"]}"' in (root / "pkg/ddc/alluxio/const.go").read_text()
    assert f'EnvFuseConfigStorage = "{named["thin"]}"' in (root / "pkg/ddc/thin/transform_config.go").read_text()
    for engine, chart, values in (("alluxio", "alluxioruntime_controller.yaml", "runtime.alluxio.mountConfigStorage"),
                                  ("thin", "thinruntime_controller.yaml", "runtime.thin.fuse.configStorage")):
        text = (root / "charts/fluid/fluid/templates/controller" / chart).read_text()
        at = text.index(f"- name: {named[engine]}")
        assert f"value: {{{{ .Values.{values} }}}}" in text[at:at + 200], engine
    assert "fuse:\n      configStorage: configmap" in (root / "charts/fluid/fluid/values.yaml").read_text()


def test_kernel_cache_with_fluids_default_jni_fuse_is_fine(tmp_path: Path) -> None:
    """alluxio/transform_optimization.go optimizeDefaultProperties sets alluxio.fuse.jnifuse.enabled
    "true" unless the runtime sets it: FG108 warned about every kernel_cache."""
    assert DEFAULT_PROPERTIES[JNI_FUSE] == "true"  # Fluid's value: test_alluxio reads every default from the Go code
    args = "fuse: {args: [fuse, --fuse-opts=kernel_cache]}"
    assert "[FG108]" not in _lint(tmp_path, dataset(), runtime(spec=f"replicas: 1\n{args}"))
    off = f"replicas: 1\nproperties: {{alluxio.fuse.jnifuse.enabled: 'false'}}\n{args}"
    assert "[FG108]" in _lint(tmp_path, dataset(), runtime(spec=off))
    other = off.replace("--fuse-opts=kernel_cache", "--fuse-opts=allow_other")
    assert "[FG108]" not in _lint(tmp_path, dataset(), runtime(spec=other))  # only kernel_cache needs the JNI FUSE
    fuse_off = "replicas: 1\nfuse: {args: [fuse, --fuse-opts=kernel_cache], properties: " \
               "{alluxio.fuse.jnifuse.enabled: 'false'}}"
    assert "[FG108]" in _lint(tmp_path, dataset(), runtime(spec=fuse_off))  # fuse.properties count (transformFuse)


def test_jindo_reads_the_oss_endpoint_only_from_mount_options(tmp_path: Path) -> None:
    """jindocache/transform.go transformMaster reads fs.oss.endpoint from the mount's options and
    sharedOptions ("oss endpoint can not be null"); runtime properties do not count for Jindo."""
    err = _lint(tmp_path, dataset(mounts='[{mountPoint: "oss://b/p/", name: d}]'),
                runtime("JindoRuntime", "replicas: 1\nproperties: {fs.oss.endpoint: e}"))
    assert 'needs option "fs.oss.endpoint"' in err, err
    shared = dataset(mounts='[{mountPoint: "oss://b/p/", name: d}]').replace(
        "mounts:", "sharedOptions: {fs.oss.endpoint: e}\n  mounts:")
    assert 'needs option "fs.oss.endpoint"' not in _lint(tmp_path, shared, runtime("JindoRuntime"))
    # Alluxio's site properties (the runtime's properties: transform.go transformCommonPart) do count
    assert 'needs option "fs.oss.endpoint"' not in _lint(
        tmp_path, dataset(mounts='[{mountPoint: "oss://b/p/", name: d}]'),
        runtime(spec="replicas: 1\nproperties: {fs.oss.endpoint: e}"))


def test_fg119_names_jindocache_defaults_not_root_ns(tmp_path: Path) -> None:
    """Only the legacy pkg/ddc/jindo/transform.go adds -oroot_ns; jindocache (the default engine:
    pkg/utils/jindo/jindo.go GetDefaultEngineImpl) replaces its per-access-mode defaults
    (jindocache/transform.go transformFuseArg) when fuse.args are given."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        root = tree(version)
        if root is not None:
            assert "root_ns" not in (root / "pkg/ddc/jindocache/transform.go").read_text()
            assert not (root / "pkg/ddc/jindocache/transform_fuse.go").exists()
    err = _lint(tmp_path, dataset(mounts='[{mountPoint: "oss://b/p/", name: d, path: /data, '
                                         'options: {fs.oss.endpoint: e}}]'),
                runtime("JindoRuntime", "replicas: 1\nfuse: {args: [-okernel_cache, -oro]}"))
    line = next(x for x in err.splitlines() if "[FG119]" in x)
    assert "root_ns" not in line and "-oattr_timeout=7200" in line and "-onegative_timeout=7200" in line
    full = "[-okernel_cache, -oro, -oattr_timeout=7200, -oentry_timeout=7200, -onegative_timeout=7200, -ono_symlink]"
    assert "[FG119]" not in _lint(tmp_path, dataset(mounts='[{mountPoint: "oss://b/p/", name: d, '
                                                           'options: {fs.oss.endpoint: e}}]'),
                                  runtime("JindoRuntime", f"replicas: 1\nfuse: {{args: {full}}}"))


SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: d, namespace: ns}
source: [{uri: "https://example.com/data/"}]
runtime: {engine: alluxio}
dataflow:
"""


def test_policy_on_event_is_refused(tmp_path: Path) -> None:
    """No operation chart renders anything for OnEvent (charts/fluid-dataloader/*/templates/job.yaml: ""
    or once; cronjob.yaml: cron), at either version; the spec accepted it and the step never ran."""
    for version in ("v1.0.8", "v1.1.0-dev"):
        root = tree(version)
        if root is not None:
            for chart in (root / "charts").glob("fluid-data*/**/templates/*.yaml"):
                assert "onevent" not in chart.read_text().lower(), chart
    spec = tmp_path / "s.yaml"
    spec.write_text(SPEC + "  - load: {paths: [/], policy: OnEvent}\n")
    result = run_cli("build", str(spec))
    assert result.code == 1 and "policy OnEvent never runs on Fluid" in result.err, result.err
    spec.write_text(SPEC + "  - load: {paths: [/], policy: Cron, schedule: '0 * * * *'}\n")
    assert run_cli("build", str(spec)).code == 0


def test_affinity_strategy_warns_about_its_feature_gate(tmp_path: Path) -> None:
    """pkg/dataflow/features.go: DataflowAffinity is Alpha, default false (chart: DataflowAffinity=false);
    cmd/fluidapp/app/fluidapp.go runs the DataOpJob controller only with it, and without it
    dataflow/helper.go GenerateNodeAffinity finds no injected labels, so nothing is placed."""
    spec = tmp_path / "s.yaml"
    spec.write_text(SPEC + "  - load: {paths: [/]}\n  - process: {mountPath: /data, image: busybox, script: 'ls',\n"
                           "    }\n    affinityStrategy: {policy: Require}\n")
    result = run_cli("build", str(spec))
    assert result.code == 0, result.err
    assert "warning" in result.err and "--feature-gates=DataflowAffinity=true" in result.err


def test_v108_jindo_mounts_one_secret(tmp_path: Path) -> None:
    """v1.0.8 jindocache/transform.go transformMaster keeps one value.Secret (the last encryptOption's)
    and one key per credential name; master projects OSS credentials per bucket."""
    root = tree("v1.0.8")
    if root is not None:
        text = (root / "pkg/ddc/jindocache/transform.go").read_text()
        assert "value.Secret = secretKeyRef.Name" in text
    one = ('[{mountPoint: "oss://a/", name: a, options: {fs.oss.endpoint: e}, encryptOptions: [' +
           ENCRYPT.format(n="fs.oss.accessKeyId", k="id") + ']}, {mountPoint: "oss://b/", name: b, options: '
           '{fs.oss.endpoint: e}, encryptOptions: [' + ENCRYPT.format(n="fs.oss.accessKeyId", k="id") + ']}]')
    assert "[FG135]" not in _lint(tmp_path, dataset(mounts=one), runtime("JindoRuntime"))
    other = one.replace("key: id}}}]}]", "key: id2}}}]}]")
    assert "[FG135]" in _lint(tmp_path, dataset(mounts=other), runtime("JindoRuntime"))


def test_every_storage_fact_names_the_fluid_code_that_reads_it() -> None:
    """FG118's facts (the credential names and options each engine reads per scheme) carry their
    FluidSource; tests/base/test_fluidsource.py checks each exists in Fluid's tree."""
    from fluidgen.engines.engine_table import ENGINES

    missing = [f"{e.name}:{scheme}" for e in ENGINES.values()
               for table in (e.mounts.storage, e.mounts.migrate_storage) for scheme, facts in table.items()
               if facts.source is None]
    assert not missing, missing


JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {name: check, namespace: default}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: check
          image: busybox
          command: [/bin/sh]
          args:
            - -c
            - |
              value_a="$(cat /data/a 2>/dev/null || true)"
              echo "bucket-a: ${value_a:-<empty>} ${value_b-<unset>} ${value_c:+<set>}" >&2
              %s
"""


@pytest.mark.parametrize("containers", ["containers", "initContainers", "ephemeralContainers"])
def test_fg102_leaves_a_shell_expansion_default_in_a_container_script_alone(tmp_path: Path,
                                                                            containers: str) -> None:
    """Issue 42 (9): the word of ${v:-<empty>} in a container's shell script is the script's own
    text (POSIX 2.6.2), as in Fluid's test/gha-e2e/jindo/multi-oss-job.yaml at master, which its
    end-to-end CI applies to a real cluster; the same in any of a pod's container lists. A
    <placeholder> anywhere else stays an error."""
    job = JOB.replace("      containers:", f"      {containers}:")
    ok = _lint(tmp_path, job % "exit 1")
    assert "FG102" not in ok, ok
    left = _lint(tmp_path, job % "cp /data/a <bucket-name>")
    assert f"error [FG102]: spec.template.spec.{containers}[0].args[1]: placeholder <bucket-name> was never " \
           "filled in" in left, left
    option = _lint(tmp_path, dataset(mounts='[{mountPoint: "s3://b/", name: d, options: {region: '
                                            '"${REGION:-<s3-bucket-region>}"}}]'), runtime())
    assert "[FG102]" in option and "<s3-bucket-region>" in option  # a mount option is no shell script


def test_fg102_reads_a_dataprocess_script_as_shell(tmp_path: Path) -> None:
    process = """\
apiVersion: data.fluid.io/v1alpha1
kind: DataProcess
metadata: {name: p, namespace: default}
spec:
  dataset: {name: demo, namespace: default}
  processor:
    script:
      image: busybox
      command: [bash]
      source: |
        echo "${OUT:-<none>}" %s
"""
    assert "FG102" not in _lint(tmp_path, process % "", dataset(), runtime())
    assert "[FG102]" in _lint(tmp_path, process % "> <output-file>", dataset(), runtime())


@pytest.mark.parametrize("kind", ["AlluxioRuntime", "GooseFSRuntime"])
@pytest.mark.parametrize(("mounts", "flagged"), [
    # issue 42 (2): a pvc:// (or local://) mount at "/" is a volume at /underFSStorage joined with "/",
    # the root itself (pkg/utils/ufs_path_builder.go GenLocalStoragePath): honoured, alone or not
    ('[{mountPoint: "pvc://imagenet", name: a, path: /}]', None),
    ('[{mountPoint: "local:///mnt/data", name: a, path: /}]', None),
    ('[{mountPoint: "pvc://imagenet", name: a, path: /}, {mountPoint: "oss://b/val/", name: v}]', None),
    # the single object-store mount at "/" is the root (GenAlluxioUFSRootPath)
    ('[{mountPoint: "oss://b/train/", name: t, path: /}]', None),
    # one object-store mount at "/" of several: the root is /underFSStorage, mountUFS skips "/"
    ('[{mountPoint: "oss://b/train/", name: t, path: /}, {mountPoint: "oss://b/val/", name: v}]', 0),
    ('[{mountPoint: "pvc://imagenet", name: a}, {mountPoint: "oss://b/train/", name: t, path: /}]', 1),
])
def test_fg124_flags_only_an_object_store_mount_at_the_root_beside_others(
        kind: str, mounts: str, flagged: int | None, tmp_path: Path) -> None:
    err = run_cli("lint", "--fluid-version", "v1.0.8", *_files(tmp_path, dataset(mounts=mounts), runtime(kind))).err
    lines = [x for x in err.splitlines() if "[FG124]" in x]
    if flagged is None:
        assert not lines, err
    else:
        assert len(lines) == 1 and f"spec.mounts[{flagged}].path" in lines[0] and kind in lines[0], err


def test_fg124_speaks_for_the_alluxio_like_engines_only(tmp_path: Path) -> None:
    """Jindo mounts every mount at its path, "/" included (jindocache/ufs_internal.go mountUFS):
    no engine but Alluxio and GooseFS has the rule's root."""
    from fluidgen.engines.engine_table import ENGINES

    assert sorted(n for n, e in ENGINES.items() if e.mounts.alluxio_root) == ["alluxio", "goosefs"]
    mounts = '[{mountPoint: "oss://b/train/", name: t, path: /}, {mountPoint: "oss://b/val/", name: v}]'
    err = run_cli("lint", *_files(tmp_path, dataset(mounts=mounts), runtime("JindoRuntime"))).err
    assert "FG124" not in err


def _files(tmp_path: Path, *docs: str) -> list[str]:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join(docs))
    return [str(manifest)]


def test_fg120_spares_only_the_runtime_fluid_serves_a_reference_with(tmp_path: Path) -> None:
    """pkg/controllers/runtime_controller.go CheckIfReferenceDatasetIsSupported refuses a runtime whose
    type is not common.ThinRuntime ("thin", pkg/common/thin.go) for a Dataset of dataset:// mounts, at
    both versions: FG120 reports every other runtime kind the version has, never the thin engine's."""
    import re

    from fluidgen.engines.engine_table import ENGINES
    from fluidgen.lint import runtime_kinds_at

    reference = dataset(mounts='[{mountPoint: "dataset://default/imagenet", name: imagenet}]')
    for version in ("v1.0.8", "v1.1.0-dev"):
        root = tree(version)
        if root is None:
            pytest.skip("Fluid's source trees (shared test data fluid-src) are not here")
        code = (root / "pkg/controllers/runtime_controller.go").read_text()
        check = code[code.index(") CheckIfReferenceDatasetIsSupported("):]
        assert "RuntimeType != common.ThinRuntime" in check[:check.index("\n}\n")]
        served = re.search(r'ThinRuntime\s*=\s*"(\w+)"', (root / "pkg/common/thin.go").read_text())
        assert served is not None
        for engine in ENGINES.values():
            if engine.kind not in runtime_kinds_at(version):
                continue
            manifest = tmp_path / "m.yaml"
            manifest.write_text("---\n".join([reference, runtime(engine.kind)]))
            err = run_cli("lint", "--fluid-version", version, str(manifest)).err
            assert ("[FG120]" in err) is (engine.name != served[1]), (version, engine.kind, err)


@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_fg118_reads_a_datamigrate_external_storage_as_juicefs_migration_does(tmp_path: Path, version: str) -> None:
    """pkg/ddc/juicefs/data_migrate.go genDataUrl turns only the externalStorage encryptOptions named in
    its switch (access-key, secret-key, token) into `juicefs sync` credentials: lint of a DataMigrate
    from a JuiceFS Dataset reports another name at its own key and accepts each of those."""
    import re

    root = tree(version)
    if root is None:
        pytest.skip("Fluid's source trees (shared test data fluid-src) are not here")
    code = (root / "pkg/ddc/juicefs/data_migrate.go").read_text()
    code = code[code.index(") genDataUrl("):]
    code = code[code.index("data.ExternalStorage.EncryptOptions"):code.index("\n}\n")]
    read = re.findall(r'case "([\w-]+)":', code)
    assert read, "genDataUrl reads no externalStorage encryptOption name"
    head = dataset(mounts='[{mountPoint: "juicefs:///", name: d}]') + "---\n" + runtime("JuiceFSRuntime")
    opt = "{{name: {n}, valueFrom: {{secretKeyRef: {{name: s, key: {n}}}}}}}"
    for names, wrong in ((read, None), ([*read, "accessKey"], "accessKey")):
        given = ", ".join(opt.format(n=n) for n in names)
        migrate = ("---\napiVersion: data.fluid.io/v1alpha1\nkind: DataMigrate\n"
                   "metadata: {name: m, namespace: default}\n"
                   "spec:\n  from: {dataset: {name: d, namespace: default}}\n  to: {externalStorage: "
                   f"{{uri: 's3://bucket.s3.example.com/out', encryptOptions: [{given}]}}}}\n")
        manifest = tmp_path / "m.yaml"
        manifest.write_text(head + migrate)
        err = run_cli("lint", "--fluid-version", version, str(manifest)).err
        found = [line for line in err.splitlines() if "spec.to.externalStorage" in line]
        if wrong is None:
            assert found == [], err
        else:
            assert found and f"externalStorage.encryptOptions[{len(read)}].name: JuiceFSRuntime does not read " \
                             f"{wrong} for s3://" in found[0], err


def test_fg101_flags_an_engine_credential_name_in_plain_options(tmp_path: Path) -> None:
    """A name the engine reads as a credential for the mount's storage (Alluxio's OSS key id: the
    engine record's secret_options, from pkg/ddc/alluxio/ufs_internal.go genUFSMountOptions) is a
    credential in plain options too, though it does not look like one; a plain endpoint is not."""
    from fluidgen.engines.engine_table import ENGINES

    assert "fs.oss.accessKeyId" in ENGINES["alluxio"].mounts.storage["oss"].secret_options
    err = _lint(tmp_path, dataset(mounts='[{mountPoint: "oss://b/p", name: d, options: {fs.oss.endpoint: e, '
                                         'fs.oss.accessKeyId: x}}]'), runtime())
    flagged = [line for line in err.splitlines() if "[FG101]" in line]
    assert len(flagged) == 1 and 'spec.mounts[0].options["fs.oss.accessKeyId"]' in flagged[0], err
