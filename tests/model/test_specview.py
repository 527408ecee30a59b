"""model/specview.py: what lowering and the engines read of a spec (SpecView, RuntimeView).

tests/lower/test_view.py holds that the view is the Spec's own parts under the spec's key names.
What is held here: the view cannot be rebound, so no engine hook can swap a part of the spec
for the hooks after it (SpecView and RuntimeView are frozen); and an engine without a section
of its own (Alluxio) sees none, so section() of any key is None.
"""

from __future__ import annotations

import dataclasses

import pytest

from fluidgen.io.yamlreader import load_text
from fluidgen.lower.view import spec_view
from fluidgen.model.specview import SpecView
from fluidgen.spec.spec import parse_spec

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo, namespace: ml}
source: [{uri: "https://e.com/d/"}]
runtime: {engine: alluxio, cache: [{medium: MEM, quota: 1Gi}]}
"""


def view() -> SpecView:
    return spec_view(parse_spec(load_text("spec.yaml", SPEC)[0]))


def test_a_spec_view_cannot_be_rebound() -> None:
    v = view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.accessModes = ["ReadWriteMany"]  # type: ignore[misc]


def test_a_runtime_view_cannot_be_rebound() -> None:
    runtime = view().runtime
    with pytest.raises(dataclasses.FrozenInstanceError):
        runtime.replicas = 5  # type: ignore[misc]


def test_an_engine_without_a_section_of_its_own_sees_none() -> None:
    runtime = view().runtime
    assert dict(runtime.sections) == {}
    assert runtime.section("alluxio") is None and runtime.section("thin") is None
