"""compile/project.py: a project file (fluidgen.yaml) is read only when it is a regular file of
its own directory, holds one Project mapping, and lists no entry twice; `select` picks the
environment asked for (or the only one), resolves its paths against the project's directory,
lets the environment's settings win over the options, and names every YAML file of the
directory that the environment does not build and every one no environment lists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fluidgen.base.diagnostics import Diagnostic, FluidgenError
from fluidgen.base.options import Options
from fluidgen.compile import project
from fluidgen.io.inputs import Reader
from fluidgen.io.yamlreader import load_text

HEAD = "apiVersion: fluidgen.io/v1alpha1\nkind: Project\n"


def _project(tmp_path: Path, body: str, *files: str) -> str:
    """DIR/fluidgen.yaml with HEAD then `body`, and an empty YAML file for each of `files`."""
    (tmp_path / "fluidgen.yaml").write_text(HEAD + body)
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}\n")
    return str(tmp_path)


def _errors(tmp_path: Path, wanted: str | None = None) -> list[str]:
    with pytest.raises(FluidgenError) as caught:
        project.select(str(tmp_path), wanted, Options(), Reader())
    return [d.render() for d in caught.value.diagnostics]


def test_the_only_environment_is_chosen_its_paths_resolved_and_its_settings_win_over_the_options(
        tmp_path: Path) -> None:
    d = _project(tmp_path, """\
environments:
  staging:
    specs: [a.yaml, [b.yaml, envs/b.yaml]]
    manifests: [rbac.yaml]
    namespace: ml-staging
    fluidVersion: v1.1.0-dev
    gitops: flux
""", "a.yaml", "b.yaml", "envs/b.yaml", "rbac.yaml")
    options = Options(namespace="cli", namespace_from="-n/--namespace", fluid_version="v1.0.8", gitops="argocd",
                      env={})
    selected = project.select(d, None, options, Reader())
    assert selected == project.Selected(
        "staging", [[f"{d}/a.yaml"], [f"{d}/b.yaml", f"{d}/envs/b.yaml"]], [f"{d}/rbac.yaml"],
        Options(namespace="ml-staging", namespace_from=f"the namespace of environment staging in {d}/fluidgen.yaml",
                fluid_version="v1.1.0-dev", gitops="flux", env={}), [], [])


def test_options_stand_where_the_environment_sets_nothing(tmp_path: Path) -> None:
    d = _project(tmp_path, "environments:\n  dev: {specs: [a.yaml]}\n", "a.yaml")
    options = Options(namespace="cli", namespace_from="-n/--namespace", fluid_version="v1.0.8", gitops="argocd",
                      env={})
    assert project.select(d, "dev", options, Reader()).options == options


def test_files_the_environment_does_not_use_are_noted_and_those_no_environment_lists_are_returned(
        tmp_path: Path) -> None:
    """The project file itself is neither; a file of another environment is unused here but listed."""
    d = _project(tmp_path, """\
environments:
  dev: {specs: [a.yaml], manifests: [./m.yaml]}
  prod: {specs: [p.yaml]}
