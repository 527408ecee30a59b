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
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import EXAMPLES, RESULTS, ROOT, SHARED, Run, run_cli

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
        self.timeouts: Counter[str] = Counter()

    def add(self, command: str, code: int, elapsed: float, timed_out: bool = False) -> None:
        self.codes.setdefault(command, Counter())[code] += 1
        self.slowest[command] = max(self.slowest.get(command, 0.0), elapsed)
        self.timeouts[command] += timed_out
        cases = sum(self.codes[command].values())
        RESULTS.setdefault("fuzz", {})[command] = {
            "cases": cases, "exit": dict(sorted(self.codes[command].items())),
            "exit 3": self.codes[command][3], "timeouts": self.timeouts[command],
            "slowest s": round(self.slowest[command], 2)}


TALLY = Tally()


class FuzzTimeout(BaseException):
    """Raised by the alarm inside a case that blocks (a FIFO read, a walk of /): not an
    Exception, so no handler in fluidgen can swallow it."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise FuzzTimeout


PLAN_GATE = re.compile(r"^fluidgen plan: \d+ changes?, [1-9]\d* ignored by Fluid", re.MULTILINE)


def _run(command: str, args: list[str], cwd: Path) -> Run:
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(DEADLINE * 3))
    try:
        result = run_cli(*args, env=ENV, cwd=cwd)
    except FuzzTimeout:
        TALLY.add(command, -1, time.monotonic() - start, timed_out=True)
        raise AssertionError((args, "timed out: a read blocked or a walk did not end")) from None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.monotonic() - start
    TALLY.add(command, result.code, elapsed)
    assert elapsed < DEADLINE, (args, elapsed)
    assert result.code in (0, 1, 2), (args, result.code, result.err[-2000:])
    assert "Traceback" not in result.err
    if result.code == 1 and "json" in args and args[0] in ("validate", "lint"):
        import json

        report = json.loads(result.out)  # problems go to stdout as JSON, each with its file
        assert report["errors"] > 0 and all(d["file"] for d in report["diagnostics"]), args
    elif result.code == 1 and args[0] == "plan" and PLAN_GATE.search(result.out):
        pass  # plan's gate: the edits Fluid would ignore are the report on stdout, each with what to do
    elif result.code == 1:
        assert LOCATED.search(result.err), (args, result.err[:500])
    if result.code == 0 and command == "build" and "-o" not in args:
        assert result.out.strip(), args  # success with nothing on stdout would make Argo CD prune
    for secret in ("FuzzSecretValue0123", "LTAI5tFuzzKeyId"):
        assert secret not in result.err, args  # credential values never reach a message
    return result


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
         ["--target", "alluxio-helm"], ["-o", "out"], ["-o", "."], ["-o", "out", "--write-secrets"],
         ["--gitops", "flux"], ["--gitops", "flux", "-o", "out", "--write-secrets"]]
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


NESTED_SECRET = "FuzzNestedSecret0456"
SHAPED_EXAMPLES = max(20, EXAMPLES_PER_COMMAND // 4)


def _renamed(docs: list[Any], old: str, name: str, namespace: str | None) -> list[Any]:
    """Copies of the objects named `old` (a Dataset and its runtime) under a new name and namespace."""
    out = []
    for doc in docs:
        if isinstance(doc, dict) and isinstance(doc.get("metadata"), dict) and doc["metadata"].get("name") == old:
            meta = {k: v for k, v in doc["metadata"].items() if k != "namespace"}
            doc = {**doc, "metadata": {**meta, "name": name, **({"namespace": namespace} if namespace else {})}}
        out.append(doc)
    return out


def _nested(docs: list[Any], depth: int, rng: random.Random) -> list[Any]:
    """Some of the documents wrapped in Lists, `depth` levels deep at most."""
    for _ in range(depth):
        if not docs:
            break
        start = rng.randrange(len(docs))
        end = rng.randrange(start, len(docs)) + 1
        docs = [*docs[:start], {"apiVersion": "v1", "kind": rng.choice(["List", "DatasetList", "SecretList"]),
                                "items": docs[start:end]}, *docs[end:]]
    return docs


@settings(max_examples=SHAPED_EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32))
def test_fuzz_import_nested_lists_and_collisions(seed: int) -> None:
    """Import inputs shaped to lose a Dataset or leak a Secret (issue 24): Lists inside Lists
    (past the bound too), a Secret spelled any way among them, Datasets whose namespace and name
    join to one file name or to kept.yaml. No Secret value in any output; a collision never exits 0."""
    rng = random.Random(seed)
    seeds = [*REFERENCE_SEEDS, *CORPUS_SEEDS]
    docs = [d for d in yaml.safe_load_all(seeds[seed % len(seeds)].read_text()) if isinstance(d, dict)]
    name = next((d["metadata"].get("name") for d in docs if d.get("kind") == "Dataset"
                 and isinstance(d.get("metadata"), dict)), None)
    collision = rng.choice(["none", "join", "kept"]) if isinstance(name, str) else "none"
    if collision == "join":
        docs = _renamed(docs, name, "b-c", "a") + _renamed(docs, name, "c", "a-b")
    elif collision == "kept":
        docs = [*_renamed(docs, name, "kept", None),
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "b"}}]
    secret = {"apiVersion": "v1", "kind": rng.choice(["Secret", "secret", "SECRET", " Secret"]),
              "metadata": {"name": "s"}, "stringData": {"password": NESTED_SECRET}}
    docs.insert(rng.randrange(len(docs) + 1), secret)
    docs = _nested(docs, rng.choice([0, 1, 2, 3, 5, 6]), rng)
    work = Path(tempfile.mkdtemp(prefix="fuzz-import-shaped-"))
    (work / "in.yaml").write_text(yaml.safe_dump_all(docs, sort_keys=False))
    to_dir = rng.random() < 0.7
    flags = ["-o", "out"] if to_dir else (["--check"] if rng.random() < 0.3 else [])
    result = _run("import", ["import", "in.yaml", *flags], work)
    written = "".join(p.read_text() for p in (work / "out").iterdir()) if (work / "out").is_dir() else ""
    assert NESTED_SECRET not in written + result.out + result.err, (seed, collision)
    if collision == "join" or (collision == "kept" and to_dir):
        assert result.code == 1 and not (work / "out").exists(), (seed, collision, result.err[-800:])


# --- hostile repositories (issue 24): links and FIFOs in every directory argument and in
# RENDERED, hostile revisions and trees for plan git:, planted .sops.yaml rules, argocd health
# into existing trees. Each case plants a few hostile entries; none may be followed out of
# the argument, block, crash, or let the outside tenant's files or the token reach the output.

HOSTILE_EXAMPLES = max(20, EXAMPLES_PER_COMMAND // 4)
HOSTILE = settings(SETTINGS, max_examples=HOSTILE_EXAMPLES)
TOKEN = "eyJhbGciOiJSUzI1NiJ9.FUZZ-RUNNER-TOKEN"
THEIRS = "theirs-tenant-dataset"
KUBECONFIG = f"apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: {TOKEN}\n"
PLANTS = ["link-root", "link-up", "link-file-out", "link-abs", "dangling", "link-in", "loop", "fifo", "fifo-deep",
          "hidden", "dev-zero", "link-dir-in", "link-chain-out"]


def _tenants(seed: int, rng: random.Random) -> tuple[Path, Path, Path]:
    """base/app (a mutated spec with its credentials and scripts) and base/outside (another
    tenant's spec and a kubeconfig holding a token)."""
    work, _, spec = _case(seed, rng)
    base = Path(tempfile.mkdtemp(prefix="fuzz-hostile-"))
    app = base / "app"
    shutil.move(str(work), app)
    outside = base / "outside"
    (outside / "credentials").mkdir(parents=True)
    shutil.copy(app / "credentials" / "imagenet-oss.env", outside / "credentials" / "imagenet-oss.env")
    (outside / "spec.yaml").write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace(
        "name: imagenet", f"name: {THEIRS}", 1))
    (outside / "config.yaml").write_text(KUBECONFIG)
    return app, outside, app / spec.name


