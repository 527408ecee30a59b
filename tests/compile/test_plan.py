"""`fluidgen plan`: which edits Fluid carries out and which it ignores, against a rendered
file, a `kubectl get -o yaml` dump or a git revision; and the same marks in `fluidgen diff`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT, run_cli


def workspace(tmp_path: Path) -> Path:
    """A copy of the examples with the bundled ImageNet profile beside them as a file."""
    shutil.copytree(EXAMPLES, tmp_path / "ex")
    shutil.copy(ROOT / "profiles" / "alluxio-imagenet.yaml", tmp_path / "ex" / "mine.yaml")
    return tmp_path / "ex"


def test_a_changed_profile_property_is_ignored_until_recreate(tmp_path: Path) -> None:
    ex = workspace(tmp_path)
    rendered = ex / "rendered.yaml"
    rendered.write_text(run_cli("build", str(ex / "alluxio-imagenet-oss.yaml")).out)
    profile = ex / "mine.yaml"
    profile.write_text(profile.read_text().replace('alluxio.fuse.cached.paths.max: "1000000"',
                                                   'alluxio.fuse.cached.paths.max: "2000000"'))
    spec = ex / "edited.yaml"
    spec.write_text((ex / "alluxio-imagenet-oss.yaml").read_text().replace("profile: alluxio-imagenet",
                                                                           "profile: ./mine.yaml"))
    result = run_cli("plan", str(spec), "--against", str(rendered))
    assert result.code == 1, result.err
    assert result.out.splitlines() == [
        'AlluxioRuntime default/imagenet spec.properties["alluxio.fuse.cached.paths.max"]: ignored until the runtime '
        "is re-created (the cache is lost and the dataset unbound meanwhile); to apply it, delete the runtime and "
        "apply again (plan --allow-recreate accepts this)",
        "fluidgen plan: 1 change, 1 ignored by Fluid"]
    accepted = run_cli("plan", "--allow-recreate", str(spec), "--against", str(rendered))
    assert accepted.code == 0


def test_changing_only_replicas_is_applied(tmp_path: Path) -> None:
    ex = workspace(tmp_path)
    rendered = ex / "rendered.yaml"
    rendered.write_text(run_cli("build", str(ex / "alluxio-imagenet-oss.yaml")).out)
    spec = ex / "scaled.yaml"
    spec.write_text((ex / "alluxio-imagenet-oss.yaml").read_text().replace("replicas: 4", "replicas: 6"))
    result = run_cli("plan", str(spec), "--against", str(rendered))
    assert result.code == 0, result.out + result.err
    assert "AlluxioRuntime default/imagenet spec.replicas: applied in place" in result.out


@pytest.mark.parametrize(("names", "code", "expected"), [
    ("hashed", 0, "a new operation: Fluid runs it"),
    ("plain", 1, "DataLoad default/torch-mnist-training-step3 spec.target[1]: ignored: the operation already ran"),
])
def test_an_edited_pipeline_step(names: str, code: int, expected: str, tmp_path: Path) -> None:
    ex = workspace(tmp_path)
    rendered = ex / "rendered.yaml"
    rendered.write_text(run_cli("build", "--operation-names", names, str(ex / "juicefs-mnist-pipeline.yaml")).out)
    spec = ex / "edited.yaml"
    spec.write_text((ex / "juicefs-mnist-pipeline.yaml").read_text().replace(
        "paths: [/MNIST/raw]", "paths: [/MNIST/raw, /MNIST/processed]"))
    result = run_cli("plan", "--operation-names", names, str(spec), "--against", str(rendered))
    assert result.code == code, result.out + result.err
    assert expected in result.out
    if names == "hashed":
        step3 = [line for line in result.out.splitlines() if "step3" in line]
        assert len(step3) == 2 and any("removed" in line for line in step3)
        # the steps before the edited one keep their names: nothing to run again
        assert "step1" not in result.out and "step2" not in result.out


def test_gitops_mode_hashes_operation_names_by_default() -> None:
    gitops = run_cli("build", "--gitops", "argocd", str(EXAMPLES / "juicefs-mnist-pipeline.yaml"))
    names = [d["metadata"]["name"] for d in yaml.safe_load_all(gitops.out) if d["kind"].startswith("Data")
             and d["kind"] != "Dataset"]
    assert all(len(n.rsplit("-", 1)[1]) == 8 for n in names), names
    docs = list(yaml.safe_load_all(gitops.out))
    step2 = next(d for d in docs if d["metadata"]["name"].startswith("torch-mnist-training-step2"))
    assert step2["spec"]["runAfter"]["name"] == names[0]
    plain = run_cli("build", "--gitops", "argocd", "--operation-names", "plain",
                    str(EXAMPLES / "juicefs-mnist-pipeline.yaml"))
    assert "torch-mnist-training-step1\n" in plain.out


def test_against_a_live_dump_ignores_what_the_server_defaulted(tmp_path: Path) -> None:
    built = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"))
    live = []
    for obj in yaml.safe_load_all(built.out):
        obj["metadata"].update(uid="0a1b", resourceVersion="42", creationTimestamp="2026-11-20T10:00:00Z")
        if obj["kind"] == "JindoRuntime":
            obj["spec"]["master"] = {"replicas": 1}  # defaulted by the API server / webhook
            obj["status"] = {"masterPhase": "Ready", "workerPhase": "Ready"}
        live.append(obj)
    dump = tmp_path / "live.yaml"
    dump.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": live}))
    same = run_cli("plan", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "--against", str(dump))
    assert same.code == 0 and same.out == "fluidgen plan: 0 changes, 0 ignored by Fluid\n", same.out + same.err


def test_against_a_git_revision(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLES, repo)
    env_git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*env_git, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*env_git, "-C", str(repo), "commit", "-qm", "base"], check=True)
    spec = repo / "alluxio-imagenet-oss.yaml"
    spec.write_text(spec.read_text().replace("quota: 50Gi", "quota: 80Gi"))
    import os

    cwd = os.getcwd()
    os.chdir(repo)
    try:
        result = run_cli("plan", "alluxio-imagenet-oss.yaml", "--against", "git:HEAD")
        missing = run_cli("plan", "alluxio-imagenet-oss.yaml", "--against", "git:no-such-rev")
    finally:
        os.chdir(cwd)
    assert result.code == 1, result.err
    assert "AlluxioRuntime default/imagenet spec.tieredstore.levels[0].quota: ignored until" in result.out
    assert missing.code == 1 and "git:no-such-rev" in missing.err


def test_diff_marks_each_changed_field(tmp_path: Path) -> None:
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml")).out)
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace("replicas: 4", "replicas: 5"))
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    result = run_cli("diff", str(spec), str(rendered))
    assert result.code == 1
    assert "# plan: JindoRuntime default/imagenet spec.replicas: applied in place" in result.out


@pytest.mark.parametrize("deployed", [
    "apiVersion: v1\nkind: List\nitems: [{kind: AlluxioRuntime, metadata: [x], spec: 3}]\n",
    "kind: Secret\nmetadata: {name: imagenet-credentials, namespace: default}\ndata: [{a: 1}]\n",
])
def test_plan_and_diff_survive_odd_deployed_objects(deployed: str, tmp_path: Path) -> None:
    """Found by the fuzz suite: what is deployed may have any shape."""
    old = tmp_path / "old.yaml"
    old.write_text(deployed)
    spec = EXAMPLES / "jindo-imagenet-oss.yaml"
    for args in (["plan", str(spec), "--against", str(old)], ["diff", str(spec), str(old)]):
        result = run_cli(*args)
        assert result.code in (0, 1) and "internal error" not in result.err, (args, result.err)


# -- issue 25: hand-written manifests and several rendered files --------------------------------

def _without_namespaces(text: str) -> str:
    docs = list(yaml.safe_load_all(text))
    for doc in docs:
        doc["metadata"].pop("namespace", None)
    return yaml.safe_dump_all(docs, sort_keys=False)


@pytest.mark.parametrize("how", ["spec", "flag", "setting"])
def test_a_manifest_without_namespace_is_in_the_build_namespace(how: str, tmp_path: Path) -> None:
    """Every guide's manifest leaves metadata.namespace out: it is the namespace the build uses,
    so a quota edit is still 'ignored until re-created', never 'removed' plus 'applied'."""
    ex = workspace(tmp_path)
    spec = ex / "alluxio-imagenet-oss.yaml"
    flags, env = [], {}
    if how != "spec":
        spec.write_text(spec.read_text().replace("  namespace: default\n", ""))
        flags, env = (["-n", "team-a"], {}) if how == "flag" else ([], {"FLUIDGEN_NAMESPACE": "team-a"})
    hand_written = ex / "deployed.yaml"
    hand_written.write_text(_without_namespaces(run_cli("build", str(spec), *flags, env=env).out))
    spec.write_text(spec.read_text().replace("quota: 50Gi", "quota: 80Gi"))
    for args in (["plan", str(spec), *flags, "--against", str(hand_written)],
                 ["diff", str(spec), *flags, str(hand_written)]):
        result = run_cli(*args, env=env)
        assert result.code == 1 and "removed" not in result.out and "ignored until the runtime is re-created" \
            in result.out, (args, result.out, result.err)


def test_an_object_only_renamespaced_is_moved_not_removed(tmp_path: Path) -> None:
    ex = workspace(tmp_path)
    spec = ex / "jindo-imagenet-oss.yaml"
    old = ex / "old.yaml"
    old.write_text(run_cli("build", str(spec), env={}).out)
    spec.write_text(spec.read_text().replace("  namespace: default\n", "  namespace: team-b\n"))
    result = run_cli("plan", str(spec), "--against", str(old), env={})
    assert "removed" not in result.out
    assert "JindoRuntime team-b/imagenet: created in this namespace; the one in the old namespace stays until it " \
           "is deleted (Argo CD prunes it) (from namespace default)" in result.out.splitlines()


def test_plan_and_diff_take_several_rendered_files(tmp_path: Path) -> None:
    """The NFS guide's pair: the PV and PVC in one file, the Dataset and runtime in another."""
    ex = workspace(tmp_path)
    spec = ex / "nfs-imagenet-alluxio.yaml"
    docs = list(yaml.safe_load_all(run_cli("build", str(spec), env={}).out))
    volumes = [d for d in docs if d["kind"] in ("PersistentVolume", "PersistentVolumeClaim")]
    (ex / "nfs-pv.yaml").write_text(yaml.safe_dump_all(volumes, sort_keys=False))
    (ex / "dataset.yaml").write_text(yaml.safe_dump_all([d for d in docs if d not in volumes], sort_keys=False))
    same = run_cli("diff", str(spec), str(ex / "nfs-pv.yaml"), str(ex / "dataset.yaml"), env={})
    assert (same.code, same.out) == (0, ""), same.err
    plan = run_cli("plan", str(spec), "--against", str(ex / "nfs-pv.yaml"), "--against", str(ex / "dataset.yaml"),
                   env={})
    assert (plan.code, plan.out) == (0, "fluidgen plan: 0 changes, 0 ignored by Fluid\n"), plan.err
    spec.write_text(spec.read_text().replace("replicas: 4", "replicas: 5"))
    drift = run_cli("diff", str(spec), str(ex / "nfs-pv.yaml"), str(ex / "dataset.yaml"), env={})
    assert drift.code == 1 and "dataset.yaml (from specs)" in drift.out and "nfs-pv.yaml" not in drift.out
    assert "are out of date" in drift.err


