"""Where a credential value could hide in what an import writes, found by key path.

An imported spec (and a generated profile, and kept.yaml) is checked as a whole before
anything is written: a value under a credential-named key anywhere (labels, annotations,
selectors, options, env lists, tolerations), a credential-named `-Dname=value`,
`--name=value` or `NAME=value` inside a string (jvmOptions, fuse args, scripts), and a URI
with user info (`s3://AK:SECRET@bucket/`). Names count as credentials by the name pattern
and by every engine's secret option names (Storage.secret_options). Only key paths are
reported, never a value.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..engines.engine_table import ENGINES

# option names that hold a secret whatever the engine (a value must never stay in options)
SECRET_NAME = re.compile(r"secret|password|passwd|token|access[._-]?key|credential", re.I)
# words (split at separators and camelCase) that name a credential on their own or as a pair
SECRET_WORDS = frozenset({"secret", "secrets", "password", "passwd", "pwd", "pass", "passphrase", "token", "sk", "ak",
                          "credential", "credentials", "apikey", "accesskey", "secretkey", "privatekey"})
SECRET_PAIRS = frozenset({("api", "key"), ("access", "key"), ("private", "key"), ("secret", "key"),
                          ("client", "secret"), ("auth", "key")})
# every engine's secret option names, as written and lower-cased
ENGINE_SECRET_OPTIONS = frozenset(name.lower() for engine in ENGINES.values()
                                  for table in (engine.mounts.storage, engine.mounts.migrate_storage)
                                  for storage in table.values() for name in storage.secret_options)
# keys whose value names a Secret or an account, never holds one
NAME_KEYS = frozenset({"sshSecretName", "secretName", "serviceAccountName", "serviceAccount", "secretKeyRef"})
# blocks of a spec that hold env var names and Secret references only
REFERENCE_BLOCKS = frozenset({"credentials", "sharedCredentials"})
_ASSIGNMENT = re.compile(r"(?:^|[\s\"'`;,(])-{0,2}(?:D)?([A-Za-z_][A-Za-z0-9_.\-]*)\s*[=:]\s*([^\s\"'`;,)]+)")
_USER_INFO = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s@]+@")


def credential_name(name: str) -> bool:
    """Whether a key or option name says it holds a credential."""
    if SECRET_NAME.search(name) or name.lower() in ENGINE_SECRET_OPTIONS:
        return True
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).lower())
    return any(w in SECRET_WORDS for w in words) or any(pair in SECRET_PAIRS for pair in itertools.pairwise(words))


def _scalar(value: Any) -> bool:
    """A value that could be a credential: text or a number, not empty, not a flag."""
    return not isinstance(value, bool) and isinstance(value, (str, int, float)) and str(value) != ""


def _held(value: Any) -> bool:
    return _scalar(value) or (isinstance(value, list) and any(_scalar(v) for v in value))


def in_text(text: str) -> bool:
    """A string with a credential in it: `-Dfs.oss.accessKeySecret=x`, `--secret-key=x`,
    `export DB_PASS=x` (a `$VAR` reference is no value), or a URI with user info."""
    if _USER_INFO.search(text):
        return True
    return any(credential_name(name) and not value.startswith("$") for name, value in _ASSIGNMENT.findall(text))


def _named_value(entry: dict[Any, Any]) -> bool:
    """{name|key: <credential name>, value|values: ...} (env lists, tolerations, match expressions)."""
    name = entry.get("name", entry.get("key"))
    return isinstance(name, str) and credential_name(name) and \
        any(_held(entry.get(k)) for k in ("value", "values"))


def credential_values(tree: Any, path: tuple[str, ...] = ()) -> list[str]:
    """Key paths in `tree` where a credential value sits in plain text."""
    found: list[str] = []
    stack: list[Node] = [(tree, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            stack += _mapping_items(node, where, found)
        elif isinstance(node, list):
            stack += _list_items(node, where, found)
        elif isinstance(node, str) and in_text(node):
            found.append(".".join(where))
    return sorted(set(found))


Node = tuple[Any, tuple[str, ...]]  # a value and its key path


def _mapping_items(node: dict[Any, Any], where: tuple[str, ...], found: list[str]) -> list[Node]:
    """A mapping's values to look into; a credential-named key holding a value is found instead."""
    items = []
    for key, value in node.items():
        if key in REFERENCE_BLOCKS or key in NAME_KEYS:
            continue
        at = (*where, str(key))
        if credential_name(str(key)) and _held(value):
            found.append(".".join(at))
        else:
            items.append((value, at))
    return items


def _list_items(node: list[Any], where: tuple[str, ...], found: list[str]) -> list[Node]:
    """A list's items to look into; an entry naming a credential with a value is found too,
    by the name it gives."""
    for item in node:
        if isinstance(item, dict) and _named_value(item):
            found.append(".".join((*where, str(item.get("name", item.get("key"))))))
    return [(item, (*where, str(i))) for i, item in enumerate(node)]
