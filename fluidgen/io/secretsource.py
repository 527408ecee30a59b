"""Reading credential values: the one implementation, shared by the build and the cache."""

from __future__ import annotations

import os

from .buildinputs import Recipe, read_regular

TYPE_CHECKING = False  # collections.abc is not loaded at start-up; mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Mapping


def read_value_file(path: str) -> str:
    """A credential file's content (UTF-8, trailing newline removed). Raises OSError (also
    for a FIFO, a device or a file over the input limit: never blocks, never reads it whole)
    or UnicodeDecodeError."""
    raw = read_regular(path)
    if raw is None:
        raise OSError(f"{path}: not a regular file within the size limit")
    return raw.decode("utf-8").rstrip("\r\n")


def parse_env_file(text: str) -> tuple[dict[str, str], list[int]]:
    """KEY=VALUE lines (comments and blanks skipped) and the numbers of malformed lines."""
    values: dict[str, str] = {}
    bad: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            bad.append(number)
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values, bad


def resolve(recipe: Recipe, env: Mapping[str, str] | None = None) -> str | None:
    """The current value a recipe points at, or None when it cannot be read now."""
    env = os.environ if env is None else env
    try:
        if recipe[0] == "env":
            return env.get(recipe[1])
        if recipe[0] == "file":
            return read_value_file(recipe[1])
        if recipe[0] == "envfile":
            values, bad = parse_env_file(read_value_file(recipe[1]))
            return None if bad else values.get(recipe[2])
    except (OSError, UnicodeDecodeError):
        return None
    return None
