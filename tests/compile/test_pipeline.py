"""compile/pipeline.py: the wiring of the compile stages. Each spec's settings (Fluid version,
GitOps mode, namespace) come from the spec, else the options, else the defaults, and a namespace
the spec pins against a setting is said; every stage runs and its problems are collected, in
the order of the specs, with a dataset:// reference compiled after the Dataset it names; the
objects are ordered by kind (then spec, then the spec's own order); one object generated twice
(in a spec, across specs, or beside a passed-through manifest) is an error naming both places;
GitOps annotations and lint waivers are written on the objects; --warnings-as-errors turns
warnings (not notes) into errors; the Helm target takes one Alluxio spec."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.base.diagnostics import Diagnostic, FluidgenError
from fluidgen.base.options import Options
from fluidgen.catalog.kinds import FLUX_FORCE_ANNOTATION, FLUX_SUBSTITUTE_ANNOTATION, SYNC_WAVE_ANNOTATION
from fluidgen.compile import pipeline
from fluidgen.compile.gather import Inputs, Passed
from fluidgen.compile.pipeline import CompileResult, compile_document, compile_documents, compile_spec
from fluidgen.io.inputs import Reader
from fluidgen.io.yamlreader import Document, in_memory, load_text
from fluidgen.lint import IGNORE_ANNOTATION
from fluidgen.model.context import BuiltDataset, Context
from fluidgen.spec.spec import parse_spec
from tests.conftest import EXAMPLES

NFS = yaml.safe_load((EXAMPLES / "nfs-imagenet-alluxio.yaml").read_text())  # FG103 warns on its mountOptions
FG103 = ("warning [FG103]: source[0].nfs.mountOptions[9]: generated PersistentVolume/nfs-imagenet "
         "spec.mountOptions.9: conflicting NFS versions (vers=3, nfsvers=4.1); the last one wins, keep only the one "
         "you mean")


def _spec(name: str = "a", namespace: str | None = "default", engine: str = "alluxio", **extra: Any) -> dict[str, Any]:
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": meta,
            "source": [{"name": "d", "uri": "pvc://claim"}],
            "runtime": {"engine": engine, "replicas": 1, "cache": [{"medium": "MEM", "quota": "1Gi"}]}, **extra}


def _doc(data: dict[str, Any], file: str = "a.yaml") -> Document:
    return in_memory(file, data)


def _run(*docs: Document, options: Options | None = None, **inputs: Any) -> CompileResult:
    return compile_documents(Inputs(options or Options(env={}), Reader(), documents=list(docs), **inputs))


def _ids(objects: list[dict[str, Any]]) -> list[str]:
    return [f'{o["kind"]}/{o["metadata"].get("namespace", "")}/{o["metadata"]["name"]}' for o in objects]


def _said(diagnostics: list[Diagnostic]) -> list[str]:
    return [f"{d.file}:{d.line} {d.severity}: {d.message}" for d in diagnostics]


def _context(data: dict[str, Any] | None = None, options: Options | None = None) -> Context:
    doc = _doc(data or _spec())
    return pipeline._context(parse_spec(doc), doc, options or Options(env={}), None)


def _o(kind: str, name: str, namespace: str | None = "default", **body: Any) -> dict[str, Any]:
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "v1", "kind": kind, "metadata": meta, **body}


VIEW = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
        "metadata": {"name": "view", "namespace": "team-b"}, "source": [{"uri": "dataset://team-a/imgs"}],
        "runtime": {"engine": "thin"},
        "workloads": [{"name": "train", "kind": "Job", "image": "busybox", "command": ["ls"]}]}


def _data_dir(objects: list[dict[str, Any]]) -> str:
    job = next(o for o in objects if o["kind"] == "Job")
    env = {e["name"]: e.get("value") for e in job["spec"]["template"]["spec"]["containers"][0]["env"]}
    return str(env["DATA_DIR"])


# --- one spec's settings ----------------------------------------------------------------------


def test_the_specs_own_settings_win_over_the_options() -> None:
    spec = _spec(namespace="team-a", fluid="v1.0.8", gitops="flux")
    _, _, ctx = compile_spec(parse_spec(_doc(spec)), _doc(spec), Options(
        env={}, namespace="other", fluid_version="v1.1.0-dev", gitops="argocd"))
    assert (ctx.namespace, ctx.version, ctx.gitops_mode, ctx.gitops) == ("team-a", "v1.0.8", "flux", True)


def test_the_options_settle_what_the_spec_leaves_and_the_defaults_the_rest() -> None:
    ctx = _context(_spec(namespace=None), Options(env={}, namespace="n", fluid_version="v1.1.0-dev", gitops="argocd"))
    assert (ctx.namespace, ctx.version, ctx.gitops_mode, ctx.hash_names) == ("n", "v1.1.0-dev", "argocd", True)
    ctx = _context(_spec(namespace=None))
    assert (ctx.namespace, ctx.version, ctx.gitops_mode, ctx.gitops, ctx.hash_names) == (
        "default", "v1.0.8", "none", False, False)


def test_hash_names_follow_the_option_when_it_is_given() -> None:
    assert _context(_spec(gitops="argocd"), Options(env={}, hash_names=False)).hash_names is False
    assert _context(_spec(), Options(env={}, hash_names=True)).hash_names is True


def test_the_context_reads_through_the_given_reader_and_compares_keys_as_asked() -> None:
    doc = _doc(_spec())
    reader = Reader()
    ctx = pipeline._context(parse_spec(doc), doc, Options(env={}, keys_compared=True), reader)
    assert ctx.reader is reader and ctx.keys_compared is True
    assert _context().keys_compared is False


def test_a_pinned_namespace_against_a_setting_from_somewhere_is_a_warning_at_the_spec() -> None:
    ctx = _context(_spec(namespace="team-a"), Options(env={}, namespace="prod", namespace_from="FLUIDGEN_NAMESPACE"))
    assert [(d.path, d.severity, d.message) for d in ctx.diagnostics] == [
        (("metadata", "namespace"), "warning", "this spec pins namespace team-a: its objects go there, not to prod "
         "from FLUIDGEN_NAMESPACE (a spec's own metadata.namespace wins; remove it to follow the setting)")]


def test_no_pinned_namespace_warning_for_the_same_namespace_or_a_setting_of_no_source() -> None:
    assert _context(_spec(namespace="prod"), Options(env={}, namespace="prod", namespace_from="-n")).diagnostics == []
    assert _context(_spec(namespace="team-a"), Options(env={}, namespace="prod")).diagnostics == []
    assert _context(_spec(namespace=None), Options(env={}, namespace="prod", namespace_from="-n")).diagnostics == []


def test_credentials_are_read_for_the_fluid_target_only() -> None:
    assert _context(options=Options(env={})).read_credentials is True
    assert _context(options=Options(env={}, target="alluxio-helm")).read_credentials is False
    assert _context(options=Options(env={}, read_credentials=False)).read_credentials is False


# --- one spec's stages --------------------------------------------------------------------------


def test_an_engine_the_fluid_version_lacks_lowers_nothing_and_says_so() -> None:
    """CacheRuntime is not in Fluid v1.0.8 (fluid-src/v1.0.8 api/v1alpha1 has no cacheruntime_types.go;
    master's defines CacheRuntime there)."""
    objects, diagnostics = compile_document(_doc(_spec(engine="cache", fluid="v1.0.8")), Options(env={}))
    assert objects == []
    assert "engine cache is not available in Fluid v1.0.8; Fluid v1.1.0-dev has it" in [d.message for d in diagnostics]


def test_lint_findings_are_reported_silenced_by_the_spec_or_the_options_and_skipped_without_lint() -> None:
    assert [d.render().split(": ", 1)[1] for d in compile_document(_doc(NFS), Options(env={}))[1]] == [FG103]
    assert compile_document(_doc(NFS), Options(env={}, lint=False))[1] == []
    assert compile_document(_doc(NFS), Options(env={}, ignore=frozenset({"FG103"})))[1] == []
    assert compile_document(_doc({**NFS, "lint": {"ignore": ["FG103"]}}), Options(env={}))[1] == []


def test_the_specs_lint_ignore_is_written_on_every_object_the_options_ignore_is_not() -> None:
    objects, _ = compile_document(_doc(_spec(lint={"ignore": ["FG110", "FG102", "FG110"]})), Options(
        env={}, ignore=frozenset({"FG103"})))
    assert [o["metadata"]["annotations"] for o in objects] == [{IGNORE_ANNOTATION: "FG102,FG110"}] * 2
    objects, _ = compile_document(_doc(_spec()), Options(env={}, ignore=frozenset({"FG103"})))
    assert ["annotations" in o["metadata"] for o in objects] == [False, False]


def test_a_profiles_waivers_are_written_on_the_object_they_concern_only() -> None:
    """profiles/alluxio-imagenet.yaml waives FG109 for the fuse.jvmOptions it sets."""
    spec = _spec()
    spec["runtime"]["profile"] = "alluxio-imagenet"
    objects, _ = compile_document(_doc(spec), Options(env={}))
    assert [(o["kind"], o["metadata"].get("annotations")) for o in objects] == [
        ("Dataset", None), ("AlluxioRuntime", {IGNORE_ANNOTATION: "FG109@spec/fuse/jvmOptions"})]


def test_traced_objects_know_their_spec_and_where_their_fields_came_from() -> None:
    doc = _doc(_spec(), "spec.yaml")
    traced: dict[int, Any] = {}
    objects, _ = compile_document(doc, Options(env={}), traced=traced)
    result = CompileResult(objects=objects, traced=traced)
    dataset = objects[0]
    assert result.spec_of(dataset) is doc
    assert result.locate(dataset, ("spec", "mounts", 0, "mountPoint")) == ("spec.yaml", 0, 0, ("source", 0, "uri"))
    stranger = _o("ConfigMap", "c")
    assert result.spec_of(stranger) is None and result.locate(stranger, ("metadata",)) is None


@pytest.mark.parametrize("engine", ["jindo", "goosefs"])
def test_the_helm_target_takes_an_alluxio_spec_only(engine: str) -> None:
    objects, diagnostics = compile_document(_doc(_spec(engine=engine)), Options(env={}, target="alluxio-helm"))
    assert objects == []
    assert [(d.path, d.stage, d.message) for d in diagnostics] == [
        (("runtime", "engine"), "helm", f"--target alluxio-helm needs engine alluxio, not {engine}")]


def test_the_helm_target_writes_no_values_for_a_spec_with_errors() -> None:
    """pvc:// cannot be the chart's root UFS (compile/helm.py): an error, so no values document."""
    objects, diagnostics = compile_document(_doc(_spec()), Options(env={}, target="alluxio-helm"))
    assert objects == [] and "error" in [d.severity for d in diagnostics]


def test_the_helm_target_is_not_applied_after_a_lowering_error() -> None:
    objects, diagnostics = compile_document(_doc(_spec(engine="juicefs")), Options(env={}, target="alluxio-helm"))
    assert [o["kind"] for o in objects] == ["Dataset", "JuiceFSRuntime"]
    assert "JuiceFSRuntime cannot mount pvc:// (it accepts juicefs://)" in [d.message for d in diagnostics]


def test_every_check_runs_on_the_lowered_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """One spec lowering one Dataset twice, with a value the API refuses: the second is named
    generated twice (once: not again as generated by another spec), and the self-check reports both."""
    def lower(ctx: Context) -> list[dict[str, Any]]:
        bad = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset",
               "metadata": {"name": "a", "namespace": "default"}, "spec": {"placement": "Nope"}}
        return [bad, copy.deepcopy(bad)]

    monkeypatch.setattr(pipeline, "_lower", lower)
    result = _run(_doc(_spec(gitops="argocd")), options=Options(env={}, lint=False))
    placement = ("a.yaml:1 error: generated Dataset/a spec.placement: must be one of 'Exclusive', '', 'Shared', "
                 "got 'Nope'")
    assert _said(result.diagnostics) == [
        "a.yaml:1 error: Dataset default/a is generated twice: the spec (a.yaml:1) makes it too; object names must "
        "be unique", placement, placement]
    assert [o["metadata"]["annotations"] for o in result.objects] == [{SYNC_WAVE_ANNOTATION: "1"}] * 2


