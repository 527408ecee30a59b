"""importer/files.py: where `import -o DIR` writes. A spec is namespace-name.yaml (name.yaml
without a namespace), objects outside any spec go to kept.yaml, and a name that is not a
plain file name or a file already there stops the write before anything is created."""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.importer.files import spec_file, spec_path, write_specs

CONFIG = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "b"}}


def test_a_spec_is_named_by_namespace_and_dataset() -> None:
    assert spec_file("imagenet", None) == "imagenet.yaml"
    assert spec_file("imagenet", "team-a") == "team-a-imagenet.yaml"
    assert spec_path("imagenet", "team-a", "out") == "out/team-a-imagenet.yaml"
    assert spec_path("imagenet", None, None) == "imagenet.yaml"


@pytest.mark.parametrize("name", ["../escape.yaml", "sub/a.yaml", ".hidden.yaml"])
def test_a_name_that_is_not_a_plain_file_name_writes_nothing(tmp_path: Path, name: str) -> None:
    target = tmp_path / "out"
    with pytest.raises(FluidgenError) as raised:
        write_specs(str(target), {"ok.yaml": "a: 1\n", name: "b: 2\n"}, [])
    assert [d.render() for d in raised.value.diagnostics] == [
        f"{target / name}: error: not a plain file name; nothing was written"]
    assert not target.exists()


def test_a_file_already_there_is_never_replaced_and_nothing_else_is_written(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text("mine\n")
    with pytest.raises(FluidgenError) as raised:
        write_specs(str(tmp_path), {"a.yaml": "a: 1\n", "b.yaml": "b: 2\n"}, [])
    assert [d.message for d in raised.value.diagnostics] == [
        "already exists (a file or a link); an import never replaces one and wrote nothing (move it, or choose "
        "another -o)"]
    assert (tmp_path / "b.yaml").read_text() == "mine\n" and not (tmp_path / "a.yaml").exists()


def test_specs_and_kept_objects_are_written_into_a_new_directory(tmp_path: Path) -> None:
    target = tmp_path / "new" / "out"
    write_specs(str(target), {"d.yaml": "a: 1\n"}, [CONFIG])
    assert sorted(p.name for p in target.iterdir()) == ["d.yaml", "kept.yaml"]
    assert (target / "d.yaml").read_text() == "a: 1\n"
    kept = (target / "kept.yaml").read_text()
    assert "kind: ConfigMap" in kept and "name: settings" in kept


def test_no_kept_objects_write_no_kept_file(tmp_path: Path) -> None:
    write_specs(str(tmp_path), {"d.yaml": "a: 1\n"}, [])
    assert [p.name for p in tmp_path.iterdir()] == ["d.yaml"]
