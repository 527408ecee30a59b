"""The build cache: identical output on a hit, never stale, no secrets on disk, safe in parallel."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fluidgen.base.emit import scalar
from fluidgen.io.cache import b64_scalar, cacheable_argv
from tests.conftest import EXAMPLES, Run, run_process


class Tool:
    """The console script run in a copy of examples/ with its own cache directory."""

    def __init__(self, work: Path, cache: Path) -> None:
        self.work, self.cache = work, cache

    def build(self, *args: str, **env: str) -> Run:
        return run_process("build", *args, cwd=self.work, cache=self.cache, env=env)


@pytest.fixture
def tool(tmp_path: Path) -> Tool:
    work = tmp_path / "work"
    shutil.copytree(EXAMPLES, work)
    return Tool(work, tmp_path / "cache")


def test_hit_is_identical_and_skips_compiling(tool: Tool) -> None:
    first = tool.build("alluxio-imagenet-oss.yaml")
    second = tool.build("alluxio-imagenet-oss.yaml")
    assert first.code == second.code == 0
    assert (first.how, second.how) == ("COMPILED", "CACHED")
    assert (first.out, first.err) == (second.out, second.err)
    warned = tool.build("nfs-imagenet-alluxio.yaml"), tool.build("nfs-imagenet-alluxio.yaml")
    assert warned[1].how == "CACHED" and "[FG103]" in warned[1].err
    assert (warned[0].out, warned[0].err) == (warned[1].out, warned[1].err)


@pytest.mark.parametrize("change", ["spec", "script", "new-spec-in-dir", "setting", "env-file-keys"])
def test_changed_inputs_are_rebuilt(tool: Tool, change: str) -> None:
    target = "." if change == "new-spec-in-dir" else (
        "juicefs-mnist-pipeline.yaml" if change == "script" else "alluxio-imagenet-oss.yaml")
    args = [target, "-n", "ns"] if target == "." else [target]
    if target == ".":
        for extra in ("jindo-imagenet-oss.yaml", "juicefs-mnist-pipeline.yaml"):
            (tool.work / extra).unlink()
    if change == "setting":  # let the namespace come from the FLUIDGEN_NAMESPACE setting
        spec = tool.work / "alluxio-imagenet-oss.yaml"
        spec.write_text(spec.read_text().replace("  namespace: default\n", ""))
    before = tool.build(*args)
    assert before.code == 0, before.err
    env: dict[str, str] = {}
    if change == "spec":
        spec = tool.work / "alluxio-imagenet-oss.yaml"
        spec.write_text(spec.read_text().replace("replicas: 4", "replicas: 7"))
    elif change == "script":
        (tool.work / "scripts" / "decompress-mnist.sh").write_text("#!/bin/bash\necho changed\n")
    elif change == "new-spec-in-dir":
        shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", tool.work / "zz-jindo.yaml")
        zz = tool.work / "zz-jindo.yaml"
        zz.write_text(zz.read_text().replace("name: imagenet\n  namespace: default", "name: other\n  namespace: ns"))
    elif change == "setting":
        env = {"FLUIDGEN_NAMESPACE": "elsewhere"}
    else:
        with (tool.work / "credentials" / "imagenet-oss.env").open("a") as fh:
            fh.write("fs.oss.securityToken=abc\n")
    after = tool.build(*args, **env)
    assert after.how == "COMPILED"
    assert after.out != before.out


def test_credential_values_are_read_on_every_hit(tool: Tool) -> None:
    spec = tool.work / "env.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace(
        "      envFile: credentials/imagenet-oss.env",
        "      fromEnv: {fs.oss.accessKeyId: OSS_ID, fs.oss.accessKeySecret: OSS_SECRET}"))
    assert tool.build("env.yaml", OSS_ID="id-1", OSS_SECRET="first-secret-value").code == 0
    rotated = tool.build("env.yaml", OSS_ID="id-1", OSS_SECRET="rotated-secret-value")
    assert rotated.how == "CACHED"
    assert base64.b64encode(b"rotated-secret-value").decode() in rotated.out
    unset = tool.build("env.yaml", OSS_ID="id-1")
    assert unset.code == 1 and "OSS_SECRET is not set" in unset.err


def test_no_secret_material_in_the_cache(tool: Tool) -> None:
    tool.build("alluxio-imagenet-oss.yaml")
    tool.build("jindo-imagenet-oss.yaml")
    blob = b"".join(p.read_bytes() for p in tool.cache.iterdir())
    for value in (b"LTAI5tExampleAccessKeyId", b"ExampleAccessKeySecretNotReal0123"):
        assert value not in blob and base64.b64encode(value) not in blob


@pytest.mark.parametrize("values", ["stringData: {token: PlainValueNotReal0123}",
                                    "data: {token: UGxhaW5WYWx1ZU5vdFJlYWwwMTIz}"])
def test_a_passed_through_secret_is_not_cached(tool: Tool, values: str) -> None:
    """A plain manifest's Secret beside the specs goes to Argo CD's output unchanged; its values
    have no source the cache could read again, so the build is not stored (was: stringData was)."""
    app = tool.work / "app"
    app.mkdir()
    shutil.copy(tool.work / "jindo-imagenet-oss.yaml", app)
    shutil.copytree(tool.work / "credentials", app / "credentials")
    (app / "token.yaml").write_text(f"apiVersion: v1\nkind: Secret\nmetadata: {{name: token}}\n{values}\n")
    first = tool.build("--gitops", "argocd", "app")
    assert first.code == 0 and "token: " in first.out
    assert tool.build("--gitops", "argocd", "app").how == "COMPILED"
    assert not tool.cache.exists() or not list(tool.cache.iterdir())


LISTED_SECRET = """apiVersion: v1
kind: List
metadata: {name: bundle}
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: token}
  VALUES
