"""fluidgen/commands/usage.py: the exit codes every command returns (README, "Exit codes") and
`resolve`, which turns a bad flag or environment setting into a usage error (exit 2)."""

from __future__ import annotations

import click
import pytest

from fluidgen.commands import usage
from fluidgen.io import settings
from tests.conftest import EXAMPLES, run_cli


def test_exit_codes_are_the_documented_ones() -> None:
    assert (usage.EXIT_OK, usage.EXIT_USER, usage.EXIT_USAGE, usage.EXIT_INTERNAL) == (0, 1, 2, 3)
    assert usage.EXIT_INTERRUPTED == 130  # 128 + SIGINT


def test_resolve_returns_the_setting_a_good_flag_gives() -> None:
    assert usage.resolve(settings.fluid_version, "v1.1.0-dev") == "v1.1.0-dev"


def test_resolve_makes_a_bad_flag_a_usage_error_naming_the_flag() -> None:
    with pytest.raises(click.UsageError) as caught:
        usage.resolve(settings.fluid_version, "v9")
    assert caught.value.message == "--fluid-version: unsupported Fluid version 'v9'; choose one of v1.0.8, v1.1.0-dev"
    assert caught.value.__suppress_context__  # `from None`: the setting's own exception is not chained


def test_a_bad_environment_setting_is_a_usage_error_naming_the_variable() -> None:
    result = run_cli("lint", str(EXAMPLES / "jindo-imagenet-oss.yaml"), env={"FLUIDGEN_FLUID_VERSION": "v9"})
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == \
        "Error: FLUIDGEN_FLUID_VERSION: unsupported Fluid version 'v9'; choose one of v1.0.8, v1.1.0-dev"