def _plant(folder: Path, outside: Path, rng: random.Random) -> list[str]:
    chosen = [p for p in PLANTS if rng.random() < 0.25]
    for plant in chosen:
        with contextlib.suppress(OSError):
            {"link-root": lambda: (folder / "root").symlink_to("/"),
             "link-up": lambda: (folder / "vendor").symlink_to(os.path.relpath(outside, folder)),
             "link-file-out": lambda: (folder / "zz.yaml").symlink_to(outside / "config.yaml"),
             "link-abs": lambda: (folder / "abs.yaml").symlink_to(outside / "spec.yaml"),
             "dangling": lambda: (folder / "gone.yaml").symlink_to("nowhere.yaml"),
             "link-in": lambda: (folder / "again.yaml").symlink_to("spec.yaml"),
             "loop": lambda: (folder / "loop").symlink_to("."),
             "fifo": lambda: os.mkfifo(folder / "pipe.yaml"),
             "fifo-deep": lambda: ((folder / "deep").mkdir(exist_ok=True), os.mkfifo(folder / "deep" / "p.yml")),
             "hidden": lambda: shutil.copytree(outside, folder / ".hidden"),
             "dev-zero": lambda: (folder / "zero.yaml").symlink_to("/dev/zero"),
             "link-dir-in": lambda: (folder / "alias").symlink_to("credentials"),
             "link-chain-out": lambda: ((folder / "hop").symlink_to("loop/.."),
                                        (folder / "hop2.yaml").symlink_to("hop/../outside/spec.yaml")),
             }[plant]()
    return chosen