# -- issue 42 (1): edits are judged at the Fluid version the spec builds for ---------------------

CURVINE = ROOT / "golden" / "ok" / "cache-curvine" / "spec.yaml"  # fluid: v1.1.0-dev (its _config.yaml)


JUICEFS = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: mydataset, namespace: default}
fluid: v1.1.0-dev
source:
  - name: minio
    uri: juicefs:///
    options: {bucket: "http://minio:9000/minio/test", storage: minio}
    credentials:
      existingSecret: {name: jfs-secret, keys: [access-key, secret-key, metaurl]}
runtime:
  engine: juicefs
  replicas: 2
  cache:
    - {medium: MEM, quota: 10Gi}
"""


def _pinned(text: str, pin: str) -> str:
    """`text` (a spec) with its own fluid: pin set to `pin`."""
    lines = [line for line in text.splitlines() if not line.startswith("fluid:")]
    at = next(i for i, line in enumerate(lines) if line.startswith("source:"))
    return "\n".join([*lines[:at], f"fluid: {pin}", *lines[at:]]) + "\n"


def test_a_cache_runtime_pinned_to_master_is_judged_at_master(tmp_path: Path) -> None:
    """pkg/ddc/cache/engine/sync.go syncRuntimeSpec (master) syncs the worker replicas; the CLI's
    default version (v1.0.8) has no cache engine at all, so the edit read 'ignored', exit 1."""
    spec = tmp_path / "curvine.yaml"
    spec.write_text(_pinned(CURVINE.read_text(), "v1.1.0-dev"))
    rendered = tmp_path / "rendered.yaml"
    built = run_cli("build", str(spec), env={})
    assert built.code == 0, built.err
    rendered.write_text(built.out)
    spec.write_text(spec.read_text().replace("  replicas: 1\n  cache:", "  replicas: 2\n  cache:"))
    result = run_cli("plan", str(spec), "--against", str(rendered), env={})
    assert result.code == 0, result.out + result.err
    assert "CacheRuntime default/curvine-demo spec.worker.replicas: applied in place" in result.out


@pytest.mark.parametrize("command", ["plan", "diff"])
def test_a_juicefs_spec_pinned_to_master_is_judged_at_master(command: str, tmp_path: Path) -> None:
    """At master JuiceFS sets the worker StatefulSet to OnDelete (sync_runtime.go
    checkAndSetWorkerChanges) and never syncs the FUSE nodeSelector (checkAndSetFuseChanges);
    at v1.0.8 the worker rolls and the FUSE nodeSelector is written to the DaemonSet."""
    spec = tmp_path / "pipeline.yaml"
    base = JUICEFS
    spec.write_text(base)
    rendered = tmp_path / "rendered.yaml"
    built = run_cli("build", str(spec), env={})
    assert built.code == 0, built.err
    rendered.write_text(built.out)
    spec.write_text(base.replace("  replicas: 2\n", "  replicas: 2\n  overrides:\n"
                                 "    worker: {nodeSelector: {pool: gpu}}\n"
                                 "    fuse: {nodeSelector: {pool: gpu}}\n"))
    args = ["--against", str(rendered)] if command == "plan" else [str(rendered)]
    result = run_cli(command, str(spec), *args, env={})
    assert result.code == 1, result.out + result.err
    assert ("JuiceFSRuntime default/mydataset spec.worker.nodeSelector.pool: written to the worker StatefulSet "
            "(OnDelete)") in result.out
    assert "JuiceFSRuntime default/mydataset spec.fuse.nodeSelector.pool: ignored until the runtime" in result.out


def test_two_specs_in_one_plan_are_each_judged_at_their_own_pin(tmp_path: Path) -> None:
    base = JUICEFS
    edit = ("  replicas: 2\n", "  replicas: 2\n  overrides:\n    worker: {nodeSelector: {pool: gpu}}\n")
    specs = {pin: tmp_path / f"{pin}.yaml" for pin in ("v1.0.8", "v1.1.0-dev")}
    for pin, path in specs.items():
        path.write_text(_pinned(base, pin).replace("name: mydataset", f"name: data-{pin.replace('.', '-')}"))
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(run_cli("build", *map(str, specs.values()), env={}).out)
    for path in specs.values():
        path.write_text(path.read_text().replace(*edit))
    result = run_cli("plan", *map(str, specs.values()), "--against", str(rendered), env={})
    assert ("JuiceFSRuntime default/data-v1-0-8 spec.worker.nodeSelector.pool: applied; the worker StatefulSet's pods "
            "restart with it") in result.out, result.out + result.err
    assert ("JuiceFSRuntime default/data-v1-1-0-dev spec.worker.nodeSelector.pool: written to the worker StatefulSet "
            "(OnDelete)") in result.out


def test_an_edit_that_moves_the_pin_is_judged_at_the_version_running_now(tmp_path: Path) -> None:
    """The spec at git:HEAD builds for v1.0.8; the edit pins v1.1.0-dev and changes the worker nodeSelector:
    the Fluid running the runtime is still v1.0.8, whose JuiceFS sync rolls the workers."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    spec = repo / "pipeline.yaml"
    base = JUICEFS
    spec.write_text(_pinned(base, "v1.0.8"))
    env_git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*env_git, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*env_git, "-C", str(repo), "commit", "-qm", "base"], check=True)
    spec.write_text(_pinned(base, "v1.1.0-dev").replace(
        "  replicas: 2\n", "  replicas: 2\n  overrides:\n    worker: {nodeSelector: {pool: gpu}}\n"))
    import os

    cwd = os.getcwd()
    os.chdir(repo)
    try:
        result = run_cli("plan", "pipeline.yaml", "--against", "git:HEAD", env={})
    finally:
        os.chdir(cwd)
    assert ("JuiceFSRuntime default/mydataset spec.worker.nodeSelector.pool: applied; the worker StatefulSet's pods "
            "restart with it (judged at Fluid v1.0.8, which runs it now; the spec's fluid: pin moves it to v1.1.0-dev)"
            ) in result.out, result.out + result.err
