"""lower/view.py: the parsed Spec as lowering and the engines read it (model/specview.py).

The context below the engine table carries a SpecView, not spec/spec.py's Spec (issue 39): the
view must hold the Spec's own parts (nothing copied, nothing validated a second time), name the
spec's keys, and say what the engines read off the pydantic model before (`replicas:` written,
the engine's own section)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fluidgen.io.yamlreader import load_text
from fluidgen.lower.view import spec_view
from fluidgen.model.specview import RuntimeView, SpecView
from fluidgen.spec.spec import RuntimeBase, Spec, parse_spec
from tests.conftest import run_cli

THIN = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: imagenet, namespace: team-a, labels: {team: a}}
source:
  - uri: s3://bucket/imagenet
accessModes: [ReadWriteMany]
runtime:
  engine: thin
  labels: {tier: cache}
  cache:
    - {medium: MEM, quota: [1Gi]}
%s  thin:
    fileSystemType: fuse.s3fs
    profile: {fuse: {image: example.com/s3fs}}
dataflow:
  - {name: warm, load: {}}
"""

# What the pipeline reads off the Spec itself, above the context (compile/pipeline.py).
LEFT_ABOVE = {"apiVersion", "kind", "fluid", "gitops", "lint"}
# What the view says that the Spec model said through pydantic (model_fields_set, getattr).
VIEW_ONLY = {"replicas_written", "sections"}


def _parsed(replicas: str = "") -> Spec:
    return parse_spec(load_text("spec.yaml", THIN % replicas)[0])


def test_the_view_is_the_specs_own_parts() -> None:
    spec = _parsed()
    view = spec_view(spec)
    for f in dataclasses.fields(SpecView):
        if f.name != "runtime":
            assert getattr(view, f.name) is getattr(spec, f.name), f.name
    for f in dataclasses.fields(RuntimeView):
        if f.name not in VIEW_ONLY:
            assert getattr(view.runtime, f.name) is getattr(spec.runtime, f.name), f.name
    assert view.metadata.labels == {"team": "a"} and view.runtime.labels == {"tier": "cache"}
    assert view.runtime.section("thin") is spec.runtime.section("thin") is not None
    assert view.runtime.section("thin").fileSystemType == "fuse.s3fs"
    assert dict(view.runtime.sections) == {"thin": spec.runtime.section("thin")}  # no other engine's section
    assert view.runtime.section("profile") is None  # a section, not any attribute of runtime:


def test_the_view_names_the_spec_keys() -> None:
    """Each field of the view is the spec key of that name; every key of `runtime:` is carried;
    of the top-level keys, only those the pipeline reads itself stay out."""
    assert {f.name for f in dataclasses.fields(SpecView)} == set(Spec.model_fields) - LEFT_ABOVE
    assert {f.name for f in dataclasses.fields(RuntimeView)} - VIEW_ONLY == set(RuntimeBase.model_fields)


def test_replicas_written_tells_null_from_absent() -> None:
    """`replicas: null` leaves the workers to Fluid; no `replicas:` takes the engine's default
    (engines/contract.py replicas)."""
    absent, null, two = (spec_view(_parsed(r)).runtime for r in ("", "  replicas: null\n", "  replicas: 2\n"))
    assert (absent.replicas_written, absent.replicas) == (False, None)
    assert (null.replicas_written, null.replicas) == (True, None)
    assert (two.replicas_written, two.replicas) == (True, 2)


REFERENCE = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: shared, namespace: team-b}
source:
  - uri: dataset://team-a/imagenet
runtime:
  engine: thin
%s"""


def test_a_thin_reference_refuses_each_runtime_setting_it_reads(tmp_path: Path) -> None:
    """engines/thin.py _check reads the view's runtime: its section, profile, cache, overrides
    and whether replicas is written (null too); each one given is refused at its key."""
    given = ("  profile: none\n  replicas: null\n  cache:\n    - {medium: MEM, quota: [1Gi]}\n"
             "  overrides: {fuse: {cleanPolicy: OnDemand}}\n  thin: {profileName: s3fs}\n")
    for text, keys in ((given, ["profile", "replicas", "cache", "overrides", "thin"]), ("", [])):
        spec = tmp_path / "ref.yaml"
        spec.write_text(REFERENCE % text)
        result = run_cli("build", str(spec))
        refused = [line.split("runtime.", 1)[1].split(":", 1)[0] for line in result.err.splitlines()
                   if "does not apply to a dataset:// reference" in line]
        assert refused == keys, result.err
        assert result.code == (1 if keys else 0), result.err