"""


@pytest.mark.parametrize("manifest", [
    LISTED_SECRET.replace("VALUES", "stringData: {token: PlainValueNotReal0123}"),
    LISTED_SECRET.replace("VALUES", "data: {token: UGxhaW5WYWx1ZU5vdFJlYWwwMTIz}"),
    "apiVersion: v1\nkind: Secret\nmetadata: {name: token}\ndata: 5\n",
    "apiVersion: v1\nkind: Secret\nmetadata: {name: token}\ndata: [[a], [b]]\n",
    "apiVersion: v1\nkind: Secret\nmetadata: {name: token, namespace: [x]}\ndata: {token: eA==}\n"])
def test_a_passed_through_secret_in_a_list_or_of_odd_shape_is_not_cached(tool: Tool, manifest: str) -> None:
    """A kubectl List is a plain manifest too: a Secret among its items was stored in the cache
    with its values (stringData in plain text), as the cache cut only top-level Secrets; a
    Secret whose data is not a mapping (or whose namespace is not a string) crashed the store
    with exit 3 after the output was written."""
    app = tool.work / "app"
    app.mkdir()
    shutil.copy(tool.work / "jindo-imagenet-oss.yaml", app)
    shutil.copytree(tool.work / "credentials", app / "credentials")
    (app / "token.yaml").write_text(manifest)
    first = tool.build("--gitops", "argocd", "app")
    assert first.code == 0 and "Traceback" not in first.err and "internal error" not in first.err, first.err
    assert tool.build("--gitops", "argocd", "app").how == "COMPILED"
    assert not tool.cache.exists() or not list(tool.cache.iterdir())


def test_parallel_cold_runs_agree(tool: Tool) -> None:
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda _: tool.build("alluxio-imagenet-oss.yaml"), range(6)))
    assert {r.code for r in results} == {0}
    assert len({r.out for r in results}) == 1
    assert not [p for p in tool.cache.iterdir() if p.name.startswith(".entry-")]
    assert tool.build("alluxio-imagenet-oss.yaml").how == "CACHED"


@pytest.mark.parametrize("args", [["-o", "out", "--write-secrets"], ["--format", "json"], ["--format=json"]])
def test_uncacheable_invocations_write_nothing(tool: Tool, args: list[str]) -> None:
    assert tool.build("jindo-imagenet-oss.yaml", *args).code == 0
    assert not tool.cache.exists() or not list(tool.cache.iterdir())


def test_cache_can_be_switched_off(tool: Tool) -> None:
    tool.build("jindo-imagenet-oss.yaml", FLUIDGEN_NO_CACHE="1")
    assert tool.build("jindo-imagenet-oss.yaml", FLUIDGEN_NO_CACHE="1").how == "COMPILED"


def test_inline_credentials_are_not_cached(tool: Tool) -> None:
    spec = tool.work / "inline.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace(
        "      envFile: credentials/imagenet-oss.env",
        "      allowInline: true\n      inline: {fs.oss.accessKeyId: a, fs.oss.accessKeySecret: b}"))
    tool.build("inline.yaml")
    assert tool.build("inline.yaml").how == "COMPILED"


def test_cacheable_argv() -> None:
    assert cacheable_argv(["build", "a.yaml", "-n", "x", "--fluid-version=v1.0.8", "-q", "-f", "b.yaml"])
    for argv in (["validate", "a"], ["build", "-o", "d", "a"], ["build", "-"], ["build", "--help"],
                 ["build", "a", "--format", "json"], ["build", "a", "-n"], ["--traceback", "build", "a"]):
        assert not cacheable_argv(argv), argv


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.binary(min_size=1, max_size=30))
def test_b64_scalar_matches_the_emitter(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()
    assert b64_scalar(text) == scalar(text)


def test_b64_scalar_keywords() -> None:
    for word in ("true", "null", "TRUE", "Null", "1234", "+abc", "0x1F", "12e4"):
        assert b64_scalar(word) == scalar(word)




@pytest.mark.parametrize("damage", ["truncated", "garbage", "wrong shape", "empty"])
def test_a_damaged_entry_is_a_miss(tool: Tool, damage: str) -> None:
    import marshal

    first = tool.build("alluxio-imagenet-oss.yaml")
    [entry] = [p for p in tool.cache.iterdir() if p.name.endswith(".entry")]
    raw = entry.read_bytes()
    entry.write_bytes({"truncated": raw[: len(raw) // 2], "garbage": bytes(range(256)) * 4,
                       "wrong shape": marshal.dumps({"format": 3, "parts": 1}), "empty": b""}[damage])
    again = tool.build("alluxio-imagenet-oss.yaml")
    assert again.how != "CACHED" and (again.code, again.out, again.err) == (first.code, first.out, first.err)


# -- the key holds no working directory (issue 29) ---------------------------------------

PLUGIN_ARGS = ("-q", "--namespace", "training", "--gitops", "argocd", ".")  # deploy/argocd/plugin.yaml


def _app(root: Path) -> Path:
    root.mkdir()
    shutil.copytree(EXAMPLES / "credentials", root / "credentials")
    shutil.copytree(EXAMPLES / "scripts", root / "scripts")
    # the ImageNet example names a bundled profile: the tool's own file, not an input of the app
    for spec in ("jindo-imagenet-oss.yaml", "juicefs-mnist-pipeline.yaml"):
        shutil.copy(EXAMPLES / spec, root / spec)
    flagship = (EXAMPLES / "alluxio-imagenet-oss.yaml").read_text()
    (root / "alluxio.yaml").write_text(flagship.replace("name: imagenet", "name: imagenet-alluxio", 1))
    return root


CHANGES = {
    "spec": lambda d: (d / "jindo-imagenet-oss.yaml").write_text(
        (d / "jindo-imagenet-oss.yaml").read_text().replace("replicas: 4", "replicas: 5")),
    "script": lambda d: (d / "scripts" / "decompress-mnist.sh").write_text("#!/bin/bash\necho changed\n"),
    "env-file-keys": lambda d: (d / "credentials" / "imagenet-oss.env").write_text(
        (d / "credentials" / "imagenet-oss.env").read_text() + "fs.oss.securityToken=t\n"),
    "new-file": lambda d: (d / "more.yaml").write_text((EXAMPLES / "nfs-imagenet-alluxio.yaml").read_text()),
}
SETTINGS = {"FLUIDGEN_FLUID_VERSION": "v1.1.0-dev", "ARGOCD_ENV_FLUIDGEN_ENV": "prod", "PARAM_FLUIDGEN_X": "1"}


def test_an_entry_serves_a_copy_elsewhere_and_misses_after_any_change(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = run_process("build", *PLUGIN_ARGS, cwd=_app(tmp_path / "app"), cache=cache)
    assert (first.code, first.how) == (0, "COMPILED"), first.err
    fresh = tmp_path / "cmp-server-uuid"
    shutil.copytree(tmp_path / "app", fresh)
    hit = run_process("build", *PLUGIN_ARGS, cwd=fresh, cache=cache)
    assert (hit.how, hit.out, hit.err) == ("CACHED", first.out, first.err)
    for name, change in CHANGES.items():
        copy = tmp_path / f"changed-{name}"
        shutil.copytree(tmp_path / "app", copy)
        change(copy)
        assert run_process("build", *PLUGIN_ARGS, cwd=copy, cache=cache).how == "COMPILED", name
    for variable, value in SETTINGS.items():
        assert run_process("build", *PLUGIN_ARGS, cwd=fresh, cache=cache, env={variable: value}).how == "COMPILED"
    other_flag = [a if a != "argocd" else "none" for a in PLUGIN_ARGS]
    assert run_process("build", *other_flag, cwd=fresh, cache=cache).how == "COMPILED"
    assert run_process("build", *PLUGIN_ARGS, cwd=fresh, cache=cache).how == "CACHED"  # the first entry stays


def test_apps_sharing_a_command_line_keep_their_own_entries(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    one, two = _app(tmp_path / "one"), _app(tmp_path / "two")
    CHANGES["spec"](two)
    outputs = [run_process("build", *PLUGIN_ARGS, cwd=d, cache=cache).out for d in (one, two)]
    again = [run_process("build", *PLUGIN_ARGS, cwd=d, cache=cache) for d in (one, two)]
    assert [(r.how, r.out) for r in again] == [("CACHED", outputs[0]), ("CACHED", outputs[1])]


def test_a_copy_whose_input_now_leads_outside_is_a_miss(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run_process("build", *PLUGIN_ARGS, cwd=_app(tmp_path / "app"), cache=cache)
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "app", copy)
    outside = tmp_path / "elsewhere"
    shutil.move(str(copy / "credentials"), outside)
    (copy / "credentials").symlink_to(outside)  # same content, but outside the application's directory
    result = run_process("build", *PLUGIN_ARGS, cwd=copy, cache=cache)
    assert result.how == "COMPILED" and result.code == 1 and "outside" in result.err


def test_an_uncached_build_imports_no_plugin_scan_and_no_zip_reader(tmp_path: Path) -> None:
    """issue 29: only the imports a build uses (pydantic's plugin loader pulls importlib.metadata
    with email and csv; importlib.resources' readers pull zipfile)."""
    code = ("import sys; from fluidgen.__main__ import main; rc = main(sys.argv[1:]); "
            "print(sorted(m for m in ('importlib.metadata', 'email', 'zipfile', 'csv') if m in sys.modules), "
            "file=sys.stderr); sys.exit(rc)")
    env = {**os.environ, "FLUIDGEN_NO_CACHE": "1"}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    proc = subprocess.run([sys.executable, "-c", code, "build", str(EXAMPLES / "alluxio-imagenet-oss.yaml")],
                          capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0 and proc.stderr.splitlines()[-1] == "[]", proc.stderr


def test_the_tool_fingerprint_lists_the_package_files_and_sees_any_edit(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file the package can read, by relative path, each folder's files before its
    subfolders (os.walk's order); __pycache__, other suffixes and linked folders left out; an
    edit of the same size with the modification time put back still changes it (ctime)."""
    import time

    from fluidgen.io import buildinputs, cache

    pkg = tmp_path / "pkg"
    for rel in ("io/cache.py", "b.py", "sub/x.yaml", "sub/deeper/y.lua", "a/z.json", "__pycache__/c.py", "notes.txt"):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(rel)
    (pkg / "linked").symlink_to(pkg / "sub", target_is_directory=True)
    (tmp_path / "profiles").mkdir()  # a checkout: the bundled profiles beside the package
    (tmp_path / "profiles" / "p.yaml").write_text("p.yaml")
    monkeypatch.setattr(cache, "__file__", str(pkg / "io" / "cache.py"))  # the package is the folder above io/
    monkeypatch.setattr(buildinputs, "profiles_folder", lambda: str(tmp_path / "profiles"))
    first = cache._fingerprint()
    assert [f[0] for f in first[1]] == ["b.py", "a/z.json", "io/cache.py", "sub/x.yaml", "sub/deeper/y.lua",
                                        "../profiles/p.yaml"]
    for target in (pkg / "sub" / "x.yaml", tmp_path / "profiles" / "p.yaml"):
        before, seen = os.stat(target), cache._fingerprint()
        time.sleep(0.05)  # past the file system's coarse clock, so the change time moves
        target.write_text(target.read_text().upper())  # same size
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert cache._fingerprint() != seen, target


def test_the_cache_reads_build_options_exactly_as_click_declares_them() -> None:
    """The cache-hit path reads a `build` command line before click does (io/cache.py
    cacheable_argv, with its own tables of flags and valued options, so that a hit loads no
    click parser): the tables must be exactly the options cli.py declares for `build`, less the
    ones that make a build uncacheable. A new option in either place, or a flag that became a
    valued option, fails here (issue 39)."""
    import click

    from fluidgen import cli
    from fluidgen.io import cache

    flags: set[str] = set()
    valued: set[str] = set()
    for param in cli.build.params:
        if isinstance(param, click.Option):
            (flags if param.is_flag else valued).update(param.opts, param.secondary_opts)
    uncached = {"-o", "--output-dir", "--write-secrets", "--sops-age"}  # they write files: never cached
    assert flags - uncached == cache._FLAGS
    assert valued - uncached == cache._VALUED
    assert not cache.cacheable_argv(["build", "--write-secrets", "spec.yaml"])
