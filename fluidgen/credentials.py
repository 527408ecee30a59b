"""Turn a `credentials:` block into a Secret plan plus encryptOptions.

Values are read here and nowhere else. They only ever travel inside SecretPlan.data
and are never put into a message: errors name the option, variable or file instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import deps
from .deps import Recipe
from .diagnostics import Diagnostic, PathT
from .secretsource import parse_env_file, read_value_file
from .source import Document, resolve_relative
from .spec import Credentials


@dataclass
class SecretPlan:
    name: str
    data: dict[str, str] = field(default_factory=dict)
    recipes: dict[str, Recipe] = field(default_factory=dict)  # where each value came from (for the cache)


@dataclass(frozen=True)
class Delivered:
    encrypt_options: list[dict[str, object]]
    secret: SecretPlan | None
    diagnostics: list[Diagnostic]


def deliver(creds: Credentials, default_name: str, doc: Document, at: PathT,
            env: Mapping[str, str] | None = None, read: bool = True) -> Delivered:
    """encryptOptions for `creds`, reading values from env/files at build time.

    With read=False (validate, lint) no value is read: the Secret gets the right keys with
    empty values, so checking a spec never needs the credentials to be present.
    """
    env = os.environ if env is None else env
    if creds.existingSecret is not None:
        ref = creds.existingSecret
        options = [_option(opt, ref.name, key) for opt, key in sorted(ref.keys.items())]
        return Delivered(options, None, [])
    if not read:
        keys = {*creds.fromEnv, *creds.fromFile, *creds.inline}
        if creds.envFile:
            keys |= set(_read_env_file(creds.envFile, doc, (*at, "envFile"), []))
        name = creds.secretName or default_name
        return Delivered([_option(opt, name, opt) for opt in sorted(keys)], SecretPlan(name, dict.fromkeys(keys, "")),
                         [])
    diags: list[Diagnostic] = []
    values: dict[str, str] = {}
    recipes: dict[str, Recipe] = {}
    if creds.envFile:
        env_path = str(resolve_relative(doc.file, creds.envFile))
        found = _read_env_file(creds.envFile, doc, (*at, "envFile"), diags)
        values.update(found)
        recipes.update({key: ("envfile", os.path.abspath(env_path), key) for key in found})
    for opt, path in sorted(creds.fromFile.items()):
        value = _read_file(path, doc, (*at, "fromFile", opt), diags)
        if value is not None:
            values[opt] = value
            recipes[opt] = ("file", os.path.abspath(resolve_relative(doc.file, path)))
    for opt, var in sorted(creds.fromEnv.items()):
        if var in env:
            values[opt] = env[var]
            recipes[opt] = ("env", var)
        else:
            diags.append(doc.diag((*at, "fromEnv", opt),
                                  f"environment variable {var} is not set (needed for {opt})",
                                  stage="credentials"))
    if creds.inline:
        values.update(creds.inline)
        recipes.update(dict.fromkeys(creds.inline, ("inline",)))
        diags.append(doc.diag((*at, "inline"), "credential values are written inline in the spec; "
                              "prefer fromEnv or fromFile so they stay out of version control",
                              "warning", stage="credentials", code="FG012"))
    for opt in sorted(values):
        if values[opt] == "":
            diags.append(doc.diag(at, f"credential {opt} is empty", stage="credentials"))
    name = creds.secretName or default_name
    options = [_option(opt, name, opt) for opt in sorted(values)]
    return Delivered(options, SecretPlan(name, values, recipes), diags)


def _option(option: str, secret: str, key: str) -> dict[str, object]:
    return {"name": option, "valueFrom": {"secretKeyRef": {"name": secret, "key": key}}}


def _read_file(path: str, doc: Document, at: PathT, diags: list[Diagnostic]) -> str | None:
    target = resolve_relative(doc.file, path)
    try:
        return read_value_file(str(target))
    except OSError as exc:
        diags.append(doc.diag(at, f"cannot read credential file {target}: {exc.strerror}",
                              stage="credentials"))
    except UnicodeDecodeError:
        diags.append(doc.diag(at, f"credential file {target} is not UTF-8 text", stage="credentials"))
    return None


def _read_env_file(path: str, doc: Document, at: PathT, diags: list[Diagnostic]) -> dict[str, str]:
    text = _read_file(path, doc, at, diags)
    if text is None:
        return {}
    values, bad = parse_env_file(text)
    deps.RECORDER.envfile(str(resolve_relative(doc.file, path)), sorted(values))
    # Name the line, never echo it: it may hold a secret.
    diags += [doc.diag(at, f"{path}:{number}: expected KEY=VALUE", stage="credentials") for number in bad]
    return values
