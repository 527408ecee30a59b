"""The values `fluidgen diagnose` and `fluidgen.diagnose` return: one Finding per problem the
cluster shows, with the spec place to change (or the part of the cluster to check)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

OUTSIDE = "outside the spec: the cluster"


@dataclass(frozen=True)
class Finding:
    """One problem: the family (facts.FAMILIES), the objects that show it, the evidence read,
    the cause in plain words, the fix, and where to make it: the spec file:line:column and key
    path, or `outside` (what in the cluster to check) when no spec line causes it."""

    family: str
    objects: tuple[str, ...]
    evidence: str
    cause: str
    fix: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: str | None = None
    outside: str | None = None

    def where(self) -> str:
        if self.outside is not None:
            return self.outside
        at = f"{self.file}:{self.line}:{self.column}" if self.line else str(self.file)
        return f"{at}: {self.path}" if self.path else at

    def as_json(self) -> dict[str, object]:
        data = asdict(self)
        data["objects"] = list(self.objects)
        return data


@dataclass(frozen=True)
class Diagnosis:
    """What `fluidgen.diagnose` returns: the findings, what was not judged and why (notes), and
    the compile's own problems (diagnostics, as `fluidgen build` reports them)."""

    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings and not self.errors
