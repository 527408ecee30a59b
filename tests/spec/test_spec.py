"""fluidgen/spec/spec.py: the whole spec. parse_spec turns a document into a Spec typed for the
engines it names, or refuses it with every problem located; an engine's section is refused under
another engine; lint.ignore takes only rule IDs; the model is built once per set of engines; and
a document is told apart as a spec, an overlay fragment, a near miss (a mistyped spec, with the
fix) or something else (a manifest, said nothing about)."""

from __future__ import annotations

from typing import Any

import pytest

from fluidgen.base.diagnostics import Diagnostic, FluidgenError
from fluidgen.engines.engine_table import NAMES
from fluidgen.io.yamlreader import Document
from fluidgen.model.specparts import DatasetSection, Placement
from fluidgen.spec import spec
from fluidgen.spec.spec import LintSettings, is_fragment, is_spec, named_engines, near_miss, parse_spec

HEAD = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset", "metadata": {"name": "d"},
        "source": [{"uri": "oss://bucket/"}]}


def _spec(**keys: Any) -> dict[str, Any]:
    return {**HEAD, "runtime": {"engine": "alluxio"}, **keys}


def _refused(data: object) -> list[tuple[tuple[str | int, ...], str]]:
    with pytest.raises(FluidgenError) as info:
        parse_spec(Document("s.yaml", 0, data))
    return [(d.path, d.message) for d in info.value.diagnostics]


# --- parse_spec -------------------------------------------------------------------------------

def test_a_spec_parses_with_the_defaults_of_every_part_left_out() -> None:
    parsed = parse_spec(Document("s.yaml", 0, _spec()))
    assert type(parsed) is spec.spec_model(("alluxio",))
    assert (parsed.fluid, parsed.gitops, parsed.accessModes, parsed.dataflow, parsed.workloads, parsed.lint.ignore,
            parsed.sharedOptions, parsed.sharedCredentials) == (None, None, [], [], [], [], {}, None)
    assert parsed.dataset == DatasetSection(labels={}, annotations={}, owner=None, dataRestoreLocation=None,
                                            overrides={})
    assert parsed.placement == Placement.model_validate({})
    assert (parsed.runtime.engine, parsed.runtime.replicas, parsed.runtime.cache, parsed.runtime.profile,
            parsed.runtime.section("thin"), parsed.runtime.section("cacheClass"), parsed.runtime.section("zzz")) == (
        "alluxio", None, [], None, None, None, None)


@pytest.mark.parametrize(("data", "found"), [([], "a list"), (None, "nothing"), ("CachedDataset", "a string")])
def test_a_document_that_is_not_a_mapping_is_refused_at_its_top(data: object, found: str) -> None:
    with pytest.raises(FluidgenError) as info:
        parse_spec(Document("s.yaml", 0, data))
    assert info.value.diagnostics == [Diagnostic(
        "s.yaml", 1, 1, "error", f"expected a mapping (a CachedDataset spec), found {found}", ())]


def test_every_problem_is_reported_at_its_path() -> None:
    data = _spec(kind="CachedDataset", apiVersion="fluidgen.io/v1alpha2", metadata={"name": "D"},
                 runtime={"engine": "alluxo"})
    assert _refused(data) == [  # in the order of the diagnostics: position, then message (none has a position here)
        (("metadata", "name"), '"D" is not a DNS-1035 label (at most 63 lower-case letters, digits and "-", starting '
                               "with a letter, ending with a letter or digit); Fluid refuses such Dataset and runtime "
                               "names"),
        (("apiVersion",), "expected 'fluidgen.io/v1alpha1', got 'fluidgen.io/v1alpha2'; did you mean "
                          '"fluidgen.io/v1alpha1"?'),
        (("runtime", "engine"), "expected one of 'alluxio', 'jindo', 'juicefs', 'efc', 'thin', 'vineyard', 'goosefs', "
                                "'cache', got 'alluxo'; did you mean \"alluxio\"?")]


