"""Every lint rule's own example, linted at each Fluid version the rule holds for, says exactly
what golden/rule-examples.txt holds: the rule's words, its place in the example and its severity
(the docs page shows the example, not what lint says of it). Regenerate with `pytest
tests/features/test_rule_examples.py --update-golden` and read the diff like code."""

from __future__ import annotations

import pytest

from fluidgen.io.yamlreader import load_text
from fluidgen.lint import RULES, lint_manifests
from tests.harness.golden import GOLDEN

EXPECTED = GOLDEN / "rule-examples.txt"


def said() -> str:
    out = []
    for rule in sorted(RULES, key=lambda r: r.id):
        for version in rule.versions:
            docs = load_text(f"{rule.id}.yaml", rule.example.manifest)
            found = lint_manifests([(d, set()) for d in docs], version=version)
            out.append(f"== {rule.id} at {version}")
            out += [d.render() for d in found if d.code == rule.id]  # as the command line says it
    return "\n".join(out) + "\n"


def test_every_rule_says_of_its_example_what_the_golden_file_holds(update_golden: bool) -> None:
    text = said()
    if update_golden:
        EXPECTED.write_text(text)
    assert text == EXPECTED.read_text(), "stale: run pytest tests/features/test_rule_examples.py --update-golden"


@pytest.mark.parametrize("rule", sorted(RULES, key=lambda r: r.id), ids=lambda r: r.id)
def test_every_rule_reports_its_own_example(rule: object) -> None:
    from fluidgen.base.rules import Rule

    assert isinstance(rule, Rule)
    for version in rule.versions:
        docs = load_text(f"{rule.id}.yaml", rule.example.manifest)
        assert rule.id in {d.code for d in lint_manifests([(d, set()) for d in docs], version=version)}, version
