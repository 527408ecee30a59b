"""compile/output.py: the layout of `build -o DIR` and the writer that never loses a file of the
user's. One file per object, named kind-name.yaml (kind-namespace-name.yaml where two share a
name, refused where they still collide); a kustomization listing them, Secrets with values kept
out of it (plain and private with a .gitignore, or sealed by SOPS and listed for Flux only);
Flux's training jobs in DIR/workloads with their own kustomization, whose configuration gives the
jobs' claimName and their build's ServiceAccount names the objects' prefix and suffix. The writer
writes only into a new or empty directory or one it wrote (its marker lists what), refuses links,
foreign files and a damaged marker before writing anything, and removes only its own stale files.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from fluidgen.base import emit
from fluidgen.base.diagnostics import Diagnostic, FluidgenError
from fluidgen.compile import output
from fluidgen.compile.output import (
    GITIGNORE,
    KUSTOMIZATION,
    KUSTOMIZE_CONFIG,
    MARKER,
    PRIVATE,
    PUBLIC,
    SECRETS,
    SOPS_FILE,
    Planned,
    claim_paths,
    directory_files,
    file_names,
    has_values,
    kustomization,
    kustomize_config,
    workloads_kustomize_config,
    write_dir,
    write_tree,
)

GITIGNORE_TEXT = "# Written by fluidgen: credential values never go into git.\nsecrets.yaml\n"


def _o(kind: str, name: str, namespace: str | None = "default", **body: Any) -> dict[str, Any]:
    api = {"Dataset": "data.fluid.io/v1alpha1", "Job": "batch/v1"}.get(kind, "v1")
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": api, "kind": kind, "metadata": meta, **body}


def _job(name: str, account: str | None = None) -> dict[str, Any]:
    pod: dict[str, Any] = {"containers": [{"name": "c", "image": "i"}], "restartPolicy": "Never"}
    if account is not None:
        pod["serviceAccountName"] = account
    return _o("Job", name, spec={"template": {"spec": pod}})


def _error(exc: pytest.ExceptionInfo[FluidgenError]) -> list[tuple[str, str]]:
    return [(d.file, d.message) for d in exc.value.diagnostics]


def _marker(directory: Path, name: str = MARKER) -> list[str]:
    listed: list[str] = json.loads((directory / name).read_text())["files"]
    return listed


SECRET = _o("Secret", "creds", stringData={"key": "value"})
DATASET = _o("Dataset", "data", spec={})


# --- what a directory holds -----------------------------------------------------------------


def test_a_secret_has_values_only_when_its_data_or_string_data_is_not_empty() -> None:
    assert has_values(_o("Secret", "s", data={"k": "dg=="}))
    assert has_values(_o("Secret", "s", stringData={"k": "v"}))
    assert not has_values(_o("Secret", "s", data={}, stringData={}))
    assert not has_values(_o("ConfigMap", "c", data={"k": "v"}))


def test_a_file_is_named_by_lower_case_kind_and_name() -> None:
    assert file_names([DATASET, _o("PersistentVolumeClaim", "c")]) == ["dataset-data.yaml",
                                                                        "persistentvolumeclaim-c.yaml"]


def test_objects_sharing_a_name_get_their_namespace_or_cluster_in_the_file_name() -> None:
    objects = [_o("Secret", "s", "a"), _o("Secret", "s", None), _o("Secret", "t", "a")]
    assert file_names(objects) == ["secret-a-s.yaml", "secret-cluster-s.yaml", "secret-t.yaml"]


def test_a_collision_left_after_the_namespace_is_refused_naming_both_objects() -> None:
    objects = [_o("Secret", "a-b", "x"), _o("Secret", "b", "x-a"), _o("Secret", "a-b", "y"), _o("Secret", "b", "z")]
    with pytest.raises(FluidgenError) as exc:
        file_names(objects)
    assert _error(exc) == [("secret-x-a-b.yaml",
                            "Secret b and Secret x/a-b would be written to the same file; rename one of them")]


def test_a_core_kind_is_named_by_version_and_a_grouped_kind_by_group_in_kustomize_configuration() -> None:
    """kustomize's fieldSpec for the core API has no group, only version v1."""
    heads = {e["kind"]: {k: v for k, v in e.items() if k != "fieldSpecs"} for e in kustomize_config()["nameReference"]}
    assert heads["Secret"] == {"version": "v1", "kind": "Secret"}
    assert heads["Dataset"] == {"group": "data.fluid.io", "kind": "Dataset"}


