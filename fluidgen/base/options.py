"""What a compile is asked to do (toolkit: imports nothing of fluidgen): the options the
command line, a project file's environment and the Python API fill in for the pipeline."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

APPLICATION_ENV = "ARGOCD_ENV_"  # how Argo CD hands a plugin an Application's spec.source.plugin.env entries


@dataclass(frozen=True)
class FromEnv:
    """Which environment variables a spec's `credentials.fromEnv` may read.

    Unconfined (the default: a developer's shell, CI), any variable. Confined (an Argo CD
    sidecar serving many Applications, set by its operator only), a variable the Application
    itself sets (Argo CD passes `spec.source.plugin.env` entries as ARGOCD_ENV_<name>:
    reposerver/repository/repository.go getPluginParamEnvs) or one the operator's allow list
    names; the sidecar's own variables (an age key, a Vault token) are never readable.
    """

    confined: bool = False
    allow: frozenset[str] = frozenset()

    def refuses(self, variable: str) -> bool:
        return self.confined and not variable.startswith(APPLICATION_ENV) and variable not in self.allow


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
    # diff/plan: the built Secret keys and encryptOptions are compared with a committed build, so a
    # credential key list that cannot be known (an absent envFile) is an error, not a note
    keys_compared: bool = False
    allow_read: tuple[str, ...] = ()  # directories specs may read files from, besides their own
    gitops: str | None = None  # "argocd" or "flux": no TTL on data operations (a spec's gitops: wins)
    hash_names: bool | None = None  # data operation names end in a hash of their spec (default: in GitOps mode)
    from_env: FromEnv = field(default_factory=FromEnv)  # what credentials.fromEnv may read (the operator setting only)
