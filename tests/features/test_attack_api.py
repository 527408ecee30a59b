"""Attacks on the Python API as a hostile or careless pipeline author would make them: data
that no YAML file can hold (keys that are not strings, objects, sets, bytes), nesting deeper
than a file may, a container holding itself, a non-mapping object. Each is a located error
diagnostic, never a raw TypeError or RecursionError, never output, never an exit."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
import yaml

import fluidgen
from tests.conftest import EXAMPLES, run_process

SPEC: dict[str, Any] = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())


def nested(depth: int) -> dict[str, Any]:
    top: dict[str, Any] = {}
    here = top
    for _ in range(depth):
        here["a"] = {}
        here = here["a"]
    return top


def cycle() -> dict[str, Any]:
    spec = dict(SPEC)
    spec["runtime"] = spec
    return spec


HOSTILE: dict[str, tuple[Any, str, str | None]] = {
    "int-key": ({**SPEC, 1: "x"}, "mapping keys must be strings, found int", None),
    "tuple-key": ({**SPEC, "metadata": {("a", "b"): "x"}}, "mapping keys must be strings, found tuple", "metadata"),
    "object-value": ({**SPEC, "metadata": {"name": object()}}, "found object", "metadata.name"),
    "set-value": ({**SPEC, "placement": {1, 2}}, "found set", "placement"),
    "bytes-value": ({**SPEC, "metadata": {"name": b"imagenet"}}, "found bytes", "metadata.name"),
    "deep": ({**SPEC, "placement": nested(5000)}, "nesting deeper than 100 levels", None),
    "cycle": (cycle(), "holds itself", "runtime"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_mapping_spec_no_yaml_file_can_hold_is_a_located_error(name: str) -> None:
    spec, message, path = HOSTILE[name]
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        result = fluidgen.build(spec, env={})
    assert out.getvalue() == err.getvalue() == ""
    assert not result.ok and result.objects == []
    [problem] = result.diagnostics
    assert problem.severity == "error" and message in problem.message
    if path is not None:
        assert problem.path == path
    with pytest.raises(fluidgen.FluidgenError, match=message.split(",")[0]):
        result.raise_for_errors()


def test_a_tuple_and_a_read_only_mapping_build_as_a_list_and_a_mapping() -> None:
    from types import MappingProxyType

    spec = {**SPEC, "metadata": MappingProxyType(dict(SPEC["metadata"]))}
    assert fluidgen.build(spec, env={}).yaml() == fluidgen.build(SPEC, env={}).yaml()


@pytest.mark.parametrize("lint", [False, True])
@pytest.mark.parametrize("name", ["deep", "cycle", "not-a-mapping"])
def test_validate_reports_objects_no_manifest_can_hold(name: str, lint: bool) -> None:
    built = fluidgen.build(EXAMPLES / "jindo-imagenet-oss.yaml", env={}).objects
    [dataset] = [o for o in built if o["kind"] == "Dataset"]
    hostile: Any
    if name == "deep":
        hostile = {**dataset, "spec": nested(3000)}
    elif name == "cycle":
        hostile = dict(dataset)
        hostile["spec"] = hostile
    else:
        hostile = 5
    found = fluidgen.validate([dataset, hostile], lint=lint)
    assert [d.file for d in found if d.severity == "error"] == ["objects[1]"]
    assert fluidgen.validate([dataset], lint=lint) == []


FROM_ENV = {
    "apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "d"},
    "source": [{"name": "a", "uri": "oss://bucket/a/", "options": {"fs.oss.endpoint": "oss-cn-hangzhou.aliyuncs.com"},
                "credentials": {"fromEnv": {"fs.oss.accessKeyId": "ID_A", "fs.oss.accessKeySecret": "KEY"}}}],
    "runtime": {"engine": "alluxio", "replicas": 1}}


@pytest.mark.parametrize("value", [12345, None, b"raw", ["a"]], ids=["int", "none", "bytes", "list"])
def test_an_env_value_that_is_not_a_string_is_a_located_error(value: Any) -> None:
    assert fluidgen.build(FROM_ENV, env={"ID_A": "id", "KEY": "k"}).ok
    result = fluidgen.build(FROM_ENV, env={"ID_A": value, "KEY": "k", 7: "ignored"})  # type: ignore[dict-item]
    [problem] = result.diagnostics
    assert problem.severity == "error" and problem.path == 'source[0].credentials.fromEnv["fs.oss.accessKeyId"]'
    assert f"ID_A is not a string but {type(value).__name__}" in problem.message
    assert "12345" not in problem.message and "raw" not in problem.message


PYTHON_ONLY: list[Any] = [object(), {1, 2}, b"bytes", (1, [2]), float("nan"), 2**200, {1: "x"}, {None: 1}, "\ud800",
                          "\x00"]


ENV: Any = {"OSS_ACCESS_KEY_ID": "id", "OSS_ACCESS_KEY_SECRET": 7}


def _documents(text: str) -> list[Any]:
    try:
        return list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return []


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_api_mapping_specs(seed: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Mutated example and golden specs, with values only Python can hold, through build and
    validate in process: a Build or diagnostics every time, never an exception or output."""
    import copy
    import random

    from tests.features.test_fuzz import SEEDS, _structural

    monkeypatch.chdir(EXAMPLES)
    specs = [d for _, text in SEEDS if "fluidgen.io/" in text for d in _documents(text)
             if isinstance(d, dict) and str(d.get("apiVersion")).startswith("fluidgen.io")]
    assert len(specs) > 20
    rng = random.Random(seed)
    built = 0
    for _ in range(150):
        spec = copy.deepcopy(rng.choice(specs))
        try:
            for _ in range(rng.randint(1, 3)):
                spec = copy.deepcopy(_structural(spec, rng))
        except RecursionError:  # the harness's shared VALUES can nest into themselves; not fluidgen's
            continue
        if not isinstance(spec, dict):
            continue
        if rng.random() < 0.3:
            spec[rng.choice([*spec, "extra"])] = rng.choice(PYTHON_ONLY)
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
            result = fluidgen.build(spec, env=ENV)
            found = fluidgen.validate(result.objects or [spec])
        assert out.getvalue() == err.getvalue() == ""
        assert isinstance(result, fluidgen.Build) and all(isinstance(d, fluidgen.Diagnostic) for d in found)
        assert result.ok or result.objects == []
        built += bool(result.objects)
    assert built > 0  # the mutations leave some specs whole: the compile itself is reached


