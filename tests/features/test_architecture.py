"""The house without a circle: fluidgen's import graph.

The floors are the folders of fluidgen/, stated once as import-linter's layers contracts in
pyproject.toml and run here (test_the_floors_hold), with a copy of the package that breaks them
(test_an_upward_import_breaks_the_floors). The other checks read the graph from the source with
`ast`: every import counts, at module level or inside a function, except those under
`if TYPE_CHECKING:` (they never run). A relative import is resolved; `from pkg import name`
is an edge to the submodule when `name` is one; importing a module also runs each package
above it, so those edges count too (why the engine table is not engines/__init__.py).

Fails on any import cycle, on a module importing one of a higher floor, on an engine module
importing anything but the engine contract and the toolkit, and on a module outside the folders.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RESULTS, ROOT

PACKAGE = ROOT / "fluidgen"

# The floors themselves are the folders of fluidgen/ and live once, as import-linter's layers
# contracts in pyproject.toml ([tool.importlinter]); test_the_floors_hold runs them. The engine
# rule below reads the same folders: an engine module imports only its contract and the toolkit
# (the helpers of base/ and the Fluid facts of fluid/).
TOOLKIT = ("fluidgen.base", "fluidgen.fluid")
CONTRACT = "fluidgen.engines.contract"
ENGINE_TABLE = "fluidgen.engines.engine_table"
ENGINE_INDEX = "fluidgen.engines.engine_index"  # generated from the engine modules, imports nothing
# The modules that stay at the top of the package, above every folder (the facade, the entry
# points and the API); everything else sits in the folder of its floor.
TOP = frozenset({"__init__", "__main__", "api", "results", "cli"})
# The edges up: the package's PEP 562 __getattr__ is the facade of the Python API
# (`fluidgen.build`, `fluidgen.FluidgenError` and `fluidgen.health` load fluidgen.api,
# fluidgen.results and fluidgen.catalog.healthcheck on first use, so `import fluidgen` stays small,
# issue 28). It runs on attribute access, never while a module is being imported.
FACADE = {("fluidgen", "fluidgen.api"), ("fluidgen", "fluidgen.results"), ("fluidgen", "fluidgen.catalog.healthcheck")}


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


def _imports(name: str, path: Path, type_checking: bool = False) -> Iterator[tuple[str, int]]:
    """The imports of one module; with `type_checking`, those under `if TYPE_CHECKING:` too."""
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if not type_checking and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
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


def _edges(type_checking: bool = False) -> list[Edge]:
    out = []
    for name, path in MODULES.items():
        for target, line in _imports(name, path, type_checking):
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
# The same graph with the imports the type checker follows (issue 39): a circle there is a
# circle of meaning, a lower floor naming a model built above it, even if it never runs.
TYPED_EDGES = _edges(type_checking=True)


def _short(module: str) -> str:
    return module.removeprefix("fluidgen").removeprefix(".")


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _is_engine(module: str) -> bool:
    return module.startswith("fluidgen.engines.") and module not in (CONTRACT, ENGINE_TABLE, ENGINE_INDEX)


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


def _described(cycles: list[list[str]], edges: list[Edge]) -> str:
    described = []
    for component in cycles:
        inside = set(component)
        links = sorted({f"{_short(e.source)}:{e.line} -> {_short(e.target)}" for e in edges
                        if e.source in inside and e.target in inside})
        described.append(f"{len(component)} modules: " + "; ".join(links))
    return "import cycles:\n" + "\n".join(described)


def test_no_import_cycles() -> None:
    cycles = _cycles(EDGES)
    assert not cycles, _described(cycles, EDGES)


def test_no_import_cycles_counting_type_checking_imports() -> None:
    """The context handed to engines (model/context.py) carries what lowering and the engines
    read of a spec (model/specview.py), not spec/spec.py's Spec, which sits above the engine
    table: so no circle even at type level (issue 39; before, context.py named Spec under
    TYPE_CHECKING and closed a 21-module circle through every engine and lint rule)."""
    cycles = _cycles(TYPED_EDGES)
    assert not cycles, _described(cycles, TYPED_EDGES)


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return list(config["contracts"])


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's own command over the package at `root`, with the contracts of pyproject.toml."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; "
                           "sys.exit(c())", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_floors_hold() -> None:
    """Every import (at module level or inside a function, TYPE_CHECKING ones left out) goes down
    the floors of pyproject.toml's layers contracts, and the engine modules import neither each
    other nor the table above them."""
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_an_upward_import_breaks_the_floors(tmp_path: Path) -> None:
    """The contract can fail: a copy of the package where base/names.py imports the command line
    (a floor at the top) is refused, and so is one engine importing another."""
    names = {c["id"]: c["name"] for c in _contracts()}
    for planted, where, broken in (("from ..cli import main as _up\n", "base/names.py", "floors"),
                                   ("from .thin import ENGINE as _side\n", "engines/alluxio.py", "engines")):
        copy = tmp_path / where.replace("/", "_") / "fluidgen"
        shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        target = copy / where
        target.write_text(target.read_text() + planted)
        result = _lint_imports(copy.parent)
        said = " ".join(result.stdout.split())
        assert result.returncode == 1 and f"{names[broken]} BROKEN" in said, result.stdout + result.stderr


def test_every_folder_is_a_floor() -> None:
    """Only the facade, the entry points and the API sit at the top of fluidgen/; every folder
    with modules is one layer of the floors contract, and every layer names a module."""
    (floors,) = [c for c in _contracts() if c["id"] == "floors"]
    layers = {name.strip() for layer in floors["layers"] for name in layer.split("|")}
    top_modules = {p.stem for p in PACKAGE.glob("*.py")}
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert top_modules - layers == {"__init__"} and top_modules <= TOP
    assert folders <= layers
    assert layers == (top_modules - {"__init__"}) | folders


def test_engine_modules_import_only_the_contract_and_the_toolkit() -> None:
    wrong = [f"{_short(e.source)}:{e.line} imports {_short(e.target)}" for e in EDGES
             if _is_engine(e.source) and not (e.target == CONTRACT or _in(e.target, TOOLKIT))
             and not (e.implicit and e.target == "fluidgen.engines")]
    assert wrong == []


def test_the_engine_package_runs_nothing() -> None:
    """Importing one engine module must not import the others (or the table) first."""
    assert [e.target for e in EDGES if e.source == "fluidgen.engines"] == []


# Modules whose imports inside functions are start-up cost kept off `fluidgen --help`, the
# cache-hit path and `import fluidgen` (each says so with its python -X importtime figures).
START_UP = frozenset({"fluidgen", "fluidgen.__main__", "fluidgen.cli", "fluidgen.io.cache"})


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
    from fluidgen.engines.contract import Engine, Hooks

    assert len(dataclasses.fields(Engine)) <= 17  # 17: fields (the runtime-fields matrix), a sub-record
    assert all(dataclasses.is_dataclass(f.type) or f.name in ("name", "kind", "doc", "spec", "operations",
                                                              "extra_kinds", "section", "rules")
               for f in dataclasses.fields(Engine) if not isinstance(f.type, str))
    source = (PACKAGE / "engines" / "contract.py").read_text()
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
    edges = [Edge("fluidgen.catalog.kinds", "fluidgen.engines.engine_table", 1),
             Edge("fluidgen.engines.engine_table", "fluidgen.catalog.kinds", 2)]
    assert _cycles(edges) == [["fluidgen.catalog.kinds", "fluidgen.engines.engine_table"]]


def test_type_checking_imports_are_read() -> None:
    """The typed graph has the imports under `if TYPE_CHECKING:` (model/context.py names its
    SpecView there) that the runtime graph leaves out, and the edge issue 39 removed would
    close the circle again: the context naming spec/spec.py's Spec."""
    view = ("fluidgen.model.context", "fluidgen.model.specview")
    assert view in {(e.source, e.target) for e in TYPED_EDGES} - {(e.source, e.target) for e in EDGES}
    assert {(e.source, e.target) for e in EDGES} <= {(e.source, e.target) for e in TYPED_EDGES}
    old = Edge("fluidgen.model.context", "fluidgen.spec.spec", 20)
    (circle,) = _cycles([*TYPED_EDGES, old])
    # (the engine table names the contract only as a type; it imports engine modules on first use)
    assert {"fluidgen.model.context", "fluidgen.spec.spec", "fluidgen.engines.contract",
            "fluidgen.engines.engine_table"} <= set(circle)


