"""fluidgen's built-in model of the Fluid API agrees with the real CRDs of every version.

Three ways: field by field (every property, required key, enum, pattern, bound and format,
embedded Kubernetes types included); by generated documents, valid ones and single
mutations at every depth, which must get the same verdict from the built-in model and from
the CRDs; and the structural validator against the jsonschema package as an oracle.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from fluidgen.base import versions
from fluidgen.base.structural.validate import Validator
from fluidgen.catalog import schemas
from fluidgen.fluid.common import GROUP_VERSION
from tests.conftest import RESULTS
from tests.harness.differential import Generator

INTERNAL = {"AdvancedStatefulSet"}  # workload.fluid.io, Fluid's own; no user writes it
KEYWORDS = ("enum", "pattern", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "format")


def _crd_spec(crds: dict[str, Any], version: str, kind: str) -> dict[str, Any]:
    """The CRD's spec, or for a kind whose fields sit beside metadata, those fields."""
    whole: dict[str, Any] = crds[version].schemas[(GROUP_VERSION, kind)]
    if not schemas.kinds(version)[kind].top_level:
        spec: dict[str, Any] = whole["properties"]["spec"]
        return spec
    body = {k: v for k, v in whole["properties"].items() if k not in ("apiVersion", "kind", "metadata")}
    return {**whole, "properties": body}