@pytest.mark.parametrize(("name", "namespace", "file"), [("a/b", "x", "configmap-a/b.yaml"),
                                                         ("ab", "x/y", "configmap-x/y-ab.yaml")])
def test_a_name_or_namespace_holding_a_slash_is_refused_before_anything_is_written(tmp_path: Path, name: str,
                                                                                  namespace: str, file: str) -> None:
    """A passed-through manifest (Argo CD mode) is not checked like a built object: a '/' in its
    name made a file name with a folder in it, so `-o` created DIR/workloads, wrote some files,
    then failed on the missing folder (No such file or directory), leaving a directory without a
    marker that every later build refused as not fluidgen's."""
    objects = [_o("ConfigMap", name, namespace), _o("ConfigMap", "ab", "z")]
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path / "out"), [DATASET, *objects])
    assert _error(exc) == [(file, f"ConfigMap {namespace}/{name} cannot be written to a file of its own: its name "
                                  "or namespace holds a '/'")]
    assert not (tmp_path / "out").exists()


def test_the_kustomization_lists_its_resources_and_its_configuration() -> None:
    assert kustomization(["a.yaml", "b.yaml"]) == {
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "configurations": ["kustomizeconfig.yaml"], "resources": ["a.yaml", "b.yaml"]}


def test_a_directory_holds_each_object_its_kustomization_and_configuration_all_public() -> None:
    files = directory_files([DATASET, _job("train")])
    assert files == {
        "dataset-data.yaml": Planned(emit.dump(DATASET), PUBLIC),
        "job-train.yaml": Planned(emit.dump(_job("train")), PUBLIC),
        KUSTOMIZE_CONFIG: Planned(emit.dump(kustomize_config()), PUBLIC),
        KUSTOMIZATION: Planned(emit.dump(kustomization(["dataset-data.yaml", "job-train.yaml"])), PUBLIC)}


