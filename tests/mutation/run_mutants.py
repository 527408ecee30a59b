"""Run mutmut 2's mutants of one fluidgen module against a chosen test set, fast (issue 42).

mutmut 2.5 makes the mutants (`list_mutations`/`mutate`, its own operators, module-level
records included, which mutmut 3 leaves alone); this script only runs them. mutmut's own
`run` starts a fresh interpreter per mutant, and each start re-imports pydantic, pytest, the
Lua and CEL harnesses and the CRD readers: 4-8 s of a mutant's 5-8 s on the project machine.
Here one parent process imports those libraries once and runs the unmutated test set (it must
pass), then forks a child per mutant. The child drops every `fluidgen` and `tests` module,
serves the mutated source for the one file through an import hook placed before the path
finder, and runs `pytest.main` on the same set with `-x`. Nothing is written to the working
tree, so several workers run side by side.

Verdicts, as mutmut's: killed (pytest failed in any way: a failed test, a collection or import
error; mutmut 2 itself counts only exit 1, a trap the README describes), timeout (counted
killed, as mutmut's), survived. A survived mutant's diff is kept for the explanation.

    python tests/mutation/run_mutants.py fluidgen/fluid/jobkinds.py --tests tests/fluid \\
        --out /tmp/mut/jobkinds.jsonl --workers 2

Re-running with the same --out skips the mutants already judged (resume after a stop);
`--only-survivors FILE` re-tests the survivors of an earlier run (after new tests).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib.abc
import importlib.util
import json
import os
import re
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PRELOAD = ("pytest", "pydantic", "ruamel.yaml", "yaml", "jsonschema", "click", "kubernetes_validate",
           "lupa", "celpy", "hypothesis")


def module_name(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def mutants(path: Path) -> list[tuple[str, int, str]]:
    """(mutmut's id text, line number, mutated source) for every mutant of the file."""
    from mutmut import Context, list_mutations, mutate  # type: ignore[import-untyped]

    source = path.read_text()
    found = []
    for mid in list_mutations(Context(source=source, filename=str(path))):
        mutated, count = mutate(Context(source=source, mutation_id=mid, filename=str(path)))
        if count and mutated != source:
            found.append((f"{mid.line_number}:{mid.index}:{mid.line}", mid.line_number + 1, mutated))
    return found


def diff_of(source: str, mutated: str) -> str:
    lines = difflib.unified_diff(source.splitlines(), mutated.splitlines(), lineterm="", n=0)
    return "\n".join(line for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---")))


class _MutatedSource(importlib.abc.MetaPathFinder, importlib.abc.SourceLoader):  # type: ignore[misc]
    def __init__(self, name: str, path: Path, source: str) -> None:
        self.name, self.path, self.source = name, path, source

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        is_pkg = self.path.name == "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname, str(self.path), loader=self,
            submodule_search_locations=[str(self.path.parent)] if is_pkg else None)

    def get_filename(self, fullname: str) -> str:
        return str(self.path)

    def get_data(self, path: str) -> bytes:
        if Path(path) == self.path:
            return self.source.encode()
        return Path(path).read_bytes()

    def path_stats(self, path: str) -> Any:  # no bytecode cache for the mutant
        raise OSError


def _purge() -> None:
    for name in list(sys.modules):
        if name in {"fluidgen", "tests", "conftest"} or name.startswith(("fluidgen.", "tests.")):
            del sys.modules[name]


class _Keep:
    """A pytest plugin: in each file named by a --keep FILE=REGEX, only the tests whose node id
    matches REGEX run (a per-engine slice of a parametrized table test). A node id that a mutant
    renames is deselected, never reported as not found: such a mutant is not killed by the name.
    A --drop-param WORD deselects, in every file, the cases whose parameters name WORD as a word
    (another engine's rows when one engine module is mutated)."""

    def __init__(self, keep: list[str], drop: Sequence[str] = ()) -> None:
        self.rules = [(f, re.compile(rx)) for f, rx in (k.split("=", 1) for k in keep)]
        self.drop = frozenset(w.lower() for w in drop)

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        def wanted(item: Any) -> bool:
            params = item.nodeid.partition("[")[2]
            if self.drop & set(re.split(r"[^a-z0-9]+", params.lower())):
                return False
            return all(rx.search(item.nodeid) for f, rx in self.rules if item.nodeid.startswith(f + "::"))

        gone = [i for i in items if not wanted(i)]
        if gone:
            config.hook.pytest_deselected(items=gone)
            items[:] = [i for i in items if wanted(i)]


def run_tests(pytest_args: list[str], finder: _MutatedSource | None, keep: _Keep) -> int:
    import pytest

    _purge()
    if finder is not None:
        sys.meta_path.insert(0, finder)
    if finder is not None or not os.environ.get("MUT_SHOW_BASELINE"):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    return int(pytest.main(pytest_args, plugins=[keep]))


def child(pytest_args: list[str], finder: _MutatedSource | None, keep: _Keep) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            rc = run_tests(pytest_args, finder, keep)
        except BaseException:
            rc = 99
        os._exit(0 if rc == 0 else 1)
    return pid


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("module", type=Path)
    parser.add_argument("--tests", nargs=argparse.REMAINDER, required=True,
                        help="pytest arguments naming the test set (last: it takes the rest of the line)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout-factor", type=float, default=4.0)
    parser.add_argument("--sample", type=int, default=0, help="only this many, seeded shuffle")
    parser.add_argument("--only-survivors", type=Path, help="re-test the survivors in this results file")
    parser.add_argument("--new-since", metavar="COMMIT",
                        help="with --only-survivors: also run the mutants of lines the file did not have at COMMIT "
                             "(lines rewritten since the earlier run)")
    parser.add_argument("--keep", action="append", default=[], metavar="FILE=REGEX",
                        help="in FILE run only the tests whose node id matches REGEX (repeatable)")
    parser.add_argument("--drop-param", action="append", default=[], metavar="WORD",
                        help="leave out the cases whose parameters name WORD (repeatable): other engines' rows")
    args = parser.parse_args()
    keep = _Keep(args.keep, args.drop_param)

    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    sys.dont_write_bytecode = False  # unmutated modules compile once, in the baseline run
    for lib in PRELOAD:
        with contextlib.suppress(ImportError):
            __import__(lib)
    pytest_args = ["-x", "-q", "-p", "no:cacheprovider", "--no-header", "-W", "ignore", *args.tests]
    path = args.module.resolve()
    name = module_name(path)
    source = path.read_text()
    todo = mutants(path)
    if args.sample:
        import random

        random.Random(42).shuffle(todo)
        todo = todo[: args.sample]
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            rec = json.loads(line)
            done[rec["id"]] = rec
    if args.only_survivors:
        earlier = [json.loads(line) for line in args.only_survivors.read_text().splitlines()]
        # by the mutated line's text and the mutation's index in it, not its number: a file edited
        # since (a constant removed above) keeps its survivors
        wanted = {rec["id"].split(":", 1)[1] for rec in earlier if rec["verdict"] == "survived"}
        old_lines: set[str] = set()
        if args.new_since:
            import subprocess

            rel = path.relative_to(ROOT).as_posix()
            before = subprocess.run(["git", "show", f"{args.new_since}:{rel}"], cwd=ROOT, check=True,
                                    capture_output=True, text=True).stdout
            old_lines = set(before.splitlines())
        todo = [m for m in todo if m[0].split(":", 1)[1] in wanted
                or (args.new_since and m[0].split(":", 2)[2] not in old_lines)]
        done = {}
    # resume: a mutant already judged is skipped, matched by its line's text and index (not its
    # number, which an edit above it shifts), as many times as the earlier run judged that text
    judged: dict[str, int] = {}
    for rec_id in done:
        judged[rec_id.split(":", 1)[1]] = judged.get(rec_id.split(":", 1)[1], 0) + 1
    left = []
    for m in todo:
        key = m[0].split(":", 1)[1]
        if judged.get(key, 0) > 0:
            judged[key] -= 1
        else:
            left.append(m)
    todo = left

    start = time.monotonic()
    pid = child(pytest_args, None, keep)
    _, status = os.waitpid(pid, 0)
    base = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        print(f"the unmutated test set fails ({base:.1f} s): fix it first", file=sys.stderr)
        return 1
    limit = max(20.0, base * args.timeout_factor)
    print(f"{name}: {len(todo)} mutants to run; the set takes {base:.1f} s unmutated (timeout {limit:.0f} s)",
          flush=True)

    running: dict[int, tuple[tuple[str, int, str], float]] = {}
    counts: dict[str, int] = {}
    with args.out.open("a") as out:
        queue = list(todo)
        while queue or running:
            while queue and len(running) < args.workers:
                mutant = queue.pop(0)
                finder = _MutatedSource(name, path, mutant[2])
                running[child(pytest_args, finder, keep)] = (mutant, time.monotonic())
            time.sleep(0.05)
            for pid, (mutant, began) in list(running.items()):
                waited, status = os.waitpid(pid, os.WNOHANG)
                took = time.monotonic() - began
                if waited == 0 and took < limit:
                    continue
                if waited == 0:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    verdict = "timeout"
                else:
                    verdict = "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
                del running[pid]
                counts[verdict] = counts.get(verdict, 0) + 1
                rec = {"module": str(args.module), "id": mutant[0], "line": mutant[1], "verdict": verdict,
                       "seconds": round(took, 1), "diff": diff_of(source, mutant[2])}
                out.write(json.dumps(rec) + "\n")
                out.flush()
                n = sum(counts.values())
                if n % 10 == 0 or not (queue or running):
                    print(f"  {n}/{len(todo)} {counts} {time.monotonic() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