def _clean(result: Run, args: list[str]) -> None:
    assert TOKEN not in result.out + result.err, args
    assert THEIRS not in result.out + result.err, args


@HOSTILE
@given(st.integers(0, 2**32), st.sampled_from(["build", "validate", "lint", "import"]), st.booleans())
def test_fuzz_directory_arguments(seed: int, command: str, project: bool) -> None:
    """Links and FIFOs in a directory argument (and in a project directory)."""
    rng = random.Random(seed)
    app, outside, spec = _tenants(seed, rng)
    _plant(app, outside, rng)
    if project and command == "build":
        listed = rng.sample([spec.name, "pipe.yaml", "zz.yaml", "abs.yaml", "../outside/spec.yaml", "/etc/hostname",
                             "deep/p.yml", "vendor/spec.yaml", "again.yaml"], rng.randint(1, 3))
        (app / "fluidgen.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
                                           f"  prod:\n    specs: [{', '.join(f'[{n}]' for n in listed)}]\n")
    args = [command, "."]
    _clean(_run(f"{command} DIR", args, app), args)


_RENDERED: list[str] = []


def _rendered_template() -> str:
    """One -o directory built from the ImageNet example (built once per session)."""
    if not _RENDERED:
        out = Path(tempfile.mkdtemp(prefix="fuzz-rendered-")) / "rendered"
        result = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), "-o", str(out), "--write-secrets",
                         env={**ENV, "FLUIDGEN_NO_CACHE": "1"}, cwd=EXAMPLES)
        assert result.code == 0, result.err
        (out / "secrets.yaml").unlink()
        _RENDERED.append(str(out))
    return _RENDERED[0]


RENDERED_PLANTS = ["kubeconfig-as-object", "not-an-object", "secret-with-token", "last-applied", "link-out",
                   "link-object", "fifo", "damaged-marker", "rendered-is-link", "rendered-is-fifo", "sops-link"]


@HOSTILE
@given(st.integers(0, 2**32), st.sampled_from(["diff", "diff --forbid-secret-values", "plan"]))
def test_fuzz_rendered(seed: int, command: str) -> None:
    """RENDERED as a pull request can shape it: no link or FIFO in it is read, no token shown."""
    rng = random.Random(seed)
    app, outside, spec = _tenants(seed, rng)
    rendered = app / "rendered"
    shutil.copytree(_rendered_template(), rendered)
    files = sorted(p.name for p in rendered.glob("*.yaml"))
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "mysecret", "namespace": "default"},
              "data": {"token": TOKEN}}
    target = "rendered"
    for plant in [p for p in RENDERED_PLANTS if rng.random() < 0.3]:
        victim = rendered / rng.choice(files)
        with contextlib.suppress(OSError):
            if plant == "kubeconfig-as-object":
                victim.write_text(KUBECONFIG)
            elif plant == "not-an-object":
                victim.write_text(f"token: {TOKEN}\n---\n- {TOKEN}\n")
            elif plant == "secret-with-token":
                (rendered / "secret-mysecret.yaml").write_text(yaml.safe_dump(secret))
            elif plant == "last-applied":
                import json

                annotated = {**secret, "metadata": {**secret["metadata"], "annotations": {
                    "kubectl.kubernetes.io/last-applied-configuration": json.dumps(secret)}}}
                victim.write_text(yaml.safe_dump(annotated))
            elif plant == "link-out":
                (rendered / "zz.yaml").symlink_to(outside / "config.yaml")
            elif plant == "link-object":
                victim.unlink()
                victim.symlink_to(outside / "config.yaml")
            elif plant == "fifo":
                os.mkfifo(rendered / "pipe.yaml")
            elif plant == "damaged-marker":
                (rendered / ".fluidgen-output").write_text(rng.choice(["{", '{"files": ["../../x"]}', TOKEN]))
            elif plant == "rendered-is-link":
                (app / "rendered-link").symlink_to(outside)
                target = "rendered-link"
            elif plant == "rendered-is-fifo":
                os.mkfifo(app / "rendered-fifo.yaml")
                target = "rendered-fifo.yaml"
            elif plant == "sops-link":
                (rendered / "secrets.sops.yaml").symlink_to(outside / "config.yaml")
    words = command.split()
    args = [words[0], *words[1:], spec.name, target] if words[0] == "diff" else \
        ["plan", spec.name, "--against", target]
    _clean(_run(command, args, app), args)


