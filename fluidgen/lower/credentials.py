"""Turn a `credentials:` block into a Secret plan plus encryptOptions.

Values are read here and nowhere else. They only ever travel inside SecretPlan.data and
are never put into a message: errors name the option, variable or file instead. Files are
read through the build's Reader, so they must lie inside the spec's directory tree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..base.diagnostics import FluidgenError, PathT
from ..base.names import secret_key
from ..base.options import APPLICATION_ENV
from ..io.buildinputs import Recipe
from ..io.secretsource import parse_env_file
from ..model.context import Context
from ..model.specparts import Credentials, ExternalSecretRef


@dataclass
class SecretPlan:
    name: str
    data: dict[str, str] = field(default_factory=dict)
    recipes: dict[str, Recipe] = field(default_factory=dict)  # where each value came from (for the cache)
    at: PathT = ()  # the spec's credentials block
    external: ExternalSecretRef | None = None  # the Secret is made in the cluster by an ExternalSecret


@dataclass(frozen=True)
class Delivered:
    encrypt_options: list[dict[str, object]]
    secret: SecretPlan | None


def option(name: str, secret: str, key: str) -> dict[str, object]:
    return {"name": name, "valueFrom": {"secretKeyRef": {"name": secret, "key": key}}}


def deliver(ctx: Context, creds: Credentials, default_name: str, at: PathT) -> Delivered:
    """encryptOptions for `creds`, reading values from env/files at build time.

    Without read_credentials (validate, lint) no value is read: the Secret gets the right
    keys with empty values, so checking a spec never needs the credentials to be present.
    """
    if creds.existingSecret is not None:
        ref = creds.existingSecret
        return Delivered([option(opt, ref.name, key) for opt, key in sorted(ref.keys.items())], None)
    name = creds.secretName or default_name
    if creds.externalSecret is not None:  # no value is read: the operator fetches them in the cluster
        external = creds.externalSecret
        return Delivered([option(opt, name, opt) for opt in sorted(external.properties)],
                         SecretPlan(name, at=at, external=external))
    if not ctx.read_credentials:
        return _keys_only(ctx, creds, name, at)
    values, recipes = _values(ctx, creds, at)
    for opt in sorted(values):
        if values[opt] == "":
            ctx.report(at, f"credential {opt} is empty", stage="credentials")
    # A declared option whose value could not be read keeps its encryptOption: the build fails on
    # the read error above, and the checks of the Dataset judge what the spec declares.
    declared = {*values, *creds.fromEnv, *creds.fromFile}
    return Delivered([option(opt, name, opt) for opt in sorted(declared)], SecretPlan(name, values, recipes, at))


def _keys_only(ctx: Context, creds: Credentials, name: str, at: PathT) -> Delivered:
    """The Secret's keys with empty values (no value read)."""
    keys = {*creds.fromEnv, *creds.fromFile, *creds.inline}
    if creds.envFile:  # its key names, if it is there: checking a spec never needs the secrets
        keys |= set(_env_file(ctx, creds.envFile, (*at, "envFile"), missing_ok=True))
    return Delivered([option(opt, name, opt) for opt in sorted(keys)], SecretPlan(name, dict.fromkeys(keys, ""), at=at))


def _values(ctx: Context, creds: Credentials, at: PathT) -> tuple[dict[str, str], dict[str, Recipe]]:
    """Every value `creds` names (envFile, then fromFile, fromEnv, inline; later ones win) and
    where each came from; one that cannot be read is reported and left out."""
    values: dict[str, str] = {}
    recipes: dict[str, Recipe] = {}
    if creds.envFile:
        found = _env_file(ctx, creds.envFile, (*at, "envFile"))
        path = os.path.abspath(ctx.reader.referenced(ctx.doc, (*at, "envFile"), creds.envFile))
        values.update(found)
        recipes.update({key: ("envfile", path, key) for key in found})
    for opt, path in sorted(creds.fromFile.items()):
        value = _value_file(ctx, path, (*at, "fromFile", opt))
        if value is not None:
            values[opt] = value
            recipes[opt] = ("file", os.path.abspath(ctx.reader.referenced(ctx.doc, (*at, "fromFile", opt), path)))
    for opt, var in sorted(creds.fromEnv.items()):
        env_value = _env_value(ctx, var, opt, (*at, "fromEnv", opt))
        if env_value is not None:
            values[opt] = env_value
            recipes[opt] = ("env", var)
    if creds.inline:
        values.update(creds.inline)
        recipes.update(dict.fromkeys(creds.inline, ("inline",)))
        ctx.report((*at, "inline"), "credential values are written inline in the spec; prefer fromEnv or fromFile "
                                    "so they stay out of version control", "warning", stage="credentials",
                   code="FG012")
    return values, recipes