def test_an_engines_section_is_typed_by_that_engine_and_refused_under_another() -> None:
    thin = parse_spec(Document("s.yaml", 0, _spec(runtime={"engine": "thin", "thin": {"profileName": "p"}})))
    assert thin.runtime.section("thin").profileName == "p"
    assert _refused(_spec(runtime={"engine": "alluxio", "thin": {"profileName": "p"}})) == [
        (("runtime", "thin"), "only applies to engine thin, not alluxio")]  # at the section's own key
    assert _refused(_spec(runtime={"engine": "thin", "thin": {}})) == [
        (("runtime", "thin"), "give exactly one of profileName (existing) or fileSystemType (generated)")]


def test_a_null_section_of_another_engine_is_no_section() -> None:
    assert parse_spec(Document("s.yaml", 0, _spec(runtime={"engine": "alluxio", "thin": None}))).runtime.engine == \
        "alluxio"


# --- the models -------------------------------------------------------------------------------

def test_a_runtime_model_types_the_sections_of_its_engines_and_nulls_the_others() -> None:
    alluxio = spec.runtime_model(("alluxio",)).model_fields
    assert (alluxio["thin"].annotation, alluxio["cacheClass"].annotation) == (type(None), type(None))
    both = spec.runtime_model(("thin", "cache")).model_fields
    assert type(None) not in (both["thin"].annotation, both["cacheClass"].annotation)
    assert both["thin"].default is None and both["cacheClass"].default is None


def test_each_model_is_built_once_per_set_of_engines_and_the_default_is_every_engine() -> None:
    assert spec.runtime_model(("alluxio",)) is spec.runtime_model(("alluxio",))
    assert spec.spec_model(("alluxio",)) is spec.spec_model(("alluxio",))
    assert spec.spec_model().model_fields["runtime"].annotation is spec.runtime_model(NAMES)


@pytest.mark.parametrize(("runtime", "engines"), [
    ({"engine": "jindo"}, ("jindo",)),
    ({"engine": "cache", "thin": None}, ("thin", "cache")),  # the table's order, not the spec's
    ({"engine": "alluxio", "cacheClass": {}, "replicas": 2}, ("alluxio", "cache")),
    ({"cacheClass": {}, "thin": {}, "engine": "vineyard"}, ("thin", "vineyard", "cache")),
    ({"engine": "alluxo"}, NAMES), ({"engine": 1}, NAMES), ({"engine": ["alluxio"]}, NAMES), ({}, NAMES),
])
def test_the_engines_a_spec_names_are_its_engine_and_the_sections_it_writes(runtime: dict[str, Any],
                                                                             engines: tuple[str, ...]) -> None:
    assert named_engines({"runtime": runtime}) == engines


def test_without_a_runtime_mapping_every_engine_is_named() -> None:
    assert named_engines({}) == NAMES
    assert named_engines({"runtime": "alluxio"}) == NAMES


# --- lint settings ----------------------------------------------------------------------------

def test_lint_ignore_takes_rule_ids() -> None:
    assert LintSettings.model_validate({"ignore": ["FG101", "FG102"]}).ignore == ["FG101", "FG102"]


def test_an_unknown_lint_rule_is_refused_at_its_item_with_a_suggestion() -> None:
    """The item is the one to mend, as for every other list item of a spec."""
    assert _refused(_spec(lint={"ignore": ["fg101", "FG102", 7]})) == [  # every bad item, each at its place
        (("lint", "ignore", 2), "expected a string, found an integer; quote it (write the number in quotes)"),
        (("lint", "ignore", 0), 'unknown lint rule fg101; did you mean "FG101"?; `fluidgen lint --rules` lists them')]


# --- telling documents apart ------------------------------------------------------------------