def test_plain_secrets_go_to_a_private_file_beside_a_gitignore_and_are_not_listed() -> None:
    other = _o("Secret", "more", data={"k": "dg=="})
    files = directory_files([DATASET, SECRET, other])
    assert files[SECRETS] == Planned(emit.dump_all([SECRET, other]), PRIVATE)
    assert files[GITIGNORE] == Planned(GITIGNORE_TEXT, PUBLIC)
    assert files[KUSTOMIZATION].text == emit.dump(kustomization(["dataset-data.yaml"]))
    assert sorted(files) == [GITIGNORE, "dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG, SECRETS]


def test_a_secret_without_values_is_an_object_file_like_any_other() -> None:
    empty = _o("Secret", "ref")
    files = directory_files([empty])
    assert sorted(files) == [KUSTOMIZATION, KUSTOMIZE_CONFIG, "secret-ref.yaml"]


def test_sealed_secrets_are_listed_for_flux_only_which_decrypts_them_itself() -> None:
    sealed = directory_files([DATASET, SECRET], sealed="ENC[sealed]\n")
    assert sealed[SOPS_FILE] == Planned("ENC[sealed]\n", PUBLIC)
    assert SECRETS not in sealed and GITIGNORE not in sealed
    assert sealed[KUSTOMIZATION].text == emit.dump(kustomization(["dataset-data.yaml"]))
    flux = directory_files([DATASET, SECRET], sealed="ENC[sealed]\n", flux=True)
    assert flux[KUSTOMIZATION].text == emit.dump(kustomization(["dataset-data.yaml", SOPS_FILE]))


def test_without_secrets_with_values_no_secret_file_is_written_even_when_sealed_text_is_given() -> None:
    assert sorted(directory_files([DATASET], sealed="ENC\n")) == ["dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG]


def test_for_flux_the_training_jobs_go_to_workloads_with_their_own_kustomization() -> None:
    files = directory_files([DATASET, _job("train")], flux=True)
    assert sorted(files) == ["dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG, "workloads/job-train.yaml",
                             "workloads/kustomization.yaml", "workloads/kustomizeconfig.yaml"]
    assert files[KUSTOMIZATION].text == emit.dump(kustomization(["dataset-data.yaml"]))
    assert files["workloads/kustomization.yaml"].text == emit.dump(kustomization(["job-train.yaml"]))
    assert files["workloads/kustomizeconfig.yaml"] == Planned(
        emit.dump(workloads_kustomize_config([DATASET, _job("train")])), PUBLIC)


def test_for_flux_without_a_job_there_is_no_workloads_folder() -> None:
    assert sorted(directory_files([DATASET], flux=True)) == ["dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG]


def test_the_workloads_configuration_prefixes_the_claim_names_only_when_no_job_runs_as_an_account_of_the_build(
) -> None:
    assert workloads_kustomize_config([_job("a", "elsewhere")]) == {"namePrefix": claim_paths(),
                                                                    "nameSuffix": claim_paths()}


def test_the_workloads_configuration_prefixes_the_account_of_jobs_that_run_as_one_of_the_build() -> None:
    """The Job kind's pod is at spec/template/spec (fluid/jobkinds.py WORKLOADS)."""
    objects = [_o("ServiceAccount", "runner"), _job("a", "runner"), _job("b")]
    fields = [*claim_paths(), {"group": "batch", "kind": "Job", "path": "spec/template/spec/serviceAccountName"}]
    assert workloads_kustomize_config(objects) == {"namePrefix": fields, "nameSuffix": fields}


def test_jobs_of_one_kind_running_as_accounts_of_the_build_and_of_another_are_refused() -> None:
    objects = [_o("ServiceAccount", "runner"), _o("ServiceAccount", "helper"), _job("a", "runner"),
               _job("b", "helper"), _job("c", "team-x"), _job("d", "team-y")]
    with pytest.raises(FluidgenError) as exc:
        workloads_kustomize_config(objects)
    assert _error(exc) == [("workloads/kustomizeconfig.yaml",
                            "the Job jobs run as ServiceAccounts of this build (helper, runner) and of another "
                            "(team-x, team-y); a Flux namePrefix or nameSuffix would reach one sort only: give "
                            "them one sort")]


def test_an_account_is_read_through_a_list_on_the_pod_path() -> None:
    """A TrainJob's pod path crosses the replicatedJobs list (fluid/jobkinds.py WORKLOADS): its
    first item's account is read."""
    train = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "t"},
             "spec": {"runtimePatches": {"trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [
                 {"template": {"spec": {"template": {"spec": {"serviceAccountName": "runner"}}}}}]}}}}}}
    fields = workloads_kustomize_config([_o("ServiceAccount", "runner"), train])["namePrefix"]
    assert fields[len(claim_paths()):] == [
        {"group": "trainer.kubeflow.org", "kind": "TrainJob",
         "path": "spec/runtimePatches/trainingRuntimeSpec/template/spec/replicatedJobs/template/spec/template/spec/"
                 "serviceAccountName"}]


# --- write_dir ------------------------------------------------------------------------------


def test_a_new_directory_gets_every_file_and_a_marker_listing_them(tmp_path: Path) -> None:
    out = tmp_path / "out" / "deep"
    names = write_dir(str(out), [DATASET, SECRET])
    assert names == [GITIGNORE, "dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG, SECRETS]
    assert sorted(os.listdir(out)) == sorted([*names, MARKER])
    assert (out / MARKER).read_text() == json.dumps({"files": names}, indent=2) + "\n"
    assert (out / "dataset-data.yaml").read_text() == emit.dump(DATASET)
    assert stat.S_IMODE((out / SECRETS).stat().st_mode) == 0o600
    assert stat.S_IMODE((out / "dataset-data.yaml").stat().st_mode) == 0o644
    assert stat.S_IMODE((out / MARKER).stat().st_mode) == 0o644


def test_an_existing_empty_directory_is_written(tmp_path: Path) -> None:
    write_dir(str(tmp_path), [DATASET])
    assert _marker(tmp_path) == ["dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG]


def test_a_rebuild_removes_its_stale_files_and_keeps_the_users(tmp_path: Path) -> None:
    write_dir(str(tmp_path), [DATASET, SECRET])
    (tmp_path / "notes.md").write_text("mine\n")
    assert write_dir(str(tmp_path), [_o("Dataset", "other")]) == ["dataset-other.yaml", KUSTOMIZATION,
                                                                   KUSTOMIZE_CONFIG]
    assert sorted(os.listdir(tmp_path)) == [MARKER, "dataset-other.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG, "notes.md"]


def test_a_stale_name_the_user_replaced_by_a_directory_or_a_link_is_left_alone(tmp_path: Path) -> None:
    write_dir(str(tmp_path), [DATASET, _o("Dataset", "b"), _o("Dataset", "c")])
    (tmp_path / "dataset-b.yaml").unlink()
    (tmp_path / "dataset-b.yaml").mkdir()
    (tmp_path / "dataset-c.yaml").unlink()
    (tmp_path / "dataset-c.yaml").symlink_to(tmp_path / KUSTOMIZATION)
    write_dir(str(tmp_path), [DATASET])
    assert (tmp_path / "dataset-b.yaml").is_dir() and (tmp_path / "dataset-c.yaml").is_symlink()


def test_a_directory_that_is_not_empty_and_has_no_marker_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("x")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET])
    assert _error(exc) == [(str(tmp_path), "is not empty and was not written by fluidgen; fluidgen -o writes only "
                                           "into a new or empty directory, or one it wrote before. Give another "
                                           "directory")]
    assert os.listdir(tmp_path) == ["mine.txt"]


def test_a_file_in_place_of_the_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path / "out"), [DATASET])
    assert _error(exc) == [(str(tmp_path / "out"), "exists and is not a directory")]


