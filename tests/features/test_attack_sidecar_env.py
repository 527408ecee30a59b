"""A spec served by a shared Argo CD sidecar reads no variable of the sidecar's own environment
(issue 38, item 1).

Argo CD's cmp-server runs the plugin's generate command with the sidecar's whole environment
plus the request's entries (argo-cd cmpserver/plugin/plugin.go Service.generateManifest:
os.Environ() followed by the request env), and an Application's spec.source.plugin.env entries
arrive as ARGOCD_ENV_<name>, its parameters as PARAM_<NAME> (reposerver/repository/repository.go
getPluginParamEnvs; pkg/apis/application/v1alpha1/types.go ApplicationSourcePluginParameters.Environ).
So the age key or Vault token an operator gives the sidecar sits beside the tenant's build.
The confinement is the operator's (--confine-from-env in plugin.yaml, FLUIDGEN_CONFINE_FROM_ENV
in the sidecar): nothing a spec or an Application sets lifts it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from fluidgen.base.options import FromEnv
from fluidgen.io import settings
from tests.commands.test_argocd import generate
from tests.conftest import run_cli, run_process

OPERATOR_KEY = "AGE-SECRET-KEY-1OPERATORONLYVALUE"
TENANT_VALUE = "tenant-own-value-42"


def _spec(tmp: Path, variable: str, gitops: str | None = None) -> Path:
    spec = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "mnist"},
            "source": [{"uri": "oss://bucket/mnist/", "options": {"fs.oss.endpoint": "oss-cn-hangzhou.aliyuncs.com"},
                        "credentials": {"fromEnv": {"fs.oss.accessKeyId": variable,
                                                    "fs.oss.accessKeySecret": variable}}}],
            "runtime": {"engine": "alluxio", "replicas": 1}}
    if gitops is not None:
        spec["gitops"] = gitops
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "spec.yaml").write_text(yaml.safe_dump(spec))
    return tmp / "spec.yaml"


def _sidecar(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("FLUIDGEN_", "ARGOCD_ENV_", "PARAM_"))}
    return {**base, "FLUIDGEN_NO_CACHE": "1", "SOPS_AGE_KEY": OPERATOR_KEY, **extra}


def test_the_argocd_plugin_command_never_hands_a_tenant_the_sidecars_variables(tmp_path: Path) -> None:
    app = _spec(tmp_path / "app", "SOPS_AGE_KEY").parent
    result = generate(app, SOPS_AGE_KEY=OPERATOR_KEY)
    assert result.returncode == 1, result.stderr
    assert "environment variable SOPS_AGE_KEY is not the Application's" in result.stderr
    assert result.stdout == ""
    assert OPERATOR_KEY not in result.stderr


def test_the_argocd_plugin_command_reads_the_applications_own_variable(tmp_path: Path) -> None:
    app = _spec(tmp_path / "app", "ARGOCD_ENV_OSS_KEY").parent
    result = generate(app, SOPS_AGE_KEY=OPERATOR_KEY, ARGOCD_ENV_OSS_KEY=TENANT_VALUE)
    assert result.returncode == 0, result.stderr
    secret = next(d for d in yaml.safe_load_all(result.stdout) if d["kind"] == "Secret")
    assert secret["data"] == dict.fromkeys(["fs.oss.accessKeyId", "fs.oss.accessKeySecret"],
                                           "dGVuYW50LW93bi12YWx1ZS00Mg==")  # base64 of TENANT_VALUE


LIFTS = {  # what a tenant controls: the spec's gitops:, its Application's env and parameters
    "spec gitops: none": ("none", {}),
    "spec gitops: flux": ("flux", {}),
    "ARGOCD_ENV_FLUIDGEN_GITOPS=none": (None, {"ARGOCD_ENV_FLUIDGEN_GITOPS": "none"}),
    "ARGOCD_ENV_FLUIDGEN_CONFINE_FROM_ENV=0": (None, {"ARGOCD_ENV_FLUIDGEN_CONFINE_FROM_ENV": "0"}),
    "PARAM_CONFINE_FROM_ENV=0": (None, {"PARAM_CONFINE_FROM_ENV": "0", "PARAM_GITOPS": "none"}),
    "ARGOCD_ENV_FLUIDGEN_FROM_ENV_ALLOW": (None, {"ARGOCD_ENV_FLUIDGEN_FROM_ENV_ALLOW": "SOPS_AGE_KEY"}),
    "PARAM_FROM_ENV_ALLOW": (None, {"PARAM_FROM_ENV_ALLOW": "SOPS_AGE_KEY", "PARAM_FLUIDGEN_FROM_ENV_ALLOW":
                                    "SOPS_AGE_KEY"}),
}


@pytest.mark.parametrize("lift", sorted(LIFTS))
@pytest.mark.parametrize("how", ["flag", "sidecar env"])
def test_nothing_a_tenant_sets_lifts_the_confinement(tmp_path: Path, lift: str, how: str) -> None:
    gitops, tenant_env = LIFTS[lift]
    spec = _spec(tmp_path, "SOPS_AGE_KEY", gitops)
    flag = ["--confine-from-env"] if how == "flag" else []
    operator = {} if how == "flag" else {"FLUIDGEN_CONFINE_FROM_ENV": "1"}
    run = run_cli("build", *flag, "--gitops", "argocd", str(spec), env=_sidecar(**operator, **tenant_env))
    assert run.code == 1, (lift, run.err)
    assert "environment variable SOPS_AGE_KEY is not the Application's" in run.err
    assert OPERATOR_KEY not in run.out + run.err


def test_the_operators_allow_list_names_what_a_confined_spec_may_read(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "SHARED_REGISTRY_TOKEN")
    env = _sidecar(SHARED_REGISTRY_TOKEN="tok", FLUIDGEN_CONFINE_FROM_ENV="1")
    assert run_cli("build", str(spec), env=env).code == 1
    assert run_cli("build", "--from-env-allow", "SHARED_REGISTRY_TOKEN", str(spec), env=env).code == 0
    assert run_cli("build", str(spec), env={**env, "FLUIDGEN_FROM_ENV_ALLOW": "OTHER,SHARED_REGISTRY_TOKEN"}).code == 0
    # an allow list alone confines: SOPS_AGE_KEY is still refused
    other = _spec(tmp_path / "other", "SOPS_AGE_KEY")
    refused = run_cli("build", str(other), env=_sidecar(FLUIDGEN_FROM_ENV_ALLOW="SHARED_REGISTRY_TOKEN"))
    assert refused.code == 1 and OPERATOR_KEY not in refused.out + refused.err


def test_unconfined_a_developers_build_reads_any_variable(tmp_path: Path) -> None:
    run = run_cli("build", str(_spec(tmp_path, "SOPS_AGE_KEY")), env=_sidecar())
    assert run.code == 0, run.err


def test_a_cached_confined_build_is_no_way_around_the_confinement(tmp_path: Path) -> None:
    """An unconfined build stored in the cache is never served to a confined one."""
    spec = _spec(tmp_path, "SOPS_AGE_KEY")
    cache = tmp_path / "cache"
    env = {"SOPS_AGE_KEY": OPERATOR_KEY}
    assert run_process("build", str(spec), cache=cache, env=env).code == 0
    for args, extra in ((["--confine-from-env"], {}), ([], {"FLUIDGEN_CONFINE_FROM_ENV": "1"})):
        run = run_process("build", *args, str(spec), cache=cache, env={**env, **extra})
        assert run.code == 1 and run.how == "COMPILED", (args, run.err)
        assert OPERATOR_KEY not in run.out + run.err


def test_the_confinement_setting_reads_only_the_operators_names() -> None:
    tenant = {"ARGOCD_ENV_FLUIDGEN_CONFINE_FROM_ENV": "1", "PARAM_FROM_ENV_ALLOW": "X",
              "ARGOCD_ENV_FLUIDGEN_FROM_ENV_ALLOW": "X"}
    assert settings.from_env(False, (), tenant) == FromEnv()
    assert settings.from_env(False, (), {"FLUIDGEN_CONFINE_FROM_ENV": "1"}) == FromEnv(confined=True)
    assert settings.from_env(False, ("A",), {"FLUIDGEN_FROM_ENV_ALLOW": "B, C"}) == \
        FromEnv(True, frozenset({"A", "B", "C"}))
    with pytest.raises(settings.SettingError):
        settings.from_env(False, (), {"FLUIDGEN_CONFINE_FROM_ENV": "maybe"})
    with pytest.raises(settings.SettingError):
        settings.from_env(False, ("NOT A NAME",), {})
    confined = FromEnv(True, frozenset({"ALLOWED"}))
    assert [confined.refuses(v) for v in ("ARGOCD_ENV_X", "ALLOWED", "SOPS_AGE_KEY", "ARGOCD_APP_NAME")] == \
        [False, False, True, True]
