"""importer/residual.py: what the built spec still misses. patch() gives exactly the merge
that turns the build into the input (null deletes a key the input lacks, scalars compare as
text); a field the target Fluid lacks is named as left out, never dropped silently; a residual
becomes profile settings split where a null deletes; a credential in a generated profile
stops the import by key path; the outcome says the worst that happened."""

from __future__ import annotations

from typing import Any

from fluidgen.importer.objects import Obj, Scenario
from fluidgen.importer.residual import Imported, _leaks, _settings, patch, prune
from fluidgen.io.yamlreader import Document


def _obj(kind: str, spec: Any) -> Obj:
    data = {"apiVersion": "data.fluid.io/v1alpha1", "kind": kind, "metadata": {"name": "d"}, "spec": spec}
    return Obj(data, Document("in.yaml", 0, data))


def test_patch_sets_what_the_build_lacks_and_deletes_what_the_input_lacks() -> None:
    given = {"replicas": 2, "fuse": {"args": ["a"], "cleanPolicy": "OnDemand"}, "master": {}, "same": 8}
    built = {"replicas": 1, "fuse": {"args": ["a"], "image": "x"}, "worker": {"a": 1}, "same": "8"}
    assert patch(given, built) == {"replicas": 2, "fuse": {"cleanPolicy": "OnDemand", "image": None},
                                   "worker": None}


def test_patch_of_equal_values_is_the_same_marker_not_an_empty_patch() -> None:
    assert patch({"a": {"b": True}}, {"a": {"b": "true"}}) is patch(1, "1")
    assert patch({"a": []}, {"a": [1]}) == {"a": []}


def test_a_field_the_target_fluid_lacks_is_named_as_left_out() -> None:
    # AlluxioFuseSpec's shortCircuitPolicy is commented out in v1.0.8's api/v1alpha1/alluxioruntime_types.go:122
    dropped: list[str] = []
    pruned = prune("v1.0.8", _obj("AlluxioRuntime", {"replicas": 1, "fuse": {"shortCircuitPolicy": "x"}}), dropped)
    assert pruned["spec"] == {"replicas": 1, "fuse": {}}
    assert dropped == ["AlluxioRuntime/d: spec.fuse.shortCircuitPolicy is not in Fluid v1.0.8's AlluxioRuntime "
                       "(the API server would prune it); left out"]


def test_a_residual_becomes_settings_split_only_where_a_null_deletes() -> None:
    residual = {"fuse": {"args": ["a"], "resources": {"limits": {"memory": None, "cpu": "1"}}}, "master": {"x": 1}}
    assert _settings(residual) == {"fuse/args": ["a"], "fuse/resources/limits/memory": None,
                                   "fuse/resources/limits/cpu": "1", "master": {"x": 1}}


def test_a_credential_in_the_generated_profile_stops_the_import_by_key_path() -> None:
    imported = Imported(Scenario(_obj("Dataset", {})), {"source": [{"uri": "s3://b/"}]},
                        profile_text="settings:\n- set: {fuse/env: [{name: API_TOKEN, value: tok-123}]}\n")
    found = _leaks(imported)
    assert found == ["settings.0.set.fuse/env.API_TOKEN: looks like a credential value; an import never writes one. "
                     "Move it to a Secret read through encryptOptions in the input (or drop it) and import again"]
    assert "tok-123" not in found[0]


def test_the_outcome_says_the_worst_that_happened() -> None:
    s = Scenario(_obj("Dataset", {}))
    assert Imported(s, {}).outcome == "exact"
    assert Imported(s, {}, overrides=["AlluxioRuntime/d: fuse"]).outcome == "overrides"
    assert Imported(s, {}, overrides=["x"], failures=["y"]).outcome == "failed"
    assert Imported(s, {}, failures=["y"], invalid=True).outcome == "invalid"
    assert Imported(s, {}, invalid=True, incomplete=True).outcome == "incomplete"