""", "a.yaml", "m.yaml", "p.yaml", "stray.yaml", "notes.txt")
    selected = project.select(d, "dev", Options(), Reader())
    note = 'not built: environment "dev" of fluidgen.yaml does not list it'
    assert selected.unused == [Diagnostic(f"{d}/p.yaml", 0, 0, "info", note),
                               Diagnostic(f"{d}/stray.yaml", 0, 0, "info", note)]
    assert selected.unlisted == [f"{d}/stray.yaml"]


def test_a_link_the_walk_refuses_is_named_among_the_unused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.yaml").write_text("{}\n")
    (tmp_path / "p").mkdir()
    d = _project(tmp_path / "p", "environments:\n  dev: {specs: [a.yaml]}\n", "a.yaml")
    os.symlink(outside / "secret.yaml", Path(d) / "planted.yaml")
    unused = project.select(d, None, Options(), Reader()).unused
    assert [(u.file, u.severity) for u in unused] == [(f"{d}/planted.yaml", "warning")]


def test_several_environments_and_no_choice_is_an_error_naming_them(tmp_path: Path) -> None:
    _project(tmp_path, "environments:\n  prod: {specs: [a.yaml]}\n  dev: {specs: [a.yaml]}\n", "a.yaml")
    assert _errors(tmp_path) == [f"{tmp_path}/fluidgen.yaml:1:1: error: fluidgen.yaml defines the environments "
                                 "dev, prod; choose one with --env or FLUIDGEN_ENV"]


def test_an_unknown_environment_is_an_error_naming_the_known_ones_and_the_nearest(tmp_path: Path) -> None:
    _project(tmp_path, "environments:\n  prod: {specs: [a.yaml]}\n  dev: {specs: [a.yaml]}\n", "a.yaml")
    assert _errors(tmp_path, "prd") == [f'{tmp_path}/fluidgen.yaml:1:1: error: no environment "prd" in '
                                        'fluidgen.yaml (it has dev, prod); did you mean "prod"?']


def test_a_spec_chain_or_manifest_listed_twice_is_an_error_at_the_repeat(tmp_path: Path) -> None:
    """Paths compare after normalisation: ./a.yaml is a.yaml; a file repeated in a chain is named
    against its first place; the errors come by environment name."""
    _project(tmp_path, """\
environments:
  dev:
    specs: [a.yaml, ./a.yaml, [b.yaml, c.yaml], [b.yaml, ./c.yaml], [c.yaml, d.yaml, ./c.yaml, c.yaml]]
    manifests: [m.yaml, n.yaml, x/../m.yaml]
  ci: {specs: [a.yaml, a.yaml]}
