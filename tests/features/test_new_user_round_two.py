"""Issue 41: what a new user hits, round two. Each test failed on main before its fix."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT, run_cli
from tests.features.test_workable import OSS_SPEC, write

# --- 1. a misspelt credential name is reported at its own key, the hint apart from the word ----

TYPO = "fs.oss.accesKeySecret"


def test_a_misspelt_credential_name_in_an_env_file_is_reported_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text(f"# keys\nfs.oss.accessKeyId=a\n{TYPO}=b\n")
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi"))
    result = run_cli("build", spec)
    assert result.code == 1
    assert f"{tmp_path / 'oss.env'}:3:1: error [FG118]: " in result.err, result.err
    assert f'{TYPO} is not a name AlluxioRuntime needs' in result.err
    assert '; did you mean "fs.oss.accessKeySecret"?' in result.err
    assert f'{TYPO}did you mean' not in result.err and "oss.yaml:5:" not in result.err
    assert result.err.count("error") == 2  # the one error (no second "missing" at the uri) and the summary
    assert "=b" not in result.err  # the key's line, never its value


def test_a_misspelt_credential_name_in_the_spec_is_reported_at_its_key(tmp_path: Path) -> None:
    spec = write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi").replace(
        "credentials: {envFile: oss.env}", f"credentials:\n      fromEnv:\n        fs.oss.accessKeyId: AK\n"
                                           f"        {TYPO}: SK"))
    result = run_cli("build", spec, env={"AK": "a", "SK": "b"})
    assert result.code == 1
    assert f'{spec}:10:9: error [FG118]: source[0].credentials.fromEnv["{TYPO}"]: ' in result.err, result.err
    assert '; did you mean "fs.oss.accessKeySecret"?' in result.err


def test_a_missing_name_without_a_near_miss_is_still_reported_at_the_mount(tmp_path: Path) -> None:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\n")
    result = run_cli("build", write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi")))
    assert result.code == 1
    assert "oss.yaml:5:5: error [FG118]: source[0]: " in result.err and "missing fs.oss.accessKeySecret" in result.err
    assert "did you mean" not in result.err


# --- 2. every value asked of a node label is a label value ---------------------------------------

def _oss(tmp_path: Path, extra: str) -> str:
    (tmp_path / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    return write(tmp_path, "oss.yaml", OSS_SPEC.replace("QUOTA", "2Gi") + extra)


def test_two_gpu_models_in_one_string_are_refused_with_the_list_to_write(tmp_path: Path) -> None:
    spec = _oss(tmp_path, 'placement:\n  gpu: "Tesla-V100, A100"\n')
    result = run_cli("build", spec)
    assert result.code == 1 and not result.out
    assert f'{spec}:13:3: error: placement.gpu: "Tesla-V100, A100" is not a valid label value' in result.err, result.err
    assert "IsValidLabelValue" in result.err and "for several values write a list: [Tesla-V100, A100]" in result.err
    ok = run_cli("build", _oss(tmp_path, "placement:\n  gpu: [Tesla-V100, A100]\n"))
    assert ok.code == 0, ok.err
    assert "- Tesla-V100\n" in ok.out and "- A100\n" in ok.out


@pytest.mark.parametrize(("extra", "where"), [
    ("placement:\n  nodeSelector: {zone: us east}\n", "placement.nodeSelector.zone"),
    ("placement:\n  gpuLabel: 'bad key/x'\n  gpu: V100\n", "placement.gpuLabel"),
    ("  fuse:\n    nodeSelector: {pool: 'gpu,cpu'}\n", "runtime.fuse.nodeSelector.pool"),
])
def test_every_node_selector_of_the_spec_is_checked(tmp_path: Path, extra: str, where: str) -> None:
    result = run_cli("build", _oss(tmp_path, extra))
    assert result.code == 1, result.err
    assert f"error: {where}: " in result.err, result.err


def test_a_value_in_a_raw_node_affinity_is_checked_where_it_lands(tmp_path: Path) -> None:
    """A step's `affinity` is passed as written (core/v1): the emitted object is checked."""
    spec = _oss(tmp_path, """\
dataflow:
  - name: warm
    load: {paths: [/train]}
    affinity:
      nodeAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
            - matchExpressions:
                - {key: pool, operator: In, values: ["a b"]}
                - {key: pool, operator: Exists}
            - matchFields:
                - {key: metadata.name, operator: In, values: [node-1]}
""")
    result = run_cli("build", spec)
    assert result.code == 1, result.err
    assert "matchExpressions.0.values.0: \"a b\" is not a valid label value" in result.err, result.err
    assert result.err.count("is not a valid label value") == 1  # not the Exists, not matchFields