@pytest.mark.parametrize(("data", "spec_or_not"), [
    ({"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset"}, True),
    ({"apiVersion": "fluidgen.io/v2", "kind": "CachedDataset"}, True),  # a spec: its version is refused with a path
    ({"apiVersion": "fluidgen.iox/v1", "kind": "CachedDataset"}, False),
    ({"apiVersion": "fluidgen.io/v1alpha1", "kind": "Dataset"}, False),
    ({"kind": "CachedDataset"}, False), (["CachedDataset"], False),
])
def test_a_spec_is_a_cached_dataset_of_the_fluidgen_group(data: object, spec_or_not: bool) -> None:
    assert is_spec(data) is spec_or_not


@pytest.mark.parametrize(("data", "fragment"), [
    ({"source": [], "placement": {}}, True),
    ({"runtime": {"engine": "alluxio"}, "kind": "CachedDataset"}, False),  # a whole spec's key
    ({"apiVersion": "v1"}, False), ({}, False), ({"sources": []}, False), ({"source": [], "sources": []}, False),
    ({1: "a"}, False), ([], False),
])
def test_a_fragment_holds_spec_keys_only(data: object, fragment: bool) -> None:
    assert is_fragment(data) is fragment


@pytest.mark.parametrize(("data", "hint"), [
    ({"apiVersion": "fluigen.io/v1alpha1", "kind": "CachedDataset"},
     ("apiVersion", "apiVersion 'fluigen.io/v1alpha1' is not fluidgen's; did you mean \"fluidgen.io/v1alpha1\"?")),
    ({"apiVersion": "example.com/v1", "kind": "CachedDataset"},
     ("apiVersion", "apiVersion 'example.com/v1' is not fluidgen's; write fluidgen.io/v1alpha1")),
    ({"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataSet"},
     ("kind", "kind 'CachedDataSet' is not a fluidgen kind; did you mean \"CachedDataset\"?")),
    ({"apiVersion": "fluigen.io/v1alpha1", "kind": "CachedDatset"},
     ("kind", "kind 'CachedDatset' is not a fluidgen kind; did you mean \"CachedDataset\"?")),
    ({"apiVersion": "fluidgen.io/v1alpha1", "kind": "Pipeline"},
     ("kind", "kind 'Pipeline' is not a fluidgen kind; write CachedDataset")),
])
def test_a_mistyped_spec_is_a_near_miss_told_its_fix(data: dict[str, Any], hint: tuple[str, str]) -> None:
    """The hint names the key that is mistyped: the error is reported at its line."""
    assert near_miss(data) == hint


@pytest.mark.parametrize("data", [
    {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset"},  # a spec
    {"apiVersion": "v1", "kind": "CachedDataset"},  # the core group
    {"apiVersion": "apps/v1", "kind": "CachedDataset"},  # a Kubernetes group without a dot
    {"apiVersion": "data.fluid.io/v1alpha1", "kind": "CachedDataset"},  # Fluid's
    {"apiVersion": "fluid.io/v1", "kind": "CachedDataset"},
    {"apiVersion": "snapshot.storage.k8s.io/v1", "kind": "CachedDataset"},  # a *.k8s.io group
    {"apiVersion": "example.com/v1", "kind": "Pipeline"},  # another CRD: nothing like a spec
    {"apiVersion": "example.com/v1", "kind": "CachedDatasets"},  # another CRD's kind, however close
    {"apiVersion": "example.com/v1", "kind": 3},
    {"kind": "CachedDataset"}, ["CachedDataset"],
])
def test_a_manifest_or_a_spec_is_no_near_miss(data: object) -> None:
    assert near_miss(data) is None


def test_an_api_version_without_its_version_is_a_near_miss_not_a_manifest() -> None:
    """A slash-less apiVersion is a version of the core group (k8s.io/apimachinery/pkg/runtime/schema
    ParseGroupVersion: no "/" is GroupVersion{Version: gv}), and a version has no dot: "v1", never
    "fluidgen.io". `apiVersion: fluidgen.io` is a spec missing its version, not a core manifest."""
    assert near_miss({"apiVersion": "fluidgen.io", "kind": "CachedDataset"}) == (
        "apiVersion", "apiVersion 'fluidgen.io' is not fluidgen's; did you mean \"fluidgen.io/v1alpha1\"?")