# -- a mapping spec in the filesystem root (a container's working directory) ---------------

def _root_reader(path: str) -> dict[str, Any]:
    return {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "leak"},
            "source": [{"uri": "oss://bucket/data/", "options": {"fs.oss.endpoint": "oss-cn-hangzhou.aliyuncs.com"},
                        "credentials": {"secretName": "leak",
                                        "fromFile": {"fs.oss.accessKeyId": path, "fs.oss.accessKeySecret": path}}}],
            "runtime": {"engine": "jindo", "replicas": 1}}


def test_a_mapping_spec_in_the_filesystem_root_reads_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipeline whose container works in / handed an untrusted mapping: /etc/hostname (or the
    service account's token) must not end up in a Secret."""
    monkeypatch.chdir("/")
    result = fluidgen.build(_root_reader("/etc/hostname"), env={})
    assert not result.ok and result.objects == []
    assert any("given as a mapping reads no file" in d.message and "base_dir" in d.message
               for d in result.diagnostics)
    assert fluidgen.build(_root_reader("etc/hostname"), env={}).objects == []


# -- a mapping spec without base_dir (issue 38, item 2) ---------------------------------------

@pytest.mark.parametrize("reference", ["envFile", "fromFile", "scriptFile"])
def test_a_mapping_spec_without_base_dir_reads_nothing_of_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: str) -> None:
    """An Airflow worker's working directory holds ~/.aws/credentials and airflow.cfg: a mapping
    handed to fluidgen.build() reads none of it into a Secret or a DataProcess script."""
    home = tmp_path / "worker"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("fs.oss.accessKeyId=HOSTSECRETVALUE\n"
                                                "fs.oss.accessKeySecret=HOSTSECRETVALUE\n")
    (home / "airflow.cfg").write_text("fernet_key = HOSTSECRETVALUE\n")
    monkeypatch.chdir(home)
    spec = _root_reader(".aws/credentials")
    if reference == "envFile":
        spec["source"][0]["credentials"] = {"secretName": "leak", "envFile": ".aws/credentials"}
    elif reference == "scriptFile":
        spec["source"][0]["credentials"] = {"existingSecret": {"name": "oss", "keys": ["fs.oss.accessKeyId",
                                                                                      "fs.oss.accessKeySecret"]}}
        spec["dataflow"] = [{"name": "prep", "process": {"image": "busybox", "mountPath": "/data",
                                                        "scriptFile": "airflow.cfg"}}]
    result = fluidgen.build(spec, env={})
    assert not result.ok and result.objects == [], result.diagnostics
    assert any("reads no file unless" in d.message for d in result.diagnostics), result.diagnostics
    assert "HOSTSECRETVALUE" not in repr(result.diagnostics)
    # what the pipeline names is read: base_dir (its directory) or allow_read (directories)
    assert fluidgen.build(spec, env={}, base_dir=home).ok
    assert fluidgen.build(spec, env={}, allow_read=[home]).ok
    assert not fluidgen.build(spec, env={}, allow_read=[home / ".aws" / "elsewhere"]).ok


