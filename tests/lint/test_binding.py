"""lint/binding.py: engine_of finds the engine of exactly the runtime kinds Fluid has, and of no
other Fluid kind (a Dataset, a data operation, ThinRuntimeProfile, CacheRuntimeClass).

Fluid's facts, read from ../shared/fluid-src at each commit fluidgen targets:
- the kinds Fluid's API serves are those api/v1alpha1 registers (`SchemeBuilder.Register(&Kind{}, ...)`
  in each *_types.go init);
- the runtime kinds among them are the ones with a `GetStatus()` method (api/v1alpha1: the runtime
  status every engine's controller reads and writes; AlluxioRuntime ... VineyardRuntime, GooseFSRuntime
  at v1.0.8 only, CacheRuntime at master only).
The lint rules read a runtime's engine through engine_of; a kind it maps wrongly would run an engine's
rules on another kind's objects (or none on a runtime)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from fluidgen.base.versions import NAMES
from fluidgen.engines.engine_table import ENGINES
from fluidgen.lint import runtime_kinds_at
from fluidgen.lint.binding import engine_of
from tests.harness.fluid_src import need_tree


@cache
def _kinds(version: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every kind api/v1alpha1 registers, the runtime kinds among them) at `version`."""
    registered: set[str] = set()
    runtimes: set[str] = set()
    for path in sorted((need_tree(version) / "api/v1alpha1").glob("*.go")):
        if path.name.endswith("_test.go"):
            continue
        text = path.read_text()
        registered.update(re.findall(r"SchemeBuilder\.Register\(&(\w+)\{\}", text))
        runtimes.update(re.findall(r"^func \(\w+ \*(\w+)\) GetStatus\(\)", text, re.M))
    return frozenset(registered), frozenset(runtimes & registered)


def _obj(kind: str) -> dict[str, object]:
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": kind, "metadata": {"name": "d"}}


@pytest.mark.parametrize("version", NAMES)
def test_every_runtime_kind_of_fluid_is_its_engines(version: str) -> None:
    _, runtimes = _kinds(version)
    assert len(runtimes) >= 7, runtimes  # the scan found the runtimes
    for kind in runtimes:
        engine = engine_of(_obj(kind))
        assert engine is not None and engine.kind == kind, kind
        assert engine is ENGINES[engine.name]
    assert runtime_kinds_at(version) == runtimes


@pytest.mark.parametrize("version", NAMES)
def test_no_other_fluid_kind_has_an_engine(version: str) -> None:
    registered, runtimes = _kinds(version)
    assert {"Dataset", "DataLoad", "ThinRuntimeProfile"} <= registered - runtimes
    for kind in sorted(registered - runtimes):
        assert engine_of(_obj(kind)) is None, kind


def test_an_object_of_no_kind_has_no_engine() -> None:
    assert engine_of({"apiVersion": "v1", "kind": "ConfigMap"}) is None
    assert engine_of({"metadata": {"name": "d"}}) is None