# --- GitOps annotations ---------------------------------------------------------------------------


def _job(command: list[str], name: str = "train") -> dict[str, Any]:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name},
            "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i", "command": command}]}}}}


def test_argocd_puts_the_sync_wave_of_its_kind_on_every_object() -> None:
    """Waves from catalog/kinds.py: Secrets 0, Dataset and runtime 1, data operations 2, jobs 3
    and any other kind after them."""
    objects = [_o("Secret", "s"), _o("Dataset", "d"), _o("AlluxioRuntime", "d"), _o("DataLoad", "l"), _job(["x"]),
               _o("Unheard", "u")]
    pipeline._for_gitops("argocd", objects)
    assert [o["metadata"]["annotations"] for o in objects] == [
        {SYNC_WAVE_ANNOTATION: w} for w in ("0", "1", "1", "2", "3", "3")]


def test_flux_turns_substitution_off_where_text_holds_a_variable_and_recreates_a_written_job() -> None:
    """A Job's pod template may not change on update (fluid/updates.py UPDATE_RULES): Flux is
    told to re-create it. A Secret without `${` gets neither."""
    job, secret, script = _job(["echo", "${HOME}"]), _o("Secret", "s"), _o("ConfigMap", "c", data={"a": "${X}"})
    pipeline._for_gitops("flux", [job, secret, script])
    assert job["metadata"]["annotations"] == {FLUX_SUBSTITUTE_ANNOTATION: "disabled", FLUX_FORCE_ANNOTATION: "enabled"}
    assert "annotations" not in secret["metadata"]
    assert script["metadata"]["annotations"] == {FLUX_SUBSTITUTE_ANNOTATION: "disabled"}
    plain = _job(["echo", "$HOME"])
    pipeline._for_gitops("flux", [plain])
    assert plain["metadata"]["annotations"] == {FLUX_FORCE_ANNOTATION: "enabled"}


