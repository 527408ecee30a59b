"""Gathering (compile/gather.py) and compiling what was gathered (pipeline.compile_documents):
documents with their origins and pass-through objects as data, settings read once from the
parsed spec (issue 39)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from fluidgen.base.options import Options
from fluidgen.compile import pipeline
from fluidgen.compile.gather import Inputs, Passed, Paths, gather
from fluidgen.compile.pipeline import compile_documents, compile_paths
from fluidgen.io import inputs
from fluidgen.io.inputs import Reader
from fluidgen.io.yamlreader import Document, in_memory
from fluidgen.spec.spec import Spec
from tests.conftest import EXAMPLES

ENV = {"OSS_ACCESS_KEY_ID": "id", "OSS_ACCESS_KEY_SECRET": "secret"}
PLAIN = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  a: b\n"
VALUES = "replicas: 3\nimage: x\n"  # not Kubernetes objects: named as not built


def app(tmp_path: Path) -> Path:
    """An Argo CD application directory: a spec, a plain manifest and a values file."""
    app_dir = tmp_path / "app"
    app_dir.mkdir()
    shutil.copytree(EXAMPLES / "credentials", app_dir / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app_dir / "dataset.yaml")
    (app_dir / "plain.yaml").write_text(PLAIN)
    (app_dir / "values.yaml").write_text(VALUES)
    return app_dir


def test_pass_through_objects_are_data_with_their_file(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    gathered = gather(Paths((str(app_dir),)), Options(gitops="argocd", env=ENV))
    assert gathered.passed == [Passed(str(app_dir / "plain.yaml"), [yaml.safe_load(PLAIN)])]
    assert [d.file for d in gathered.documents] == [str(app_dir / "dataset.yaml")]
    assert [(n.file, n.severity) for n in gathered.notes] == [(str(app_dir / "plain.yaml"), "info"),
                                                              (str(app_dir / "values.yaml"), "info")]
    # outside Argo CD mode nothing passes through: both files are named as not built
    assert gather(Paths((str(app_dir),)), Options(env=ENV)).passed == []


def test_argocd_pass_through_does_not_depend_on_the_not_built_notes_wording(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass-through used to pick its files by matching the start of the "not built" note's
    message; reworded, plain manifests silently left the Argo CD output (and Argo CD pruned
    them). It now reads which file was not built from data."""
    monkeypatch.setattr(inputs, "NOT_BUILT", "skipped: no CachedDataset in here")
    app_dir = app(tmp_path)
    result = compile_paths([str(app_dir)], Options(gitops="argocd", env=ENV))
    assert result.ok, result.diagnostics
    assert {"kind": "ConfigMap", "name": "extra"} in [{"kind": o["kind"], "name": o["metadata"]["name"]}
                                                      for o in result.objects]
    notes = {d.file: d.message for d in result.diagnostics if d.severity == "info"}
    assert notes[str(app_dir / "values.yaml")] == "skipped: no CachedDataset in here"  # the rewording took effect
    assert notes[str(app_dir / "plain.yaml")].startswith("passed through unchanged: 1 Kubernetes object")


def test_compile_documents_compiles_documents_no_file_holds() -> None:
    """The seam a new front end uses: a document made in memory (standing beside the example,
    whose credentials it names), compiled without a file of its own."""
    spec = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    doc = in_memory(str(EXAMPLES / "<in memory>"), spec)
    result = compile_documents(Inputs(Options(env=ENV), Reader(), documents=[doc]))
    assert result.ok and result.specs == 1, result.diagnostics
    assert result.objects == compile_paths([str(EXAMPLES / "jindo-imagenet-oss.yaml")], Options(env=ENV)).objects


def test_gitops_mode_and_fluid_version_come_from_the_parsed_spec(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings are read once, from the parsed spec, for the objects and for the result alike
    (the result's modes and versions used to be read again from the raw document): a parse that
    says otherwise than the raw text is followed everywhere."""
    real = pipeline.parse_spec

    def parse(doc: Document) -> Spec:
        return real(doc).model_copy(update={"gitops": "flux", "fluid": "v1.0.8"})

    monkeypatch.setattr(pipeline, "parse_spec", parse)
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    result = compile_paths([str(spec)], Options(env=ENV, gitops="argocd", fluid_version="v1.0.9"))
    assert result.ok, result.diagnostics
    assert result.gitops == {"flux"} and result.fluid_versions == {"v1.0.8"}
    assert set(result.built_for.values()) == {"v1.0.8"}
    assert not any("argocd.argoproj.io/sync-wave" in o["metadata"].get("annotations", {}) for o in result.objects)
