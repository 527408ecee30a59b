"""Structure-aware fuzzing of every compiling path (issue 38): specs mutated from the valid
examples and golden specs with the published JSON schema as the guide (tests/harness/fuzz_specs.py),
run through build, validate --lint, plan against their own output, import of their own output,
the Flux and Argo CD commands and the Python API. Bounded and seeded: case N is the same on
every run. The fast run takes FLUIDGEN_FUZZ_SPECS cases (default 24) per subcommand; the slow
one 300. Whatever the case, no exit 3, no hang, no credential value in a message, a located
message on every failure, output on every success; and at least a third of the cases compile,
so the compile, lowering, lint, plan and cache paths are reached, not only the refusals."""

from __future__ import annotations

import os

import pytest

from tests.conftest import RESULTS
from tests.harness import fuzz_specs

FAST = int(os.environ.get("FLUIDGEN_FUZZ_SPECS", "24"))
SLOW = 300
ALWAYS_OK = {"argocd parameters"}  # lists a project's environments: a spec's content never fails it


def _check(command: str, cases: range) -> fuzz_specs.Row:
    row = fuzz_specs.Row(command)
    for number in cases:
        fuzz_specs.run_case(command, number, row)
    RESULTS.setdefault("structure-aware fuzzing (subcommand: cases, compiled, exit codes, slowest)", {})[
        f"{command} [{cases.start}-{cases.stop})"] = (
        f"{row.cases}, {row.compiled}, {dict(sorted(row.codes.items()))}, {row.slowest:.2f} s")
    assert row.failures == [], row.failures[:5]
    assert row.codes.get(3, 0) == 0 and row.timeouts == 0
    assert row.cases == len(cases)
    assert 3 * row.compiled >= row.cases, (command, row.compiled, row.cases)  # the deep paths are reached
    if command not in ALWAYS_OK:
        assert row.compiled < row.cases, command  # and the refusals too
    return row


@pytest.mark.parametrize("command", fuzz_specs.COMMANDS)
def test_structure_aware_fuzz(command: str) -> None:
    _check(command, range(FAST))


@pytest.mark.slow
@pytest.mark.parametrize("command", fuzz_specs.COMMANDS)
def test_structure_aware_fuzz_many(command: str) -> None:
    _check(command, range(FAST, FAST + SLOW))


def test_the_cases_are_seeded_and_schema_guided() -> None:
    import jsonschema

    assert fuzz_specs.case(7) == fuzz_specs.case(7)
    assert fuzz_specs.case(7) != fuzz_specs.case(8)
    validator = jsonschema.Draft202012Validator(fuzz_specs.SCHEMA)
    valid = sum(validator.is_valid(fuzz_specs.case(n)[1]) for n in range(200))
    assert valid >= 120, valid  # most mutations stay inside what the published schema allows
