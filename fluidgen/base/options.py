"""What a compile is asked to do (toolkit: imports nothing of fluidgen): the options the
command line, a project file's environment and the Python API fill in for the pipeline."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    """Every knob the pipeline accepts."""

    fluid_version: str | None = None  # used when a spec does not pin `fluid:`
    namespace: str | None = None  # used when a spec does not set metadata.namespace
    # the setting `namespace` came from, named in the warning when a spec's pinned one wins
    # ("-n/--namespace", "FLUIDGEN_NAMESPACE", "namespace= of fluidgen.build", ...); "" when none did
    namespace_from: str = ""
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    target: str = "fluid"  # or "alluxio-helm": values for the upstream Alluxio chart
    warnings_as_errors: bool = False
    lint: bool = True
    ignore: frozenset[str] = frozenset()  # lint rule IDs silenced for the run
    read_credentials: bool = True  # False for validate/lint: check a spec without its secrets
    allow_read: tuple[str, ...] = ()  # directories specs may read files from, besides their own
    gitops: str | None = None  # "argocd" or "flux": no TTL on data operations (a spec's gitops: wins)
    hash_names: bool | None = None  # data operation names end in a hash of their spec (default: in GitOps mode)