REVISIONS = ["HEAD", "HEAD~1", "HEAD^{tree}", "-l", "--output=victim.txt", "--remote=ext::sh -c id", "--exec=id",
             "-", "", "HEAD:spec.yaml", "@{-1}", "HEAD~999", "refs/heads/../x", "$(id)", "HEAD\n-l", "..",
             "HEAD..HEAD~1", "main", "v1", "HOSTILE_TREE", "deadbeef", "\x00", "ünï"]
TREE_PLANTS = ["link-root", "link-up", "link-abs", "link-chain-out", "big-file", "many-dirs", "link-in", "unicode",
               "sops"]


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=f", "-c", "user.email=f@f", "-c", "commit.gpgsign=false",
                           "-C", str(repo), *args], capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _hostile_tree(repo: Path) -> str:
    """A commit whose tree holds names a checkout could not (.., .git); '' if git refuses it."""
    blob = _git(repo, "hash-object", "-w", "spec.yaml")
    tree = subprocess.run(["git", "-C", str(repo), "mktree"], input=f"100644 blob {blob}\t..\n100644 blob {blob}\t"
                          ".git\n100644 blob {blob}\tspec.yaml\n", capture_output=True, text=True, check=False)
    if tree.returncode != 0:
        return ""
    return _git(repo, "commit-tree", tree.stdout.strip(), "-m", "hostile")


