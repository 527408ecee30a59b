"""What lowering and the engines read of a spec: the parsed spec's parts, without the Spec model.

spec/spec.py's Spec, the validator of record, sits above the engine table (it names the engines
and adds each engine's own section of `runtime:`). The context handed to engines lives below
them, so it cannot name Spec, not even for the type checker: that would close a circle through
every engine. It carries a SpecView instead, built from the parsed Spec by lower/view.py. The
parts are the same objects the Spec holds (nothing is copied or validated again); the view
leaves out what nothing below the pipeline reads (apiVersion, kind, fluid, gitops, lint: the
pipeline reads those off the Spec itself).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..base.manifest import Tree
from .specparts import (
    CacheTier,
    Credentials,
    DatasetSection,
    FuseSettings,
    Metadata,
    Mount,
    NetworkMode,
    Placement,
    RunAs,
    Step,
    Workload,
)


class Labelled(Protocol):
    """A part of the spec with labels and annotations of its own object (runtime, dataset, a step)."""

    @property
    def labels(self) -> Mapping[str, str]: ...

    @property
    def annotations(self) -> Mapping[str, str]: ...


@dataclass(frozen=True)
class RuntimeView:
    """`runtime:` of a spec: the settings every engine shares, and the engine's own section."""

    engine: str
    replicas: int | None
    replicas_written: bool  # the spec says `replicas:`, null included (null leaves it to Fluid)
    cache: Sequence[CacheTier]
    runAs: RunAs | None
    masters: int | None
    networkMode: NetworkMode | None
    metadataSync: bool | None
    fuse: FuseSettings | None
    profile: str | None
    overrides: Tree
    labels: Mapping[str, str]
    annotations: Mapping[str, str]
    # the engine's own section (engines/*.py section=SpecSection(key, model)): key -> the parsed
    # model, or None when the spec leaves it out; a spec has no other engine's section (Spec refuses it)
    sections: Mapping[str, Any]

    def section(self, key: str) -> Any:
        """The engine's own section (thin:, cacheClass:), or None."""
        return self.sections.get(key)


@dataclass(frozen=True)
class SpecView:
    """One parsed spec, as lowering and the engines read it (spec key names kept)."""

    metadata: Metadata
    source: Sequence[Mount]
    sharedOptions: Mapping[str, str]
    sharedCredentials: Credentials | None
    dataset: DatasetSection
    accessModes: Sequence[str]
    placement: Placement
    runtime: RuntimeView
    dataflow: Sequence[Step]
    workloads: Sequence[Workload]
