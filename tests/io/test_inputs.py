"""Reading the files a user names: once, within the limit, and only where allowed (the module
docstring): a pipe is read once and remembered, credential files are not recorded by content,
a referenced file must lie below the spec's real directory or an allowed root, and a
directory argument skips hidden entries and link loops."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from fluidgen.base.diagnostics import FluidgenError
from fluidgen.io.inputs import FRAGMENT_NOT_BUILT, NOT_BUILT, NotBuilt, Reader, inside
from fluidgen.io.yamlreader import Document, load_text

ENV_AT = ("source", 0, "credentials", "envFile")
ALLOW = "allow its directory with --allow-read DIR (FLUIDGEN_ALLOW_READ; the Python API: allow_read=)"


def test_inside_is_by_path_component_not_by_string_prefix() -> None:
    assert inside("/srv/app", "/srv/app") and inside("/srv/app/x/y", "/srv/app") and inside("/x", "/")
    assert not inside("/srv/app-other/x", "/srv/app") and not inside("/srv", "/srv/app")


def test_read_errors_name_the_file_and_what_to_do(tmp_path: Path) -> None:
    reader = Reader()
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * (2 * 1024 * 1024 + 1))
    cases = [(str(tmp_path), "is a directory; give a file"),
             (str(tmp_path / "missing.yaml"), "cannot read: No such file or directory"),
             (str(big), "file is larger than 2 MiB; refusing to read it")]
    for path, message in cases:
        with pytest.raises(FluidgenError) as caught:
            reader.read(path, limit=2 * 1024 * 1024)
        assert (caught.value.diagnostics[0].file, caught.value.diagnostics[0].message) == (path, message)
    small = tmp_path / "small.yaml"
    small.write_bytes(b"x" * 10)
    assert reader.read(str(small)) == b"x" * 10
    with pytest.raises(FluidgenError):  # read before, yet the smaller limit of a later read still holds
        reader.read(str(small), limit=9)


def test_a_fifo_is_read_once_remembered_and_never_cached(tmp_path: Path) -> None:
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(b"kind: X\n")

    writer = threading.Thread(target=write)
    writer.start()
    reader = Reader()
    assert reader.read(str(fifo)) == b"kind: X\n"
    writer.join()
    assert reader.read(str(fifo)) == b"kind: X\n"  # no writer now: a second open would block
    assert not reader.inputs.cacheable and reader.inputs.files == {}


def test_a_credential_file_read_unrecorded_leaves_no_digest_of_its_content(tmp_path: Path) -> None:
    secret, spec = tmp_path / "key", tmp_path / "spec.yaml"
    secret.write_text("hunter2")
    spec.write_text("kind: X\n")
    reader = Reader()
    reader.read(str(secret), record=False)
    reader.read(str(spec))
    reader.read(str(secret), record=False)  # remembered, and still not recorded
    assert list(reader.inputs.files) == [str(spec)]


def _doc(spec: Path, env_file: str) -> Document:
    return load_text(str(spec), f"source:\n  - credentials:\n      envFile: {env_file}\n")[0]


def test_a_reference_may_not_leave_the_spec_directory_by_a_shared_name_prefix(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app-other").mkdir()
    (tmp_path / "app-other" / "prod.env").write_text("K=v\n")
    spec = tmp_path / "app" / "spec.yaml"
    with pytest.raises(FluidgenError) as caught:
        Reader().referenced(_doc(spec, "../app-other/prod.env"), ENV_AT, "../app-other/prod.env")
    diag = caught.value.diagnostics[0]
    assert diag.message == (f"../app-other/prod.env is outside the spec's directory ({tmp_path / 'app'}); fluidgen "
                            f"reads only files below it. Move the file there, or {ALLOW}")
    assert (diag.file, diag.line) == (str(spec), 3)
    allowed = Reader(allow=[str(tmp_path / "app-other")])
    assert allowed.referenced(_doc(spec, "x"), ENV_AT, "../app-other/prod.env") == \
        tmp_path / "app" / "../app-other/prod.env"


def test_a_referenced_directory_is_refused_and_a_missing_file_left_to_the_read(tmp_path: Path) -> None:
    (tmp_path / "credentials").mkdir()
    spec = tmp_path / "spec.yaml"
    with pytest.raises(FluidgenError) as caught:
        Reader().referenced(_doc(spec, "credentials"), ENV_AT, "credentials")
    assert caught.value.diagnostics[0].message == (
        "credentials is not a regular file; fluidgen reads only regular files a spec refers to (a FIFO or device "
        "could block or never end)")
    assert Reader().referenced(_doc(spec, "gone.env"), ENV_AT, "gone.env") == tmp_path / "gone.env"


def test_a_directory_walk_skips_hidden_entries_and_notes_a_link_loop(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / ".hidden").mkdir()
    for rel in ("z.yaml", "a.yml", "notes.txt", ".secret.yaml", "b/c.yaml", ".hidden/d.yaml"):
        (tmp_path / rel).write_text("kind: X\n")
    (tmp_path / "b" / "loop").symlink_to("..")
    reader = Reader()
    files, notes = reader.expand([str(tmp_path)])
    assert files == [str(tmp_path / "a.yml"), str(tmp_path / "z.yaml"), str(tmp_path / "b" / "c.yaml")]
    assert [(n.file, n.severity, n.message) for n in notes] == [
        (str(tmp_path / "b" / "loop"), "info", "skipped: a link back to a directory already read")]
    assert not reader.inputs.cacheable


def test_find_specs_keeps_marked_files_and_tells_a_fragment_from_a_manifest(tmp_path: Path) -> None:
    (tmp_path / "a-spec.yaml").write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\n")
    (tmp_path / "b-overlay.yaml").write_text("runtime:\n  replicas: 2\n")
    (tmp_path / "c-manifest.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nruntime: x\n")
    files, found = Reader().find_specs([str(tmp_path)], b"fluidgen.io/")
    assert files == [str(tmp_path / "a-spec.yaml")]
    assert found == [NotBuilt(str(tmp_path / "b-overlay.yaml"), True),
                     NotBuilt(str(tmp_path / "c-manifest.yaml"), False)]
    notes = [n.note() for n in found if isinstance(n, NotBuilt)]
    assert [(n.severity, n.message) for n in notes] == [("warning", FRAGMENT_NOT_BUILT), ("info", NOT_BUILT)]
    assert FRAGMENT_NOT_BUILT.startswith("not built: this looks like an overlay fragment (spec keys, no apiVersion)")


@pytest.mark.parametrize("target", ["credentials/prod.env\0", "\0", "a\0/../../etc/passwd"])
def test_a_file_name_holding_a_nul_is_an_error_at_its_key_not_a_crash(tmp_path: Path, target: str) -> None:
    """os.stat and os.path.realpath raise ValueError on a NUL: refused first, located at the key."""
    doc = load_text(str(tmp_path / "spec.yaml"), 'source:\n  - credentials:\n      envFile: "x"\n')[0]
    with pytest.raises(FluidgenError) as raised:
        Reader().referenced(doc, ("source", 0, "credentials", "envFile"), target)
    [diag] = raised.value.diagnostics
    assert (diag.line, diag.col) == (3, 7) and "holds a NUL character" in diag.message
