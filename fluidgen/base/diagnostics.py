"""Diagnostic values: one problem, where it is, and how bad it is."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal

from .emit import printable

Severity = Literal["error", "warning", "info"]
PathT = tuple[str | int, ...]


def format_path(path: PathT) -> str:
    """Render a key path the way users write it: runtime.cache[0].quota."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out == "":
            out = part
        elif _plain_key(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out or "(document)"


def _plain_key(key: str) -> bool:
    return key.replace("_", "a").replace("-", "a").isalnum()


# Letters typed for the digits they look like (FG1O3 for FG103, FGl04 for FG104).
_LOOKALIKES = str.maketrans("oil", "011")


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ' (did you mean "x"?)' suffix for a near-miss name, or ''. The same word in another case
    or with a letter for a look-alike digit comes first: difflib scores FG1O3 as close to FG135
    as to FG103."""
    ordered = sorted(set(choices))
    folded = word.lower().translate(_LOOKALIKES)
    close = [c for c in ordered if c.lower().translate(_LOOKALIKES) == folded][:1]
    close = close or difflib.get_close_matches(word, ordered, n=1, cutoff=0.6)
    return f'; did you mean "{close[0]}"?' if close else ""


@dataclass(frozen=True, order=True)
class Diagnostic:
    file: str
    line: int
    col: int
    severity: Severity
    message: str
    path: PathT = field(default=())
    code: str = ""
    stage: str = ""

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        code = f" [{self.code}]" if self.code else ""
        subject = f"{format_path(self.path)}: " if self.path else ""
        return printable(f"{where}: {self.severity}{code}: {subject}{self.message}")

    def as_json(self) -> dict[str, object]:
        data = asdict(self)
        data["path"] = format_path(self.path) if self.path else ""
        return data


class Unavailable(Exception):
    """Part of fluidgen's own installation is missing (a dependency's data): exit 1 with one
    line saying what to install, never an internal error."""


class FluidgenError(Exception):
    """A user error: bad input, failed validation. Exit code 1, no traceback."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))


def errors_in(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity == "error"]


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(set(diags), key=lambda d: (d.file, d.line, d.col, d.message))


def quote_hint(value: bool | int | float) -> str:
    """How to make a YAML scalar a string. A boolean is shown ("true"); a number never is:
    it may be a credential (an all-digit password under any option name), and the message
    already points at its line."""
    if isinstance(value, bool):
        return f'; quote it: "{str(value).lower()}"'
    return "; quote it (write the number in quotes)"
