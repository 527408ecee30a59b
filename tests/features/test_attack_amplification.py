"""One small project file buys bounded work (issue 38, item 4): an entry listed twice is
refused while fluidgen.yaml is validated, before anything is compiled, and fixed caps bound
the specs of an environment, the files of a chain and the values its chains hold (each file
counted per use). benchmarks/project_caps.py measures the largest project the caps allow;
these tests check the counts, never the time."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fluidgen.compile import pipeline, project
from tests.conftest import EXAMPLES, run_cli

HEAD = "apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n  prod:\n"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory with one buildable spec and an overlay; compiling anything fails the test."""
    shutil.copytree(EXAMPLES / "scripts", tmp_path / "scripts")
    (tmp_path / "spec.yaml").write_text((EXAMPLES / "juicefs-mnist-pipeline.yaml").read_text())
    (tmp_path / "o.yaml").write_text("runtime: {replicas: 2}\n")
    return tmp_path


@pytest.fixture
def no_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object) -> None:
        raise AssertionError("a spec was compiled")

    monkeypatch.setattr(pipeline, "_compile_all", refuse)


def _build(app: Path, specs: str, manifests: str = "") -> tuple[int, list[str]]:
    (app / "fluidgen.yaml").write_text(HEAD + f"    specs: {specs}\n" + (f"    manifests: {manifests}\n"
                                                                           if manifests else ""))
    run = run_cli("build", str(app), env={"FLUIDGEN_NO_CACHE": "1"})
    return run.code, [line for line in run.err.splitlines() if ": error" in line]


def test_one_spec_listed_thirty_thousand_times_is_one_error_and_no_compile(app: Path, no_compile: None) -> None:
    code, errors = _build(app, "[" + ", ".join(["spec.yaml"] * 30_000) + "]")
    assert code == 1 and len(errors) == 1, errors[:3]
    assert f"items; at most {project.MAX_SPECS} are allowed" in errors[0]


def test_a_chain_of_a_hundred_thousand_copies_is_one_error_and_no_compile(app: Path, no_compile: None) -> None:
    code, errors = _build(app, "[[spec.yaml, " + ", ".join(["o.yaml"] * 100_000) + "]]")
    assert code == 1 and len(errors) == 1, errors[:3]
    assert f"items; at most {project.MAX_OVERLAYS} are allowed" in errors[0]


def test_repeats_are_refused_while_the_project_file_is_validated(app: Path, no_compile: None) -> None:
    (app / "m.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n")
    code, errors = _build(app, "[spec.yaml, ./spec.yaml, [spec.yaml, o.yaml], [spec.yaml, o.yaml], "
                               "[spec.yaml, o.yaml, ./o.yaml]]", "[m.yaml, m.yaml]")
    assert code == 1
    assert [e.split(": error: ")[1].split(":")[0] for e in errors] == [
        "environments.prod.specs[1]", "environments.prod.specs[3]", "environments.prod.specs[4][2]",
        "environments.prod.manifests[1]"]
    check = run_cli("validate", str(app / "fluidgen.yaml"))  # validate says the same, building nothing
    assert check.code == 1 and check.err.count("remove the repeat") == 3 and "merged once" in check.err


@pytest.mark.parametrize(("specs", "overlays", "refused"), [
    (project.MAX_SPECS, project.MAX_OVERLAYS, False), (project.MAX_SPECS + 1, 1, True),
    (1, project.MAX_OVERLAYS + 1, True)])
def test_the_caps_are_fixed_counts(app: Path, specs: int, overlays: int, refused: bool,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[int] = []
    monkeypatch.setattr(pipeline, "_compile_all", lambda docs, *_: compiled.append(len(docs)))
    for i in range(max(specs, overlays)):
        (app / f"f{i}.yaml").write_text(f"metadata: {{labels: {{n: '{i}'}}}}\n")
    chains = [[f"f{i}.yaml", *(f"f{j}.yaml" for j in range(overlays) if j != i)][:overlays] for i in range(specs)]
    _, errors = _build(app, "[" + ", ".join("[" + ", ".join(c) + "]" for c in chains) + "]")
    assert (compiled == []) == refused, errors[:2]
    if not refused:
        assert compiled == [specs]  # every chain reached the compile: the caps let the largest project through


def test_a_large_overlay_shared_by_every_chain_counts_once_per_use(app: Path, no_compile: None) -> None:
    per_file = project.MAX_NODES // 4
    (app / "big.yaml").write_text("metadata:\n  annotations:\n" + "".join(
        f"    a{i}.example.com/n: v\n" for i in range(per_file)))
    for i in range(5):
        (app / f"s{i}.yaml").write_text((app / "spec.yaml").read_text().replace("name: mnist", f"name: m{i}", 1))
    code, errors = _build(app, "[" + ", ".join(f"[s{i}.yaml, big.yaml]" for i in range(5)) + "]")
    assert code == 1 and len(errors) == 1 and f"at most {project.MAX_NODES}" in errors[0], errors