def test_flux_recreates_only_a_training_job_whose_written_fields_are_fixed() -> None:
    """A Job's parallelism may change on update; a PersistentVolume's source may not, but it is
    not a training job (fluid/updates.py UPDATE_RULES, fluid/jobkinds.py WORKLOADS)."""
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"parallelism": 1}}
    volume = _o("PersistentVolume", "pv", None, spec={"nfs": {"server": "s", "path": "/"}})
    pipeline._for_gitops("flux", [job, volume])
    assert "annotations" not in job["metadata"] and "annotations" not in volume["metadata"]


def test_no_gitops_mode_adds_no_annotation() -> None:
    objects = [_job(["${X}"]), _o("Dataset", "d")]
    before = copy.deepcopy(objects)
    pipeline._for_gitops("none", objects)
    assert objects == before


# --- the self-check and what an earlier error explains ---------------------------------------------


def test_the_self_check_reports_generated_objects_at_their_spec_value_and_skips_notes() -> None:
    ctx = _context()
    bad = {"apiVersion": "data.fluid.io/v1alpha1", "kind": "Dataset", "metadata": {"name": "d", "namespace": "default"},
           "spec": {"placement": "Nope"}}
    assert pipeline.self_check(ctx, [bad]) == [Diagnostic(
        "a.yaml", 1, 1, "error", "generated Dataset/d spec.placement: must be one of 'Exclusive', '', 'Shared', got "
        "'Nope'", (), stage="self-check")]
    unknown = {"apiVersion": "example.io/v1", "kind": "Thing", "metadata": {"name": "t"}}  # an info: not checked
    assert pipeline.self_check(ctx, [_o("ConfigMap", "c"), unknown]) == []