def test_function_level_and_relative_imports_are_read() -> None:
    """fluidgen/__init__.py imports the API inside a function with `from . import api`: an edge to
    the submodule; catalog/kinds.py imports the table with `from ..engines import engine_table`, an
    edge plus the implicit one to the package that runs first. (The engine table imports each
    engine module by its name in engine_index.py, on first use: no edge, and none needed, since the
    table is the top of its folder.)"""
    package = {(e.target, e.implicit) for e in EDGES if e.source == "fluidgen"}
    assert ("fluidgen.api", False) in package
    kinds = {(e.target, e.implicit) for e in EDGES if e.source == "fluidgen.catalog.kinds"}
    assert ("fluidgen.engines.engine_table", False) in kinds and ("fluidgen.engines", True) in kinds
    assert not any(re.search(r"TYPE_CHECKING", MODULES[e.source].read_text().splitlines()[e.line - 1])
                   for e in EDGES)


def _imported_by(*args: str) -> set[str]:
    """The fluidgen modules a command line loads, as `python -X importtime` lists them."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "fluidgen", *args], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "FLUIDGEN_NO_CACHE": "1"})
    assert result.returncode == 0, result.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines()
            if line.startswith("import time:") and "fluidgen" in line}


def test_the_command_line_loads_no_engine_for_help() -> None:
    """Declaring the commands loads no engine module (issue 39): `fluidgen --help` and `build
    --help` stay clear of the engine table and the pydantic models it builds; `init --help`,
    which lists the engines, loads them (the check sees an engine when one is loaded)."""
    for args in (["--help"], ["build", "--help"], ["--version"]):
        assert not {m for m in _imported_by(*args) if m.startswith("fluidgen.engines")}, args
    assert "fluidgen.engines.engine_table" in _imported_by("init", "--help")


# tests/ mirrors the package (issue 39) ------------------------------------------------------------
# A test of one module sits at tests/<folder>/test_<module>.py (a package's own __init__:
# tests/<folder>/test_<folder>.py); tests of the top modules at tests/test_<module>.py. Folders that
# mirror nothing, each for one purpose:
NOT_MIRRORS = {
    "features": "tests of a whole feature, through the CLI or the API",
    "harness": "the consumers' sandboxes and shared helpers the tests import (Argo CD Lua, Flux CEL, ...)",
    "corpus": "Fluid's doc samples, the import corpus",
    "fluid_fixtures": "cases read from Fluid's Go tests",
    "mutation": "how the mutation runs over the fact modules are made",
}
TESTS = ROOT / "tests"
PACKAGE = ROOT / "fluidgen"


def mirror_problems(tests: Path, package: Path) -> list[str]:
    """Test files and folders of `tests` that mirror nothing in `package`."""
    problems = []
    for path in sorted(tests.rglob("test_*.py")):
        parts = path.relative_to(tests).parts
        if parts[0] in NOT_MIRRORS:
            continue
        folder, module = parts[:-1], path.stem.removeprefix("test_")
        mirrored = package.joinpath(*folder)
        own = mirrored / f"{module}.py"
        init = folder and module == folder[-1] and (mirrored / "__init__.py").is_file()
        if not (own.is_file() or init):
            problems.append(f"{path.relative_to(tests)} tests no module: {own.relative_to(package.parent)} is missing")
    for path in sorted(p for p in tests.rglob("*") if p.is_dir() and p.name != "__pycache__"):
        parts = path.relative_to(tests).parts
        if parts[0] in NOT_MIRRORS:
            continue
        if not (package.joinpath(*parts) / "__init__.py").is_file():
            problems.append(f"tests/{'/'.join(parts)}/ mirrors no package folder")
    return problems


def test_the_tests_mirror_the_package() -> None:
    assert mirror_problems(TESTS, PACKAGE) == []
    untested = sorted(str(m.relative_to(PACKAGE)) for m in PACKAGE.rglob("*.py")
                      if m.name not in ("__init__.py", "__main__.py")
                      and not (TESTS / m.relative_to(PACKAGE).parent / f"test_{m.stem}.py").is_file())
    RESULTS["tests mirror the package"] = {"modules": sum(1 for m in PACKAGE.rglob("*.py") if m.name != "__init__.py"),
                                           "modules without a test file of their own": len(untested)}


def test_a_test_file_of_no_module_is_found(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    for name in ("lower/test_workloads.py", "lint/test_lint.py", "test_api.py", "features/test_anything.py",
                 "lower/test_nothing_here.py", "stray/test_x.py"):
        (tests / name).parent.mkdir(parents=True, exist_ok=True)
        (tests / name).write_text("")
    assert mirror_problems(tests, PACKAGE) == [
        "lower/test_nothing_here.py tests no module: fluidgen/lower/nothing_here.py is missing",
        "stray/test_x.py tests no module: fluidgen/stray/x.py is missing",
        "tests/stray/ mirrors no package folder",
    ]


def test_the_folders_that_mirror_nothing_exist() -> None:
    assert all((TESTS / name).is_dir() for name in NOT_MIRRORS)


# -- the command line: options in cli.py, the work in commands/ (issue 39) -------------------

COMMANDS = PACKAGE / "commands"
SHARED_COMMAND_MODULES = frozenset({"__init__", "usage"})  # exit codes and flag resolving, no command


def _leaves(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command click runs (the leaves of the tree of groups), with its path."""
    import click

    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _leaves(command, (*path, name))
        else:
            yield (*path, name), command