# --- 3. relative paths are refused where Fluid reads them as absolute ----------------------------

def test_relative_mount_cache_and_load_paths_are_refused_each_at_its_line(tmp_path: Path) -> None:
    spec = _oss(tmp_path, "dataflow:\n  - name: warm\n    load: {paths: [imagenet/train, {path: val}]}\n")
    Path(spec).write_text(Path(spec).read_text().replace(
        "    credentials:", "    path: imagenet\n    credentials:").replace(
        "{medium: MEM, quota: 2Gi}", "{medium: SSD, path: mnt/ssd, quota: 2Gi}"))
    result = run_cli("build", spec)
    assert result.code == 1 and not result.out
    assert f'{spec}:7:5: error: source[0].path: "imagenet" is a relative path; Fluid ignores' in result.err, result.err
    assert "GenUFSPathInUnifiedNamespace" in result.err and 'write "/imagenet"' in result.err
    assert f'{spec}:12:25: error: runtime.cache[0].path: "mnt/ssd" is a relative path' in result.err
    assert f'{spec}:15:20: error: dataflow[0].load.paths[0]: "imagenet/train" is a relative path' in result.err
    assert 'dataflow[0].load.paths[1].path: "val" is a relative path' in result.err
    assert 'write "/imagenet/train"' in result.err


def test_absolute_mount_and_load_paths_build(tmp_path: Path) -> None:
    spec = _oss(tmp_path, "dataflow:\n  - name: warm\n    load: {paths: [/imagenet/train, /]}\n")
    Path(spec).write_text(Path(spec).read_text().replace("    credentials:", "    path: /imagenet\n    credentials:"))
    result = run_cli("build", spec)
    assert result.code == 0, result.err
    assert "path: /imagenet\n" in result.out and "- path: /imagenet/train\n" in result.out


# --- 4. two data steps with one name: at the second step's name -----------------------------------

def test_two_steps_with_one_name_are_reported_at_the_second_steps_line(tmp_path: Path) -> None:
    spec = _oss(tmp_path, "dataflow:\n  - name: warm\n    load: {paths: [/train]}\n"
                          "  - name: warm\n    load: {paths: [/val]}\n")
    result = run_cli("build", spec)
    assert result.code == 1 and not result.out
    assert (f"{spec}:15:5: error: dataflow[1].name: DataLoad default/warm is generated twice: "
            f"dataflow[0].name ({spec}:13) makes it too") in result.err, result.err
    assert "also generated by" not in result.err and ":3:" not in result.err
    assert result.err.count("error") == 2


