"""`fluidgen validate` and `fluidgen lint` on the user's hand-written manifests, and hostile input."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, run_cli, run_process
from tests.features.test_examples import REFERENCE


def ref(name: str) -> str:
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"reference manifests not found at {REFERENCE}")
    return str(path)


def test_validate_reports_short_circuit_policy() -> None:
    result = run_cli("validate", ref("alluxio-imagenet-oss.yaml"))
    assert result.code == 1
    assert "spec.fuse.shortCircuitPolicy: unknown field" in result.err
    assert ":111:5: error:" in result.err


@pytest.mark.parametrize("name", ["jindo-imagenet-oss.yaml", "nfs-imagenet-pv-pvc.yaml"])
def test_validate_accepts_valid_references(name: str) -> None:
    result = run_cli("validate", ref(name))
    assert result.code == 0, result.err


def test_validate_against_user_crds(crds: dict[str, object]) -> None:
    from tests.conftest import crds_root

    root = crds_root()
    assert root is not None
    result = run_cli("validate", "--crds", str(root / "v1.0.8"), ref("alluxio-imagenet-oss.yaml"))
    assert result.code == 1 and "shortCircuitPolicy" in result.err


def test_validate_json_output() -> None:
    result = run_cli("validate", "--format", "json", ref("alluxio-imagenet-oss.yaml"))
    data = json.loads(result.out)
    assert data["errors"] == 1
    assert data["diagnostics"][0]["path"] == "spec.fuse.shortCircuitPolicy"


def test_validate_accepts_examples() -> None:
    result = run_cli("validate", str(EXAMPLES), env={})
    assert result.code == 0, result.err


def test_lint_finds_plaintext_secret_and_nfs_conflict() -> None:
    alluxio = run_cli("lint", ref("alluxio-imagenet-oss.yaml"))
    assert alluxio.code == 1
    assert "[FG101]" in alluxio.err and "fs.oss.accessKeySecret" in alluxio.err
    nfs = run_cli("lint", ref("nfs-imagenet-pv-pvc.yaml"))
    assert "[FG103]" in nfs.err and "vers=3, nfsvers=4.1" in nfs.err


def test_lint_ignore_silences_a_rule() -> None:
    nfs = run_cli("lint", "--ignore", "FG103", "--ignore", "FG102", ref("nfs-imagenet-pv-pvc.yaml"))
    assert nfs.code == 0 and nfs.err == ""


def test_lint_rules_listed() -> None:
    listed = run_cli("lint", "--rules", "x")
    assert listed.code == 0 and "FG110" in listed.out


def test_jvm_budget_rule(tmp_path: Path) -> None:
    manifest = tmp_path / "rt.yaml"
    manifest.write_text("""apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: demo}
spec:
  fuse:
    jvmOptions: ["-Xmx16G", "-XX:MaxDirectMemorySize=32g", "-XX:ActiveProcessorCount=24"]
    resources: {limits: {cpu: 16, memory: 32Gi}}
