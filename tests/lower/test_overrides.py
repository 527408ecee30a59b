"""lower/overrides.py: `dataset.overrides`, `runtime.overrides` and a step's `overrides`, merged last.

What is held: an override merges into what the spec made (maps merge, an explicit null deletes,
and a null is never judged as a value); a field the kind has in no Fluid version is an error at
the override's own line naming the closest field; a value of the wrong type is an error there
too, and the value, once in the object, is traced to that key; a field a step computes names the
step key to use instead. (A field only another Fluid version has, dropped with FG001, is held by
golden/ok/override-field-of-other-version.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.conftest import run_cli

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo, namespace: ml}
source:
  - {uri: "https://example.com/d/", name: d}
accessModes: [ReadWriteMany]
runtime:
  engine: alluxio
  replicas: 1
  cache: [{medium: MEM, quota: 1Gi}]
  fuse: {nodeSelector: {pool: fuse}}
"""


def write_spec(tmp_path: Path, tail: str) -> Path:
    """SPEC (11 lines), then `tail` from line 12."""
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC + tail)
    return path


def build(path: Path) -> list[dict[str, Any]]:
    result = run_cli("build", str(path))
    assert result.code == 0, result.err
    return list(yaml.safe_load_all(result.out))


def test_an_override_merges_into_the_fields_the_spec_made(tmp_path: Path) -> None:
    docs = build(write_spec(tmp_path, "  overrides:\n    fuse: {args: [fuse, --x]}\n"))
    fuse = next(d for d in docs if d["kind"] == "AlluxioRuntime")["spec"]["fuse"]
    assert fuse["nodeSelector"] == {"pool": "fuse"} and fuse["args"] == ["fuse", "--x"]


def test_an_explicit_null_deletes_and_is_not_judged_as_a_value(tmp_path: Path) -> None:
    """accessModes: null removes the spec's [ReadWriteMany] (Fluid then defaults it); a null
    replicas is no type error."""
    spec = write_spec(tmp_path, "  overrides:\n    master: {replicas: null}\n"
                                "dataset:\n  overrides: {accessModes: null}\n")
    dataset = next(d for d in build(spec) if d["kind"] == "Dataset")
    assert "accessModes" not in dataset["spec"]


def test_a_field_no_fluid_version_has_is_an_error_at_its_line_with_the_closest_name(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "  overrides:\n    fuse:\n      cleanPolcy: OnDemand\ndataset:\n"
                                "  overrides:\n    acessModes: [ReadOnlyMany]\n")
    result = run_cli("build", str(spec))
    assert result.code == 1
    assert (f'{spec}:14:7: error: runtime.overrides.fuse.cleanPolcy: AlluxioRuntime has no field fuse.cleanPolcy; '
            'did you mean "cleanPolicy"? (in runtime.overrides)') in result.err, result.err
    assert (f'{spec}:17:5: error: dataset.overrides.acessModes: Dataset has no field acessModes; did you mean '
            '"accessModes"? (in dataset.overrides)') in result.err, result.err


def test_a_value_of_the_wrong_type_is_an_error_at_the_override_and_traced_there(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "  overrides:\n    master:\n      replicas: two\n")
    result = run_cli("build", str(spec))
    assert result.code == 1
    lines = result.err.splitlines()
    assert f"{spec}:14:7: error: runtime.overrides.master.replicas: expected an integer, found a string" in lines, \
        result.err
    # the finished object's own check finds it too, at the override (trace); the key is said once
    # (pipeline.said_already), in the spec's words
    assert lines == [f"{spec}:14:7: error: runtime.overrides.master.replicas: expected an integer, found a string",
                     "fluidgen: 1 error; nothing was written"], result.err


def test_a_step_override_of_a_computed_field_names_the_step_key(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "dataflow:\n  - load: {paths: [/a]}\n    overrides:\n"
                                "      runAfter: {kind: DataLoad, name: x}\n      target: []\n")
    result = run_cli("build", str(spec))
    assert result.code == 1
    assert (f"{spec}:15:7: error: dataflow[0].overrides.runAfter: set after and affinityStrategy instead; it is "
            "computed from the spec") in result.err, result.err
    assert f"{spec}:16:7: error: dataflow[0].overrides.target: set load.paths instead; it is computed from the spec" \
        in result.err, result.err


def test_a_runtime_override_of_a_field_the_spec_computes_names_the_spec_key(tmp_path: Path) -> None:
    """The classic runtimes' spec.replicas and spec.tieredstore come from runtime.replicas and
    runtime.cache (contract.CLASSIC_COMPUTED): an override of either is an error naming that key,
    and the built runtime keeps the spec's values."""
    spec = write_spec(tmp_path, "  overrides:\n    replicas: 3\n    tieredstore: {levels: []}\n")
    result = run_cli("build", str(spec))
    assert result.code == 1, result.err
    assert (f"{spec}:13:5: error: runtime.overrides.replicas: set runtime.replicas instead; it is computed "
            "from the spec") in result.err, result.err
    assert (f"{spec}:14:5: error: runtime.overrides.tieredstore: set runtime.cache instead; it is computed "
            "from the spec") in result.err, result.err
    good = run_cli("build", str(write_spec(tmp_path, "")))
    built = next(d for d in yaml.safe_load_all(good.out) if d["kind"] == "AlluxioRuntime")["spec"]
    assert built["replicas"] == 1 and built["tieredstore"]["levels"][0]["quota"] == "1Gi"
