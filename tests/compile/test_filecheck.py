"""compile/filecheck.py: `validate` and `lint` over files. Each document is checked by what it
is (a spec compiled without its credentials, a project file, a near miss of a spec, an overlay
fragment, a hand-written manifest validated against the API); a file that cannot be read or
parsed is reported and the others are still checked; lint rules see the objects of all files
together plus those declared --external; with specs_only a file that never mentions fluidgen
is not parsed, and a file that is no spec yields nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.base.diagnostics import Diagnostic
from fluidgen.compile.filecheck import Checks, check_documents, check_paths, external_objects
from fluidgen.io.yamlreader import load_text

FLUID = "data.fluid.io/v1alpha1"
RUNTIME = (f"apiVersion: {FLUID}\nkind: AlluxioRuntime\nmetadata: {{name: d, namespace: default}}\n"
           "spec: {replicas: 1}\n")
DATASET = (f"apiVersion: {FLUID}\nkind: Dataset\nmetadata: {{name: d, namespace: default}}\n"
           'spec:\n  mounts: [{mountPoint: "https://example.com/data", name: d}]\n')
SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: s, namespace: default}
source:
  - uri: https://example.com/data/
    credentials: {envFile: absent.env}
runtime: {engine: alluxio}
"""
# FG104 at the runtime of RUNTIME when no Dataset d is among the files. Fluid binds a runtime to
# the Dataset of its own namespace and name: pkg/ddc/base/runtime.go GetRuntimeInfo(reader, name,
# namespace) calls utils.GetDataset(reader, name, namespace) (fluid-src v1.0.8).
FG104 = ("rt.yaml:3:12: error [FG104]: metadata.name: no Dataset named d in namespace default among the files given; "
         "Fluid binds a runtime to the Dataset with the same namespace and name. If it is applied from elsewhere, "
         "say so: --external Dataset/default/d")


def _files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **files: str) -> list[str]:
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    return [f"{name}.yaml" for name in files]


def _check(paths: list[str], **checks: object) -> list[str]:
    return [d.render() for d in check_paths(paths, Checks("v1.0.8", **checks))]  # type: ignore[arg-type]


def test_external_objects_are_stand_ins_of_the_kinds_api_and_a_malformed_reference_is_an_error() -> None:
    """Dataset is data.fluid.io/v1alpha1 (fluid-src v1.0.8 api/v1alpha1/groupversion_info.go
    GroupVersion, dataset_types.go); a kind fluidgen does not know stands in as v1."""
    objects, problems = external_objects(["Dataset/default/imagenet", "a/b", "Foo/ns/x", "a//c", "x/y/z/w"])
    assert objects == [
        {"apiVersion": FLUID, "kind": "Dataset", "metadata": {"name": "imagenet", "namespace": "default"}},
        {"apiVersion": "v1", "kind": "Foo", "metadata": {"name": "x", "namespace": "ns"}}]
    assert problems == [Diagnostic("<command line>", 0, 0, "error", f'--external "{ref}": expected '
                                   "KIND/NAMESPACE/NAME, such as Dataset/default/imagenet")
                        for ref in ("a/b", "a//c", "x/y/z/w")]


def test_lint_sees_the_objects_of_all_files_together_and_the_external_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, rt=RUNTIME, ds=DATASET)
    assert _check(paths[:1], lint=True) == [FG104]
    assert _check(paths, lint=True) == []
    assert _check(paths[:1], lint=True, external=("Dataset/default/d",)) == []
    assert _check(paths[:1], lint=True, external=("Dataset/default", "Dataset/default/d")) == [
        '<command line>: error: --external "Dataset/default": expected KIND/NAMESPACE/NAME, such as '
        "Dataset/default/imagenet"]
    assert _check(paths[:1]) == []  # lint off: no rule runs


