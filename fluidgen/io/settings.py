"""Settings that may come from flags or the environment, resolved the same way for every
command: a flag wins, then FLUIDGEN_<NAME>, then ARGOCD_ENV_FLUIDGEN_<NAME> (how Argo CD
passes an Application's plugin env), then PARAM_<NAME> for the parameters the Argo CD plugin
announces (env, fluid-version, namespace, gitops: deploy/argocd/plugin.yaml). Bad values are
usage errors, named with their source (`given_as`: what the caller calls the value it
passes, a flag or the Python API's argument).

An Application author sets every ARGOCD_ENV_* (and PARAM_*) value of a shared Argo CD
sidecar, so those can only choose among what the build of that Application may do anyway
(Fluid version, namespace, GitOps mode, environment). What fluidgen may read is never among
them: ALLOW_READ comes from the sidecar's own FLUIDGEN_ALLOW_READ or from --allow-read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..base import names, versions
from ..base.options import FromEnv

PREFIXES = ("FLUIDGEN_", "ARGOCD_ENV_FLUIDGEN_")
# Argo CD passes a plugin parameter `fluid-version` as PARAM_FLUID_VERSION. Only these: a
# parameter can choose among what an Application's build may do anyway, never what it reads.
PARAMETERS = ("ENV", "FLUID_VERSION", "NAMESPACE", "GITOPS")
PARAM_PREFIX = "PARAM_"


class SettingError(ValueError):
    """A setting with a value fluidgen cannot use (exit 2)."""


def lookup(name: str, env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(value, where it came from) of a setting in the environment, or None."""
    env = os.environ if env is None else env
    for prefix in (*PREFIXES, *([PARAM_PREFIX] if name in PARAMETERS else [])):
        value = env.get(prefix + name)
        if value:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise SettingError(f"{prefix}{name} is not valid UTF-8") from None
            return value, prefix + name
    return None


def fluid_version(flag: str | None, env: Mapping[str, str] | None = None,
                  given_as: str = "--fluid-version") -> str | None:
    value, source = (flag, given_as) if flag else (lookup("FLUID_VERSION", env) or (None, ""))
    if value is not None and value not in versions.NAMES:
        raise SettingError(f"{source}: unsupported Fluid version {value!r}; choose one of {', '.join(versions.NAMES)}")
    return value


def namespace(flag: str | None, env: Mapping[str, str] | None = None, given_as: str = "--namespace") -> str | None:
    value, source = (flag, given_as) if flag else (lookup("NAMESPACE", env) or (None, ""))
    if value is not None and (problem := names.dns1123_label(value)) is not None:
        raise SettingError(f"{source}: {problem}")
    return value


def namespace_source(flag: str | None, env: Mapping[str, str] | None = None) -> str:
    """Where the namespace setting comes from, as a warning names it ("" when nothing sets it).
    Argo CD's plugin (deploy/argocd/plugin.yaml) passes the Application's destination namespace,
    which Argo CD sets as ARGOCD_APP_NAMESPACE, as --namespace unless FLUIDGEN_NAMESPACE is given."""
    env = os.environ if env is None else env
    if flag:
        if env.get("ARGOCD_APP_NAMESPACE") == flag and not lookup("NAMESPACE", env):
            return "Argo CD's destination namespace (ARGOCD_APP_NAMESPACE, passed as --namespace)"
        return "-n/--namespace"
    found = lookup("NAMESPACE", env)
    return found[1] if found else ""


GITOPS_MODES = ("argocd", "flux", "none")


def gitops(flag: str | None, env: Mapping[str, str] | None = None, given_as: str = "--gitops") -> str | None:
    value, source = (flag, given_as) if flag else (lookup("GITOPS", env) or (None, ""))
    if value is not None and value not in GITOPS_MODES:
        raise SettingError(f"{source}: unknown GitOps mode {value!r}; choose one of {', '.join(GITOPS_MODES)}")
    return value


def environment(flag: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The environment of a project file (fluidgen.yaml) to build."""
    value, source = (flag, "--env") if flag else (lookup("ENV", env) or (None, ""))
    if value is not None and (problem := names.dns1123_label(value)) is not None:
        raise SettingError(f"{source}: {problem}")
    return value


OPERATOR_ONLY = "FLUIDGEN_ALLOW_READ"  # never ARGOCD_ENV_ or PARAM_: the Application's author sets those


def allow_read(flags: tuple[str, ...], env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Extra roots files may be read from: --allow-read, then the operator's FLUIDGEN_ALLOW_READ.
    ARGOCD_ENV_FLUIDGEN_ALLOW_READ (or any other prefixed copy) is ignored: it would let one
    Application read another's files in a shared sidecar."""
    env = os.environ if env is None else env
    value = env.get(OPERATOR_ONLY) or ""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise SettingError(f"{OPERATOR_ONLY} is not valid UTF-8") from None
    extra = tuple(p for p in value.split(os.pathsep) if p)
    return (*flags, *extra)


CONFINE_FROM_ENV = "FLUIDGEN_CONFINE_FROM_ENV"  # operator-only, like FLUIDGEN_ALLOW_READ
FROM_ENV_ALLOW = "FLUIDGEN_FROM_ENV_ALLOW"
_ON, _OFF = ("1", "true", "yes"), ("", "0", "false", "no")


def from_env(confine: bool, allow: tuple[str, ...], env: Mapping[str, str] | None = None) -> FromEnv:
    """Which variables a spec's credentials.fromEnv may read: confined by --confine-from-env or
    the operator's FLUIDGEN_CONFINE_FROM_ENV, widened by --from-env-allow and
    FLUIDGEN_FROM_ENV_ALLOW (comma-separated; an allow list confines too). Only these exact
    names count: an Application sets ARGOCD_ENV_* and PARAM_* (never a bare FLUIDGEN_*), so no
    prefixed copy can switch the confinement off or add to the list."""
    env = os.environ if env is None else env
    switch = env.get(CONFINE_FROM_ENV, "").strip().lower()
    if switch not in (*_ON, *_OFF):
        raise SettingError(f"{CONFINE_FROM_ENV}: expected 1 or 0 (true or false)")
    listed = tuple(n.strip() for n in env.get(FROM_ENV_ALLOW, "").split(",") if n.strip())
    names = (*allow, *listed)
    for name in names:
        if not name.isascii() or not name.replace("_", "a").isalnum() or name[0].isdigit():
            raise SettingError(f"--from-env-allow/{FROM_ENV_ALLOW}: {name!r} is not an environment variable name")
    return FromEnv(confined=confine or switch in _ON or bool(names), allow=frozenset(names))
