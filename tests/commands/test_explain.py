"""fluidgen/commands/explain.py: `fluidgen explain [PATH]`: with no path the spec itself and its
top-level fields; a DEFAULT line only for a field that has one; [N] indices skipped; an unknown
field a usage error naming where it was looked for and the fields there; the schema file
missing from the installation, the text built from the model all the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.commands import explain as explain_module
from tests.conftest import run_cli

REPLICAS = ("FIELD: runtime.replicas\n"
            "TYPE:  integer or null\n"
            "DEFAULT: null\n"
            "\n"
            "Cache workers (default: the engine's, 1 for all but JuiceFS; null leaves it to Fluid).\n")


def test_no_path_explains_the_spec_and_lists_its_fields() -> None:
    result = run_cli("explain")
    assert result.code == 0 and result.err == ""
    lines = result.out.splitlines()
    assert lines[:4] == ["FIELD: (spec)", "TYPE:  mapping", "", "FIELDS:"]
    fields = [line.split()[0] for line in lines[4:]]
    assert fields[:3] == ["accessModes", "apiVersion", "dataflow"] and "workloads" in fields


def test_a_default_is_shown_only_where_the_schema_has_one() -> None:
    assert run_cli("explain", "runtime.replicas").out == REPLICAS
    name = run_cli("explain", "metadata.name").out
    assert name == ("FIELD: metadata.name\nTYPE:  string\n\n"
                    "Name of the Dataset and its runtime (Fluid requires both to match).\n")


def test_list_indices_in_the_path_are_skipped_but_echoed() -> None:
    indexed = run_cli("explain", "runtime.cache[0].quota").out
    plain = run_cli("explain", "runtime.cache.quota").out
    assert indexed.splitlines()[0] == "FIELD: runtime.cache[0].quota"
    assert indexed.splitlines()[1:] == plain.splitlines()[1:]


@pytest.mark.parametrize(("path", "message"), [
    ("nosuch", 'Error: the spec has no field "nosuch"; fields: accessModes, apiVersion, dataflow, dataset, fluid, '
               "gitops, kind, lint, metadata, placement, runtime, sharedCredentials, sharedOptions, source, workloads"),
    ("runtime.nosuch", 'Error: runtime has no field "nosuch"; fields: annotations, cache, cacheClass, engine, fuse, '
                       "labels, masters, metadataSync, networkMode, overrides, profile, replicas, runAs, thin"),
])
def test_an_unknown_field_names_where_it_was_looked_for_and_the_fields_there(path: str, message: str) -> None:
    result = run_cli("explain", path)
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == message


def test_without_the_schema_file_the_text_comes_from_the_model(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explain_module, "schemas_folder", lambda: str(tmp_path))  # no schema file there
    assert explain_module.explain("runtime.replicas") == REPLICAS