def test_a_spec_compiles_without_its_credentials_and_its_objects_join_the_lint_context(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec's envFile is absent: validate and lint never read credential values. Its Dataset s
    stands for the runtime s of another file (no FG104 there)."""
    paths = _files(tmp_path, monkeypatch, spec=SPEC, rt=RUNTIME.replace("name: d", "name: s"))
    assert _check(paths, lint=True) == [
        "spec.yaml:6:19: info: source[0].credentials.envFile: absent.env is not here, so its keys are unknown to this "
        "check: the Secret and the encryptOptions are checked without them; name the keys with fromEnv or fromFile "
        "to check them without the file"]
    assert _check(paths[1:], lint=True) == [FG104.replace("named d", "named s").replace("default/d", "default/s")]


def test_a_file_that_does_not_parse_is_reported_and_the_next_is_still_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, bad="a: [\n", rt=RUNTIME)
    found = _check(paths, lint=True)
    assert [line.split(": ", 2)[:2] for line in found] == [["bad.yaml:2:1", "error"], ["rt.yaml:3:12", "error [FG104]"]]
    assert _check(["missing.yaml", paths[1]], lint=True) == [
        "missing.yaml: error: cannot read: No such file or directory", FG104]


def test_specs_only_parses_only_files_that_mention_fluidgen_and_reports_only_specs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Helm template need not parse; a spec with a mistyped apiVersion is still a near miss;
    an invalid manifest or a fragment that mentions fluidgen is not the hook's business."""
    paths = _files(tmp_path, monkeypatch, template="a: {{ .Values.x }\n",
                   typo=SPEC.replace("kind: CachedDataset", "kind: CachedDataSet"),
                   cm="apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fluidgen}\ndata: 3\n",
                   fragment="runtime: {engine: alluxio}  # fluidgen\n")
    typo = ("typo.yaml:2:1: error: kind: kind 'CachedDataSet' is not a fluidgen kind; did you mean "
            '"CachedDataset"?')
    assert _check(paths, specs_only=True) == [typo]
    assert [line.split(": ")[0] for line in _check(paths)] == ["template.yaml:1:5", "typo.yaml:2:1",
                                                              "cm.yaml:4:1", "fragment.yaml:1:1"]


def test_an_overlay_fragment_is_a_warning_checked_only_merged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, fragment="runtime: {engine: alluxio}\n")
    assert _check(paths) == ["fragment.yaml:1:1: warning: an overlay fragment (spec keys, no apiVersion): it is "
                             "checked only merged into its spec; check that with fluidgen build -f SPEC -f THIS"]


def test_a_project_file_is_checked_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, fluidgen="apiVersion: fluidgen.io/v1alpha1\nkind: Project\n"
                                                   "environments: {dev: {specs: [a.yaml, a.yaml]}}\n")
    assert _check(paths) == ["fluidgen.yaml:3:38: error: environments.dev.specs[1]: lists the same spec a.yaml as "
                             "specs[0]; each spec is built once: remove the repeat"]


def test_a_manifest_is_validated_against_the_api_unless_schema_is_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, rt=RUNTIME.replace("replicas: 1", "replicas: many"))
    found = check_paths(paths, Checks("v1.0.8"))
    assert [(d.file, d.line, d.col, d.path, d.stage) for d in found] == [
        ("rt.yaml", 4, 8, ("spec", "replicas"), "validate")]
    assert check_paths(paths, Checks("v1.0.8", schema=False)) == []


def test_forbid_secret_values_refuses_a_secret_with_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch,
                   secret="apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: v}\n")
    assert _check(paths) == []
    assert [line.split(": ")[:2] for line in _check(paths, forbid_secret_values=True)] == [["secret.yaml:4:1", "error"]]


def test_a_files_ignore_directive_silences_its_rule_in_that_file_only_and_a_typo_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, rt="# fluidgen-lint: ignore=FG104\n" + RUNTIME,
                   rt2=RUNTIME.replace("name: d", "name: e"),
                   typo="# fluidgen-lint: ignore=FG10\n" + DATASET.replace("name: d,", "name: x,"))
    assert _check(paths, lint=True) == [
        "typo.yaml:1:1: error: unknown lint rule FG10 in this directive; did you mean \"FG140\"?",
        FG104.replace("rt.yaml", "rt2.yaml").replace("named d", "named e").replace("default/d", "default/e")]
    assert _check(paths) == []  # directives are lint's: without lint they are not read