def test_a_link_in_place_of_the_directory_is_refused_even_to_an_empty_one(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "out").symlink_to(tmp_path / "real")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path / "out"), [DATASET])
    assert _error(exc) == [(str(tmp_path / "out"), "is a symbolic link; fluidgen does not write through links it "
                                                   "did not make. Give the real directory")]
    assert os.listdir(tmp_path / "real") == []


@pytest.mark.parametrize("marker", ["not json", '{"other": []}', '{"files": "a.yaml"}', '{"files": [1]}',
                                    '{"files": ["../outside.yaml"]}', '{"files": ["a/b.yaml"]}',
                                    '{"files": ["workloads/a/b.yaml"]}', '{"files": ["workloads/.."]}',
                                    '{"files": ["."]}', '[]', '{"files": "ab"}',
                                    '{"files": {"dataset-x.yaml": 1}}'])
def test_a_damaged_marker_is_refused_and_nothing_is_removed(tmp_path: Path, marker: str) -> None:
    (tmp_path / MARKER).write_text(marker)
    (tmp_path / "a.yaml").write_text("x")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET])
    assert _error(exc) == [(str(tmp_path / MARKER), "is damaged; remove the directory and build again")]
    assert sorted(os.listdir(tmp_path)) == [MARKER, "a.yaml"]


def test_a_marker_that_is_a_link_is_damaged(tmp_path: Path) -> None:
    (tmp_path / "real").write_text('{"files": []}')
    (tmp_path / MARKER).symlink_to(tmp_path / "real")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET])
    assert _error(exc) == [(str(tmp_path / MARKER), "is damaged; remove the directory and build again")]


def test_a_file_the_marker_does_not_list_is_never_overwritten_nor_anything_written(tmp_path: Path) -> None:
    write_dir(str(tmp_path), [_o("Dataset", "old")])
    (tmp_path / "dataset-data.yaml").write_text("mine\n")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET])
    assert _error(exc) == [(str(tmp_path / "dataset-data.yaml"), "exists and was not written by fluidgen; fluidgen "
                                                                  "does not overwrite it")]
    assert (tmp_path / "dataset-data.yaml").read_text() == "mine\n"
    assert (tmp_path / "dataset-old.yaml").is_file()


def test_a_dangling_link_where_a_file_goes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dataset-data.yaml").symlink_to(tmp_path / "nowhere")
    (tmp_path / MARKER).write_text('{"files": []}')
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET])
    assert _error(exc) == [(str(tmp_path / "dataset-data.yaml"), "exists and was not written by fluidgen; fluidgen "
                                                                  "does not overwrite it")]
    assert not (tmp_path / "nowhere").exists()