""", "a.yaml", "b.yaml", "c.yaml", "d.yaml", "m.yaml", "n.yaml")
    f = f"{tmp_path}/fluidgen.yaml"
    assert _errors(tmp_path, "dev") == [
        f"{f}:7:24: error: environments.ci.specs[1]: lists the same spec a.yaml as specs[0]; each spec is "
        "built once: remove the repeat",
        f"{f}:5:21: error: environments.dev.specs[1]: lists the same spec ./a.yaml as specs[0]; each spec is "
        "built once: remove the repeat",
        f"{f}:5:49: error: environments.dev.specs[3]: lists the same chain of 2 files as specs[2]; each spec is "
        "built once: remove the repeat",
        f"{f}:5:86: error: environments.dev.specs[4][2]: merges ./c.yaml a second time (it is also file 0 of this "
        "chain); each overlay is merged once",
        f"{f}:5:96: error: environments.dev.specs[4][3]: merges c.yaml a second time (it is also file 0 of this "
        "chain); each overlay is merged once",
        f"{f}:6:33: error: environments.dev.manifests[2]: lists x/../m.yaml again (as manifests[0]); its objects "
        "would clash with themselves: remove the repeat"]


def test_the_same_file_in_two_environments_is_no_repeat(tmp_path: Path) -> None:
    d = _project(tmp_path, "environments:\n  dev: {specs: [a.yaml], manifests: [m.yaml]}\n"
                           "  prod: {specs: [a.yaml], manifests: [m.yaml]}\n", "a.yaml", "m.yaml")
    assert project.select(d, "prod", Options(), Reader()).chains == [[f"{d}/a.yaml"]]


def test_an_environment_is_bounded_in_specs_and_overlays(tmp_path: Path) -> None:
    """MAX_SPECS chains of at most MAX_OVERLAYS files each (issue 38); one more of either is an error."""
    specs = ", ".join(f"s{i}.yaml" for i in range(project.MAX_SPECS))
    overlays = ", ".join(f"o{i}.yaml" for i in range(project.MAX_OVERLAYS))
    d = _project(tmp_path, f"environments:\n  dev: {{specs: [{specs}]}}\n  big: {{specs: [[{overlays}]]}}\n")
    assert len(project.select(d, "dev", Options(), Reader()).chains) == project.MAX_SPECS
    assert len(project.select(d, "big", Options(), Reader()).chains[0]) == project.MAX_OVERLAYS
    _project(tmp_path, f"environments:\n  dev: {{specs: [{specs}, extra.yaml]}}\n"
                       f"  big: {{specs: [[{overlays}, extra.yaml]]}}\n")
    errors = _errors(tmp_path, "dev")
    assert [e.split(": ", 2)[1:] for e in errors] == [
        ["error", "environments.dev.specs: has 501 items; at most 500 are allowed"],
        ["error", "environments.big.specs[0]: has 11 items; at most 10 are allowed"]]


def test_a_project_file_holds_one_mapping(tmp_path: Path) -> None:
    (tmp_path / "fluidgen.yaml").write_text(HEAD + "environments: {dev: {specs: [a.yaml]}}\n---\n" + HEAD)
    expected = [f"{tmp_path}/fluidgen.yaml:1:1: error: fluidgen.yaml holds one Project mapping"]
    assert _errors(tmp_path) == expected
    (tmp_path / "fluidgen.yaml").write_text("- " + HEAD.replace("\n", "\n  "))
    assert _errors(tmp_path) == expected


def test_a_project_file_linked_from_outside_its_directory_is_not_read(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    _project(real, "environments:\n  dev: {specs: [a.yaml]}\n", "a.yaml")
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink(real / "fluidgen.yaml", repo / "fluidgen.yaml")
    assert _errors(repo) == [f"{repo}/fluidgen.yaml: error: is a link to a file outside its directory; not read"]


def test_a_project_file_linked_within_its_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / "project.yaml").write_text(HEAD + "environments:\n  dev: {specs: [a.yaml]}\n")
    (tmp_path / "a.yaml").write_text("{}\n")
    os.symlink("project.yaml", tmp_path / "fluidgen.yaml")
    assert project.select(str(tmp_path), None, Options(), Reader()).name == "dev"


def test_a_project_file_that_is_a_fifo_or_missing_is_not_read(tmp_path: Path) -> None:
    assert _errors(tmp_path) == [f"{tmp_path}/fluidgen.yaml: error: cannot read: No such file or directory"]
    os.mkfifo(tmp_path / "fluidgen.yaml")
    assert _errors(tmp_path) == [f"{tmp_path}/fluidgen.yaml: error: is not a regular file; not read"]


def test_a_chain_of_one_file_may_be_written_as_the_file() -> None:
    env = project.Environment.model_validate({"specs": ["a.yaml", ["a.yaml"]]})
    assert env.specs == [["a.yaml"], ["a.yaml"]]


@pytest.mark.parametrize(("data", "expected"), [
    ({"apiVersion": "fluidgen.io/v1alpha1", "kind": "Project"}, True),
    ({"apiVersion": "fluidgen.io/v2", "kind": "Project"}, True),
    ({"apiVersion": "v1", "kind": "Project"}, False),
    ({"kind": "Project"}, False),
    ({"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset"}, False),
    (["kind", "Project"], False),
])
def test_a_project_is_a_mapping_of_kind_project_in_a_fluidgen_api(data: object, expected: bool) -> None:
    assert project.is_project(data) is expected


def test_check_reports_a_schema_error_or_a_repeat_and_nothing_for_a_good_file() -> None:
    good = load_text("p.yaml", HEAD + "environments:\n  dev: {specs: [a.yaml]}\n")[0]
    assert project.check(good) == []
    repeat = load_text("p.yaml", HEAD + "environments:\n  dev: {specs: [a.yaml, a.yaml]}\n")[0]
    assert [d.render() for d in project.check(repeat)] == [
        "p.yaml:4:25: error: environments.dev.specs[1]: lists the same spec a.yaml as specs[0]; each spec is "
        "built once: remove the repeat"]
    empty = load_text("p.yaml", HEAD + "environments: {}\n")[0]
    assert [d.render() for d in project.check(empty)] == [
        "p.yaml:3:1: error: environments: must not be empty"]


def test_a_file_listed_by_its_absolute_path_is_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path may be absolute when it stays inside the directory (Reader.referenced allows it);
    the file it names is built, so it is neither "not built" nor unlisted (which in Argo CD mode
    refuses the build) when the directory is given relative, as `fluidgen build proj` does."""
    (tmp_path / "proj").mkdir()
    _project(tmp_path / "proj", f"environments:\n  dev: {{specs: [{tmp_path}/proj/a.yaml], "
                                f"manifests: [{tmp_path}/proj/m.yaml]}}\n  prod: {{specs: [n.yaml]}}\n",
             "a.yaml", "m.yaml", "n.yaml")
    monkeypatch.chdir(tmp_path)
    selected = project.select("proj", "dev", Options(), Reader())
    assert (selected.chains, selected.manifests) == ([[f"{tmp_path}/proj/a.yaml"]], [f"{tmp_path}/proj/m.yaml"])
    assert (selected.unused, selected.unlisted) == (
        [Diagnostic("proj/n.yaml", 0, 0, "info", 'not built: environment "dev" of fluidgen.yaml does not list it')], [])