def test_a_check_below_an_unread_env_file_is_dropped_as_its_consequence() -> None:
    cause = Diagnostic("a.yaml", 3, 1, "error", "cannot read", ("source", 0, "envFile"), stage="credentials")
    below = Diagnostic("a.yaml", 3, 1, "error", "missing", ("source", 0))
    beside = Diagnostic("a.yaml", 3, 1, "error", "missing", ("source", 1))
    assert pipeline.without_consequences([below, beside], [cause]) == [beside]
    # an envFile that is not here (info: its keys are unknown to the check) explains them too
    absent = Diagnostic("a.yaml", 3, 1, "info", "not here", ("source", 0, "envFile"), stage="credentials")
    assert pipeline.without_consequences([below, beside], [absent]) == [beside]
    for other in (Diagnostic("a.yaml", 3, 1, "error", "e", ("source", 0, "envFile"), stage="lower"),
                  Diagnostic("a.yaml", 3, 1, "error", "e", ("source", 0, "uri"), stage="credentials")):
        assert pipeline.without_consequences([below], [other]) == [below]


def test_a_finding_at_the_spec_itself_is_no_consequence_of_an_unread_env_file() -> None:
    """A finding the origins cannot place is reported at the spec (path ()); () is a prefix of
    every path, so it used to be dropped as a consequence of any unread envFile: a problem of
    another object went unsaid while the promise is that all problems show at once."""
    cause = Diagnostic("a.yaml", 3, 1, "error", "cannot read", ("source", 0, "credentials", "envFile"),
                       stage="credentials")
    whole = Diagnostic("a.yaml", 1, 1, "error", "generated Role/r rules: invalid", (), stage="self-check")
    assert pipeline.without_consequences([whole], [cause]) == [whole]


