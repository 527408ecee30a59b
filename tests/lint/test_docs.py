"""The rules as documented units: `fluidgen lint --rules` and docs/rules.md come from them."""

from __future__ import annotations

import difflib
import json

import pytest

from fluidgen.base.rules import Rule
from fluidgen.base.versions import NAMES
from fluidgen.engines.engine_table import RUNTIME_KINDS
from fluidgen.io.yamlreader import load_text
from fluidgen.lint import RULES, lint_manifests
from fluidgen.lint.docs import _text, page
from tests.conftest import ROOT, run_cli

PAGE = ROOT / "docs" / "rules.md"


def test_rules_page_is_fresh(update_golden: bool) -> None:
    text = page(RULES)
    if update_golden:
        PAGE.write_text(text)
    committed = PAGE.read_text() if PAGE.exists() else ""
    if committed != text:
        diff = "".join(difflib.unified_diff(committed.splitlines(True), text.splitlines(True), "docs/rules.md",
                                            "generated"))
        pytest.fail(f"docs/rules.md is stale (run pytest tests/lint/test_docs.py --update-golden):\n{diff}")


def test_page_has_every_rule_once() -> None:
    text = page(RULES)
    for rule in RULES:
        assert text.count(f"\n## {rule.id}\n") == 1
        assert f"| [{rule.id}](#{rule.id.lower()}) | {rule.severity} |" in text


def test_page_escapes_markup_outside_code() -> None:
    text = page(RULES)
    assert "a &lt;placeholder&gt; from documentation" in text  # FG102's summary is not an HTML tag
    assert _text("a & b < c | d `<x> & y`") == "a &amp; b &lt; c &#124; d `<x> & y`"


def test_rules_flag_prints_the_table() -> None:
    listed = run_cli("lint", "--rules")
    assert listed.code == 0 and listed.err == ""
    lines = listed.out.splitlines()
    assert [line.split()[0] for line in lines] == [r.id for r in RULES]
    for rule, line in zip(RULES, lines, strict=True):
        only = "" if rule.versions == NAMES else f" (Fluid {', '.join(rule.versions)} only)"
        assert line == f"{rule.id}  {rule.severity:<7}  {rule.summary}{only}"
    assert "a DataLoad on a CacheRuntime needs its class to declare DataLoad (Fluid v1.1.0-dev only)" in listed.out


def test_rules_flag_as_json_carries_the_documentation() -> None:
    listed = run_cli("lint", "--rules", "--format", "json")
    assert listed.code == 0
    got = json.loads(listed.out)
    assert [r["id"] for r in got] == [r.id for r in RULES]
    for entry, rule in zip(got, RULES, strict=True):
        assert entry["summary"] == rule.summary and entry["description"] == rule.description
        assert [s["path"] for s in entry["sources"]] == [s.path for s in rule.sources]
        assert entry["versions"] == list(rule.versions)
        assert entry["defined_in"].startswith("fluidgen/") and (ROOT / entry["defined_in"]).is_file()
        assert (entry["severity"], entry["kinds"]) == (rule.severity, sorted(rule.kinds))
        assert entry["sources"] == [{"path": s.path, "function": s.function, "versions": list(s.versions)}
                                    for s in rule.sources]
        assert entry["example"] == {"manifest": rule.example.manifest, "why": rule.example.why}
        assert entry["elsewhere"] == list(rule.elsewhere)  # the sources outside Fluid, e.g. FG102's POSIX
        assert set(entry) == {"id", "severity", "summary", "kinds", "description", "versions", "sources",
                              "elsewhere", "example", "defined_in"}
    assert listed.out == json.dumps(got, indent=2) + "\n"  # two-space JSON, one document


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_rule_is_documented(rule: Rule) -> None:
    assert rule.summary and rule.description.strip() and len(rule.description) > len(rule.summary)
    assert rule.sources or rule.elsewhere, "name the Fluid code (or what outside Fluid) the rule rests on"
    assert rule.example.manifest.strip() and rule.example.why.strip()


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_example_is_reported_by_its_rule(rule: Rule) -> None:
    """The documented example is real: linted as a manifest file for each Fluid version the rule
    holds for, the rule reports it."""
    docs = load_text(f"{rule.id}.yaml", rule.example.manifest)
    assert docs and all(isinstance(d.data, dict) for d in docs)
    assert rule.versions, "no Fluid version holds every fact the rule rests on"
    for version in rule.versions:
        found = lint_manifests([(d, set()) for d in docs], version=version)
        assert rule.id in {d.code for d in found}, (version, [str(d) for d in found])
    assert "FG102" not in {d.code for d in found} or rule.id == "FG102", "an example holds no <placeholder>"


def test_rules_declare_the_kinds_they_read() -> None:
    """A rule given kinds is never called for another kind (the runner skips it)."""
    by_id = {r.id: r for r in RULES}
    assert by_id["FG114"].kinds == frozenset({"Dataset"}) and not by_id["FG114"].applies_to("AlluxioRuntime")
    assert by_id["FG105"].applies_to("anything")
    assert by_id["FG104"].kinds == RUNTIME_KINDS
