"""The house without a circle: fluidgen's import graph, read from the source with `ast`.

Every import counts, at module level or inside a function, except those under
`if TYPE_CHECKING:` (they never run). A relative import is resolved; `from pkg import name`
is an edge to the submodule when `name` is one; importing a module also runs each package
above it, so those edges count too (why the engine table is not engines/__init__.py).

Fails on any import cycle, on a module importing one of a higher floor, on an engine module
importing anything but the engine contract and the toolkit, and on a module no floor lists.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "fluidgen"

# The floors, lowest first: a module imports only from its own floor and those below.
# fnmatch-style patterns over dotted module names ("fluidgen." left out; "" is the package).
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Engine-neutral helpers that import nothing above: errors and their positions, merging,
    # quantities, names, versions, YAML writing, safe manifest reads and the index rules read,
    # URI and Fluid's reference facts, pipeline options, the rule shape, spec value types, Fluid
    # sources, and the vocabulary schemas are written in (structural dsl/kube/validate, fluid/common.py).
    ("toolkit", ("", "diagnostics", "merge", "quantity", "names", "versions", "emit", "manifest",
                 "manifest_index", "uri", "options", "rules", "spectypes", "fluidsource", "fluidbase", "structural",
                 "structural.dsl", "structural.kube", "structural.validate", "fluid", "fluid.common",
                 "engines", "lower", "importer")),
    # Reading and remembering input: the YAML reader, inputs, settings, the build cache, sops,
    # user CRDs, Fluid's Dataset/operation/mount/sync facts, job kinds, Lists, git trees.
    ("machinery", ("yamlreader", "inputs", "buildinputs", "secretsource", "settings", "cache", "sops", "report",
                   "structural.crds", "fluid.dataset", "fluid.operations", "fluid.sync",
                   "jobkinds", "lists", "gittree", "spec_errors", "importer.compact", "importer.files")),
    # The spec models that know no engine, and the lowering context.
    ("models", ("specparts", "lower.context")),
    ("contract", ("contract",)),
    ("engines", ("engines.*",)),
    ("table", ("engine_table",)),
    # Readers of the table: kinds, the Fluid API model, lint, the whole spec, profiles, health.
    ("readers", ("kinds", "fluid.schemas", "lint", "lint.*", "spec", "specschema", "profiles", "objectcheck",
                 "healthcheck")),
    ("lowering", ("lower.*",)),
    ("commands", ("pipeline", "project", "filecheck", "drift", "output", "plan", "init", "argocd", "flux", "helm",
                  "explain", "commands", "compare", "usage", "cli", "__main__", "importer.*", "api", "results")),
)
ENGINE_MAY_IMPORT = frozenset({"toolkit", "contract"})
# The edges up: the package's PEP 562 __getattr__ is the facade of the Python API
# (`fluidgen.build`, `fluidgen.FluidgenError` and `fluidgen.health` load fluidgen.api,
# fluidgen.results and fluidgen.healthcheck on first use, so `import fluidgen` stays small,
# issue 28). It runs on attribute access, never while a module is being imported.
FACADE = {("fluidgen", "fluidgen.api"), ("fluidgen", "fluidgen.results"), ("fluidgen", "fluidgen.healthcheck")}
ENGINE_MODULES = "engines.*"


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    implicit: bool = False  # a package run because a module below it is imported


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (pair for stmt in child.orelse for pair in visit_one(stmt))
                continue
            yield from visit_one(child)

    def visit_one(child: ast.AST) -> Iterator[tuple[str, int]]:
        if isinstance(child, ast.Import):
            yield from ((a.name, child.lineno) for a in child.names)
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - (child.level - 1)]
                base = ".".join(anchor + ([child.module] if child.module else []))
            for alias in child.names:
                sub = f"{base}.{alias.name}"
                yield (sub if sub in MODULES else base), child.lineno
        yield from visit(child)

    yield from visit(ast.parse(path.read_text(), str(path)))


def _edges() -> list[Edge]:
    out = []
    for name, path in MODULES.items():
        for target, line in _imports(name, path):
            if target not in MODULES or target == name:
                continue
            out.append(Edge(name, target, line))
            parts = target.split(".")
            for end in range(1, len(parts)):
                parent = ".".join(parts[:end])
                if parent in MODULES and parent != name and not name.startswith(parent + "."):
                    out.append(Edge(name, parent, line, implicit=True))
    return out


EDGES = _edges()


def _short(module: str) -> str:
    return module.removeprefix("fluidgen").removeprefix(".")


def floor_of(module: str) -> str | None:
    short = _short(module)
    for floor, patterns in FLOORS:
        if any(short == p or (p.endswith(".*") and short.startswith(p[:-1])) for p in patterns):
            return floor
    return None


RANK = {floor: i for i, (floor, _) in enumerate(FLOORS)}


def _cycles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, list[str]] = {m: [] for m in MODULES}
    for e in edges:
        graph[e.source].append(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_no_import_cycles() -> None:
    cycles = _cycles(EDGES)
    described = []
    for component in cycles:
        inside = set(component)
        links = sorted({f"{_short(e.source)}:{e.line} -> {_short(e.target)}" for e in EDGES
                        if e.source in inside and e.target in inside})
        described.append(f"{len(component)} modules: " + "; ".join(links))
    assert not cycles, "import cycles:\n" + "\n".join(described)


def test_every_module_has_a_floor() -> None:
    assert [m for m in MODULES if floor_of(m) is None] == [], "add each new module to a floor in FLOORS"


def test_every_floor_entry_names_a_module() -> None:
    """A removed or renamed module leaves no stale entry behind."""
    short = {_short(m) for m in MODULES}
    stale = [p for _, patterns in FLOORS for p in patterns
             if not (any(m.startswith(p[:-1]) for m in short) if p.endswith(".*") else p in short)]
    assert stale == []


def test_no_module_imports_from_a_higher_floor() -> None:
    upward = []
    for e in EDGES:
        source, target = floor_of(e.source), floor_of(e.target)
        if source is None or target is None or (e.source, e.target) in FACADE:
            continue  # test_every_module_has_a_floor names them
        if RANK[target] > RANK[source]:
            how = " (its package runs first)" if e.implicit else ""
            upward.append(f"{_short(e.source)}:{e.line} ({source}) imports {_short(e.target)} ({target}){how}")
    assert upward == []


def test_engine_modules_import_only_the_contract_and_the_toolkit() -> None:
    wrong = [f"{_short(e.source)}:{e.line} imports {_short(e.target)} ({floor_of(e.target)})" for e in EDGES
             if floor_of(e.source) == "engines" and e.source != "fluidgen.engines"
             and floor_of(e.target) not in ENGINE_MAY_IMPORT]
    assert wrong == []


def test_the_engine_package_runs_nothing() -> None:
    """Importing one engine module must not import the others (or the table) first."""
    assert [e.target for e in EDGES if e.source == "fluidgen.engines"] == []


# Modules whose imports inside functions are start-up cost kept off `fluidgen --help`, the
# cache-hit path and `import fluidgen` (each says so with its python -X importtime figures).
START_UP = frozenset({"fluidgen", "fluidgen.__main__", "fluidgen.cli", "fluidgen.cache"})


def _function_level(name: str, path: Path) -> Iterator[int]:
    """Lines of imports of fluidgen modules inside functions (not under TYPE_CHECKING)."""
    def visit(node: ast.AST, inside: bool) -> Iterator[int]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            deeper = inside or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if inside and isinstance(child, ast.ImportFrom) and (child.level or (child.module or "").startswith(
                    "fluidgen")):
                yield child.lineno
            yield from visit(child, deeper)

    yield from visit(ast.parse(path.read_text(), str(path)), False)


def test_imports_inside_functions_only_where_start_up_needs_them() -> None:
    """Everywhere else an import sits at the top, where the floors can be read off it."""
    found = [f"{_short(m)}:{line}" for m, path in MODULES.items() if m not in START_UP
             for line in _function_level(m, path)]
    assert found == []


def test_the_engine_record_grows_by_sub_records() -> None:
    """A new concern adds a sub-record (with defaults) instead of widening Engine; each hook
    says who calls it."""
    from fluidgen.contract import Engine, Hooks

    assert len(dataclasses.fields(Engine)) <= 16
    assert all(dataclasses.is_dataclass(f.type) or f.name in ("name", "kind", "doc", "spec", "operations",
                                                              "extra_kinds", "section", "rules")
               for f in dataclasses.fields(Engine) if not isinstance(f.type, str))
    source = (PACKAGE / "contract.py").read_text()
    for hook in dataclasses.fields(Hooks):
        said = re.search(rf"    {hook.name}: .*\n    \"\"\"(.+?)\"\"\"", source)
        assert said is not None and ".py" in said.group(1), f"Hooks.{hook.name}: one line naming its caller"


def test_no_function_is_over_cyclomatic_complexity_20() -> None:
    """Small units: a function past 20 branches is split by what it decides (radon's measure)."""
    from radon.complexity import cc_visit

    def blocks(found: list[Any]) -> Iterator[Any]:
        for block in found:
            yield block
            yield from blocks([*getattr(block, "methods", []), *getattr(block, "closures", [])])

    over = [f"{path.relative_to(PACKAGE.parent)}:{block.lineno} {block.name} ({block.complexity})"
            for path in sorted(PACKAGE.rglob("*.py")) for block in blocks(cc_visit(path.read_text()))
            if block.complexity > 20]
    assert len(list(blocks(cc_visit((PACKAGE / "cli.py").read_text())))) > 5  # methods and closures are seen
    assert over == []


def test_the_mean_cyclomatic_complexity_stays_at_most_4_5() -> None:
    """Small units on average too (issue 26: 5.33 before the layering, 4.93 after it; the model
    codebases of this kind of tool sit at 2.5-3.0): radon's mean over every function, method
    and class, as `radon cc -a fluidgen` reports it."""
    from radon.complexity import cc_visit

    # cc_visit's blocks: every function, class and method (closures count in their function)
    scores = [block.complexity for path in sorted(PACKAGE.rglob("*.py")) for block in cc_visit(path.read_text())]
    assert len(scores) > 1000
    assert sum(scores) / len(scores) <= 4.5


# -- the test can fail: it sees what it is meant to see ----------------------------------

def test_cycles_are_found_through_function_level_imports(tmp_path: Path) -> None:
    edges = [Edge("fluidgen.kinds", "fluidgen.engine_table", 1), Edge("fluidgen.engine_table", "fluidgen.kinds", 2)]
    assert _cycles(edges) == [["fluidgen.engine_table", "fluidgen.kinds"]]


@pytest.mark.parametrize(("module", "floor"), [
    ("fluidgen.manifest", "toolkit"), ("fluidgen.engines.thin", "engines"), ("fluidgen.engines", "toolkit"),
    ("fluidgen.lower.context", "models"), ("fluidgen.lower.mounts", "lowering"), ("fluidgen.lint.storage", "readers"),
    ("fluidgen.importer.run", "commands"), ("fluidgen", "toolkit")])
def test_floors_are_looked_up_by_pattern(module: str, floor: str) -> None:
    assert floor_of(module) == floor


def test_function_level_and_relative_imports_are_read() -> None:
    """engine_table imports each engine module with `from .engines import thin`: an edge to the
    submodule, plus the implicit one to the package that runs first."""
    table = {(e.target, e.implicit) for e in EDGES if e.source == "fluidgen.engine_table"}
    assert ("fluidgen.engines.thin", False) in table and ("fluidgen.engines", True) in table
    assert not any(re.search(r"TYPE_CHECKING", MODULES[e.source].read_text().splitlines()[e.line - 1])
                   for e in EDGES)
