"""The engine table: every Fluid runtime fluidgen knows, looked up by engine name or kind.

It sits above the engine modules (fluidgen/engines/*.py, one per runtime, which declare an
Engine of fluidgen/engines/contract.py) and below everything that reads the list: kinds, the Fluid
API model, lint, the spec's engine sections, profiles, lowering. An engine module is listed here
once (MODULES) and imported the first time something names its engine or one of its kinds: a
build of an Alluxio spec imports alluxio.py alone. What must be known before any engine module is
imported (the names, which kinds are whose, the spec section keys) is engine_index.py, generated
from the engine modules by `python -m fluidgen.engines.engine_table` and checked against them by
tests/engines/test_engine_table.py: the facts stay written once, in the engine modules.

Readers that need every engine (lint's rule list, the catalog, diagnosis, import, explain) call
all_engines() or read ENGINES; reading ENGINES, BY_KIND or REFERENCE_ENGINE imports every engine
module, so modules on the build path read them only inside the functions that need them all.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Set
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from .engine_index import INDEX as _INDEX

if TYPE_CHECKING:
    from .contract import Engine

    # Loaded on first read (module __getattr__ below): every engine, in the table's order.
    ENGINES: dict[str, Engine]
    BY_KIND: dict[str, Engine]
    REFERENCE_ENGINE: Engine

# The engine modules, one per runtime, in the table's order (the spec's engine list, the output's
# order of runtimes). engine_index.py is generated from these.
MODULES = ("alluxio", "jindo", "juicefs", "efc", "thin", "vineyard", "goosefs", "cacheruntime")


class IndexRow(NamedTuple):
    """What the table knows of an engine before its module is imported (engine_index.py)."""

    module: str
    kind: str  # its runtime kind
    extra_kinds: tuple[str, ...]  # the other kinds it brings (ExtraKind)
    section: str | None  # the key of its own section of a spec's `runtime:` (SpecSection)
    references: bool  # the runtime a dataset:// reference Dataset gets (Mounts.references)
    status_shape: str  # the health family that judges its runtime's status (Health.status_shape)


INDEX: dict[str, IndexRow] = {name: IndexRow(*row) for name, row in _INDEX.items()}
NAMES: tuple[str, ...] = tuple(INDEX)
RUNTIME_KINDS: frozenset[str] = frozenset(row.kind for row in INDEX.values())
# The engine name of every kind an engine brings (its runtime and its extra kinds).
OWNERS: dict[str, str] = {kind: name for name, row in INDEX.items() for kind in (row.kind, *row.extra_kinds)}
# The runtime a dataset:// reference Dataset gets (exactly one engine says `references`).
REFERENCE_NAME: str = next(name for name, row in INDEX.items() if row.references)
REFERENCE_KIND: str = INDEX[REFERENCE_NAME].kind
# The engine of each section key of a spec's `runtime:`.
SECTIONS: dict[str, str] = {row.section: name for name, row in INDEX.items() if row.section is not None}

_loaded: dict[str, Engine] = {}
_by_kind: dict[str, Engine] = {}
_complete: list[bool] = [False]


def engine(name: str) -> Engine:
    """The engine named `name` (KeyError for a name the table lacks), its module imported now."""
    found = _loaded.get(name)
    if found is None:
        found = import_module(f"{__package__}.{INDEX[name].module}").ENGINE
        _loaded[name] = found
        _by_kind[found.kind] = found
    return found


def by_kind(kind: str) -> Engine | None:
    """The engine whose runtime kind is `kind`, or None for any other kind (no module imported)."""
    name = OWNERS.get(kind)
    if name is None or INDEX[name].kind != kind:
        return None
    engine(name)
    return _by_kind[kind]


def owner(kind: str) -> Engine | None:
    """The engine that brings `kind` (its runtime or an extra kind), or None."""
    name = OWNERS.get(kind)
    return engine(name) if name is not None else None


def all_engines() -> dict[str, Engine]:
    """Every engine, by name, in the table's order: imports every engine module."""
    if not _complete[0]:
        for name in NAMES:
            engine(name)
        ordered = {name: _loaded[name] for name in NAMES}
        _loaded.clear()
        _loaded.update(ordered)
        kinds = {e.kind: e for e in ordered.values()}
        _by_kind.clear()
        _by_kind.update(kinds)
        _complete[0] = True
    return _loaded


class KindsWhere(Set[str]):
    """The runtime kinds of the engines `test` holds for (a lint rule's kinds, derived from an engine
    fact): `kind in` imports the engine of that kind alone; iterating imports every engine. Never
    empty by contract (a rule with no kinds would read every kind): tests check each such set."""

    def __init__(self, test: Callable[[Engine], bool]) -> None:
        self._test = test

    def __contains__(self, kind: object) -> bool:
        found = by_kind(kind) if isinstance(kind, str) else None
        return found is not None and self._test(found)

    def _kinds(self) -> list[str]:
        return [e.kind for e in all_engines().values() if self._test(e)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds())

    def __len__(self) -> int:
        return len(self._kinds())

    def __bool__(self) -> bool:
        return True

    def __hash__(self) -> int:
        return self._hash()


def loaded() -> tuple[str, ...]:
    """The engines whose modules are imported so far (for tests and profiling)."""
    return tuple(_loaded)


def __getattr__(name: str) -> object:
    if name == "ENGINES":
        return all_engines()
    if name == "BY_KIND":
        all_engines()
        return _by_kind
    if name == "REFERENCE_ENGINE":
        return engine(REFERENCE_NAME)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def index_source() -> str:
    """engine_index.py as the engine modules declare it (imports every engine module)."""
    rows = []
    for module in MODULES:
        e = import_module(f"{__package__}.{module}").ENGINE
        row = (module, e.kind, tuple(x.kind for x in e.extra_kinds), e.section.key if e.section else None,
               e.mounts.references, e.health.status_shape)
        rows.append(f"    {e.name!r}: {row!r},\n")
    return INDEX_HEADER + "INDEX: dict[str, tuple[str, str, tuple[str, ...], str | None, bool, str]] = {\n" + \
        "".join(rows) + "}\n"


INDEX_HEADER = '''\
"""Generated from the engine modules by `python -m fluidgen.engines.engine_table`: do not edit.

What the engine table (engine_table.py) knows of each engine before its module is imported, per
engine name: (module, runtime kind, the other kinds it brings, the key of its section of a spec's
`runtime:`, whether it serves dataset:// references, the health family of its status). Each fact is
declared in the engine module;
tests/engines/test_engine_table.py fails when this file differs from what the modules declare.
"""

'''


if __name__ == "__main__":
    from pathlib import Path

    Path(__file__).with_name("engine_index.py").write_text(index_source())
    sys.exit(0)