def _env_value(ctx: Context, var: str, opt: str, at: PathT) -> str | None:
    """The value of a fromEnv variable, or None after reporting why it cannot be used (unset,
    not valid UTF-8, not a string at all: the Python API's env= is any mapping, or one a
    confined sidecar does not let a spec read: the message names the variable, never a value)."""
    if ctx.from_env.refuses(var):
        ctx.report(at, f"environment variable {var} is not the Application's (needed for {opt}): this Argo CD "
                       f"sidecar lets a spec read only the variables its Application sets (spec.source.plugin.env, "
                       f"passed as {APPLICATION_ENV}<NAME>: write fromEnv: {{{opt}: {APPLICATION_ENV}<NAME>}}) and "
                       "those its operator allows (--from-env-allow, FLUIDGEN_FROM_ENV_ALLOW)", stage="credentials")
        return None
    value: object = ctx.env.get(var)
    if value is None and var not in ctx.env:
        problem = "is not set"
    elif not isinstance(value, str):
        problem = f"is not a string but {type(value).__name__}"  # the type only: never the value
    else:
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            problem = "is not valid UTF-8"
    ctx.report(at, f"environment variable {var} {problem} (needed for {opt})", stage="credentials")
    return None


def _read(ctx: Context, target: str, at: PathT, missing_ok: bool = False) -> str | None:
    """A credential file's text. Errors name the file and the reason, never its content."""
    try:
        path = ctx.reader.referenced(ctx.doc, at, target)
    except FluidgenError as exc:
        ctx.diagnostics += exc.diagnostics
        return None
    if missing_ok and not path.exists():
        ctx.reader.inputs.file(str(path), None)  # recorded as missing: a hit checks it still is
        # Said, not silent: without the file its keys are unknown, so the Secret and the Dataset's
        # encryptOptions are built without them; a diff or plan would show them as removed, a drift
        # that is not there, so there it is an error.
        if ctx.keys_compared:
            ctx.report(at, f"{target} is not here: its keys decide the Secret and the encryptOptions this "
                           "comparison reads, so nothing is compared; run where the file is, or name the keys "
                           "with fromEnv or fromFile", stage="credentials")
        else:
            ctx.report(at, f"{target} is not here, so its keys are unknown to this check: the Secret and the "
                           "encryptOptions are checked without them; name the keys with fromEnv or fromFile "
                           "to check them without the file", "info", stage="credentials")
        return None
    try:
        raw = ctx.reader.read(str(path), record=False)  # never by content: see buildinputs.py
    except FluidgenError as exc:
        reason = exc.diagnostics[0].message if exc.diagnostics else "cannot read"
        ctx.report(at, f"credential file {path}: {reason}", stage="credentials")
        return None
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        ctx.report(at, f"credential file {path} is not UTF-8 text", stage="credentials")
        return None


def _value_file(ctx: Context, target: str, at: PathT) -> str | None:
    return _read(ctx, target, at)


def key_path(ctx: Context, creds: Credentials, at: PathT, opt: str) -> PathT | None:
    """The spec key that gives credential option `opt` (or, for an envFile, the key's line there,
    recorded as (*at, "envFile", opt)): the last way that gives it, as its value is."""
    for way in ("inline", "fromEnv", "fromFile"):
        if opt in getattr(creds, way):
            return (*at, way, opt)
    if (*at, "envFile", opt) in ctx.located:
        return (*at, "envFile", opt)
    for way, names in (("existingSecret", creds.existingSecret.keys if creds.existingSecret else {}),
                       ("externalSecret", creds.externalSecret.properties if creds.externalSecret else {})):
        if opt in names:
            return (*at, way, "keys" if way == "existingSecret" else "properties", opt)
    return None


def _locate_env_keys(ctx: Context, text: str, target: str, at: PathT) -> None:
    """Each key of an envFile at its own line (never its value), so a finding about the name
    is reported there."""
    written_in = ctx.doc.locate(at)[0]
    if written_in == "-":
        return
    shown = os.path.normpath(os.path.join(os.path.dirname(written_in), target))
    for number, raw in enumerate(text.splitlines(), start=1):
        key, sep, _ = raw.strip().partition("=")
        if sep and key.strip() and not key.startswith("#"):
            ctx.located[(*at[:-1], "envFile", key.strip())] = (shown, number, raw.index(key.strip()) + 1)


def _env_file(ctx: Context, target: str, at: PathT, missing_ok: bool = False) -> dict[str, str]:
    text = _read(ctx, target, at, missing_ok)
    if text is None:
        return {}
    values, bad = parse_env_file(text)
    _locate_env_keys(ctx, text, target, at)
    ctx.reader.inputs.envfile(str(ctx.reader.referenced(ctx.doc, at, target)), sorted(values))
    # Name the line, never echo it: it may hold a secret.
    for number in bad:
        ctx.report(at, f"{target}:{number}: expected KEY=VALUE", stage="credentials")
    if not values and not bad:
        ctx.report(at, f"{target} holds no KEY=VALUE line; an empty Secret would replace the live one",
                   stage="credentials")
    for key in sorted(values):
        if (problem := secret_key(key)) is not None:
            ctx.report(at, f"{target}: key {problem}", stage="credentials")
    return values
