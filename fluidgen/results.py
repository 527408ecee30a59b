"""What the Python API hands back: `Build` (objects and diagnostics), `Diagnostic` and
`FluidgenError`. Apart from api.py so that a pipeline can name them (an `except
fluidgen.FluidgenError`, a type annotation) without loading the compiler: this module
imports only the YAML writer (python -X importtime: under 1 ms)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .base.emit import dump_all, printable


@dataclass(frozen=True)
class Diagnostic:
    """One problem: how bad, what, and where (file, line and column are None for a spec given
    as a mapping; path is the key path, such as runtime.cache.quota; rule the FG ID)."""

    severity: Literal["error", "warning", "info"]
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: str | None = None
    rule: str | None = None

    def __str__(self) -> str:
        where = self.file or "<spec>"
        if self.line:
            where += f":{self.line}:{self.column or 1}"
        rule = f" [{self.rule}]" if self.rule else ""
        subject = f"{self.path}: " if self.path else ""
        return printable(f"{where}: {self.severity}{rule}: {subject}{self.message}")


class FluidgenError(Exception):
    """Raised by `Build.raise_for_errors`: carries the build's diagnostics; its message lists
    the errors, one per line."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        super().__init__("\n".join(str(d) for d in errors or self.diagnostics))


@dataclass(frozen=True)
class Build:
    """The result of `fluidgen.build`: the objects (empty when there are errors, as the
    command line prints nothing) and every diagnostic."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def yaml(self) -> str:
        """The objects as `fluidgen build` writes them to stdout (the same bytes)."""
        return dump_all(self.objects)

    def raise_for_errors(self) -> None:
        if not self.ok:
            raise FluidgenError(self.diagnostics)