def test_one_object_generated_twice_by_a_spec_names_the_first_place() -> None:
    ctx = _context()
    objects = [_o("Secret", "s"), _o("Secret", "s", None), _o("Secret", "s"), {"replicas": 1},
               _o("Secret", "s", None)]
    assert pipeline._generated_twice(ctx, objects) == [
        Diagnostic("a.yaml", 1, 1, "error", "Secret default/s is generated twice: the spec (a.yaml:1) makes it too; "
                   "object names must be unique"),
        Diagnostic("a.yaml", 1, 1, "error", "Secret s is generated twice: the spec (a.yaml:1) makes it too; "
                   "object names must be unique")]


def test_every_later_copy_of_an_object_names_the_first_place_that_made_it() -> None:
    ctx = _context()
    copies = [_o("Secret", "s") for _ in range(3)]
    for at, obj in enumerate(copies):
        ctx.origins.add(obj, ("metadata", "name"), ("a.yaml", 10 + at, 3, ("steps", at, "name")))
    said = "Secret default/s is generated twice: steps[0].name (a.yaml:10) makes it too; object names must be unique"
    assert pipeline._generated_twice(ctx, copies) == [
        Diagnostic("a.yaml", 11, 3, "error", said, ("steps", 1, "name")),
        Diagnostic("a.yaml", 12, 3, "error", said, ("steps", 2, "name"))]


# --- many specs -----------------------------------------------------------------------------------


def test_objects_are_ordered_by_kind_then_spec_and_diagnostics_by_spec() -> None:
    result = _run(_doc(_spec("b"), "b.yaml"), _doc(_spec("a"), "a.yaml"))
    assert _ids(result.objects) == ["Dataset/default/b", "Dataset/default/a", "AlluxioRuntime/default/b",
                                    "AlluxioRuntime/default/a"]
    assert (result.specs, result.gitops, result.fluid_versions, result.ok) == (2, {"none"}, {"v1.0.8"}, True)
    assert result.built_for == {("Dataset", "default", "b"): "v1.0.8", ("AlluxioRuntime", "default", "b"): "v1.0.8",
                                ("Dataset", "default", "a"): "v1.0.8", ("AlluxioRuntime", "default", "a"): "v1.0.8"}


def test_a_specs_objects_of_one_kind_stay_together_in_its_order() -> None:
    jobs = [{"name": n, "kind": "Job", "image": "busybox", "command": ["ls"]} for n in ("j2", "j1")]
    result = _run(_doc(_spec("a", workloads=jobs), "a.yaml"), _doc(_spec("b", workloads=jobs[:1]), "b.yaml"))
    assert [n for n in _ids(result.objects) if n.startswith("Job/")] == [
        "Job/default/j2", "Job/default/j1", "Job/default/j2"]


def test_the_diagnostics_keep_the_specs_order_though_a_reference_is_compiled_last() -> None:
    view = {**_spec("view", "team-b", "thin"), "source": [{"uri": "dataset://team-a/other"}],
            "workloads": [{"name": "train", "kind": "Job", "image": "busybox", "command": ["ls"]}]}
    del view["runtime"]["cache"], view["runtime"]["replicas"]
    result = _run(_doc(view, "view.yaml"), _doc(NFS, "nfs.yaml"))
    assert [(d.file, d.severity) for d in result.diagnostics] == [("view.yaml", "warning"), ("nfs.yaml", "warning")]