def test_two_specs_generating_one_object_are_still_reported(tmp_path: Path) -> None:
    one = _oss(tmp_path, "dataflow:\n  - name: warm\n    load: {paths: [/train]}\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "oss.env").write_text("fs.oss.accessKeyId=a\nfs.oss.accessKeySecret=b\n")
    two = write(tmp_path / "b", "oss.yaml", Path(one).read_text().replace("name: imagenet,", "name: other,"))
    result = run_cli("build", one, two)
    assert result.code == 1
    assert f"DataLoad default/warm is also generated by {one}" in result.err, result.err


# --- 5. a spec's pinned namespace winning over a setting is said -----------------------------------

PINNED = "warning: metadata.namespace: this spec pins namespace default: its objects go there, not to team-a from "


@pytest.mark.parametrize(("args", "env", "setting"), [
    (("-n", "team-a"), {}, "-n/--namespace"),
    ((), {"FLUIDGEN_NAMESPACE": "team-a"}, "FLUIDGEN_NAMESPACE"),
    (("-n", "team-a"), {"ARGOCD_APP_NAMESPACE": "team-a"},
     "Argo CD's destination namespace (ARGOCD_APP_NAMESPACE, passed as --namespace)"),
])
def test_a_namespace_setting_a_pinned_namespace_overrides_is_named(
        tmp_path: Path, args: tuple[str, ...], env: dict[str, str], setting: str) -> None:
    spec = _oss(tmp_path, "")
    result = run_cli("build", *args, spec, env=env)
    assert result.code == 0, result.err
    assert f"{spec}:3:" in result.err and PINNED + setting in result.err, result.err
    assert "namespace: team-a" not in result.out  # the documented precedence stays


def test_the_api_argument_a_pinned_namespace_overrides_is_named(tmp_path: Path) -> None:
    import fluidgen

    built = fluidgen.build(_oss(tmp_path, ""), namespace="team-a")
    assert built.ok
    assert [d.message for d in built.diagnostics if d.severity == "warning" and "pins namespace" in d.message] == [
        PINNED.split("metadata.namespace: ")[1] + "namespace= of fluidgen.build (a spec's own metadata.namespace "
                                                  "wins; remove it to follow the setting)"]


def test_a_project_environments_namespace_a_pinned_namespace_overrides_is_named(tmp_path: Path) -> None:
    _oss(tmp_path, "")
    (tmp_path / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                            "  prod: {specs: [oss.yaml], namespace: team-a}\n")
    result = run_cli("build", str(tmp_path), env={})
    assert result.code == 0, result.err
    assert PINNED + f"the namespace of environment prod in {tmp_path / 'fluidgen.yaml'}" in result.err, result.err


@pytest.mark.parametrize("args", [("-n", "default"), ()])
def test_no_warning_when_the_setting_agrees_or_is_absent(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = run_cli("build", *args, _oss(tmp_path, ""), env={})
    assert result.code == 0 and "pins namespace" not in result.err, result.err


# --- 6. README's pre-commit snippet works as written -------------------------------------------

def _precommit_snippet() -> dict[str, Any]:
    """The YAML block of README's pre-commit paragraph, as written."""
    text = (ROOT / "README.md").read_text()
    start = text.index("- **pre-commit**:")
    begin = text.index("```yaml\n", start) + len("```yaml\n")
    block = text[begin:text.index("```", begin)]
    loaded = yaml.safe_load(textwrap.dedent(block))
    assert isinstance(loaded, dict)
    return loaded


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)


def test_the_readme_precommit_snippet_names_nothing_that_does_not_exist() -> None:
    """Every `rev:` of the snippet is a commit of this repository (a version tag also matches
    pyproject's version), and a local hook runs what the published hook of that id runs."""
    published = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for repo in _precommit_snippet()["repos"]:
        if repo["repo"] == "local":
            for hook in repo["hooks"]:
                same = {k: published[hook["id"]].get(k) for k in ("entry", "types", "pass_filenames", "always_run")}
                assert {k: hook.get(k) for k in same} == same, hook["id"]
                assert hook["language"] == "system"  # runs the fluidgen installed by "Set up"
            continue
        rev = str(repo["rev"])
        if re.fullmatch(r"v\d+\.\d+\.\d+", rev):
            assert rev == f"v{version}", f"tag {rev} does not name pyproject's version {version}"
        if not (ROOT / ".git").exists():
            pytest.skip("not a git checkout: cannot resolve the snippet's rev")
        assert _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode == 0, \
            f"rev {rev} names nothing in this repository: pre-commit cannot check it out"


@pytest.mark.slow
def test_the_readme_precommit_snippet_runs_as_written(tmp_path: Path) -> None:
    """The snippet, verbatim, in a scratch repository, through the real pre-commit with the
    fluidgen of this environment on PATH: a good spec and its rendered output pass; a broken
    spec fails validate, a stale rendering fails rendered."""
    work = tmp_path / "work"
    (work / "specs" / "credentials").mkdir(parents=True)
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", work / "specs" / "imagenet.yaml")
    shutil.copy(EXAMPLES / "credentials" / "imagenet-oss.env", work / "specs" / "credentials")
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(_precommit_snippet()))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "PRE_COMMIT_HOME": str(tmp_path / "home"), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(cmd), cwd=work, env=env, capture_output=True, text=True, check=False, timeout=600)

    # a rendered Secret would hold values, which the hooks refuse: the spec names an existing Secret
    spec = work / "specs" / "imagenet.yaml"
    spec.write_text(re.sub(r"\n( *)secretName: [^\n]*", "", spec.read_text()).replace(
        "envFile: credentials/imagenet-oss.env",
        "existingSecret: {name: imagenet-oss, keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]}"))
    built = run(sys.executable, "-m", "fluidgen", "build", "specs/imagenet.yaml", "-o", "rendered")
    assert built.returncode == 0, built.stderr
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"]):
        assert run(*cmd).returncode == 0
    good = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "fluidgen validate" in good.stdout and "fluidgen rendered manifests are up to date" in good.stdout
    spec.write_text(spec.read_text().replace("quota: 180G", "quota: 180GB"))
    assert run("git", "add", "-A").returncode == 0
    bad = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "180GB" in bad.stdout


# --- 7. import is sized for a cluster of 1,000 Datasets ------------------------------------------

