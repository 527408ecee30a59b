"""Exit codes, and flags resolved against their environment variables: what the command line
(cli.py, loaded on every call) and the commands it runs share. Light on purpose: click and
settings only, so `fluidgen --help` and the cache-hit path do not load a compiler."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..io import settings

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command Ctrl-C stopped
T = TypeVar("T")


def resolve(setting: Callable[[Any], T], flag: Any) -> T:
    """A setting from its flag or the environment; a bad value is a usage error."""
    try:
        return setting(flag)
    except settings.SettingError as exc:
        raise click.UsageError(str(exc)) from None