def test_a_document_that_is_not_a_spec_is_an_error_and_a_near_miss_is_reported_at_its_mistyped_key() -> None:
    config = {"kind": "Config", "apiVersion": "example.com/v1"}
    typo = {**_spec(), "apiVersion": "fluidgen.oi/v1alpha1"}
    kind_typo = {**_spec(), "kind": "CacheDataset"}
    result = _run(_doc(config, "c.yaml"), _doc(typo, "t.yaml"), _doc(kind_typo, "k.yaml"), _doc(_spec(), "a.yaml"))
    assert [(d.file, d.path, d.message) for d in result.diagnostics] == [
        ("c.yaml", (), "not a fluidgen spec (expected apiVersion: fluidgen.io/v1alpha1, kind: CachedDataset)"),
        ("t.yaml", ("apiVersion",), "apiVersion 'fluidgen.oi/v1alpha1' is not fluidgen's; did you mean "
                                    "\"fluidgen.io/v1alpha1\"?"),
        ("k.yaml", ("kind",), "kind 'CacheDataset' is not a fluidgen kind; did you mean \"CachedDataset\"?")]
    assert result.specs == 1 and _ids(result.objects) == ["Dataset/default/a", "AlluxioRuntime/default/a"]


def test_a_spec_that_does_not_parse_is_reported_in_its_place_and_the_others_still_build() -> None:
    bad = {**_spec("b"), "runtime": {"engine": "alluxio", "replicas": "many"}}
    result = _run(_doc(_spec("a"), "a.yaml"), _doc(bad, "b.yaml"), _doc(_spec("c"), "c.yaml"))
    assert [d.file for d in result.diagnostics] and {d.file for d in result.diagnostics} == {"b.yaml"}
    assert result.specs == 2 and not result.ok
    assert _ids(result.objects) == ["Dataset/default/a", "Dataset/default/c", "AlluxioRuntime/default/a",
                                    "AlluxioRuntime/default/c"]


def test_one_object_generated_by_two_specs_is_an_error_at_the_second() -> None:
    result = _run(_doc(_spec("a"), "one.yaml"), _doc(_spec("a"), "two.yaml"))
    assert {d.path for d in result.diagnostics} == {("metadata", "name")}
    assert _said(result.diagnostics) == [
        "two.yaml:0 error: Dataset default/a is also generated by one.yaml; object names must be unique",
        "two.yaml:0 error: AlluxioRuntime default/a is also generated by one.yaml; object names must be unique"]


def test_a_cluster_scoped_object_generated_by_two_specs_is_named_without_a_namespace() -> None:
    result = _run(_doc(NFS, "one.yaml"), _doc({**NFS, "metadata": {"name": "other", "namespace": "default"}},
                                              "two.yaml"), options=Options(env={}, lint=False))
    assert _said(result.diagnostics) == [
        "two.yaml:0 error: PersistentVolume nfs-imagenet is also generated by one.yaml; object names must be unique",
        "two.yaml:0 error: PersistentVolumeClaim default/nfs-imagenet is also generated by one.yaml; object names "
        "must be unique"]


def test_a_spec_whose_lowering_raises_is_reported_in_its_place_and_not_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = pipeline._lower
    refused = Diagnostic("b.yaml", 2, 3, "error", "refused")

    def lower(ctx: Context) -> list[dict[str, Any]]:
        if ctx.doc.file == "b.yaml":
            raise FluidgenError([refused])
        return real(ctx)

    monkeypatch.setattr(pipeline, "_lower", lower)
    result = _run(_doc(_spec("a"), "a.yaml"), _doc(_spec("b"), "b.yaml"), _doc({"kind": "X"}, "c.yaml"))
    assert [d.message for d in result.diagnostics] == [
        "refused", "not a fluidgen spec (expected apiVersion: fluidgen.io/v1alpha1, kind: CachedDataset)"]
    assert result.specs == 1 and _ids(result.objects) == ["Dataset/default/a", "AlluxioRuntime/default/a"]