def _cli_functions() -> dict[str, ast.FunctionDef]:
    tree = ast.parse((PACKAGE / "cli.py").read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_each_command_hands_one_record_to_its_module() -> None:
    """cli.py holds no command logic: every command's function (docstring aside) is one import
    of its commands/ module and `return execute(<Args record>(...))`; its only other
    function-level import is the engine table's names, read when click needs init --engine's
    choices."""
    from fluidgen.cli import main

    functions = _cli_functions()
    leaves = dict(_leaves(main))
    assert len(leaves) == 17  # 13 commands, three of them groups (profiles 2, argocd 3, flux 2)
    wrong = []
    for path, command in leaves.items():
        body = functions[command.callback.__name__].body
        body = body[1:] if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else body
        imported = body[0] if len(body) == 2 and isinstance(body[0], ast.ImportFrom) else None
        returned = body[-1]
        ok = (imported is not None and imported.level == 1 and (imported.module or "").startswith("commands.")
              and "execute" in {a.name for a in imported.names}
              and isinstance(returned, ast.Return) and isinstance(returned.value, ast.Call)
              and ast.unparse(returned.value.func) == "execute" and len(returned.value.args) == 1
              and isinstance(returned.value.args[0], ast.Call)
              and ast.unparse(returned.value.args[0].func).endswith("Args"))
        if not ok:
            wrong.append(" ".join(path))
    assert wrong == []
    functions_anywhere = [f for f in ast.walk(ast.parse((PACKAGE / "cli.py").read_text()))
                          if isinstance(f, ast.FunctionDef)]
    inside = sorted(ast.unparse(n) for f in functions_anywhere for n in ast.walk(f)
                    if isinstance(n, ast.Import | ast.ImportFrom))
    assert len(inside) == len(leaves) + 1
    assert [i for i in inside if not i.startswith("from .commands.")] == ["from .engines.engine_table import NAMES"]


def test_each_command_module_has_frozen_records_and_execute() -> None:
    """Every module of commands/ but the shared ones runs commands: `execute(args) -> int`, its
    argument one or more frozen dataclasses (one per subcommand), each named ...Args."""
    import dataclasses as dc
    import importlib
    import typing

    modules = sorted(p.stem for p in COMMANDS.glob("*.py"))
    assert {"build", "validate", "lint", "diff", "plan", "diagnose", "import_", "init", "explain", "profiles",
            "schema", "argocd", "flux", "flux_kustomization"} == set(modules) - SHARED_COMMAND_MODULES
    for stem in set(modules) - SHARED_COMMAND_MODULES:
        module = importlib.import_module(f"fluidgen.commands.{stem}")
        hints = typing.get_type_hints(module.execute)
        assert hints.pop("return") is int, stem
        (record,) = hints.values()
        records = typing.get_args(record) or (record,)
        for cls in records:
            assert dc.is_dataclass(cls) and cls.__dataclass_params__.frozen, (stem, cls)  # type: ignore[attr-defined]
            assert cls.__name__.endswith("Args"), (stem, cls)


_PROBE = ("import json, sys\n"
          "from fluidgen.__main__ import main\n"
          "code = main(sys.argv[1:])\n"
          "sys.stdout.flush()\n"
          "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('fluidgen'))]), file=sys.stderr)\n")


def _loaded_by(*args: str, cwd: Path = ROOT) -> set[str]:
    """The fluidgen modules in sys.modules after the console's main() ran ARGS in a fresh
    interpreter (the cache off), the command having exited 0."""
    result = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120,
                            cwd=cwd, env={**os.environ, "FLUIDGEN_NO_CACHE": "1"})
    code, modules = json.loads(result.stderr.splitlines()[-1])
    assert code == 0, result.stderr[-2000:]
    return set(modules)


