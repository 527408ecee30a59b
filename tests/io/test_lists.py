"""Lists are read item by item everywhere (issue 25): validate and lint check each item of a
`kubectl get -o yaml` List at its own line, import opens Lists inside Lists (bounded), and
no Secret inside any List reaches a written file (issue 24)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from fluidgen.io.lists import MAX_DEPTH, open_lists
from fluidgen.io.yamlreader import load_text
from tests.conftest import run_cli

DATASET = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "demo"},
           "spec": {"mounts": [{"mountPoint": "https://mirrors.example.com/data/", "name": "demo"}]}}
RUNTIME = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "AlluxioRuntime", "metadata": {"name": "demo"},
           "spec": {"replicas": 1, "tieredstore": {"levels": [{"mediumtype": "MEM", "path": "/dev/shm",
                                                               "quota": "2Gi"}]}}}
SECRET = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "creds"},
          "stringData": {"password": "nested-secret-value-1"}}
CONFIG = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "b"}}


def _list(*items: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "List", "items": list(items)}


def test_validate_reads_a_kubectl_list_item_by_item(tmp_path: Path) -> None:
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump(_list(DATASET, RUNTIME)))
    got = run_cli("validate", str(tmp_path / "dump.yaml"))
    assert got.code == 0, got.err
    assert "no kind List" not in got.err and "metadata.name is required" not in got.err


def test_validate_locates_a_list_items_problem_at_its_own_line(tmp_path: Path) -> None:
    broken = {**RUNTIME, "spec": {**RUNTIME["spec"], "replcas": 2}}
    text = yaml.safe_dump(_list(DATASET, broken), sort_keys=False)
    (tmp_path / "dump.yaml").write_text(text)
    got = run_cli("validate", str(tmp_path / "dump.yaml"))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "replcas" in row)
    assert got.code == 1 and f"dump.yaml:{line}:" in got.err and "replcas" in got.err


def test_import_of_a_list_warns_nothing_about_the_list_itself(tmp_path: Path) -> None:
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump(_list(DATASET, RUNTIME)))
    got = run_cli("import", str(tmp_path / "dump.yaml"))
    assert got.code == 0, got.err
    assert "no kind List" not in got.err and "metadata.name is required" not in got.err


def test_a_secret_in_a_nested_list_never_reaches_kept_yaml(tmp_path: Path) -> None:
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump(_list(DATASET, RUNTIME, _list(CONFIG, _list(SECRET)))))
    out = tmp_path / "out"
    got = run_cli("import", str(tmp_path / "dump.yaml"), "-o", str(out))
    assert got.code == 0, got.err
    written = "".join(p.read_text() for p in out.iterdir())
    assert "nested-secret-value-1" not in written + got.out + got.err
    assert "name: settings" in (out / "kept.yaml").read_text()  # the ConfigMap two levels down is kept
    assert "Secret creds: not imported" in got.err


def test_a_secret_spelled_in_lower_case_never_reaches_kept_yaml(tmp_path: Path) -> None:
    lower = {**SECRET, "kind": "secret"}
    typed = {"apiVersion": "v1", "kind": "SecretList", "metadata": {"name": "x"}, "data": {"k": "c2VjcmV0LXZhbHVl"}}
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump_all([DATASET, RUNTIME, lower, typed, CONFIG]))
    out = tmp_path / "out"
    got = run_cli("import", str(tmp_path / "dump.yaml"), "-o", str(out))
    assert got.code == 0, got.err
    kept = (out / "kept.yaml").read_text()
    assert "nested-secret-value-1" not in kept and "c2VjcmV0LXZhbHVl" not in kept and "settings" in kept


def test_lists_nested_too_deep_are_refused_with_their_location(tmp_path: Path) -> None:
    deep: Any = SECRET
    for _ in range(MAX_DEPTH + 1):
        deep = _list(deep)
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump_all([DATASET, RUNTIME, deep]))
    out = tmp_path / "out"
    got = run_cli("import", str(tmp_path / "dump.yaml"), "-o", str(out))
    assert got.code == 1 and not out.exists()
    assert "dump.yaml:" in got.err and got.err.count(f"nested more than {MAX_DEPTH} levels") == 1
    assert "nested-secret-value-1" not in got.err + got.out


def test_a_list_whose_items_is_not_a_list_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": {"a": 1}}))
    for command in ("validate", "import"):
        got = run_cli(command, str(tmp_path / "dump.yaml"))
        assert got.code == 1 and "whose items is not a list" in got.err, (command, got.err)


def test_list_items_keep_their_own_positions() -> None:
    text = yaml.safe_dump(_list(_list(DATASET), RUNTIME), sort_keys=False)
    docs, problems = open_lists(load_text("f.yaml", text))
    assert not problems and [d.data["kind"] for d in docs] == ["Dataset", "AlluxioRuntime"]
    runtime_line = next(i for i, row in enumerate(text.splitlines(), 1) if "AlluxioRuntime" in row)
    assert docs[1].where(("kind",))[0] == runtime_line


def test_two_datasets_of_one_name_give_one_error_only(tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(yaml.safe_dump_all([DATASET, RUNTIME]))
    got = run_cli("import", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"))
    assert got.code == 1
    assert "a second Dataset default/demo" in got.err
    assert "no runtime named demo" not in got.err  # the first keeps its runtime


def test_a_list_without_items_is_never_kept_as_an_object(tmp_path: Path) -> None:
    odd = {"apiVersion": "v1", "kind": "List", "metadata": {"name": "x"}, "data": {"password": "list-secret-9"}}
    code_docs = [DATASET, RUNTIME, odd]
    (tmp_path / "in.yaml").write_text(yaml.safe_dump_all(code_docs))
    out = tmp_path / "out"
    got = run_cli("import", str(tmp_path / "in.yaml"), "-o", str(out))
    assert got.code == 1 and not out.exists() and "whose items is not a list" in got.err
    assert "list-secret-9" not in got.out + got.err