def test_base_dir_is_where_a_mapping_spec_reads(tmp_path: Path) -> None:
    (tmp_path / "key").write_text("value\n")
    built = fluidgen.build(_root_reader("key"), env={}, base_dir=tmp_path)
    assert built.ok, built.diagnostics
    outside = fluidgen.build(_root_reader("/etc/hostname"), env={}, base_dir=tmp_path)
    assert not outside.ok and any("outside the spec's directory" in d.message for d in outside.diagnostics)
    with pytest.raises(ValueError, match="mapping"):
        fluidgen.build(EXAMPLES / "jindo-imagenet-oss.yaml", base_dir=tmp_path)
    with pytest.raises(ValueError, match="not a directory"):
        fluidgen.build(_root_reader("key"), base_dir=tmp_path / "key")


def test_a_spec_on_stdin_in_the_filesystem_root_reads_no_file() -> None:
    import json

    run = run_process("build", "-", cwd=Path("/"), stdin=json.dumps(_root_reader("/etc/hostname")))
    assert run.code == 1 and "filesystem root" in run.err and run.out == ""


# -- the limits of a file hold for data in memory (issue 38, item 6) --------------------------

def _mnist(**runtime: Any) -> dict[str, Any]:
    return {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "mnist"},
            "source": [{"uri": "https://example.com/mnist/"}], "runtime": {"engine": "alluxio", "replicas": 1,
                                                                           **runtime}}


@pytest.mark.parametrize("number", [10**5000, -(10**5000), 10**40, 2**200],
                         ids=["5001-digits", "minus-5001-digits", "41-digits", "2^200"])  # str() of the first raises
def test_an_integer_no_file_can_hold_is_a_diagnostic_at_its_key(number: int) -> None:
    result = fluidgen.build(_mnist(replicas=number), env={})
    assert not result.ok and result.objects == []
    assert [(d.path, d.message) for d in result.diagnostics] == [
        ("runtime.replicas", "an integer of more than 40 digits; no Kubernetes field holds one")]
    found = fluidgen.validate([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"},
                                "data": {"n": number}}])
    assert [d.path for d in found] == ["data.n"]
    keyed = fluidgen.build({**_mnist(), number: "x"}, env={})  # a key no file can hold either
    assert not keyed.ok and "mapping keys must be strings, found int" in keyed.diagnostics[0].message


def test_the_largest_integer_a_file_holds_still_builds() -> None:
    assert fluidgen.build(_mnist(replicas=2), env={}).ok
    result = fluidgen.build(_mnist(replicas=10**39), env={})  # 40 digits: checked by the spec, not the reader
    assert not result.ok and all("40 digits" not in d.message for d in result.diagnostics)


def test_text_past_a_files_limit_is_a_diagnostic_at_its_key() -> None:
    big = "x" * (40 * 1024 * 1024)
    spec = _mnist()
    spec["metadata"]["annotations"] = {"example.com/note": big}
    result = fluidgen.build(spec, env={})
    assert not result.ok and result.objects == []
    assert [(d.path, d.message) for d in result.diagnostics] == [
        ('metadata.annotations["example.com/note"]', "more than 4 MiB of text (the limit for one file)")]
    many = _mnist()  # many strings under the limit each, over it together
    many["metadata"]["annotations"] = {f"example.com/n{i}": "y" * (1024 * 1024) for i in range(5)}
    assert "more than 4 MiB of text" in fluidgen.build(many, env={}).diagnostics[0].message
    assert fluidgen.build(_mnist(), env={}).ok
