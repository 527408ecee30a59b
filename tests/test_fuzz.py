"""Fuzzing every subcommand: structural and text mutations of the examples, golden specs and
reference manifests, with random flags. Whatever the input, fluidgen exits 0, 1 (with a
located message) or 2 (usage), never 3, never prints nothing on success, and never takes
long. Hypothesis, fixed seed (derandomized), bounded examples; marked slow.

FLUIDGEN_FUZZ_EXAMPLES sets the examples per subcommand (default 600).
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import EXAMPLES, RESULTS, ROOT, SHARED, run_cli

pytestmark = pytest.mark.slow
EXAMPLES_PER_COMMAND = int(os.environ.get("FLUIDGEN_FUZZ_EXAMPLES", "600"))
DEADLINE = 10.0
LOCATED = re.compile(r"^(.+:\d+:\d+: |.+: (error|warning|info)|fluidgen: |Error: |Usage: )", re.MULTILINE)
ENV = {"OSS_ACCESS_KEY_ID": "LTAI5tFuzzKeyId", "OSS_ACCESS_KEY_SECRET": "FuzzSecretValue0123",
       "FS_OSS_ACCESSKEYID": "id", "FS_OSS_ACCESSKEYSECRET": "secret", "METAURL": "redis://r:6379/1",
       "ACCESS_KEY": "a", "SECRET_KEY": "s", "PATH": os.environ.get("PATH", "")}


def _seeds() -> list[tuple[str, str]]:
    """(name, text) of every spec and manifest the suite starts from."""
    found = [p for p in sorted(EXAMPLES.glob("*.yaml"))]
    found += sorted((ROOT / "golden").glob("*/*/*.yaml"))
    found += sorted((SHARED / "reference").glob("*.yaml"))
    return [(str(p.relative_to(p.parents[2])), p.read_text("utf-8", errors="replace")) for p in found
            if not p.name.startswith("expected") and p.name != "_config.yaml"]


SEEDS = _seeds()
VALUES: list[Any] = [None, True, False, 0, -1, 1, 2**31, 2**70, 1.5, float("inf"), "", "x" * 400, "100GB", "-5Gi",
                     "1e999999999", "../../../tmp/evil", "<PLACEHOLDER>", "Tesla-V100", "ünïcødé", "\x7f", "a/b",
                     "oss://bucket/dir/", "dataset://ns/name", "pvc://claim", "juicefs:///", [], {}, [1, [2]],
                     {"a": {"b": None}}, "FLUIDGENCACHEDSECRET0X", "fluidgen.oi/v1alpha1", "v9", "true"]
TOKENS = ["&a ", "*a", "<<: *a\n", "!!python/object:os.system ", "!custom ", ": ", "- ", "\t", "{", "[", "'", '"',
          "%YAML 1.2\n", "---\n", "...\n", "? ", "|\n", ">-\n", "#", "\n  ", "~", "0o777", "0x1F", "@", "`"]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _structural(data: Any, rng: random.Random) -> Any:
    paths = _paths(data)
    path = rng.choice(paths)
    op = rng.choice(["replace", "delete", "rename", "add", "wrap"])
    if not path:
        return rng.choice(VALUES) if op == "replace" else data
    node = data
    for part in path[:-1]:
        node = node[part]
    key = path[-1]
    if op == "replace":
        node[key] = rng.choice(VALUES)
    elif op == "delete" and isinstance(node, dict):
        del node[key]
    elif op == "rename" and isinstance(node, dict) and isinstance(key, str) and key:
        value = node.pop(key)
        node[key[:-1] + rng.choice("xyz_") if len(key) > 1 else "zz"] = value
    elif op == "add" and isinstance(node[key], dict):
        node[key][rng.choice(["bogusField", "replcas", "metadata", "spec", "<<", "1"])] = rng.choice(VALUES)
    elif op == "wrap":
        node[key] = [node[key]] if rng.random() < 0.5 else {"k": node[key]}
    return data


def _textual(text: str, rng: random.Random) -> str:
    op = rng.choice(["insert", "truncate", "flip", "duplicate"])
    at = rng.randrange(len(text) + 1)
    if op == "insert":
        return text[:at] + rng.choice(TOKENS) + text[at:]
    if op == "truncate":
        return text[:at]
    if op == "flip" and text:
        i = min(at, len(text) - 1)
        return text[:i] + chr((ord(text[i]) + rng.randrange(1, 90)) % 0x250 or 65) + text[i + 1:]
    lines = text.splitlines(True)
    if lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    return "".join(lines)


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.choice([0, 1, 1, 2, 3])):  # some cases keep the seed as it is
        if rng.random() < 0.6:
            try:
                docs = list(yaml.safe_load_all(text))
            except yaml.YAMLError:
                docs = []
            if docs:
                i = rng.randrange(len(docs))
                docs[i] = _structural(docs[i], rng)
                with contextlib.suppress(yaml.YAMLError, ValueError, TypeError):
                    text = yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True)
                continue
        text = _textual(text, rng)
    return text


class Tally:
    def __init__(self) -> None:
        self.codes: dict[str, Counter[int]] = {}
        self.slowest: dict[str, float] = {}

    def add(self, command: str, code: int, elapsed: float) -> None:
        self.codes.setdefault(command, Counter())[code] += 1
        self.slowest[command] = max(self.slowest.get(command, 0.0), elapsed)
        cases = sum(self.codes[command].values())
        RESULTS.setdefault("fuzz", {})[command] = {
            "cases": cases, "exit": dict(sorted(self.codes[command].items())),
            "exit 3": self.codes[command][3], "timeouts": 0, "slowest s": round(self.slowest[command], 2)}


TALLY = Tally()


def _run(command: str, args: list[str], cwd: Path) -> None:
    start = time.monotonic()
    result = run_cli(*args, env=ENV, cwd=cwd)
    elapsed = time.monotonic() - start
    TALLY.add(command, result.code, elapsed)
    assert elapsed < DEADLINE, (args, elapsed)
    assert result.code in (0, 1, 2), (args, result.code, result.err[-2000:])
    assert "Traceback" not in result.err
    if result.code == 1 and "json" in args and args[0] in ("validate", "lint"):
        import json

        report = json.loads(result.out)  # problems go to stdout as JSON, each with its file
        assert report["errors"] > 0 and all(d["file"] for d in report["diagnostics"]), args
    elif result.code == 1:
        assert LOCATED.search(result.err), (args, result.err[:500])
    if result.code == 0 and command == "build" and "-o" not in args:
        assert result.out.strip(), args  # success with nothing on stdout would make Argo CD prune
    for secret in ("FuzzSecretValue0123", "LTAI5tFuzzKeyId"):
        assert secret not in result.err, args  # credential values never reach a message


def _case(seed: int, rng: random.Random) -> tuple[Path, str, Path]:
    name, text = SEEDS[seed % len(SEEDS)]
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    (work / "credentials").mkdir()
    (work / "credentials" / "imagenet-oss.env").write_text("fs.oss.accessKeyId=LTAI5tFuzzKeyId\n"
                                                           "fs.oss.accessKeySecret=FuzzSecretValue0123\n")
    (work / "scripts").mkdir()
    for script in (EXAMPLES / "scripts").iterdir():
        (work / "scripts" / script.name).write_text(script.read_text())
    spec = work / "spec.yaml"
    spec.write_text(mutate(text, rng), "utf-8", errors="surrogatepass")
    return work, name, spec


FLAGS = [["-q"], ["--strict"], ["-n", "ml"], ["-n", "Bad_NS"], ["--fluid-version", "v1.1.0-dev"],
         ["--fluid-version", "v9"], ["--format", "json"], ["--ignore", "FG101"], ["--ignore", "FG999"],
         ["--target", "alluxio-helm"], ["-o", "out"], ["-o", "."], ["-o", "out", "--write-secrets"]]
SETTINGS = settings(max_examples=EXAMPLES_PER_COMMAND, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_build(seed: int) -> None:
    rng = random.Random(seed)
    work, _, spec = _case(seed, rng)
    flags = [f for f in FLAGS if rng.random() < 0.07]
    _run("build", ["build", spec.name, *[x for f in flags for x in f]], work)


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_validate(seed: int) -> None:
    rng = random.Random(seed)
    work, _, spec = _case(seed, rng)
    extra = [f for f in (["--lint"], ["--specs-only"], ["--format", "json"], ["--forbid-secret-values"],
                         ["--fluid-version", "v1.1.0-dev"]) if rng.random() < 0.3]
    crds = SHARED / "fluid-crds" / "v1.0.8"
    if rng.random() < 0.2 and crds.is_dir():
        extra.append(["--crds", str(crds)])
    _run("validate", ["validate", spec.name, *[x for f in extra for x in f]], work)


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_lint(seed: int) -> None:
    rng = random.Random(seed)
    work, _, spec = _case(seed, rng)
    extra = [f for f in (["--ignore", "FG103"], ["--format", "json"], ["--ignore", "nope"]) if rng.random() < 0.2]
    _run("lint", ["lint", spec.name, *[x for f in extra for x in f]], work)


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_diff(seed: int) -> None:
    rng = random.Random(seed)
    work, _, spec = _case(seed, rng)
    rendered = work / "rendered.yaml"
    rendered.write_text(rng.choice(["42\n", "", "- a\n", '{"apiVersion": "v1", "kind": "List", "items": [{"kind": '
                                    '"Secret", "data": {"k": "c2VjcmV0"}}]}\n', mutate(SEEDS[seed % 7][1], rng)]))
    _run("diff", ["diff", spec.name, "rendered.yaml"], work)
    # A committed file's content is never shown when it holds a Secret's values or does not parse.


PATHS = ["", "runtime", "runtime.overrides", "runtime.thin", "runtime.cacheClass", "dataflow.process", "source",
         "source.credentials", "runtime.cache.quota", "placement.gpu", "metadata.labels", "nope", "runtime..x",
         "runtime.cache[0].quota", "dataflow[3].migrate.from", "a.b.c.d", "[", "runtime.engine.x", "lint.ignore"]


@SETTINGS
@given(st.sampled_from(PATHS), st.text(max_size=12))
def test_fuzz_explain(path: str, junk: str) -> None:
    _run("explain", ["explain", path + junk if junk.isprintable() else path], ROOT)


@SETTINGS
@given(st.sampled_from(["alluxio", "jindo", "juicefs", "efc", "thin", "vineyard", "goosefs", "cache", "nope"]),
       st.one_of(st.none(), st.sampled_from(["oss://b/d/", "dataset://ns/x", "s3://b", "x", "", "juicefs:///",
                                             "nfs://a.b.nas.aliyuncs.com:/d/", "pvc://c"]), st.text(max_size=20)),
       st.one_of(st.just("demo"), st.text(max_size=70)), st.booleans())
def test_fuzz_init(engine: str, source: str | None, name: str, to_file: bool) -> None:
    work = Path(tempfile.mkdtemp(prefix="fuzz-init-"))
    args = ["init", "--engine", engine, "--name", name]
    args += ["--source", source] if source is not None else []
    args += ["-o", rng_file(work)] if to_file else []
    _run("init", args, work)


def rng_file(work: Path) -> str:
    return str(work / "missing-dir" / "spec.yaml")


@SETTINGS
@given(st.one_of(st.sampled_from(["alluxio-imagenet", "thin-default", "none", "nope", "./x.yaml", "../../etc/passwd"]),
                 st.text(max_size=30)))
def test_fuzz_profiles(name: str) -> None:
    _run("profiles", ["profiles", "show", name], ROOT)


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_plan(seed: int) -> None:
    rng = random.Random(seed)
    work, _, spec = _case(seed, rng)
    rendered = work / "deployed.yaml"
    rendered.write_text(rng.choice(["42\n", "", "- a\n", '{"apiVersion": "v1", "kind": "List", "items": [{"kind": '
                                    '"AlluxioRuntime", "metadata": {"uid": "1"}, "status": {}, "spec": 3}]}\n',
                                    mutate(SEEDS[seed % 7][1], rng)]))
    extra = [f for f in (["--operation-names", "hashed"], ["--allow-recreate"], ["--gitops", "argocd"])
             if rng.random() < 0.3]
    against = "git:no-such-revision" if rng.random() < 0.05 else "deployed.yaml"
    _run("plan", ["plan", spec.name, "--against", against, *[x for f in extra for x in f]], work)


REFERENCE_SEEDS = sorted((SHARED / "reference").glob("*.yaml")) if (SHARED / "reference").is_dir() else []
CORPUS_SEEDS = sorted((ROOT / "tests" / "corpus" / "cases").glob("*.yaml"))


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_import(seed: int) -> None:
    """Mutated reference manifests and Fluid doc samples (kubectl Lists among them) through import."""
    rng = random.Random(seed)
    seeds = [*REFERENCE_SEEDS, *CORPUS_SEEDS]
    work = Path(tempfile.mkdtemp(prefix="fuzz-import-"))
    text = mutate(seeds[seed % len(seeds)].read_text(), rng)
    if rng.random() < 0.2:  # as `kubectl get -o yaml` prints it
        with contextlib.suppress(yaml.YAMLError):
            docs = list(yaml.safe_load_all(text))
            text = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}) if docs else text
    (work / "in.yaml").write_text(text)
    extra = [f for f in (["--check"], ["-o", "out"], ["--fluid-version", "v1.0.8"]) if rng.random() < 0.3]
    _run("import", ["import", "in.yaml", *[x for f in extra for x in f]], work)
