"""fluidgen/diagnosis/findings.py: where a Finding points (file:line:column: path, the file
alone, or the part of the cluster outside the spec), its JSON (objects as a list), and when a
Diagnosis is ok."""

from __future__ import annotations

from fluidgen.diagnosis.findings import OUTSIDE, Diagnosis, Finding


def finding(**place: object) -> Finding:
    return Finding("csi", ("Pod default/train-0",), "FailedMount", "cause", "fix", **place)  # type: ignore[arg-type]


def test_where_is_file_line_column_and_key_path() -> None:
    assert finding(file="s.yaml", line=7, column=3, path="placement.gpu").where() == "s.yaml:7:3: placement.gpu"
    assert finding(file="s.yaml", line=7, column=3).where() == "s.yaml:7:3"


def test_where_without_a_line_is_the_file_and_outside_wins() -> None:
    assert finding(file="s.yaml", path="runtime").where() == "s.yaml: runtime"
    assert finding(file="s.yaml", line=0, column=0).where() == "s.yaml"
    assert finding(file="s.yaml", line=2, column=1, outside=OUTSIDE).where() == "outside the spec: the cluster"


def test_as_json_lists_the_objects_and_keeps_every_field() -> None:
    assert finding(file="s.yaml", line=2, column=1, path="x").as_json() == {
        "family": "csi", "objects": ["Pod default/train-0"], "evidence": "FailedMount", "cause": "cause",
        "fix": "fix", "file": "s.yaml", "line": 2, "column": 1, "path": "x", "outside": None}


def test_a_diagnosis_is_ok_only_without_findings_and_errors() -> None:
    assert Diagnosis().ok
    assert Diagnosis(notes=["no Node in the dump"]).ok
    assert not Diagnosis(findings=[finding()]).ok
    assert not Diagnosis(errors=["s.yaml:1:1: error"]).ok
