"""Structure-aware fuzzing (issue 38): specs made from valid ones with the published JSON
schema (schemas/fluidgen-spec.v1alpha1.json) as the guide, so most of them still compile and
the deep paths (lowering, lint, plan, import, the Flux and Argo CD modes, the cache, the API)
are reached, not only the parser's refusals.

Seeds are the examples and the golden specs (all of them build). A case applies one to three
mutations to a seed, each at a key path the schema knows:
- cross: the value another seed has at the same schema place (an engine's whole runtime
  block, a source with its credentials, a dataflow step, ...);
- schema: a value the schema allows there: another enum member, the other boolean, an
  integer within its bounds, an optional property dropped or added (from a seed), an array
  item dropped or repeated;
- hostile (one case in eight): a value of a wrong type or shape, as a careless author writes.
The case is a pure function of its number (random.Random(number)), so a failing case is
replayed with `python -m tests.harness.fuzz_specs --case N`.

`table(cases)` runs every subcommand on the same cases in this process and returns one row per
subcommand: cases, compiled (exit 0), exit codes, exit 3, timeouts, slowest case and peak
memory (the process's VmHWM after the subcommand's cases; run one subcommand per process
with `python -m tests.harness.fuzz_specs --command NAME --cases N` for a per-subcommand peak).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples"
SCHEMA: dict[str, Any] = json.loads((ROOT / "schemas" / "fluidgen-spec.v1alpha1.json").read_text("utf-8"))
DEADLINE_S = 30  # a case this slow is a hang (SIGALRM); the slowest one is reported
SECRET_VALUES = ("FuzzSecretValue0123", "LTAI5tFuzzKeyId", "fuzz-env-secret-7")
ENV = {"PATH": os.environ.get("PATH", ""), "FLUIDGEN_NO_CACHE": "1",
       "OSS_ACCESS_KEY_ID": "LTAI5tFuzzKeyId", "OSS_ACCESS_KEY_SECRET": "FuzzSecretValue0123",
       "ARGOCD_ENV_OSS_KEY": "fuzz-env-secret-7"}
# Values a seed lacks but the schema allows, offered to `cross` at their place.
EXTRA = {
    ("source", "*", "credentials"): [
        {"fromEnv": {"fs.oss.accessKeyId": "OSS_ACCESS_KEY_ID", "fs.oss.accessKeySecret": "OSS_ACCESS_KEY_SECRET"}},
        {"fromEnv": {"fs.oss.accessKeyId": "ARGOCD_ENV_OSS_KEY"}},
        {"fromFile": {"fs.oss.accessKeyId": "credentials/key.txt"}},
        {"envFile": "credentials/imagenet-oss.env", "secretName": "fuzz-secret"},
        {"inline": {"fs.oss.accessKeyId": "inline-id"}, "allowInline": True}],
}
HOSTILE: list[Any] = [None, True, 0, -1, 2**31, 2**70, 1.5, "", "x" * 300, "-5Gi", "../../etc/passwd", "ünïcødé",
                      [], {}, [1, [2]], {"a": {"b": None}}, "1e999999999", "v9"]


def seeds() -> list[tuple[str, dict[str, Any]]]:
    """(name, spec) of every example and golden spec; each builds."""
    paths = sorted(EXAMPLES.glob("*.yaml")) + sorted((ROOT / "golden" / "ok").glob("*/spec.yaml"))
    paths += [ROOT / "golden" / "ok" / "overlay-prod" / "base.yaml"]
    out = []
    for path in paths:
        data = yaml.safe_load(path.read_text("utf-8"))
        if isinstance(data, dict) and data.get("kind") == "CachedDataset":
            out.append((str(path.relative_to(ROOT)), data))
    return out


SEEDS = seeds()


# -- the schema as a guide ----------------------------------------------------------------

def _resolve(node: Any) -> dict[str, Any]:
    while isinstance(node, dict) and "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node if isinstance(node, dict) else {}


def _branches(node: Any) -> list[dict[str, Any]]:
    node = _resolve(node)
    return [_resolve(b) for b in node["anyOf"]] if "anyOf" in node else [node]


def _child(node: Any, key: str | int) -> Any:
    for branch in _branches(node):
        if isinstance(key, str) and branch.get("type") == "object":
            if key in branch.get("properties", {}):
                return branch["properties"][key]
            if isinstance(branch.get("additionalProperties"), dict):
                return branch["additionalProperties"]
        if isinstance(key, int) and branch.get("type") == "array":
            return branch.get("items", {})
    return None


def schema_at(path: tuple[str | int, ...]) -> Any:
    node: Any = SCHEMA
    for key in path:
        node = _child(node, key)
        if node is None:
            return None
    return node


def _paths(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _place(path: tuple[str | int, ...]) -> tuple[str, ...]:
    return tuple("*" if isinstance(p, int) else p for p in path)


def _pool() -> dict[tuple[str, ...], list[Any]]:
    pool: dict[tuple[str, ...], list[Any]] = {k: list(v) for k, v in EXTRA.items()}
    for _, data in SEEDS:
        for path in _paths(data):
            if path:
                node: Any = data
                for key in path:
                    node = node[key]
                pool.setdefault(_place(path), []).append(node)
    return pool


POOL = _pool()


# -- mutations ----------------------------------------------------------------------------

def _get(data: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _schema_value(node: Any, current: Any, place: tuple[str, ...], rng: random.Random) -> Any:
    branches = _branches(node)
    branch = rng.choice(branches)
    if "enum" in branch:
        return rng.choice(branch["enum"])
    if "const" in branch:
        return branch["const"]
    kind = branch.get("type")
    if kind == "null":
        return None
    if kind == "boolean":
        return not current if isinstance(current, bool) else rng.choice([True, False])
    if kind == "integer":
        low = int(branch.get("minimum", 0))
        return rng.randint(low, int(branch.get("maximum", low + 64)))
    if kind == "number":
        return round(rng.uniform(float(branch.get("minimum", 0)), float(branch.get("maximum", 100))), 2)
    if kind == "array" and isinstance(current, list) and current:
        out = list(current)
        if rng.random() < 0.5 and len(out) > 1:
            out.pop(rng.randrange(len(out)))
        else:
            out.append(copy.deepcopy(rng.choice(out)))
        return out
    if kind == "object" and isinstance(current, dict):
        out = dict(current)
        optional = [k for k in out if k not in branch.get("required", ())]
        addable = [k for k in branch.get("properties", {}) if k not in out and (*place, k) in POOL]
        if addable and (rng.random() < 0.5 or not optional):
            key = rng.choice(addable)
            out[key] = copy.deepcopy(rng.choice(POOL[(*place, key)]))
        elif optional:
            del out[rng.choice(optional)]
        return out
    return copy.deepcopy(rng.choice(POOL.get(place, [current])))


def mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        paths = [p for p in _paths(data) if p and schema_at(p) is not None]
        path = rng.choice(paths)
        parent, key = _get(data, path[:-1]), path[-1]
        place = _place(path)
        roll = rng.random()
        if roll < 0.125:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
        elif roll < 0.55 and len(POOL.get(place, ())) > 1:
            parent[key] = copy.deepcopy(rng.choice(POOL[place]))
        else:
            parent[key] = _schema_value(schema_at(path), parent[key], place, rng)
    return data


def case(number: int) -> tuple[str, dict[str, Any]]:
    """(seed name, mutated spec) of case `number`: the same on every run."""
    rng = random.Random(number)
    name, data = SEEDS[number % len(SEEDS)]
    return name, mutate(data, rng)


def lay_out(spec: dict[str, Any], where: Path) -> Path:
    """A case's directory: the spec with the files the seeds refer to."""
    shutil.copytree(EXAMPLES / "credentials", where / "credentials")
    (where / "credentials" / "key.txt").write_text("LTAI5tFuzzKeyId\n")
    shutil.copytree(EXAMPLES / "scripts", where / "scripts")
    path = where / "spec.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True), "utf-8")
    return path


