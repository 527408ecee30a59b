"""JuiceFSRuntime: POSIX file system over an object store with a metadata engine.

Only the first mount (juicefs:///<subpath>) and the first cache tier are used; several
cache paths are joined with ":" as JuiceFS reads them, and quota becomes cache-size in MiB.
"""

from __future__ import annotations

from .base import Engine

ENGINE = Engine(
    name="juicefs",
    kind="JuiceFSRuntime",
    doc=__doc__ or "",
    schemes=frozenset({"juicefs"}),
    operations=frozenset({"DataLoad", "DataMigrate", "DataProcess"}),
    path_separator=":",
    single_mount=True,
    secret_keys={"juicefs": frozenset({"metaurl", "access-key", "secret-key", "token"})},
)
