"""Settings from flags and the environment: a flag wins, then FLUIDGEN_<NAME>, then
ARGOCD_ENV_FLUIDGEN_<NAME>, then PARAM_<NAME> for the four plugin parameters only (README,
"What an Argo CD Application can set"); a bad value is refused naming where it came from."""

from __future__ import annotations

import pytest

from fluidgen.base.options import FromEnv
from fluidgen.io import settings


def test_the_order_is_fluidgen_then_argocd_env_then_param() -> None:
    env = {"FLUIDGEN_NAMESPACE": "a", "ARGOCD_ENV_FLUIDGEN_NAMESPACE": "b", "PARAM_NAMESPACE": "c"}
    assert settings.lookup("NAMESPACE", env) == ("a", "FLUIDGEN_NAMESPACE")
    del env["FLUIDGEN_NAMESPACE"]
    assert settings.lookup("NAMESPACE", env) == ("b", "ARGOCD_ENV_FLUIDGEN_NAMESPACE")
    del env["ARGOCD_ENV_FLUIDGEN_NAMESPACE"]
    assert settings.lookup("NAMESPACE", env) == ("c", "PARAM_NAMESPACE")
    assert settings.namespace("flag-ns", {"FLUIDGEN_NAMESPACE": "a"}) == "flag-ns"


def test_an_empty_variable_counts_as_unset() -> None:
    assert settings.lookup("GITOPS", {"FLUIDGEN_GITOPS": "", "PARAM_GITOPS": "flux"}) == ("flux", "PARAM_GITOPS")
    assert settings.lookup("GITOPS", {"FLUIDGEN_GITOPS": ""}) is None


@pytest.mark.parametrize("name", ["ALLOW_READ", "CACHE_DIR", "NO_CACHE", "CONFINE_FROM_ENV", "FROM_ENV_ALLOW"])
def test_a_plugin_parameter_sets_only_the_four_announced_settings(name: str) -> None:
    """deploy/argocd/plugin.yaml announces env, fluid-version, namespace and gitops; a PARAM_
    of any other name is the Application author's and chooses nothing."""
    assert settings.lookup(name, {f"PARAM_{name}": "/"}) is None


@pytest.mark.parametrize(("call", "env", "message"), [
    (lambda e: settings.fluid_version(None, e), {"PARAM_FLUID_VERSION": "v9"},
     "PARAM_FLUID_VERSION: unsupported Fluid version 'v9'; choose one of v1.0.8, v1.1.0-dev"),
    (lambda e: settings.gitops(None, e), {"ARGOCD_ENV_FLUIDGEN_GITOPS": "kustomize"},
     "ARGOCD_ENV_FLUIDGEN_GITOPS: unknown GitOps mode 'kustomize'; choose one of argocd, flux, none"),
    (lambda e: settings.environment(None, e), {"FLUIDGEN_ENV": "Prod"},
     'FLUIDGEN_ENV: "Prod" is not a DNS-1123 label (at most 63 lower-case letters, digits and "-", '
     "starting and ending with a letter or digit)"),
    (lambda e: settings.gitops("flux2", e, given_as="gitops"), {},
     "gitops: unknown GitOps mode 'flux2'; choose one of argocd, flux, none"),
    (lambda e: settings.environment("a_b", e), {}, '--env: "a_b" is not a DNS-1123 label'),
])
def test_a_bad_value_is_refused_naming_its_source(call: object, env: dict[str, str], message: str) -> None:
    with pytest.raises(settings.SettingError) as caught:
        call(env)  # type: ignore[operator]
    assert str(caught.value).startswith(message)


def test_a_value_that_is_not_utf8_is_refused_naming_the_variable_not_its_value() -> None:
    bad = "\udcff\udcfesecret"  # how Python holds the bytes ff fe of a non-UTF-8 environment
    with pytest.raises(settings.SettingError) as caught:
        settings.lookup("ENV", {"ARGOCD_ENV_FLUIDGEN_ENV": bad})
    assert str(caught.value) == "ARGOCD_ENV_FLUIDGEN_ENV is not valid UTF-8"
    with pytest.raises(settings.SettingError) as read:
        settings.allow_read((), {"FLUIDGEN_ALLOW_READ": bad})
    assert str(read.value) == "FLUIDGEN_ALLOW_READ is not valid UTF-8"


def test_namespace_source_names_argo_cds_destination_only_when_nothing_else_sets_it() -> None:
    argo = {"ARGOCD_APP_NAMESPACE": "team-a"}
    assert settings.namespace_source("team-a", argo) == \
        "Argo CD's destination namespace (ARGOCD_APP_NAMESPACE, passed as --namespace)"
    assert settings.namespace_source("team-a", {**argo, "ARGOCD_ENV_FLUIDGEN_NAMESPACE": "x"}) == "-n/--namespace"
    assert settings.namespace_source("team-b", argo) == "-n/--namespace"
    assert settings.namespace_source(None, {"PARAM_NAMESPACE": "x"}) == "PARAM_NAMESPACE"
    assert settings.namespace_source(None, argo) == ""


def test_allow_read_flags_come_first_and_empty_entries_are_dropped() -> None:
    assert settings.allow_read(("/flag",), {"FLUIDGEN_ALLOW_READ": ":/a::/b:"}) == ("/flag", "/a", "/b")
    assert settings.allow_read((), {}) == ()


@pytest.mark.parametrize("name", ["1ABC", "A-B", "A B", "ÉTÉ", "A=B", "$HOME"])
def test_from_env_allow_refuses_what_is_not_a_variable_name(name: str) -> None:
    with pytest.raises(settings.SettingError) as caught:
        settings.from_env(False, (), {"FLUIDGEN_FROM_ENV_ALLOW": f"GOOD,{name}"})
    assert str(caught.value) == \
        f"--from-env-allow/FLUIDGEN_FROM_ENV_ALLOW: {name!r} is not an environment variable name"


@pytest.mark.parametrize(("switch", "confined"), [("1", True), (" TRUE ", True), ("yes", True), ("0", False),
                                                  ("false", False), ("No", False), ("", False)])
def test_the_confinement_switch_reads_the_documented_words(switch: str, confined: bool) -> None:
    assert settings.from_env(False, (), {"FLUIDGEN_CONFINE_FROM_ENV": switch}) == FromEnv(confined=confined)
    assert settings.from_env(True, (), {"FLUIDGEN_CONFINE_FROM_ENV": switch}).confined  # the flag alone confines