@settings(HOSTILE, max_examples=max(10, HOSTILE_EXAMPLES // 2))
@given(st.integers(0, 2**32), st.one_of(st.sampled_from(REVISIONS), st.text(max_size=20)))
def test_fuzz_plan_git(seed: int, revision: str) -> None:
    """plan --against git:REV with hostile revision strings and hostile trees."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    rng = random.Random(seed)
    repo, outside, spec = _tenants(seed, rng)
    _git(repo, "init", "-q")
    (repo / "victim.txt").write_text("keep\n")
    for plant in [p for p in TREE_PLANTS if rng.random() < 0.3]:
        with contextlib.suppress(OSError):
            if plant == "big-file":
                with open(repo / "big.bin", "wb") as fh:
                    fh.truncate(5 * 1024 * 1024)
            elif plant == "many-dirs":
                for i in range(30):
                    (repo / "d" / str(i)).mkdir(parents=True)
                    (repo / "d" / str(i) / "x.yaml").write_text(f"n: {i}\n")
            elif plant == "unicode":
                (repo / "ünï cødé.yaml").write_text("a: b\n")
            elif plant == "sops":
                (repo / ".sops.yaml").write_text("creation_rules: [{unencrypted_regex: '.*'}]\n")
            else:
                _plant(repo, outside, random.Random(hash(plant) & 0xFFFF))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    _git(repo, "tag", "v1")
    spec.write_text(mutate(spec.read_text(), rng))
    _git(repo, "commit", "-qam", "two")
    if revision == "HOSTILE_TREE":
        revision = _hostile_tree(repo) or "HEAD"
    args = ["plan", spec.name, "--against", f"git:{revision}"]
    _clean(_run("plan git:", args, repo), args)
    assert (repo / "victim.txt").read_text() == "keep\n"


SOPS_RULES = ["creation_rules:\n  - age: {r}\n", "creation_rules:\n  - age: {r}\n    unencrypted_regex: '.*'\n",
              "creation_rules:\n  - age: {r}\n    encrypted_regex: '.*'\n",
              "creation_rules:\n  - age: {r}\n    encrypted_regex: '^nothing$'\n",
              "creation_rules:\n  - path_regex: elsewhere\n    age: {r}\n",
              "creation_rules:\n  - key_groups: [{{age: [{r}]}}]\n", "creation_rules: []\n", "{{\n", "42\n",
              "creation_rules:\n  - age: age1notarecipient\n",
              "creation_rules:\n  - age: {r}\n    encrypted_suffix: _x\n"]


@settings(HOSTILE, max_examples=max(10, HOSTILE_EXAMPLES // 2))
@given(st.integers(0, 2**32), st.sampled_from(SOPS_RULES),
       st.sampled_from(["root", "above-root", "output", "spec-dir"]), st.sampled_from([0o644, 0o664, 0o666, -1]),
       st.booleans())
def test_fuzz_sops_config(seed: int, rules: str, where: str, mode: int, flag: bool) -> None:
    """Planted .sops.yaml rules: whatever they say, a written secrets.sops.yaml holds every
    value encrypted and no file under -o holds a credential in plain text."""
    pyrage = pytest.importorskip("pyrage")
    if not (Path(os.sys.executable).parent / "sops").exists() and shutil.which("sops") is None:
        pytest.skip("sops is not installed")
    rng = random.Random(seed)
    base = Path(tempfile.mkdtemp(prefix="fuzz-sops-"))
    repo = base / "repo"
    shutil.copytree(EXAMPLES / "credentials", repo / "app" / "credentials")
    (repo / ".git").mkdir()
    spec = repo / "app" / "spec.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text() if rng.random() < 0.7
                    else mutate((EXAMPLES / "jindo-imagenet-oss.yaml").read_text(), rng))
    recipient = str(pyrage.x25519.Identity.generate().to_public())
    text = rules.format(r=recipient)
    folder = {"root": repo, "above-root": base, "output": repo / "app" / "out", "spec-dir": repo / "app"}[where]
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / ".sops.yaml"
    if mode == -1:
        (base / "real-sops.yaml").write_text(text)
        config.symlink_to(base / "real-sops.yaml")
    else:
        config.write_text(text)
        config.chmod(mode)
    args = ["build", "spec.yaml", "-o", "out", *(["--sops-age", recipient] if flag else [])]
    result = _run("build -o (sops)", args, repo / "app")
    written = b"".join(p.read_bytes() for p in (repo / "app" / "out").iterdir() if p.is_file()) \
        if (repo / "app" / "out").is_dir() else b""
    plain = (repo / "app" / "credentials" / "imagenet-oss.env").read_text()
    for line in plain.splitlines():
        if "=" in line and not line.startswith("#"):
            assert line.split("=", 1)[1].encode() not in written, (args, rules)
    sealed = repo / "app" / "out" / "secrets.sops.yaml"
    if sealed.exists():
        assert result.code == 0
        for doc in yaml.safe_load_all(sealed.read_text()):
            assert doc["kind"] == "Secret" and all(str(v).startswith("ENC[") for v in doc["data"].values())


HEALTH_PLANTS = ["user-file", "dir-link", "folder-link", "file-link", "fifo", "damaged-marker", "escaping-marker",
                 "marker-link", "file-for-folder", "foreign-dir"]


@HOSTILE
@given(st.integers(0, 2**32), st.booleans())
def test_fuzz_argocd_health(seed: int, first: bool) -> None:
    """argocd health into existing trees: never through a link, never over a file it did not
    write; whatever it refuses, the victim's files are untouched."""
    rng = random.Random(seed)
    base = Path(tempfile.mkdtemp(prefix="fuzz-health-"))
    victim = base / "victim"
    victim.mkdir()
    (victim / "health.lua").write_text("-- dotfile\n")
    (victim / ".fluidgen-health").write_text('{"files": ["health.lua"]}\n')
    before = {p.name: p.read_bytes() for p in victim.iterdir()}
    out = base / "argocd"
    if first:
        assert run_cli("argocd", "health", str(out)).code == 0
    lua = sorted(out.rglob("health.lua")) if out.is_dir() else []
    chosen = [p for p in HEALTH_PLANTS if rng.random() < 0.25]
    # links to the victim last: the plants before them must not write through them
    for plant in sorted(chosen, key=lambda p: p == "folder-link"):
        target = rng.choice(lua) if lua else out / "resource_customizations/data.fluid.io/Dataset/health.lua"
        with contextlib.suppress(OSError):
            if plant == "user-file" and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("-- mine\n")
            elif plant == "folder-link" and target.parent.is_dir() and not target.parent.is_symlink():
                shutil.rmtree(target.parent)
                target.parent.symlink_to(victim)
            elif plant == "file-link" and target.exists():
                target.unlink()
                target.symlink_to(victim / "health.lua")
            elif plant == "fifo" and target.parent.is_dir() and not target.is_symlink():
                target.unlink(missing_ok=True)
                os.mkfifo(target)
            elif plant == "damaged-marker" and out.is_dir():
                (out / ".fluidgen-health").write_text(rng.choice(["{", "[]", '{"files": [1]}']))
            elif plant == "escaping-marker" and out.is_dir():
                (out / ".fluidgen-health").write_text('{"files": ["../victim/health.lua", "/etc/hostname"]}')
            elif plant == "marker-link" and out.is_dir():
                (out / ".fluidgen-health").unlink(missing_ok=True)
                (out / ".fluidgen-health").symlink_to(victim / ".fluidgen-health")
            elif plant == "file-for-folder":
                out.mkdir(exist_ok=True)
                (out / "resource_customizations").mkdir(exist_ok=True)
                with contextlib.suppress(IsADirectoryError):
                    (out / "resource_customizations" / "data.fluid.io").write_text("x")
            elif plant == "foreign-dir" and not out.exists():
                out.mkdir()
                (out / "README.md").write_text("mine\n")
    if "dir-link" in chosen and not out.exists():  # last: the plants above must not write through it
        out.symlink_to(victim)
    args = ["argocd", "health", str(out)]
    _run("argocd health", args, base)
    assert {p.name: p.read_bytes() for p in victim.iterdir()} == before, args


# --- Flux and the Argo CD plugin's parameters (issue 27) ------------------------------------------

FLUX_OPTIONS = [["--path", "clusters/prod"], ["--path", "./"], ["--path", "../../etc"], ["--path", "\u00e9t\u00e9"],
                ["--source", "OCIRepository/ml"], ["--source", "HelmRepository/x"], ["--source", "GitRepository/"],
                ["--interval", "1h30m"], ["--interval", "soon"], ["--timeout", "0s"], ["--timeout", "-1m"],
                ["--name", "a" * 70], ["--name", "ok"], ["--decryption-secret", "Bad Name"], ["--env", "prod"],
                ["--fluid-version", "v1.1.0-dev"], ["--fluid-version", "v9"], ["-n", "Bad_NS"]]


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_flux_kustomization(seed: int) -> None:
    rng = random.Random(seed)
    work, _, spec = _case(seed, rng)
    options = [f for f in FLUX_OPTIONS if rng.random() < 0.06]
    if not any(f[0] == "--path" for f in options):
        options.append(["--path", "rendered"])
    result = _run("flux kustomization", ["flux", "kustomization", spec.name, *[x for f in options for x in f]], work)
    if result.code == 0:
        assert result.out.startswith("apiVersion: kustomize.toolkit.fluxcd.io/v1"), result.out[:200]


PROJECT_TEXT = """apiVersion: fluidgen.io/v1alpha1
kind: Project
environments:
  prod:
    specs: [[spec.yaml, envs/prod.yaml]]
    namespace: ml-prod
    gitops: flux
  staging:
    specs: [spec.yaml]
"""


@SETTINGS
@given(st.integers(0, 2**32))
def test_fuzz_argocd_parameters(seed: int) -> None:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="fuzz-params-"))
    (work / "fluidgen.yaml").write_text(mutate(PROJECT_TEXT, rng), "utf-8", errors="surrogatepass")
    result = _run("argocd parameters", ["argocd", "parameters", str(work)], work)
    if result.code == 0:
        import json

        assert all(p["name"] == "env" for p in json.loads(result.out))