def test_flux_jobs_are_written_into_workloads_and_the_folder_goes_when_they_do(tmp_path: Path) -> None:
    assert write_dir(str(tmp_path), [DATASET, _job("train")], flux=True) == [
        "dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG, "workloads/job-train.yaml",
        "workloads/kustomization.yaml", "workloads/kustomizeconfig.yaml"]
    assert sorted(os.listdir(tmp_path / "workloads")) == ["job-train.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG]
    write_dir(str(tmp_path), [DATASET], flux=True)
    assert sorted(os.listdir(tmp_path)) == [MARKER, "dataset-data.yaml", KUSTOMIZATION, KUSTOMIZE_CONFIG]


def test_the_workloads_folder_stays_while_it_holds_a_file_of_the_users(tmp_path: Path) -> None:
    write_dir(str(tmp_path), [DATASET, _job("train")], flux=True)
    (tmp_path / "workloads" / "notes.md").write_text("mine\n")
    write_dir(str(tmp_path), [DATASET])
    assert os.listdir(tmp_path / "workloads") == ["notes.md"]


@pytest.mark.parametrize("made", ["folder", "file"])
def test_a_workloads_folder_or_file_fluidgen_did_not_make_is_refused(tmp_path: Path, made: str) -> None:
    write_dir(str(tmp_path), [DATASET])
    if made == "folder":
        (tmp_path / "workloads").mkdir()
    else:
        (tmp_path / "workloads").write_text("x")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET, _job("train")], flux=True)
    assert _error(exc) == [(str(tmp_path / "workloads"), "exists and was not written by fluidgen; fluidgen does "
                                                         "not write into it")]


def test_a_file_in_place_of_the_workloads_folder_fluidgen_made_is_refused(tmp_path: Path) -> None:
    write_dir(str(tmp_path), [DATASET, _job("train")], flux=True)
    for name in os.listdir(tmp_path / "workloads"):
        (tmp_path / "workloads" / name).unlink()
    (tmp_path / "workloads").rmdir()
    (tmp_path / "workloads").write_text("mine\n")
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(tmp_path), [DATASET, _job("train")], flux=True)
    assert _error(exc) == [(str(tmp_path / "workloads"), "exists and was not written by fluidgen; fluidgen does "
                                                         "not write into it")]
    assert (tmp_path / "workloads").read_text() == "mine\n"


def test_a_workloads_link_is_refused_even_when_the_build_writes_nothing_into_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    write_dir(str(out), [DATASET, _job("train")], flux=True)
    for name in os.listdir(out / "workloads"):
        (out / "workloads" / name).unlink()
    (out / "workloads").rmdir()
    (out / "workloads").symlink_to(elsewhere)
    with pytest.raises(FluidgenError) as exc:
        write_dir(str(out), [DATASET])
    assert _error(exc) == [(str(out / "workloads"), "exists and was not written by fluidgen; fluidgen does not "
                                                    "write into it")]


def test_kustomization_is_replaced_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    real = output._atomic

    def atomic(path: Path, text: str, mode: int) -> None:
        written.append(path.name)
        real(path, text, mode)

    monkeypatch.setattr(output, "_atomic", atomic)
    write_dir(str(tmp_path), [DATASET, SECRET])
    assert written == [GITIGNORE, "dataset-data.yaml", KUSTOMIZE_CONFIG, SECRETS, KUSTOMIZATION, MARKER]


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: Any, dst: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_dir(str(tmp_path), [DATASET])
    assert os.listdir(tmp_path) == []


# --- write_tree -----------------------------------------------------------------------------

TREE = {"a/b/c.lua": Planned("-- c\n", PUBLIC), "d.txt": Planned("d\n", PRIVATE)}


def test_a_tree_is_written_with_its_folders_modes_and_marker(tmp_path: Path) -> None:
    assert write_tree(str(tmp_path / "t"), TREE, ".m") == ["a/b/c.lua", "d.txt"]
    assert (tmp_path / "t" / "a" / "b" / "c.lua").read_text() == "-- c\n"
    assert stat.S_IMODE((tmp_path / "t" / "d.txt").stat().st_mode) == 0o600
    assert _marker(tmp_path / "t", ".m") == ["a/b/c.lua", "d.txt"]


def test_a_tree_rebuild_removes_its_stale_files_only(tmp_path: Path) -> None:
    write_tree(str(tmp_path), TREE, ".m")
    (tmp_path / "a" / "mine.txt").write_text("x")
    write_tree(str(tmp_path), {"d.txt": Planned("d2\n", PUBLIC)}, ".m")
    assert not (tmp_path / "a" / "b" / "c.lua").exists()
    assert (tmp_path / "a" / "mine.txt").is_file() and (tmp_path / "d.txt").read_text() == "d2\n"


