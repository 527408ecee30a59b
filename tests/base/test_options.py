"""fluidgen/base/options.py: what a compile is asked to do. FromEnv decides which environment
variables a spec's credentials.fromEnv may read; tests/features/test_attack_sidecar_env.py
checks a confined sidecar's four typical names, this file the edges: no confinement, the
prefix's exact spelling and place, the allow list matched whole; and the defaults of Options."""

from __future__ import annotations

import dataclasses

import pytest

from fluidgen.base.options import APPLICATION_ENV, FromEnv, Options


def test_the_application_prefix_is_argo_cds() -> None:
    """Argo CD (since 2.4) hands a plugin each `spec.source.plugin.env` entry of an Application as
    ARGOCD_ENV_<name> (docs/operator-manual/upgrading/2.3-2.4.md, "Update plugins to use
    newly-prefixed environment variables"; reposerver/repository/repository.go)."""
    assert APPLICATION_ENV == "ARGOCD_ENV_"


@pytest.mark.parametrize("variable", ["SOPS_AGE_KEY", "VAULT_TOKEN", "ARGOCD_ENV_X", "", "anything"])
def test_unconfined_every_variable_may_be_read(variable: str) -> None:
    assert not FromEnv().refuses(variable)
    assert not FromEnv(allow=frozenset({"OTHER"})).refuses(variable)  # a list alone confines nothing


@pytest.mark.parametrize(("variable", "refused"), [
    ("ARGOCD_ENV_BUCKET_KEY", False),
    ("argocd_env_BUCKET_KEY", True),  # environment names are case-sensitive: not the Application's
    ("X_ARGOCD_ENV_BUCKET_KEY", True),  # a prefix, at the start only
    ("ARGOCD_ENVBUCKET", True),  # the underscore belongs to the prefix
    ("TEAM_KEY", False),  # on the operator's list
    ("TEAM_KEY_2", True), ("TEAM", True),  # the list names variables whole
    ("SOPS_AGE_KEY", True),
])
def test_confined_only_the_applications_variables_and_the_allowed_ones_are_read(variable: str, refused: bool) -> None:
    assert FromEnv(confined=True, allow=frozenset({"TEAM_KEY"})).refuses(variable) is refused


def test_options_default_to_a_plain_fluid_compile_reading_the_environment_at_creation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLUIDGEN_TEST_OPTION", "before")
    options = Options()
    monkeypatch.setenv("FLUIDGEN_TEST_OPTION", "after")
    assert options.env["FLUIDGEN_TEST_OPTION"] == "before"  # a copy taken when the options were made
    assert Options().env["FLUIDGEN_TEST_OPTION"] == "after"
    assert (options.target, options.lint, options.read_credentials, options.warnings_as_errors) == \
        ("fluid", True, True, False)
    assert (options.fluid_version, options.namespace, options.namespace_from, options.gitops, options.hash_names) == \
        (None, None, "", None, None)
    assert options.from_env == FromEnv() and not options.from_env.confined
    assert options.ignore == frozenset() and options.allow_read == ()


def test_options_cannot_be_changed_once_made() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().lint = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        FromEnv().confined = True  # type: ignore[misc]