def _type(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = [k for k in kind if k != "null"]
        return kind[0] if len(kind) == 1 else tuple(kind)
    return kind


def _compare(v: Validator, ours: dict[str, Any], theirs: dict[str, Any], path: str, out: list[str]) -> None:
    ours = dict(v.resolve(ours))
    for key in KEYWORDS:
        if ours.get(key) != theirs.get(key):
            out.append(f"{path}: {key} {ours.get(key)!r} != {theirs.get(key)!r}")
    int_or_string = theirs.get("x-kubernetes-int-or-string") or "anyOf" in theirs
    if not int_or_string and _type(ours) != _type(theirs) and {_type(ours), _type(theirs)} != {None, "object"}:
        out.append(f"{path}: type {_type(ours)!r} != {_type(theirs)!r}")
    a, b = ours.get("properties") or {}, theirs.get("properties") or {}
    if set(a) != set(b):
        out.append(f"{path}: only built-in {sorted(set(a) - set(b))}, only CRD {sorted(set(b) - set(a))}")
    if set(ours.get("required", ())) != set(theirs.get("required", ())):
        out.append(f"{path}: required {ours.get('required')} != {theirs.get('required')}")
    for name in sorted(set(a) & set(b)):
        _compare(v, a[name], b[name], f"{path}.{name}", out)
    for key in ("items", "additionalProperties"):
        if isinstance(ours.get(key), dict) and isinstance(theirs.get(key), dict):
            _compare(v, ours[key], theirs[key], f"{path}[{key}]", out)
        elif isinstance(ours.get(key), dict) != isinstance(theirs.get(key), dict):
            # a schema on one side only (an `items` left out reads as "anything" to the validator)
            out.append(f"{path}: {key} {ours.get(key)!r} != {theirs.get(key)!r}")
        elif (ours.get(key) is False) != (theirs.get(key) is False) and path.count(".") > 0:
            out.append(f"{path}: {key} {ours.get(key)!r} != {theirs.get(key)!r}")


@pytest.mark.parametrize("version", versions.NAMES)
def test_every_crd_kind_is_modelled(version: str, crds: dict[str, Any]) -> None:
    in_crds = {k for (_, k) in crds[version].schemas} - INTERNAL
    assert set(schemas.kinds(version)) == in_crds


@pytest.mark.parametrize("version", versions.NAMES)
def test_builtin_model_matches_crds_field_by_field(version: str, crds: dict[str, Any]) -> None:
    problems: list[str] = []
    for kind in sorted(schemas.kinds(version)):
        v = schemas.spec_validator(version, kind)
        _compare(v, v.schema, _crd_spec(crds, version, kind), kind, problems)
    assert problems == []


def _differential(version: str, kind: str, crds: dict[str, Any], count: int) -> dict[str, int]:
    theirs_schema = _crd_spec(crds, version, kind)
    theirs = Validator(theirs_schema)
    ours = schemas.spec_validator(version, kind)
    gen = Generator(seed=sum(map(ord, version + kind)))
    tally = {"valid": 0, "mutated": 0, "mutated-rejected": 0, "deepest": 0, "disagreements": 0,
             "generator-invalid": 0}
    failures: list[str] = []
    for _ in range(count):
        doc = gen.value(theirs_schema)
        verdicts = (ours.valid(doc), theirs.valid(doc))
        tally["valid"] += 1
        if not verdicts[1]:
            tally["generator-invalid"] += 1
        if verdicts[0] != verdicts[1]:
            tally["disagreements"] += 1
            failures.append(f"valid doc: built-in {verdicts[0]} CRD {verdicts[1]}: {theirs.problems(doc)[:2]}")
        mutated = gen.mutate(theirs_schema, doc)
        if mutated is None:
            continue
        tally["mutated"] += 1
        tally[mutated.kind] = tally.get(mutated.kind, 0) + 1
        tally["deepest"] = max(tally["deepest"], len(mutated.path))
        verdicts = (ours.valid(mutated.document), theirs.valid(mutated.document))
        tally["mutated-rejected"] += not verdicts[1]
        if verdicts[0] != verdicts[1]:
            tally["disagreements"] += 1
            failures.append(f"{mutated.kind} at {mutated.path}: built-in {verdicts[0]} CRD {verdicts[1]}")
    assert failures == [], failures[:5]
    return tally


KINDS = [(v, k) for v in versions.NAMES for k in sorted(schemas.kinds(v))]


@pytest.mark.parametrize(("version", "kind"), KINDS, ids=[f"{v}-{k}" for v, k in KINDS])
def test_differential_quick(version: str, kind: str, crds: dict[str, Any]) -> None:
    tally = _differential(version, kind, crds, 25)
    assert tally["generator-invalid"] == 0


@pytest.mark.slow
@pytest.mark.parametrize(("version", "kind"), KINDS, ids=[f"{v}-{k}" for v, k in KINDS])
def test_differential_thousands(version: str, kind: str, crds: dict[str, Any]) -> None:
    count = int(os.environ.get("FLUIDGEN_DIFFERENTIAL_COUNT", "1000"))
    tally = _differential(version, kind, crds, count)
    RESULTS.setdefault("differential", {})[f"{version} {kind}"] = tally
    assert tally["disagreements"] == 0 and tally["generator-invalid"] == 0
    assert tally["mutated-rejected"] == tally["mutated"]  # every mutation broke the document


@pytest.mark.slow
@pytest.mark.parametrize("version", versions.NAMES)
def test_validator_agrees_with_jsonschema(version: str, crds: dict[str, Any]) -> None:
    """The structural validator against an independent implementation, on the CRD schemas."""
    import jsonschema

    checker = jsonschema.FormatChecker()
    checker.checks("int32")(lambda v: not isinstance(v, int) or -(2**31) <= v < 2**31)
    checker.checks("int64")(lambda v: not isinstance(v, int) or -(2**63) <= v < 2**63)
    disagreements = []
    for kind in sorted(schemas.kinds(version)):
        schema = _crd_spec(crds, version, kind)
        oracle = jsonschema.Draft202012Validator(schema, format_checker=checker)
        ours = Validator(schema)
        gen = Generator(seed=7)
        for _ in range(150):
            doc = gen.value(schema)
            for candidate in (doc, getattr(gen.mutate(schema, doc), "document", doc)):
                if ours.valid(candidate) != oracle.is_valid(candidate):
                    disagreements.append((kind, list(oracle.iter_errors(candidate))[:1]))
    assert disagreements == []
