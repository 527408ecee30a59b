"""fluidgen/commands/build.py: `fluidgen build`'s flag checks not tested elsewhere (usage errors,
exit 2, each with its message), the summary line only for more than one spec, "nothing to build"
when no spec is found, and -o DIR refusing a Secret with plain values (exit 1, nothing written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, run_cli

JINDO = str(EXAMPLES / "jindo-imagenet-oss.yaml")


@pytest.mark.parametrize(("args", "last_line"), [
    ((), "Error: give at least one spec file or directory (or -f overlays)"),
    ((JINDO, "--target", "alluxio-helm", "-o", "out"),
     "Error: -o DIR writes Kubernetes objects; use --target fluid, or redirect stdout"),
    ((JINDO, "--write-secrets"),
     "Error: --write-secrets only applies with -o DIR (on stdout, Secrets are always printed)"),
    ((JINDO, "--ignore", "FG999"), "Error: unknown lint rule FG999 in --ignore; `fluidgen lint --rules` lists them"),
])
def test_usage_errors(args: tuple[str, ...], last_line: str, tmp_path: Path) -> None:
    result = run_cli("build", *args, cwd=tmp_path, env={})
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == last_line
    assert not (tmp_path / "out").exists()


def test_one_spec_prints_no_summary_line() -> None:
    result = run_cli("build", JINDO, env={})
    assert result.code == 0 and result.err == ""
    assert result.out.startswith("apiVersion: v1\nkind: Secret\n")


def test_a_directory_without_a_spec_is_nothing_to_build(tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    result = run_cli("build", str(tmp_path), env={})
    assert result.code == 1 and result.out == ""
    assert result.err == (f"{tmp_path / 'cm.yaml'}: info: not built: holds no fluidgen spec (a plain manifest or "
                          "a values file)\nfluidgen: error: nothing to build\n")


def test_an_output_dir_refuses_plain_secret_values_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "base"
    result = run_cli("build", JINDO, "-o", str(out), env={})
    assert result.code == 1 and result.out == ""
    assert result.err.splitlines()[0] == (
        f"fluidgen: error: the build reads credential values into Secret default/mysecret, and {out} is the kind "
        "of directory that gets committed; nothing was written. Choose one:")
    assert "  - --write-secrets: write it to DIR/secrets.yaml" in result.err
    assert not out.exists()