# -- running ------------------------------------------------------------------------------

class CaseTimeout(Exception):
    pass


@dataclass
class Row:
    command: str
    cases: int = 0
    compiled: int = 0
    codes: Counter[int] = field(default_factory=Counter)
    timeouts: int = 0
    slowest: float = 0.0
    slowest_case: int = -1
    peak_mib: float = 0.0
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        codes = ", ".join(f"{c}: {n}" for c, n in sorted(self.codes.items()))
        return (f"| {self.command} | {self.cases} | {self.compiled} | {codes} | {self.codes.get(3, 0)} | "
                f"{self.timeouts} | {self.slowest:.2f} s (case {self.slowest_case}) | {self.peak_mib:.0f} MiB |")


def _alarm(_signum: int, _frame: Any) -> None:
    raise CaseTimeout


def cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The command line in this process, as the console script runs it (no cache)."""
    from fluidgen.cli import run

    out, err = io.StringIO(), io.StringIO()
    saved, here = dict(os.environ), os.getcwd()
    try:
        os.environ.clear()
        os.environ.update(ENV if env is None else env)
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(list(args))
    finally:
        os.chdir(here)
        os.environ.clear()
        os.environ.update(saved)
    return code, out.getvalue(), err.getvalue()


def _api(spec: dict[str, Any], where: Path) -> tuple[int, str, str]:
    import fluidgen

    result = fluidgen.build(spec, base_dir=where, env=ENV)
    problems = "\n".join(str(d) for d in result.diagnostics)
    return (0 if result.ok else 1), result.yaml() if result.ok else "", problems


def _build_then(where: Path, then: Callable[[], tuple[int, str, str]]) -> tuple[int, str, str]:
    """The build's output in rendered.yaml, then the command that reads it; a spec that does not
    build is the build's own result."""
    code, out, err = cli(["build", "spec.yaml"], where)
    if code != 0:
        return code, out, err
    (where / "rendered.yaml").write_text(out, "utf-8")
    return then()