def _engines(modules: set[str]) -> set[str]:
    """The engine modules among `modules` (the table's MODULES; not the table, its index or the contract)."""
    from fluidgen.engines.engine_table import MODULES as ENGINE_MODULES

    return {m for m in modules if m.removeprefix("fluidgen.engines.") in ENGINE_MODULES}


def test_no_help_text_loads_an_engine_or_a_command_module() -> None:
    """`fluidgen --help` and every group's and command's --help load neither an engine module nor
    any commands/ module but usage (their options are cli.py's alone); init's lists the engine
    table's names (engines/engine_index.py) and imports no engine."""
    from fluidgen.cli import main

    paths = [(), *sorted({path[:end] for path, _ in _leaves(main) for end in range(1, len(path) + 1)})]
    for path in paths:
        loaded = _loaded_by(*path, "--help")
        commands = {m for m in loaded if m.startswith("fluidgen.commands.")} - {"fluidgen.commands.usage"}
        if path == ("init",):  # the table's names, no engine module
            assert not commands and "fluidgen.engines.engine_table" in loaded and not _engines(loaded), loaded
            continue
        assert not _engines(loaded) and not commands, (path, _engines(loaded) | commands)


# None of them imports an engine module: explain reads the spec's schema from schemas/ and each key's
# per-engine lines from catalog/explain_index.py (generated from the engines' cells, held to them by
# tests/lower/test_keyfacts.py); profiles reads the lazy engine table; the argocd/flux health printers
# read a runtime's health family and kind row from the engine index.
PRINTERS = [("explain", "metadata.name"), ("explain", "runtime.cache.quota"), ("profiles", "list"),
            ("profiles", "show", "alluxio-imagenet"), ("argocd", "cm"), ("argocd", "parameters"),
            ("flux", "health")]


@pytest.mark.parametrize("args", PRINTERS, ids=" ".join)
def test_the_printers_load_no_engine(args: tuple[str, ...]) -> None:
    assert not _engines(_loaded_by(*args))


def test_the_printers_load_no_compiler(tmp_path: Path) -> None:
    """What the printers need and no more: none loads the pipeline or another command's module;
    the health printers load no spec model (pydantic's Spec) either."""
    for args in PRINTERS:
        loaded = _loaded_by(*args, cwd=tmp_path)
        assert "fluidgen.compile.pipeline" not in loaded, args
        own = f"fluidgen.commands.{args[0]}"
        assert {m for m in loaded if m.startswith("fluidgen.commands.")} == {own, "fluidgen.commands.usage"}, args
        if args[0] in ("argocd", "flux"):
            assert "fluidgen.spec.spec" not in loaded, args
