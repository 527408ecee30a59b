"""Import under attack (issue 24): no lost Dataset, no credential in a written file, no
partial write, no traceback, bounded cost. Each test names what it proves."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.importer.credentials import credential_name, credential_values
from fluidgen.importer.run import MAX_DATASETS, MAX_OBJECTS, MAX_OPERATIONS
from tests.conftest import run_cli

HTTP = "https://mirrors.example.com/data/"


def _dataset(name: str, namespace: str | None = None, **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": meta,
            "spec": {"mounts": [{"mountPoint": HTTP, "name": name}], **spec}}


def _runtime(name: str, namespace: str | None = None, **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "data.fluid.io/v1alpha1", "kind": "AlluxioRuntime", "metadata": meta,
            "spec": {"replicas": 1, "tieredstore": {"levels": [{"mediumtype": "MEM", "path": "/dev/shm",
                                                                 "quota": "2Gi"}]}, **spec}}


def _import(tmp_path: Path, docs: list[Any], *flags: str) -> tuple[int, str, str, Path]:
    (tmp_path / "in.yaml").write_text(yaml.safe_dump_all(docs, sort_keys=False))
    out = tmp_path / "out"
    got = run_cli("import", str(tmp_path / "in.yaml"), *flags, "-o", str(out))
    return got.code, got.out, got.err, out


# -- name collisions: never a lost Dataset, never exit 0 for one -------------------------------

def test_namespace_and_name_that_join_to_one_file_name_are_both_refused(tmp_path: Path) -> None:
    docs = [_dataset("b-c", "a"), _runtime("b-c", "a"), _dataset("c", "a-b"), _runtime("c", "a-b")]
    code, _, err, target = _import(tmp_path, docs)
    assert code == 1 and not target.exists()
    assert "Dataset a-b/c would be written to a-b-c.yaml, as Dataset a/b-c" in err
    (tmp_path / "in.yaml").write_text(yaml.safe_dump_all(docs))
    stdout = run_cli("import", str(tmp_path / "in.yaml"))  # stdout joins the specs by file name too
    assert stdout.code == 1 and stdout.out == ""


def test_a_dataset_named_kept_never_overwrites_the_kept_objects(tmp_path: Path) -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "b"}}
    code, _, err, target = _import(tmp_path, [_dataset("kept"), _runtime("kept"), config])
    assert code == 1 and not target.exists()
    assert "Dataset default/kept would be written to kept.yaml, as the objects outside any spec" in err


def test_a_dataset_named_kept_alone_is_written(tmp_path: Path) -> None:
    code, _, err, target = _import(tmp_path, [_dataset("kept"), _runtime("kept")])
    assert code == 0, err
    assert yaml.safe_load((target / "kept.yaml").read_text())["metadata"]["name"] == "kept"


def test_colliding_tuning_profiles_are_refused_too(tmp_path: Path) -> None:
    tuned = {"properties": {"alluxio.user.file.writetype.default": "MUST_CACHE"}}
    docs = [_dataset("b-c", "a"), _runtime("b-c", "a", **tuned), _dataset("c", "a-b"), _runtime("c", "a-b", **tuned)]
    code, _, err, target = _import(tmp_path, docs)
    assert code == 1 and not target.exists()
    assert "a-b-c.profile.yaml" in err


# -- partial writes ----------------------------------------------------------------------------

def test_a_dangling_symlink_in_the_way_stops_the_import_before_any_write(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "z.yaml").symlink_to(tmp_path / "nowhere")  # exists() is False for it
    docs = [_dataset("a"), _runtime("a"), _dataset("z"), _runtime("z")]
    (tmp_path / "in.yaml").write_text(yaml.safe_dump_all(docs))
    got = run_cli("import", str(tmp_path / "in.yaml"), "-o", str(out))
    assert got.code == 1 and "already exists (a file or a link)" in got.err
    assert sorted(p.name for p in out.iterdir()) == ["z.yaml"] and not (tmp_path / "nowhere").exists()


def test_a_write_that_fails_midway_leaves_nothing_behind(tmp_path: Path) -> None:
    from fluidgen.base.diagnostics import FluidgenError
    from fluidgen.importer.files import write_specs

    out = tmp_path / "out"
    out.mkdir()
    texts = {"a.yaml": "a\n", "b.yaml": "b\n"}
    real_open = os.open

    def failing(path: Any, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith("b.yaml"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, mode)

    os.open = failing  # type: ignore[assignment]
    try:
        with pytest.raises(FluidgenError, match="nothing was written"):
            write_specs(str(out), texts, [])
    finally:
        os.open = real_open
    assert list(out.iterdir()) == []


# -- Secrets and credentials never reach a written file ----------------------------------------

SECRET_VALUE = "Sup3rSecretValue"


@pytest.mark.parametrize(("where", "docs"), [
    ("annotation", [_dataset("d"), {**_runtime("d"), "metadata": {
        "name": "d", "annotations": {"example.com/db-password": SECRET_VALUE}}}]),
    ("label", [{**_dataset("d"), "metadata": {"name": "d", "labels": {"api-token": SECRET_VALUE}}}, _runtime("d")]),
    ("jvmOptions", [_dataset("d"), _runtime("d", fuse={"jvmOptions": [f"-Dfs.oss.accessKeySecret={SECRET_VALUE}"]})]),
    ("fuse.args", [_dataset("d"), _runtime("d", fuse={"args": ["fuse", f"--secret-key={SECRET_VALUE}"]})]),
    ("toleration", [_dataset("d", tolerations=[{"key": "api-token", "operator": "Equal", "value": SECRET_VALUE,
                                               "effect": "NoSchedule"}]), _runtime("d")]),
    ("selector", [_dataset("d"), _runtime("d", fuse={"nodeSelector": {"db_pass": SECRET_VALUE}})]),
    ("job env", [_dataset("d"), _runtime("d", fuse={"env": [{"name": "API_KEY", "value": SECRET_VALUE}]})]),
    ("DB_PASS", [_dataset("d"), _runtime("d", worker={"env": [{"name": "DB_PASS", "value": SECRET_VALUE}]})]),
    ("fs.oss.sk", [_dataset("d"), _runtime("d", properties={"fs.oss.sk": SECRET_VALUE})]),
    ("user info", [{**_dataset("d"), "spec": {"mounts": [{"mountPoint": f"s3://AK:{SECRET_VALUE}@bucket/",
                                                          "name": "d"}]}}, _runtime("d")]),
    ("script", [_dataset("d"), _runtime("d"), {
        "apiVersion": "data.fluid.io/v1alpha1", "kind": "DataProcess", "metadata": {"name": "p"},
        "spec": {"dataset": {"name": "d", "namespace": "default", "mountPath": "/data"},
                 "processor": {"script": {"image": "busybox", "imageTag": "1", "command": ["bash"],
                                          "source": f"export AWS_SECRET_ACCESS_KEY={SECRET_VALUE}\nls /data\n"}}}}]),
])
def test_credential_named_values_anywhere_stop_the_import_by_key_path(tmp_path: Path, where: str,
                                                                      docs: list[Any]) -> None:
    for flags in ((), ("--fluid-version", "v1.0.8")):
        code, out, err, target = _import(_fresh(tmp_path, where, flags), docs, *flags)
        assert code == 1, (where, err)
        assert not target.exists() and SECRET_VALUE not in out + err
        assert "looks like a credential value" in err or "the input is not valid" in err, err


def _fresh(tmp_path: Path, where: str, flags: tuple[str, ...]) -> Path:
    folder = tmp_path / f"{where.replace(' ', '-').replace('.', '-')}-{len(flags)}"
    folder.mkdir()
    return folder


def test_a_credential_is_reported_by_key_path_never_by_value() -> None:
    spec = {"runtime": {"fuse": {"args": ["--secret-key=abc"], "env": [{"name": "API_KEY", "value": "v"}]},
                        "annotations": {"x": "s3://AK:SK@bucket/"}},
            "source": [{"credentials": {"fromEnv": {"fs.oss.accessKeySecret": "FS_OSS_ACCESS_KEY_SECRET"}}}],
            "dataflow": [{"migrate": {"sshSecretName": "ssh-keys"}},
                         {"process": {"script": "export TOKEN=$TOKEN\nrun --password \"$PASS\""}}],
            "labels": {"automountServiceAccountToken": True}}
    assert credential_values(spec) == ["runtime.annotations.x", "runtime.fuse.args.0", "runtime.fuse.env.API_KEY"]


@pytest.mark.parametrize(("name", "credential"), [
    ("fs.oss.accessKeySecret", True), ("fs.oss.sk", True), ("API_KEY", True), ("DB_PASS", True), ("dbPassword", True),
    ("metaurl", True), ("access-key", True), ("token", True), ("aws.secretKey", True),
    ("fs.oss.endpoint", False), ("bucket", False), ("passthrough", False), ("skip", False), ("task", False),
])
def test_credential_names_come_from_the_pattern_and_every_engines_secret_options(name: str, credential: bool) -> None:
    assert credential_name(name) is credential


# -- cost: no recursion, bounded work ----------------------------------------------------------

def _chain(count: int) -> list[dict[str, Any]]:
    ops = []
    for i in range(count):
        op: dict[str, Any] = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "DataLoad", "metadata": {"name": f"l{i}"},
                              "spec": {"dataset": {"name": "d", "namespace": "default"}}}
        if i:
            op["spec"]["runAfter"] = {"kind": "DataLoad", "name": f"l{i - 1}", "namespace": "default"}
        ops.append(op)
    return ops


def test_more_operations_than_an_import_takes_are_a_located_error(tmp_path: Path) -> None:
    code, _, err, target = _import(tmp_path, [_dataset("d"), _runtime("d"), *reversed(_chain(MAX_OPERATIONS + 1))])
    assert code == 1 and not target.exists() and "Traceback" not in err
    assert f"in.yaml:1:1: error: Dataset default/d has {MAX_OPERATIONS + 1} data operations" in err


def test_run_after_chains_are_ordered_without_recursion() -> None:
    from fluidgen.importer.mapping import Findings, _order
    from fluidgen.importer.objects import Obj
    from fluidgen.io.yamlreader import Document

    ops = [Obj(op, Document("f", 0, op)) for op in reversed(_chain(5000))]  # deeper than the recursion limit
    assert [o.name for o in _order(ops, Findings())] == [f"l{i}" for i in range(5000)]
    loop = _chain(3)
    loop[0]["spec"]["runAfter"] = {"kind": "DataLoad", "name": "l2"}  # a cycle ends where it closes
    assert [o.name for o in _order([Obj(op, Document("f", 0, op)) for op in loop], Findings())] == ["l1", "l2", "l0"]


def test_run_after_order_is_kept_for_a_chain_given_backwards(tmp_path: Path) -> None:
    code, _, err, _ = _import(tmp_path, [_dataset("d"), _runtime("d"), *reversed(_chain(30))], "--check")
    assert code == 0, err
    got = run_cli("import", str(tmp_path / "in.yaml"))
    assert [s["name"] for s in yaml.safe_load(got.out)["dataflow"]] == [f"l{i}" for i in range(30)]


@pytest.mark.slow
def test_an_input_of_thousands_of_pairs_is_refused_quickly_with_its_location(tmp_path: Path) -> None:
    docs = [doc for i in range(MAX_OBJECTS // 2 + 1) for doc in (_dataset(f"d{i}"), _runtime(f"d{i}"))]
    (tmp_path / "many.yaml").write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}))
    start = time.monotonic()
    got = run_cli("import", str(tmp_path / "many.yaml"), "--check")
    assert got.code == 1 and f"an import reads at most {MAX_OBJECTS}" in got.err and "many.yaml:1:1" in got.err
    assert time.monotonic() - start < 20


def test_more_datasets_than_an_import_makes_are_refused_at_the_first_one_over(tmp_path: Path) -> None:
    docs = [doc for i in range(MAX_DATASETS + 1) for doc in (_dataset(f"d{i}"), _runtime(f"d{i}"))]
    text = yaml.safe_dump_all(docs, sort_keys=False)
    (tmp_path / "many.yaml").write_text(text)
    got = run_cli("import", str(tmp_path / "many.yaml"), "--check")
    line = [i for i, row in enumerate(text.splitlines(), 1) if row == "kind: Dataset"][MAX_DATASETS] - 1
    assert got.code == 1 and f"many.yaml:{line}:1: error: {MAX_DATASETS + 1} Datasets in the input" in got.err
