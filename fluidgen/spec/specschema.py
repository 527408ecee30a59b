"""The spec's JSON Schema, generated from the pydantic models (never hand-edited)."""

from __future__ import annotations

import json
import os
import stat
import tempfile

from .spec import spec_model

SCHEMA_ID = "https://fluidgen.io/schemas/fluidgen-spec.v1alpha1.json"


def spec_schema_text() -> str:
    schema = spec_model().model_json_schema(by_alias=True)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
              "title": "fluidgen CachedDataset spec (fluidgen.io/v1alpha1)", **schema}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


SCHEMA_FILE = "fluidgen-spec.v1alpha1.json"  # the name specs refer to: `$schema=fluidgen-spec.v1alpha1.json`


def write_schema(path: str) -> str | None:
    """Write the schema to `path` (atomically); the reason it was not written, or None.

    It never writes through a symlink and replaces only a regular file that already holds this
    schema (any version of it), so it cannot clobber a user's file."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        return f"{path}: {e.strerror}"
    if st is not None:
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            return f"{path}: not a regular file (a link or special file); fluidgen writes no such path"
        with open(path, "rb") as existing:
            if SCHEMA_ID.encode() not in existing.read(1 << 20):
                return f"{path}: exists and is not a fluidgen schema; remove it or choose another path"
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".fluidgen-schema-", dir=directory)
    except OSError as e:
        return f"{directory}: {e.strerror}"
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(spec_schema_text())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        return f"{path}: {e.strerror}"
    return None