def test_a_reference_is_compiled_after_the_dataset_it_names_and_finds_its_layout() -> None:
    """A dataset:// reference's volume is the referenced Dataset's plus the subpath (fluid-src/v1.0.8
    pkg/ddc/thin/referencedataset/volume.go createFusePersistentVolume), and Alluxio puts its one
    named mount at /<name> (pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace): a job of
    the reference finds the data at /data/pics only if the referenced spec was compiled first."""
    view = VIEW
    imgs = {**_spec("imgs", "team-a"), "source": [{"uri": "https://example.com/data/", "name": "pics"}]}
    result = _run(_doc(view, "view.yaml"), _doc(imgs, "imgs.yaml"))
    assert [d for d in result.diagnostics if d.severity != "info"] == []
    assert _data_dir(result.objects) == "/data/pics"
    assert _ids(result.objects)[:2] == ["Dataset/team-b/view", "Dataset/team-a/imgs"]  # still in the specs' order


def test_one_document_compiled_alone_sees_the_datasets_it_is_given() -> None:
    """As in the run above: Alluxio puts its one named mount at /<name> (fluid-src/v1.0.8
    pkg/utils/ufs_path_builder.go GenUFSPathInUnifiedNamespace)."""
    objects, diagnostics = compile_document(_doc(VIEW, "view.yaml"), Options(env={}),
                                            datasets={("team-a", "imgs"): BuiltDataset("per-mount", (("pics", None),))})
    assert [d for d in diagnostics if d.severity != "info"] == []
    assert _data_dir(objects) == "/data/pics"


def test_compile_paths_merges_the_overlay_files_in_order_into_one_spec(tmp_path: Path) -> None:
    spec, first, second = tmp_path / "spec.yaml", tmp_path / "o1.yaml", tmp_path / "o2.yaml"
    spec.write_text(yaml.safe_dump(_spec()))
    first.write_text("runtime: {replicas: 2}\n")
    second.write_text("runtime: {replicas: 3}\n")
    result = pipeline.compile_paths([], Options(env={}), overlays=[str(spec), str(first), str(second)])
    assert result.ok, result.diagnostics
    assert [o["spec"].get("replicas") for o in result.objects if o["kind"] == "AlluxioRuntime"] == [3]


def test_a_reference_sees_a_dataset_only_when_its_runtime_was_built_with_it() -> None:
    dataset = {"kind": "Dataset", "metadata": {"name": "d", "namespace": "n"},
               "spec": {"mounts": [{"name": "m", "path": "/p", "mountPoint": "pvc://x"}, "odd"]}}
    assert pipeline._built_datasets([dataset]) == {}
    assert pipeline._built_datasets([dataset, {"kind": "JuiceFSRuntime", "metadata": {"name": "d"}}]) == {
        ("n", "d"): BuiltDataset("root", (("m", "/p"),))}
    assert pipeline._built_datasets([dataset, {"kind": "AlluxioRuntime", "metadata": {"name": "d"}}]) == {
        ("n", "d"): BuiltDataset("per-mount", (("m", "/p"),))}


def test_gathering_that_failed_compiles_nothing_and_reports_its_notes() -> None:
    note = Diagnostic("x.yaml", 0, 0, "error", "cannot read")
    result = _run(_doc(_spec()), notes=[note], complete=False)
    assert (result.objects, result.diagnostics, result.specs) == ([], [note], 0)


def test_gathering_notes_come_first_and_the_problems_of_listed_manifests_after_the_specs() -> None:
    first, last = Diagnostic("p.yaml", 0, 0, "info", "note"), Diagnostic("m.yaml", 0, 0, "error", "after")
    result = _run(_doc(_spec(), "a.yaml"), _doc({"kind": "X"}, "x.yaml"), notes=[first], after=[last])
    assert [d.message for d in result.diagnostics] == [
        "note", "not a fluidgen spec (expected apiVersion: fluidgen.io/v1alpha1, kind: CachedDataset)", "after"]


def test_the_helm_target_takes_one_spec_unless_a_project_builds_them() -> None:
    docs = (_doc(_spec("a"), "a.yaml"), _doc(_spec("b"), "b.yaml"))
    helm = Options(env={}, target="alluxio-helm", lint=False)
    errors = [d for d in _run(*docs, options=helm).diagnostics if d.stage != "helm"]
    assert _said(errors) == ["b.yaml:0 error: --target alluxio-helm writes one values file; give one spec, not 2"]
    assert [d for d in _run(*docs, options=helm, project=True).diagnostics if d.stage != "helm"] == []
    assert [d for d in _run(docs[0], options=helm).diagnostics if d.stage != "helm"] == []


