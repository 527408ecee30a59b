"""Where a fact about Fluid comes from, as data: the file and function in
fluid-cloudnative/fluid that decide it, and the Fluid versions (versions.py) it holds for.

Every Fluid fact in the engine modules and fluid/ carries one, next to the fact:

    source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultFuse")
    source("pkg/ddc/jindocache/transform.go", "transformFuseArg", versions=since(V1_1_0_DEV))

A value and its sources travel together as a `Fact`; a function that computes a fact is
marked `@decided_by(source(...))`; a record of facts (a frozen dataclass)
names the source of each field it sets in its `sources` mapping, and `unsourced` lists the
fields that lack one (tests/base/test_fluidsource.py fails on any). Toolkit floor: imports only
versions.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .versions import NAMES

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

ALL: tuple[str, ...] = NAMES  # every Fluid version fluidgen targets


@dataclass(frozen=True)
class FluidSource:
    """A file and function (or type, chart template, test) in fluid-cloudnative/fluid."""

    path: str  # relative to the repository root, e.g. pkg/utils/ufs_path_builder.go
    function: str  # the function, method, type or template name that decides the fact
    versions: tuple[str, ...] = ALL  # the versions.py names the fact holds for
    note: str = ""  # what to know beyond the citation (a version difference, a caveat)

    def holds_for(self, version: str) -> bool:
        return version in self.versions

    def cite(self) -> str:
        """`path function (versions)`, for messages and docs."""
        versions = "every version" if self.versions == ALL else ", ".join(self.versions)
        return f"{self.path} {self.function} ({versions})"


def holding(sources: Iterable[FluidSource]) -> tuple[str, ...]:
    """The versions for which every fact cited holds, in versions.py order. Sources that cite
    the same function are one fact read at different versions (their versions add up): in the
    same file, or, for Go, in the same package (a function Fluid moved to another file of its
    package, e.g. transform.go to transform_resources.go; Go names a function once per package).
    Different citations must all hold. No source: every version."""
    by_citation: dict[tuple[str, str], set[str]] = {}
    for s in sources:
        by_citation.setdefault((_citation(s.path), s.function), set()).update(s.versions)
    return tuple(v for v in ALL if all(v in held for held in by_citation.values()))


def _citation(path: str) -> str:
    """What names one function: a Go file's package directory, any other file itself."""
    return path.rsplit("/", 1)[0] + "/*.go" if path.endswith(".go") and "/" in path else path


def since(version: str) -> tuple[str, ...]:
    """`version` and every later one (versions.py order)."""
    return NAMES[NAMES.index(version):]


def before(version: str) -> tuple[str, ...]:
    """Every version older than `version`."""
    return NAMES[:NAMES.index(version)]


def source(path: str, function: str, versions: tuple[str, ...] = ALL, note: str = "") -> FluidSource:
    """A FluidSource, checked: a relative path in the repository, a function, known versions."""
    if not path or path.startswith("/") or ".." in path.split("/"):
        raise ValueError(f"a Fluid source path is relative to the repository root: {path!r}")
    if not function:
        raise ValueError(f"{path}: name the function (or type or template) that decides the fact")
    unknown = [v for v in versions if v not in NAMES]
    if not versions or unknown:
        raise ValueError(f"{path} {function}: versions must be among {', '.join(NAMES)}, got {versions!r}")
    return FluidSource(path, function, tuple(versions), note)


@dataclass(frozen=True)
class Fact(Generic[T]):
    """One fact about Fluid and where it is read."""

    value: T
    sources: tuple[FluidSource, ...]

    def holds_for(self, version: str) -> bool:
        return any(s.holds_for(version) for s in self.sources)


def fact(value: T, *sources: FluidSource) -> Fact[T]:
    if not sources:
        raise ValueError(f"a fact about Fluid needs its source: {value!r}")
    return Fact(value, tuple(sources))


def for_version(version: str, *facts: Fact[T]) -> T:
    """The value of the one fact that holds for `version` (version-dependent facts)."""
    found = [f for f in facts if f.holds_for(version)]
    if len(found) != 1:
        raise LookupError(f"{len(found)} facts hold for Fluid {version}; expected exactly one")
    return found[0].value


SOURCES_ATTRIBUTE = "__fluid_sources__"


def decided_by(*sources: FluidSource) -> Callable[[F], F]:
    """Mark a function that computes a Fluid fact with the Fluid code it mirrors."""
    if not sources:
        raise ValueError("decided_by needs at least one source")

    def mark(fn: F) -> F:
        setattr(fn, SOURCES_ATTRIBUTE, tuple(sources))
        return fn
    return mark


def sources_of_function(fn: Callable[..., Any]) -> tuple[FluidSource, ...]:
    got = getattr(fn, SOURCES_ATTRIBUTE, ())
    return got if isinstance(got, tuple) else ()


Sources = Mapping[str, FluidSource | tuple[FluidSource, ...]]


def sources_of(record: Any) -> Sources:
    got = getattr(record, "sources", None)
    return got if isinstance(got, Mapping) else {}


def unsourced(record: Any, skip: frozenset[str] = frozenset(), always: frozenset[str] = frozenset()) -> list[str]:
    """The fields of a dataclass record of Fluid facts that have no source in the record's
    `sources` mapping but need one: those set (differing from their default), and those in
    `always` even at their default (a default is a fact about the engine too)."""
    if not dataclasses.is_dataclass(record) or isinstance(record, type):
        raise TypeError(f"expected a dataclass instance, got {type(record).__name__}")
    have = sources_of(record)
    return [f.name for f in dataclasses.fields(record)
            if f.name != "sources" and f.name not in skip and f.name not in have
            and (f.name in always or getattr(record, f.name) != _default(f))]


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return _NO_DEFAULT


def all_sources(record: Any) -> Iterator[FluidSource]:
    for value in sources_of(record).values():
        yield from (value if isinstance(value, tuple) else (value,))


_NO_DEFAULT = object()
