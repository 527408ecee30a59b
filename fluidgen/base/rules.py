"""What a rule is: one documented check over one object (with every object of the set beside it).

Rules run on compiled output, where each finding is reported at the spec value it came
from, and on hand-written manifests (`fluidgen lint`). A rule carries its documentation:
what it checks and why, the Fluid code it rests on (with the versions that hold it: the rule
runs only for a target version where all of it holds), and an example it reports;
`fluidgen lint --rules` and docs/rules.md are made from them.
Engine modules define the rules that only concern their runtime; fluidgen/lint holds the
rest and the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass

from .diagnostics import PathT, Severity
from .fluidsource import FluidSource, holding
from .manifest_index import Entry, ManifestIndex


@dataclass(frozen=True)
class Finding:
    path: PathT
    message: str


Check = Callable[[Entry, ManifestIndex], Iterator[Finding]]


@dataclass(frozen=True)
class Example:
    """Manifests the rule reports, and why that is a problem."""

    manifest: str  # one or more YAML documents, as a user would write them
    why: str


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    summary: str
    check: Check
    description: str  # what is checked and what goes wrong otherwise, in a few sentences
    sources: tuple[FluidSource, ...]  # the code in fluid-cloudnative/fluid the rule rests on
    example: Example
    kinds: Set[str] = frozenset()  # the kinds the check reads; empty: every kind
    elsewhere: tuple[str, ...] = ()  # what it rests on outside Fluid (Kubernetes, an engine's own docs)

    def applies_to(self, kind: str) -> bool:
        return not self.kinds or kind in self.kinds

    @property
    def versions(self) -> tuple[str, ...]:
        """The Fluid versions the rule holds for: where every fact it rests on holds (fluidsource.holding)."""
        return holding(self.sources)
