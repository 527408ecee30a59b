from __future__ import annotations

import json

import jsonschema
import yaml

from fluidgen.specschema import spec_schema_text

from .conftest import EXAMPLES, ROOT

SCHEMA_FILE = ROOT / "schemas" / "fluidgen-spec.v1alpha1.json"


def test_published_schema_is_fresh(update_golden: bool) -> None:
    text = spec_schema_text()
    if update_golden:
        SCHEMA_FILE.write_text(text)
    assert SCHEMA_FILE.read_text() == text, "run pytest --update-golden to refresh schemas/"


def test_examples_validate_against_published_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text())
    for example in sorted(EXAMPLES.glob("*.yaml")):
        for doc in yaml.safe_load_all(example.read_text()):
            jsonschema.validate(doc, schema)