def test_check_documents_checks_documents_in_memory_as_files_together() -> None:
    docs = [load_text("rt.yaml", RUNTIME)[0], load_text("ds.yaml", DATASET)[0]]
    assert [d.render() for d in check_documents(docs[:1], Checks("v1.0.8", lint=True))] == [FG104]
    assert check_documents(docs, Checks("v1.0.8", lint=True)) == []
    assert check_documents(docs[:1], Checks("v1.0.8")) == []


def test_a_kubectl_list_is_checked_item_by_item_and_a_bad_item_is_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, lst=(
        "apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: data.fluid.io/v1alpha1, kind: AlluxioRuntime, "
        "metadata: {name: d, namespace: default}, spec: {replicas: 1}}\n  - 3\n"),
        flat="apiVersion: v1\nkind: List\nitems: 3\n")
    assert _check(paths, lint=True) == [
        "lst.yaml:5:5: error: expected a Kubernetes object (a mapping), found an integer",
        "flat.yaml:3:1: error: items: a List whose items is not a list; nothing of it is read",
        FG104.replace("rt.yaml:3:12", "lst.yaml:4:75")]


def test_a_spec_is_linted_only_with_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, monkeypatch, spec=SPEC.replace("https://example.com/data/", "https://example.com/<p>/"))
    note = ("spec.yaml:6:19: info: source[0].credentials.envFile: absent.env is not here, so its keys are unknown to "
            "this check: the Secret and the encryptOptions are checked without them; name the keys with fromEnv or "
            "fromFile to check them without the file")
    assert _check(paths) == [note]
    assert _check(paths, lint=True) == [note, "spec.yaml:5:5: error [FG102]: source[0].uri: generated Dataset/s "
                                              "spec.mounts.0.mountPoint: placeholder <p> was never filled in"]


def test_a_specs_compile_takes_the_namespace_and_the_ignored_rules_of_the_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec sets no namespace: with namespace team its Dataset s is in team, where the runtime
    of the other file is; the placeholder's FG102 is silenced by ignore."""
    spec = SPEC.replace("https://example.com/data/", "https://example.com/<p>/").replace(", namespace: default", "")
    paths = _files(tmp_path, monkeypatch, spec=spec, rt=RUNTIME.replace("name: d, namespace: default",
                                                                        "name: s, namespace: team"))
    found = _check(paths, lint=True, namespace="team", ignore=frozenset({"FG102"}))
    assert [line.split(": ")[0] for line in found] == ["spec.yaml:6:19"]  # the note of the absent env file only


def test_a_specs_compile_takes_the_gitops_mode_of_the_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DataLoad's ttlSecondsAfterFinished (fluid-src v1.0.8 api/v1alpha1/dataload_types.go
    DataLoadSpec.TTLSecondsAfterFinished, the TTL of a Once DataLoad: pkg/controllers/v1alpha1/dataload/
    implement.go dataLoadOperation.GetTTL) is refused in GitOps mode only."""
    spec = SPEC.replace("    credentials: {envFile: absent.env}\n", "") + (
        "dataflow:\n  - name: warm\n    load: {}\n    ttlSecondsAfterFinished: 60\n")
    paths = _files(tmp_path, monkeypatch, spec=spec)
    assert _check(paths) == []
    assert _check(paths, gitops="argocd") == [
        "spec.yaml:10:5: error: dataflow[0].ttlSecondsAfterFinished: Fluid deletes a finished DataLoad after "
        "ttlSecondsAfterFinished; Argo CD or Flux then finds it missing, creates it again, and it runs again, "
        "forever. In GitOps mode operations are kept: remove ttlSecondsAfterFinished (to run it again, give the "
        "step a new name)"]