""")
    result = run_cli("lint", str(manifest))
    assert "[FG110]" in result.err and "heap 16.0GiB + direct memory 32.0GiB" in result.err
    assert "[FG109]" in result.err


HOSTILE = {
    "billion-laughs": "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)),
    "deep-nesting": "a: " + "[" * 20000 + "]" * 20000 + "\n",
    "deep-block-nesting": "".join(" " * i + "k:\n" for i in range(0, 4000, 1)),
    "tabs": "apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata:\n\tname: x\n",
    "list-not-mapping": "- apiVersion: fluidgen.io/v1alpha1\n- kind: CachedDataset\n",
    "junk-documents": "apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\n---\n]]][[\n---\n42\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_a_clean_error(name: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(HOSTILE[name])
    result = run_cli("build", str(spec), env={})
    assert result.code == 1, result.err
    assert result.out == ""
    assert "Traceback" not in result.err and str(spec) in result.err


def test_non_utf8_is_located(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_bytes(b"apiVersion: fluidgen.io/v1alpha1\nkind: \xff\xfe\n")
    result = run_cli("build", str(spec), env={})
    assert result.code == 1 and f"{spec}:2:7: error: not valid UTF-8" in result.err


@pytest.mark.parametrize("name", ["billion-laughs", "deep-nesting", "huge"])
def test_hostile_input_bounded_time_and_memory(name: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    if name == "huge":
        spec.write_text("a: " + "x" * (20 * 1024 * 1024) + "\n")
    else:
        spec.write_text(HOSTILE[name])
    start = time.monotonic()
    proc = run_process("build", str(spec), clean=False, timeout=60)
    elapsed = time.monotonic() - start
    assert proc.code == 1 and proc.out == ""
    peak_kib = proc.peak_kib
    assert "Traceback" not in proc.err
    # Limits from the issue: under 10 s and 300 MB, measured in a child process.
    assert elapsed < 10 and peak_kib < 300 * 1024, (elapsed, peak_kib)


def test_output_dir_is_untouched_on_error(tmp_path: Path) -> None:
    out = tmp_path / "out"
    ok = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(out), "--write-secrets", env={})
    assert ok.code == 0, ok.err
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert "kustomization.yaml" in before and len(before) == 7  # 3 objects, kustomize files, marker, secrets
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace("replicas: 4", "replcas: 4"))
    failed = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), str(bad), "-o", str(out), "--write-secrets",
                     env={})
    assert failed.code == 1
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_lint_file_directive_silences_rules_for_that_file(tmp_path: Path) -> None:
    manifest = tmp_path / "pv.yaml"
    manifest.write_text("# fluidgen-lint: ignore=FG102, FG103\n" + Path(ref("nfs-imagenet-pv-pvc.yaml")).read_text())
    result = run_cli("lint", str(manifest))
    assert result.code == 0 and result.err == ""


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["multi-document", "List"])
def test_validate_with_crds_as_one_file(shape: str, tmp_path: Path, crds: dict[str, object]) -> None:
    import yaml

    from tests.conftest import crds_root

    root = crds_root()
    assert root is not None
    docs = [yaml.safe_load(p.read_text()) for p in sorted((root / "v1.0.8").glob("*.yaml"))]
    bundle = tmp_path / "crds.yaml"
    if shape == "List":
        bundle.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}))
    else:
        bundle.write_text(yaml.safe_dump_all(docs))
    bad = run_cli("validate", "--crds", str(bundle), ref("alluxio-imagenet-oss.yaml"))
    assert bad.code == 1 and "spec.fuse.shortCircuitPolicy: unknown field" in bad.err
    good = run_cli("validate", "--crds", str(bundle), ref("jindo-imagenet-oss.yaml"))
    assert good.code == 0, good.err


def test_checking_a_spec_needs_no_credentials(tmp_path: Path) -> None:
    """The examples keep their envFile out of git: validate and lint (the pre-commit hook) say its
    keys are unknown (info) and report none of them missing (FG118), which the file would give."""
    specs = []
    for example in ("jindo-imagenet-oss.yaml", "alluxio-imagenet-oss.yaml"):
        spec = tmp_path / example  # its envFile (credentials/imagenet-oss.env) is absent here
        spec.write_text((EXAMPLES / example).read_text())
        specs.append(str(spec))
    env_spec = tmp_path / "env.yaml"
    env_spec.write_text((ROOT / "golden" / "err" / "missing-env-credentials" / "spec.yaml").read_text())
    for command in (["validate"], ["lint"], ["validate", "--lint", "--specs-only"]):
        result = run_cli(*command, *specs, str(env_spec), env={})
        assert result.code == 0, result.err
        assert "FG118" not in result.err and "keys are unknown to this check" in result.err
    assert run_cli("build", str(spec), env={}).code == 1  # building does need them


def test_specs_only_skips_other_yaml(tmp_path: Path) -> None:
    (tmp_path / "values.yaml").write_text("image: {tag: 1.0}\n")
    (tmp_path / "broken.yaml").write_text("apiVersion: v1\nkind: [\n")
    result = run_cli("validate", "--specs-only", "--lint", str(tmp_path / "values.yaml"), str(tmp_path / "broken.yaml"))
    assert result.code == 0, result.err


def _codes(text: str) -> list[str]:
    return sorted(m for m in (line.partition("[")[2].partition("]")[0] for line in text.splitlines()) if m)


@pytest.mark.parametrize("extra", ["", "    worker:\n      jvmOptions: [-Xmx12G, -XX:ActiveProcessorCount=24]\n",
                                   "lint: {ignore: [FG109]}\n"])
def test_lint_of_fluidgens_own_build_agrees_with_the_build(extra: str, tmp_path: Path) -> None:
    """Issue 42 (6): the bundled alluxio-imagenet profile waives FG109 at fuse/jvmOptions and
    fuse/resources (ActiveProcessorCount=24 over a 16-CPU limit, on purpose), so the build is
    quiet; `validate --lint` of that very output warned FG109. The build now writes its waivers
    (and the spec's lint.ignore) on the object as fluidgen.io/lint-ignore, at the paths they
    cover: lint of the output says what the build said, no less (a worker set over its limit by
    the spec is still reported by both) and no more."""
    spec = tmp_path / "spec.yaml"
    text = (EXAMPLES / "alluxio-imagenet-oss.yaml").read_text()
    if extra.startswith("lint"):
        text += extra
    elif extra:
        assert "  profile: alluxio-imagenet\n" in text
        text = text.replace("  profile: alluxio-imagenet\n", "  profile: alluxio-imagenet\n  overrides:\n" + extra)
    spec.write_text(text)
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    built = run_cli("build", str(spec), env={})
    assert built.code == 0, built.err
    out = tmp_path / "out.yaml"
    out.write_text(built.out)
    linted = run_cli("validate", "--lint", str(out), env={})
    assert linted.code == 0, linted.err
    assert _codes(linted.err) == _codes(built.err)
    assert ("FG109" in built.err) is (extra.startswith("    worker")), built.err
    if extra.startswith("    worker"):
        assert "spec.worker.jvmOptions" in linted.err and "spec.fuse" not in linted.err


def test_a_path_waiver_in_the_annotation_covers_its_path_and_below(tmp_path: Path) -> None:
    manifest = tmp_path / "rt.yaml"
    body = """apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata:
  name: demo
  annotations: {fluidgen.io/lint-ignore: "%s"}
spec:
  fuse:
    jvmOptions: ["-XX:ActiveProcessorCount=24"]
    resources: {limits: {cpu: 16}}
  worker:
    jvmOptions: ["-XX:ActiveProcessorCount=24"]
    resources: {limits: {cpu: 8}}
"""
    for value, fuse, worker in (("FG109@spec/fuse", False, True), ("FG109@spec/worker/jvmOptions", True, False),
                                ("FG109", False, False), ("FG110@spec/fuse", True, True)):
        manifest.write_text(body % value)
        err = run_cli("lint", str(manifest)).err
        assert ("spec.fuse.jvmOptions" in err) is fuse and ("spec.worker.jvmOptions" in err) is worker, (value, err)
    manifest.write_text(body % "FG999@spec/fuse")
    err = run_cli("lint", str(manifest)).err
    assert 'error: metadata.annotations["fluidgen.io/lint-ignore"]: unknown lint rule FG999' in err, err


def test_a_waived_finding_leaves_the_objects_other_findings_reported(tmp_path: Path) -> None:
    """The alluxio-imagenet profile waives FG109 on the FUSE; a FUSE memory limit too small for its
    JVM (FG110, checked after FG109) is still an error of the build."""
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    spec = tmp_path / "s.yaml"
    spec.write_text((EXAMPLES / "alluxio-imagenet-oss.yaml").read_text().replace(
        "  profile: alluxio-imagenet\n",
        "  profile: alluxio-imagenet\n  overrides: {fuse: {resources: {limits: {memory: 40Gi}}}}\n"))
    result = run_cli("build", str(spec))
    assert result.code == 1 and "[FG110]: runtime.overrides.fuse.resources.limits.memory:" in result.err, result.err
    assert "[FG109]" not in result.err
