"""The spec's JSON Schema, generated from the pydantic models (never hand-edited)."""

from __future__ import annotations

import json

SCHEMA_ID = "https://fluidgen.io/schemas/fluidgen-spec.v1alpha1.json"


def spec_schema_text() -> str:
    from .spec import Spec

    schema = Spec.model_json_schema(by_alias=True)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
              "title": "fluidgen CachedDataset spec (fluidgen.io/v1alpha1)", **schema}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