def test_a_whole_document_problem_is_said_where_its_document_starts_not_at_line_1() -> None:
    text = ("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: a}\n"
            "source: [{uri: 'oss://b/a/'}]\nruntime: {engine: alluxio}\n---\n"
            "# the second spec\napiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: b}\n"
            "source: [{uri: 'oss://b/b/'}]\nruntime: {engine: alluxio}\n---\n"
            "kind: NotASpec\n")
    docs = load_text("many.yaml", text)
    helm = Options(env={}, target="alluxio-helm", lint=False)
    said = [f"{d.file}:{d.line}:{d.col} {d.message}" for d in _run(*docs, options=helm).diagnostics
            if d.stage != "helm"]
    assert said == [
        "many.yaml:14:1 not a fluidgen spec (expected apiVersion: fluidgen.io/v1alpha1, kind: CachedDataset)",
        "many.yaml:8:1 --target alluxio-helm writes one values file; give one spec, not 2"]


def test_warnings_as_errors_turns_warnings_into_errors_and_leaves_notes() -> None:
    note = Diagnostic("p.yaml", 0, 0, "info", "note")
    result = _run(_doc(NFS), notes=[note], options=Options(env={}, warnings_as_errors=True))
    assert [(d.severity, d.code) for d in result.diagnostics] == [("info", ""), ("error", "FG103")]
    assert not result.ok


def test_result_ok_fails_on_an_error_only_and_flux_is_one_mode_of_the_specs() -> None:
    assert CompileResult(diagnostics=[Diagnostic("a", 1, 1, "warning", "w")]).ok
    assert not CompileResult(diagnostics=[Diagnostic("a", 1, 1, "error", "e")]).ok
    assert CompileResult(gitops={"none", "flux"}).flux
    assert not CompileResult(gitops={"argocd"}).flux and not CompileResult(gitops={"none"}).flux


# --- passed-through manifests -----------------------------------------------------------------------


def _passed(*objects: dict[str, Any]) -> list[Passed]:
    return [Passed("plain.yaml", list(objects))]


def test_passed_objects_join_the_built_ones_in_kind_order_keeping_their_own() -> None:
    result = _run(_doc(_spec()), passed=_passed(_o("Unheard", "z"), _o("Secret", "s"), _o("Unheard", "y")))
    assert _ids(result.objects) == ["Secret/default/s", "Dataset/default/a", "AlluxioRuntime/default/a",
                                    "Unheard/default/z", "Unheard/default/y"]
    assert result.ok


def test_a_passed_object_a_spec_also_generates_is_an_error_in_the_builds_namespace_too() -> None:
    plain = _passed(_o("Dataset", "a", None), _o("AlluxioRuntime", "a", "default"), _o("Dataset", "a", "other"))
    result = _run(_doc(_spec()), passed=plain, options=Options(env={}, namespace="default"))
    assert _said(result.diagnostics) == [
        "<directory>:0 error: AlluxioRuntime default/a is both generated from a spec and in a plain manifest beside it",
        "<directory>:0 error: Dataset default/a is both generated from a spec and in a plain manifest beside it"]


def test_a_passed_object_without_namespace_is_compared_bare_without_a_build_namespace() -> None:
    built = _o("ClusterRole", "r", None)
    result = CompileResult(objects=[built])
    pipeline._add_passed(result, [_o("ClusterRole", "r", None), _o("Dataset", "a", None)], None)
    assert _said(result.diagnostics) == [
        "<directory>:0 error: ClusterRole r is both generated from a spec and in a plain manifest beside it"]
    result = CompileResult(objects=[built])
    pipeline._add_passed(result, [_o("ClusterRole", "r", None)], "n")  # -n given: compared bare and in n
    assert _said(result.diagnostics) == [
        "<directory>:0 error: ClusterRole r is both generated from a spec and in a plain manifest beside it"]


def test_an_object_in_two_plain_manifests_is_an_error_once() -> None:
    result = CompileResult()
    pipeline._add_passed(result, [_o("ConfigMap", "c", None), _o("ConfigMap", "c", "n"), _o("ConfigMap", "d", "m")],
                         "n")
    assert _said(result.diagnostics) == [
        "<directory>:0 error: ConfigMap n/c is in more than one plain manifest beside the specs"]
    assert len(result.objects) == 3