@pytest.mark.parametrize("rel", ["../x", "/abs", "a//b", "a/./b", ""])
def test_a_tree_path_that_is_not_plainly_relative_is_refused(tmp_path: Path, rel: str) -> None:
    with pytest.raises(FluidgenError) as exc:
        write_tree(str(tmp_path / "t"), {"ok.txt": Planned("x", PUBLIC), rel: Planned("x", PUBLIC)}, ".m")
    assert _error(exc) == [(str(tmp_path / "t" / rel), "is not a relative path")]
    assert not (tmp_path / "t").exists()


def test_a_file_where_the_tree_needs_a_folder_is_refused(tmp_path: Path) -> None:
    write_tree(str(tmp_path), {"d.txt": Planned("d\n", PUBLIC)}, ".m")
    (tmp_path / "a").write_text("mine")
    with pytest.raises(FluidgenError) as exc:
        write_tree(str(tmp_path), {"a/b.txt": Planned("x", PUBLIC)}, ".m")
    assert _error(exc) == [(str(tmp_path / "a"), "is a symbolic link or a file where fluidgen writes a directory; "
                                                 "fluidgen does not write through it")]


def test_a_tree_file_it_did_not_write_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    write_tree(str(tmp_path), {"x.txt": Planned("x\n", PUBLIC)}, ".m")
    (tmp_path / "d.txt").write_text("mine")
    with pytest.raises(FluidgenError) as exc:
        write_tree(str(tmp_path), TREE, ".m")
    assert _error(exc) == [(str(tmp_path / "d.txt"), "exists and was not written by fluidgen; fluidgen does not "
                                                     "overwrite it")]
    assert sorted(os.listdir(tmp_path)) == [".m", "d.txt", "x.txt"]  # a/b/c.lua, sorted first, was not written
    assert (tmp_path / "d.txt").read_text() == "mine"


def test_a_tree_file_replaced_by_a_folder_is_refused(tmp_path: Path) -> None:
    write_tree(str(tmp_path), TREE, ".m")
    (tmp_path / "d.txt").unlink()
    (tmp_path / "d.txt").mkdir()
    with pytest.raises(FluidgenError) as exc:
        write_tree(str(tmp_path), TREE, ".m")
    assert _error(exc) == [(str(tmp_path / "d.txt"), "exists and was not written by fluidgen; fluidgen does not "
                                                     "overwrite it")]


def test_a_tree_file_replaced_by_a_link_is_refused(tmp_path: Path) -> None:
    write_tree(str(tmp_path / "t"), TREE, ".m")
    (tmp_path / "victim").write_text("v")
    (tmp_path / "t" / "d.txt").unlink()
    (tmp_path / "t" / "d.txt").symlink_to(tmp_path / "victim")
    with pytest.raises(FluidgenError) as exc:
        write_tree(str(tmp_path / "t"), TREE, ".m")
    assert _error(exc) == [(str(tmp_path / "t" / "d.txt"), "is a symbolic link; fluidgen does not write through or "
                                                           "over it")]
    assert (tmp_path / "victim").read_text() == "v"


def test_a_stale_tree_file_below_a_folder_now_a_link_is_not_removed(tmp_path: Path) -> None:
    write_tree(str(tmp_path / "t"), TREE, ".m")
    victim = tmp_path / "victim"
    (victim / "b").mkdir(parents=True)
    (victim / "b" / "c.lua").write_text("v")
    for p in [tmp_path / "t" / "a" / "b" / "c.lua"]:
        p.unlink()
    (tmp_path / "t" / "a" / "b").rmdir()
    (tmp_path / "t" / "a").rmdir()
    (tmp_path / "t" / "a").symlink_to(victim)
    write_tree(str(tmp_path / "t"), {"d.txt": Planned("d\n", PUBLIC)}, ".m")
    assert (victim / "b" / "c.lua").read_text() == "v"


def test_a_diagnostic_of_the_writer_has_no_line() -> None:
    assert output._refuse(Path("x"), "why").diagnostics == [Diagnostic("x", 0, 0, "error", "why")]