def _cluster_dump(datasets: int, pad: int = 0) -> dict[str, Any]:
    """`kubectl get -A -o yaml` of Datasets with their runtimes and a DataLoad every fifth one,
    with what the server adds (status, managedFields, last-applied-configuration); `pad` bytes
    of a ConfigMap's data besides."""
    items: list[dict[str, Any]] = []
    for i in range(datasets):
        ns, name = f"team-{i % 20}", f"ds-{i}"
        server = {"creationTimestamp": "2026-01-01T00:00:00Z", "resourceVersion": str(i), "uid": f"u-{i}",
                  "managedFields": [{"manager": "kubectl", "operation": "Update", "fieldsType": "FieldsV1",
                                     "fieldsV1": {"f:spec": {"f:mounts": {}}}}]}
        ds = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset",
              "metadata": {"name": name, "namespace": ns, **server},
              "spec": {"mounts": [{"mountPoint": f"https://mirrors.example.com/data/{i}/", "name": name}]},
              "status": {"phase": "Bound", "ufsTotal": "1.2TiB"}}
        rt = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "AlluxioRuntime",
              "metadata": {"name": name, "namespace": ns, **server},
              "spec": {"replicas": 2, "tieredstore": {"levels": [{"mediumtype": "SSD", "path": "/var/lib/alluxio",
                                                                   "quota": "100Gi"}]}},
              "status": {"masterPhase": "Ready", "workerPhase": "Ready"}}
        for o in (ds, rt):
            o["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(o["spec"])}
        items += [ds, rt]
        if i % 5 == 0:
            items.append({"apiVersion": "data.fluid.io/v1alpha1", "kind": "DataLoad",
                          "metadata": {"name": f"{name}-warm", "namespace": ns, **server},
                          "spec": {"dataset": {"name": name, "namespace": ns}, "target": [{"path": "/"}]}})
    if pad:
        items.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big", "namespace": "team-0"},
                      "data": {"blob": "x" * pad}})
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}


def test_an_input_over_four_mib_is_imported(tmp_path: Path) -> None:
    """A cluster's dump is larger than a build's 4 MiB inputs: import reads up to 64 MiB."""
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump(_cluster_dump(2, pad=5 * 1024 * 1024)))
    got = run_cli("import", str(tmp_path / "dump.yaml"), "-o", str(tmp_path / "out"))
    assert got.code == 0, got.err[-2000:]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["kept.yaml", "team-0-ds-0.yaml",
                                                                   "team-1-ds-1.yaml"]


def test_import_tells_its_progress_and_only_a_terminal_sees_it(tmp_path: Path) -> None:
    import io

    from fluidgen.base import versions
    from fluidgen.commands.import_ import progress
    from fluidgen.importer.run import run

    (tmp_path / "dump.yaml").write_text(yaml.safe_dump(_cluster_dump(3)))
    told: list[tuple[int, int]] = []
    assert len(run([str(tmp_path / "dump.yaml")], versions.DEFAULT, progress=lambda *a: told.append(a)).imported) == 3
    assert told == [(0, 3), (1, 3), (2, 3), (3, 3)]

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert progress(io.StringIO()) is None  # a pipe or a log file: nothing
    screen = Terminal()
    show = progress(screen)
    assert show is not None
    for done in range(21):
        show(done, 20)
    assert screen.getvalue().startswith("\rfluidgen import: 0/20 Datasets done\rfluidgen import: 1/20")
    assert screen.getvalue().endswith("\r\x1b[K")  # the line is erased at the end


@pytest.mark.slow
def test_a_cluster_of_a_thousand_datasets_imports_within_a_minute_and_a_gigabyte(tmp_path: Path) -> None:
    """The issue's sizing: 1,000 Datasets (2,200 objects) in one kubectl List, in CPU time (the
    test machine is shared: wall time there says little) and peak memory of this process."""
    import resource

    (tmp_path / "dump.yaml").write_text(yaml.safe_dump(_cluster_dump(1000)))
    before = resource.getrusage(resource.RUSAGE_SELF)
    got = run_cli("import", str(tmp_path / "dump.yaml"), "--check")
    after = resource.getrusage(resource.RUSAGE_SELF)
    assert got.code == 0, got.err[-2000:]
    assert "fluidgen import: 1000 spec(s): 1000 exact" in got.err
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert cpu < 60, cpu
    assert after.ru_maxrss < 1024 * 1024, after.ru_maxrss  # KiB on Linux


# --- README's Python API snippet runs as written, and says nothing for its own spec --------------

def test_the_readme_python_api_snippet_runs_as_written(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """It used to pass namespace="team-a" for a spec that pins default: the warning of item 5."""
    text = (ROOT / "README.md").read_text()
    begin = text.index("```python\n", text.index("## Python API")) + len("```python\n")
    monkeypatch.chdir(ROOT)
    exec(compile(text[begin:text.index("```", begin)], "README.md", "exec"), {})
    assert capsys.readouterr().out == ""
