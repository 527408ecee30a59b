"""fluidgen/commands/import_.py: `fluidgen import FILES`: the specs on stdout, one YAML document
per Dataset, with the report on stderr; -o DIR writes one file per Dataset (NAMESPACE-NAME.yaml) and nothing on stdout;
--check proves the round trip and writes nothing anywhere, even with -o; a failed import says
"nothing was written" and exits 1; the progress line never shows for fewer than 20 Datasets."""

from __future__ import annotations

import io
from pathlib import Path

import yaml

from fluidgen.commands.import_ import progress
from tests.conftest import EXAMPLES, run_cli

REPORT = ("fluidgen import: 2 spec(s): 2 exact, 0 through overrides, 0 failed, 0 invalid input, "
          "0 without a runtime; 0 object(s) outside any spec\n")


def rendered(tmp_path: Path) -> Path:
    """What two bundled examples build to: two Datasets, their runtimes and what they need."""
    built = run_cli("build", str(EXAMPLES / "jindo-imagenet-oss.yaml"), str(EXAMPLES / "nfs-imagenet-alluxio.yaml"),
                    env={})
    assert built.code == 0, built.err
    path = tmp_path / "rendered.yaml"
    path.write_text(built.out)
    return path


def test_specs_go_to_stdout_one_document_per_dataset(tmp_path: Path) -> None:
    result = run_cli("import", str(rendered(tmp_path)), env={})
    assert result.code == 0, result.err
    specs = list(yaml.safe_load_all(result.out))
    assert [(s["kind"], s["metadata"]["name"], s["runtime"]["engine"]) for s in specs] == [
        ("CachedDataset", "imagenet", "jindo"), ("CachedDataset", "fluid-imagenet", "alluxio")]
    assert result.err.endswith(REPORT)


def test_an_output_directory_gets_the_specs_and_stdout_stays_empty(tmp_path: Path) -> None:
    out = tmp_path / "specs"
    result = run_cli("import", str(rendered(tmp_path)), "-o", str(out), env={})
    assert result.code == 0 and result.out == "", result.err
    assert sorted(p.name for p in out.iterdir()) == ["default-fluid-imagenet.yaml", "default-imagenet.yaml"]
    assert yaml.safe_load((out / "default-imagenet.yaml").read_text())["runtime"]["engine"] == "jindo"


def test_check_writes_nothing_even_with_an_output_directory(tmp_path: Path) -> None:
    out = tmp_path / "specs"
    result = run_cli("import", "--check", str(rendered(tmp_path)), "-o", str(out), env={})
    assert (result.code, result.out) == (0, "")
    assert result.err.endswith(REPORT)
    assert not out.exists()


def test_a_failed_import_says_nothing_was_written(tmp_path: Path) -> None:
    out = tmp_path / "specs"
    result = run_cli("import", str(tmp_path / "missing.yaml"), "-o", str(out), env={})
    assert result.code == 1 and result.out == ""
    assert result.err.startswith(f"{tmp_path / 'missing.yaml'}: error: cannot read: No such file or directory\n")
    assert result.err.endswith("\nfluidgen: import failed; nothing was written\n")
    assert not out.exists()


def test_no_progress_line_for_fewer_than_20_datasets() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    show = progress(screen)
    assert show is not None
    for done in range(20):
        show(done, 19)
    assert screen.getvalue() == ""