def test_a_path_through_a_linked_directory_and_dot_dot_is_the_file_the_system_opens(tmp_path: Path) -> None:
    """`link/../a.yaml`, where link is a directory link inside the project, opens the file beside
    the link's target (the kernel follows the link before `..`), not the a.yaml a textual
    normalisation names. The file built is listed; the one beside fluidgen.yaml is not built."""
    _project(tmp_path, "environments:\n  dev: {specs: [link/../a.yaml]}\n", "a.yaml", "deep/a.yaml",
             "deep/inner/x.yaml")
    (tmp_path / "link").symlink_to(tmp_path / "deep" / "inner", target_is_directory=True)
    assert os.path.realpath(tmp_path / "link/../a.yaml") == str(tmp_path / "deep" / "a.yaml")
    selected = project.select(str(tmp_path), "dev", Options(), Reader())
    said = {(os.path.relpath(d.file, tmp_path), d.message) for d in selected.unused}
    assert ("a.yaml", 'not built: environment "dev" of fluidgen.yaml does not list it') in said
    assert not any(f.startswith("deep/a.yaml") for f, _ in said)
    assert sorted(os.path.relpath(f, tmp_path) for f in selected.unlisted) == ["a.yaml", "deep/inner/x.yaml"]


def test_a_repeat_is_the_same_file_opened_not_the_same_text_normalised(tmp_path: Path) -> None:
    """`a.yaml` and `link/../a.yaml` (link: a directory link) are two files: no repeat. `deep/a.yaml`
    and `link/../a.yaml` are one file: a repeat."""
    (tmp_path / "deep" / "inner").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "deep" / "inner", target_is_directory=True)
    two = _project(tmp_path, "environments:\n  dev: {specs: [a.yaml, link/../a.yaml]}\n", "a.yaml", "deep/a.yaml")
    doc = project.load(os.path.join(two, "fluidgen.yaml"), Reader())[1]
    assert project.repeats(project.load(doc.file, Reader())[0], doc) == []
    (tmp_path / "fluidgen.yaml").write_text(HEAD + "environments:\n  dev: {specs: [deep/a.yaml, link/../a.yaml],"
                                            " manifests: [deep/a.yaml, link/../a.yaml]}\n")
    with pytest.raises(FluidgenError) as caught:
        project.load(str(tmp_path / "fluidgen.yaml"), Reader())
    assert [d.message for d in caught.value.diagnostics] == [
        "lists the same spec link/../a.yaml as specs[0]; each spec is built once: remove the repeat",
        "lists link/../a.yaml again (as manifests[0]); its objects would clash with themselves: remove the repeat"]
