"""One Argo CD sidecar serves many Applications: nothing an Application author sets through
ARGOCD_ENV_* or PARAM_* widens what fluidgen reads (issue 24, critical)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from fluidgen.io import settings
from tests.conftest import EXAMPLES, run_cli


@pytest.fixture
def tenants(tmp_path: Path) -> tuple[Path, Path]:
    """Two applications side by side; the attacker's spec points at the victim's env file."""
    victim = tmp_path / "victim"
    shutil.copytree(EXAMPLES / "credentials", victim / "credentials")
    attacker = tmp_path / "attacker"
    attacker.mkdir()
    spec = (EXAMPLES / "jindo-imagenet-oss.yaml").read_text()
    (attacker / "spec.yaml").write_text(spec.replace("envFile: credentials/imagenet-oss.env",
                                                     f"envFile: {victim}/credentials/imagenet-oss.env"))
    return attacker, victim


def _env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("FLUIDGEN_", "ARGOCD_ENV_", "PARAM_"))}
    return {**base, "FLUIDGEN_NO_CACHE": "1", **extra}


@pytest.mark.parametrize("name", ["ARGOCD_ENV_FLUIDGEN_ALLOW_READ", "PARAM_FLUIDGEN_ALLOW_READ", "PARAM_ALLOW_READ",
                                  "ARGOCD_ENV_ALLOW_READ", "ARGOCD_ENV_PARAM_FLUIDGEN_ALLOW_READ"])
def test_an_application_env_cannot_allow_reading_another_applications_files(
        tenants: tuple[Path, Path], name: str) -> None:
    attacker, _ = tenants
    for command in ("build", "validate"):
        run = run_cli(command, str(attacker / "spec.yaml"), env=_env(**{name: "/"}))
        assert run.code == 1, (command, run.err)
        assert "outside the spec's directory" in run.err
        assert "imagenet-oss-key" not in run.out + run.err


def test_the_sidecars_own_allow_list_still_widens_reads(tenants: tuple[Path, Path]) -> None:
    attacker, victim = tenants
    assert run_cli("build", str(attacker / "spec.yaml"), env=_env(FLUIDGEN_ALLOW_READ=str(victim))).code == 0
    assert run_cli("build", "--allow-read", str(victim), str(attacker / "spec.yaml"), env=_env()).code == 0


def test_allow_read_setting_reads_only_the_operator_variable() -> None:
    env = {"ARGOCD_ENV_FLUIDGEN_ALLOW_READ": "/", "PARAM_FLUIDGEN_ALLOW_READ": "/etc"}
    assert settings.allow_read((), env) == ()
    assert settings.allow_read(("x",), {**env, "FLUIDGEN_ALLOW_READ": "/a:/b"}) == ("x", "/a", "/b")
