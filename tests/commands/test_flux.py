"""Flux (issue 27): `--gitops flux` builds, the Flux -o layout (workloads apart, SOPS listed),
`fluidgen flux health` and `fluidgen flux kustomization`, the Kustomizations validated strictly
against kustomize-controller's own CRD (../shared/flux-crds, see its SOURCE.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.catalog.kinds import FLUX_SUBSTITUTE_ANNOTATION
from tests.conftest import EXAMPLES, SHARED, run_cli
from tests.features.test_gitops import CREDENTIAL_VALUES, listing, sops_tools
from tests.features.test_kustomize import kubectl

MNIST = EXAMPLES / "juicefs-mnist-pipeline.yaml"
IMAGENET = EXAMPLES / "alluxio-imagenet-oss.yaml"
MPI = EXAMPLES / "overlays" / "train-resnet50-mpi.yaml"
FLUX_CRDS = SHARED / "flux-crds" / "kustomize-controller-v1.9.4"


def docs(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d]


def flux_crds() -> Any:
    if not FLUX_CRDS.is_dir():
        pytest.skip(f"the Flux CRDs are in ../shared (missing: {FLUX_CRDS})")
    from fluidgen.io.crds import CrdSet

    return CrdSet.load(FLUX_CRDS)


# --- --gitops flux -----------------------------------------------------------------------------

def mnist_with_dollar(tmp_path: Path) -> Path:
    """The MNIST pipeline with a script that reads ${HOME}, which Flux would substitute."""
    scripts = tmp_path / "scripts"
    shutil.copytree(EXAMPLES / "scripts", scripts)
    script = scripts / "decompress-mnist.sh"
    script.write_text(script.read_text() + 'echo "unpacked into ${HOME}"\n')
    spec = tmp_path / "mnist.yaml"
    spec.write_text(MNIST.read_text())
    return spec


def test_flux_mode_mnist_has_no_ttl_no_argocd_and_shields_dollar_braces(tmp_path: Path) -> None:
    result = run_cli("build", "--gitops", "flux", str(mnist_with_dollar(tmp_path)))
    assert result.code == 0, result.err
    built = docs(result.out)
    assert "ttlSecondsAfterFinished" not in result.out
    assert "argocd.argoproj.io" not in result.out
    operations = [d for d in built if d["kind"] in ("DataMigrate", "DataProcess", "DataLoad")]
    assert operations and all(d["metadata"]["name"].rsplit("-", 1)[1].isalnum() and
                              len(d["metadata"]["name"].rsplit("-", 1)[1]) == 8 for d in operations)  # hashed
    shielded = [d for d in built if FLUX_SUBSTITUTE_ANNOTATION in (d["metadata"].get("annotations") or {})]
    assert shielded and all("${" in yaml.safe_dump(d) for d in shielded)
    assert all(d["metadata"]["annotations"][FLUX_SUBSTITUTE_ANNOTATION] == "disabled" for d in shielded)
    assert all("${" not in yaml.safe_dump(d) for d in built if d not in shielded)


def test_flux_mode_names_operations_as_argocd_mode_does() -> None:
    flux = docs(run_cli("build", "--gitops", "flux", str(MNIST)).out)
    argocd = docs(run_cli("build", "--gitops", "argocd", str(MNIST)).out)
    assert [d["metadata"]["name"] for d in flux] == [d["metadata"]["name"] for d in argocd]


def test_flux_mode_from_a_spec_and_a_ttl_is_refused(tmp_path: Path) -> None:
    (tmp_path / "scripts").symlink_to(EXAMPLES / "scripts")
    spec = tmp_path / "spec.yaml"
    spec.write_text(MNIST.read_text().replace("fluid: v1.1.0-dev", "fluid: v1.1.0-dev\ngitops: flux"))
    pinned = run_cli("build", "--allow-read", str(EXAMPLES), str(spec))
    assert pinned.code == 0, pinned.err
    assert "ttlSecondsAfterFinished" not in pinned.out and "sync-wave" not in pinned.out
    step = "  - name: torch-mnist-training-step3\n"
    spec.write_text(spec.read_text().replace(step, step + "    ttlSecondsAfterFinished: 600\n"))
    refused = run_cli("build", "--allow-read", str(EXAMPLES), str(spec))
    assert refused.code == 1 and "dataflow[2].ttlSecondsAfterFinished" in refused.err and "Flux" in refused.err


# --- -o in Flux's layout -------------------------------------------------------------------------

def test_flux_output_puts_workloads_apart(tmp_path: Path) -> None:
    out = tmp_path / "rendered"
    result = run_cli("build", "--gitops", "flux", "-f", str(IMAGENET), "-f", str(MPI), "-o", str(out),
                     "--write-secrets")
    assert result.code == 0, result.err
    assert "workloads" in listing(out)
    base = yaml.safe_load((out / "kustomization.yaml").read_text())["resources"]
    jobs = yaml.safe_load((out / "workloads" / "kustomization.yaml").read_text())["resources"]
    assert jobs == ["mpijob-horovod-resnet50-v2-4x8-fluid.yaml"] and not any(r in base for r in jobs)
    assert "secrets.yaml" not in base  # plain secrets never travel with the base
    tool = kubectl()
    for folder in (out, out / "workloads"):
        built = subprocess.run([tool, "kustomize", str(folder)], capture_output=True, text=True, check=True).stdout
        kinds = {d["kind"] for d in docs(built)}
        assert ("MPIJob" in kinds) == (folder.name == "workloads")
    # diff and plan read the layout: in step, then drift when the job goes
    in_step = run_cli("diff", "--gitops", "flux", "-f", str(IMAGENET), "-f", str(MPI), str(out))
    assert in_step.code == 0, in_step.out + in_step.err
    drift = run_cli("diff", "--gitops", "flux", str(IMAGENET), str(out))
    assert drift.code == 1 and "workloads/mpijob-horovod-resnet50-v2-4x8-fluid.yaml (committed)" in drift.out
    plan = run_cli("plan", "--gitops", "flux", "-f", str(IMAGENET), "-f", str(MPI), "--against", str(out))
    assert plan.code == 0 and "MPIJob" not in plan.out  # the job is found where it was written
    # again into the same directory (owned), then without the job: the sub-directory goes
    again = run_cli("build", "--gitops", "flux", str(IMAGENET), "-o", str(out), "--write-secrets")
    assert again.code == 0, again.err
    assert "workloads" not in listing(out)


def test_flux_output_refuses_a_workloads_link(tmp_path: Path) -> None:
    out = tmp_path / "rendered"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    first = run_cli("build", "--gitops", "flux", "-f", str(IMAGENET), "-f", str(MPI), "-o", str(out),
                    "--write-secrets")
    assert first.code == 0, first.err
    shutil.rmtree(out / "workloads")
    (out / "workloads").symlink_to(elsewhere)
    result = run_cli("build", "--gitops", "flux", "-f", str(IMAGENET), "-f", str(MPI), "-o", str(out),
                     "--write-secrets")
    assert result.code == 1 and "workloads" in result.err
    assert listing(elsewhere) == []


def test_flux_sops_base_lists_the_encrypted_secrets_and_decrypts(tmp_path: Path) -> None:
    sops, pyrage = sops_tools()
    identity = pyrage.x25519.Identity.generate()  # type: ignore[attr-defined]
    key_file = tmp_path / "age.key"
    key_file.write_text(f"{identity}\n")
    out = tmp_path / "rendered"
    result = run_cli("build", "--gitops", "flux", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(out),
                     "--sops-age", str(identity.to_public()))
    assert result.code == 0, result.err
    assert "secrets.sops.yaml" in yaml.safe_load((out / "kustomization.yaml").read_text())["resources"]
    sealed_text = (out / "secrets.sops.yaml").read_text()
    assert not any(value in sealed_text for value in CREDENTIAL_VALUES)
    sealed = next(yaml.safe_load_all(sealed_text))
    assert sealed["kind"] == "Secret" and "ENC[" not in yaml.safe_dump(sealed["metadata"])  # Flux needs them plain
    assert all(str(v).startswith("ENC[") for v in sealed["data"].values())
    opened = subprocess.run([sops, "decrypt", "--input-type", "yaml", "--output-type", "yaml",
                             str(out / "secrets.sops.yaml")], capture_output=True, text=True, check=True,
                            env={**os.environ, "SOPS_AGE_KEY_FILE": str(key_file)})
    plain = docs(run_cli("build", "--gitops", "flux", str(EXAMPLES / "jindo-imagenet-oss.yaml")).out)
    assert next(yaml.safe_load_all(opened.stdout)) == next(d for d in plain if d["kind"] == "Secret")
    in_step = run_cli("diff", "--gitops", "flux", str(EXAMPLES / "jindo-imagenet-oss.yaml"), str(out))
    assert in_step.code == 0, in_step.out + in_step.err
    kustomization = docs(run_cli("flux", "kustomization", str(EXAMPLES / "jindo-imagenet-oss.yaml"),
                                 "--path", "./rendered").out)
    assert kustomization[0]["spec"]["decryption"] == {"provider": "sops", "secretRef": {"name": "sops-age"}}


# --- flux health ---------------------------------------------------------------------------------

@pytest.mark.parametrize("version", ["v1.0.8", "v1.1.0-dev"])
def test_flux_health_one_entry_per_kind_with_a_status(version: str) -> None:
    from fluidgen.base import versions
    from fluidgen.engines.engine_table import ENGINES

    result = run_cli("flux", "health", "--fluid-version", version)
    assert result.code == 0, result.err
    entries = yaml.safe_load(result.out)["healthCheckExprs"]
    kinds = [e["kind"] for e in entries]
    assert len(kinds) == len(set(kinds)) and all(e.get("kind") for e in entries)  # never group-only
    expected = {"Dataset", "DataLoad", "DataMigrate", "DataProcess", "DataBackup", "MPIJob", "PyTorchJob", "TrainJob",
                *(e.kind for e in ENGINES.values() if versions.has(version, e.name))}
    assert set(kinds) == expected
    assert not {"CacheRuntimeClass", "ThinRuntimeProfile", "Job"} & set(kinds)
    crds = flux_crds()
    wrapped = {"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
               "metadata": {"name": "x", "namespace": "flux-system"},
               "spec": {"interval": "10m", "prune": True, "sourceRef": {"kind": "GitRepository", "name": "x"},
                        "healthCheckExprs": entries}}
    assert crds.check(wrapped) == []


# --- flux kustomization --------------------------------------------------------------------------

def test_flux_kustomizations_order_data_before_training_and_validate_strictly() -> None:
    result = run_cli("flux", "kustomization", "-f", str(IMAGENET), "-f", str(MPI), "--path", "clusters/prod/imagenet",
                     "--source", "OCIRepository/ml-manifests", "--interval", "15m")
    assert result.code == 0, result.err
    data, jobs = docs(result.out)
    crds = flux_crds()
    assert crds.check(data) == [] and crds.check(jobs) == []
    assert data["metadata"]["name"] == "imagenet-data" and jobs["metadata"]["name"] == "imagenet-workloads"
    assert data["spec"]["wait"] is True and data["spec"]["path"] == "clusters/prod/imagenet"
    assert data["spec"]["sourceRef"] == jobs["spec"]["sourceRef"] == {"kind": "OCIRepository", "name": "ml-manifests"}
    assert data["spec"]["timeout"] == "30m"  # no data operation: the runtime's pods start
    assert {e["kind"] for e in data["spec"]["healthCheckExprs"]} >= {"Dataset", "AlluxioRuntime", "DataLoad"}
    assert not {"MPIJob", "CacheRuntimeClass"} & {e["kind"] for e in data["spec"]["healthCheckExprs"]}
    assert "decryption" in data["spec"]  # the OSS credentials become a SOPS-encrypted Secret
    assert jobs["spec"]["dependsOn"] == [{"name": "imagenet-data"}] and jobs["spec"]["wait"] is False
    assert jobs["spec"]["path"] == "clusters/prod/imagenet/workloads"
    assert data["spec"]["interval"] == jobs["spec"]["interval"] == "15m"


def test_flux_kustomization_without_jobs_or_secrets_is_one() -> None:
    result = run_cli("flux", "kustomization", str(MNIST), "--path", "./mnist", "--timeout", "45m", "--name", "mnist")
    assert result.code == 0, result.err
    (data,) = docs(result.out)
    assert "decryption" not in data["spec"] and data["spec"]["timeout"] == "45m"
    assert flux_crds().check(data) == []
    default = docs(run_cli("flux", "kustomization", str(MNIST), "--path", "./mnist").out)[0]
    assert default["spec"]["timeout"] == "2h"  # covers the pipeline's DataLoad
    assert default["metadata"]["name"] == "mnist-data"


@pytest.mark.parametrize(("args", "message"), [
    (["--source", "HelmRepository/x"], "--source"),
    (["--interval", "ten minutes"], "--interval"),
    (["--timeout", "1d"], "--timeout"),
    (["--name", "Not_A_Name"], "--name"),
])
def test_flux_kustomization_usage_errors(args: list[str], message: str) -> None:
    result = run_cli("flux", "kustomization", str(MNIST), "--path", "x", *args)
    assert result.code == 2 and message in result.err


@pytest.mark.parametrize("path", ["", "rendered/\nprod", "rendered/\x01prod", "rendered\tprod"])
def test_flux_kustomization_path_is_a_printable_directory(path: str) -> None:
    result = run_cli("flux", "kustomization", str(MNIST), "--path", path)
    assert result.code == 2 and "--path" in result.err and result.out == ""


def test_two_applications_at_their_sources_root_never_share_a_kustomization_name() -> None:
    """README's shape 2 (`--path ./ --source OCIRepository/NAME`) named every application's
    Kustomizations fluidgen-data and fluidgen-workloads, so in flux-system the second dataset's
    replaced the first (and pruning took the first one's Dataset with it). PATH's last part names
    nothing there: the name is asked for, never made up (a made-up one renames existing ones)."""
    for spec, source in ((IMAGENET, "OCIRepository/imagenet"), (MNIST, "OCIRepository/mnist")):
        refused = run_cli("flux", "kustomization", str(spec), "--path", "./", "--source", source)
        assert refused.code == 2 and "give --name" in refused.err and refused.out == ""
    names = [d["metadata"]["name"] for spec, name in ((IMAGENET, "imagenet"), (MNIST, "mnist"))
             for d in docs(run_cli("flux", "kustomization", str(spec), "--path", "./", "--name", name,
                                   "--source", f"OCIRepository/{name}").out)]
    assert names == ["imagenet-data", "mnist-data"]
    kept = docs(run_cli("flux", "kustomization", str(IMAGENET), "--path", ".", "--name", "fluidgen").out)
    assert [d["metadata"]["name"] for d in kept] == ["fluidgen-data"]  # the Upgrading note's way to keep them