def commands(spec: dict[str, Any], where: Path, number: int) -> dict[str, Callable[[], tuple[int, str, str]]]:
    flags = [[], ["--fluid-version", "v1.0.8"], ["-n", "team-a"], ["--strict"]][number % 4]
    return {
        "build": lambda: cli(["build", *flags, "spec.yaml"], where),
        "validate --lint": lambda: cli(["validate", "--lint", "spec.yaml"], where),
        "plan": lambda: _build_then(where, lambda: cli(["plan", "spec.yaml", "--against", "rendered.yaml"], where)),
        "import (own output)": lambda: _build_then(where, lambda: cli(["import", "--check", "rendered.yaml"], where)),
        "build --gitops flux -o": lambda: cli(["build", "--gitops", "flux", "-o", "out", "--write-secrets",
                                               "spec.yaml"], where),
        "flux kustomization": lambda: cli(["flux", "kustomization", "spec.yaml", "--path", "./rendered"], where),
        "build --gitops argocd (sidecar)": lambda: cli(["build", "-q", "--confine-from-env", "--gitops", "argocd",
                                                        "."], where),
        "argocd parameters": lambda: cli(["argocd", "parameters", "."], where),
        "api build": lambda: _api(spec, where),
    }


COMMANDS = tuple(commands({}, Path("."), 0))
# The commands whose success is output on stdout: exit 0 with nothing there would make Argo CD prune.
PRINTS = frozenset({"build", "plan", "flux kustomization", "build --gitops argocd (sidecar)", "argocd parameters",
                    "api build"})


def _peak_mib() -> float:
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_case(command: str, number: int, row: Row) -> None:
    """Case `number` through `command`, tallied in `row`; a broken promise joins row.failures."""
    _, spec = case(number)
    where = Path(tempfile.mkdtemp(prefix="fuzz-spec-"))
    try:
        lay_out(spec, where)
        run = commands(spec, where, number)[command]
        start = time.monotonic()
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(DEADLINE_S)
        try:
            code, out, err = run()
        except CaseTimeout:
            row.timeouts += 1
            row.failures.append(f"case {number}: timed out")
            return
        except Exception as exc:  # the API raises only ValueError for a bad argument, never for a spec
            code, out, err = 3, "", f"{type(exc).__name__}: {exc}"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        elapsed = time.monotonic() - start
    finally:
        shutil.rmtree(where, ignore_errors=True)
    row.cases += 1
    row.codes[code] += 1
    row.compiled += code == 0
    if elapsed > row.slowest:
        row.slowest, row.slowest_case = elapsed, number
    if code not in (0, 1):
        row.failures.append(f"case {number}: exit {code}: {err[-500:]}")
    elif code == 1 and not err.strip():
        row.failures.append(f"case {number}: exit 1 with nothing on stderr")
    elif code == 0 and command in PRINTS and not out.strip():
        row.failures.append(f"case {number}: exit 0 with nothing on stdout")
    if any(s in err for s in SECRET_VALUES):
        row.failures.append(f"case {number}: a credential value in a message")
    row.peak_mib = max(row.peak_mib, _peak_mib())


def table(cases: range, only: tuple[str, ...] = COMMANDS) -> list[Row]:
    rows = []
    for command in only:
        row = Row(command)
        for number in cases:
            run_case(command, number, row)
        rows.append(row)
    return rows


HEADER = ("| subcommand | cases | compiled (exit 0) | exit codes | exit 3 | timeouts | slowest | peak memory |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- |")


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.harness.fuzz_specs")
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--command", action="append", choices=COMMANDS)
    parser.add_argument("--case", type=int, help="print case N's spec and exit")
    args = parser.parse_args(argv)
    if args.case is not None:
        name, spec = case(args.case)
        sys.stdout.write(f"# from {name}\n" + yaml.safe_dump(spec, sort_keys=False))
        return 0
    rows = table(range(args.first, args.first + args.cases), tuple(args.command or COMMANDS))
    print(HEADER)
    for row in rows:
        print(row.line())
    for row in rows:
        for failure in row.failures:
            print(f"{row.command}: {failure}", file=sys.stderr)
    return 1 if any(row.failures for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
