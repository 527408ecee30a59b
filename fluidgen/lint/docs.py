"""The rules' documentation, made from the rule units: the table `fluidgen lint --rules`
prints, the same as JSON, and the page docs/rules.md (a test fails when that page is stale;
regenerate it with `python -m pytest tests/lint/test_docs.py --update-golden`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ..base.rules import Rule
from ..base.versions import NAMES
from ..engines.engine_table import INDEX

PAGE_HEADER = """\
# fluidgen lint rules

<!-- Generated from the rule units (fluidgen/base/rules.py; the rules live in fluidgen/lint/ and the
engine modules). Do not edit: run `python -m pytest tests/lint/test_docs.py --update-golden`. -->

The rules run on every `fluidgen build` (each finding reported at the spec value it came from)
and on hand-written manifests with `fluidgen lint` (or `fluidgen validate --lint`).
`fluidgen lint --rules` prints this table.

Silence a rule for one spec with `lint: {ignore: [FG103]}`, for one manifest file with a comment
line `# fluidgen-lint: ignore=FG103,FG109`, for one object with the annotation
`fluidgen.io/lint-ignore: FG103`, or for a run with `--ignore FG103`.
"""

_CODE = re.compile(r"(`[^`]*`)")


def runtime_head(engine: str, name: str = "imagenet", namespace: str = "default") -> str:
    """The first lines of an example runtime of `engine`, up to its `spec:` (the kind read from the
    engine table, where it is written once)."""
    return (f"apiVersion: data.fluid.io/v1alpha1\nkind: {INDEX[engine].kind}\n"
            f"metadata: {{name: {name}, namespace: {namespace}}}\nspec:\n")


def _text(value: str) -> str:
    """Markdown for prose: <, > and | outside code spans are written as entities."""
    parts = _CODE.split(value)
    return "".join(p if p.startswith("`") else p.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                   .replace("|", "&#124;") for p in parts)


def _kinds(rule: Rule) -> str:
    return ", ".join(sorted(rule.kinds)) if rule.kinds else "any"


def _where(rule: Rule) -> str:
    return f"{rule.check.__module__.replace('.', '/')}.py"


def table(rules: Iterable[Rule]) -> str:
    """One line per rule: ID, severity, summary (and the Fluid versions it runs for, when not all)."""
    return "".join(f"{rule.id}  {rule.severity:<7}  {rule.summary}{_only(rule)}\n" for rule in rules)


def _only(rule: Rule) -> str:
    return "" if rule.versions == NAMES else f" (Fluid {', '.join(rule.versions)} only)"


def as_json(rules: Iterable[Rule]) -> str:
    return json.dumps([{
        "id": rule.id, "severity": rule.severity, "summary": rule.summary, "kinds": sorted(rule.kinds),
        "description": rule.description,
        "versions": list(rule.versions),
        "sources": [{"path": s.path, "function": s.function, "versions": list(s.versions)} for s in rule.sources],
        "elsewhere": list(rule.elsewhere),
        "example": {"manifest": rule.example.manifest, "why": rule.example.why},
        "defined_in": _where(rule),
    } for rule in rules], indent=2) + "\n"


def _section(rule: Rule) -> list[str]:
    out = [f"## {rule.id}", "", f"**{_text(rule.summary)}**", "",
           f"{rule.severity} · kinds: {_kinds(rule)} · defined in `{_where(rule)}`", ""]
    if rule.description:
        out += [_text(rule.description), ""]
    if rule.versions != NAMES:
        out += [f"Runs only when the target is Fluid {', '.join(rule.versions)}: what it rests on holds there.", ""]
    rests = [f"- Fluid: `{s.path}` {s.function} ({_versions(s.versions)})" for s in rule.sources]
    rests += [f"- {_text(e)}" for e in rule.elsewhere]
    if rests:
        out += ["Rests on:", "", *rests, ""]
    example = rule.example
    return [*out, "Reported:", "", "```yaml", example.manifest.rstrip("\n"), "```", "", _text(example.why), ""]


def _versions(names: tuple[str, ...]) -> str:
    return "every version fluidgen targets" if names == NAMES else ", ".join(names)


def page(rules: Iterable[Rule]) -> str:
    """docs/rules.md."""
    rules = list(rules)
    lines = [PAGE_HEADER, "| ID | severity | kinds | summary |", "| --- | --- | --- | --- |"]
    lines += [f"| [{r.id}](#{r.id.lower()}) | {r.severity} | {_kinds(r)} | {_text(r.summary)} |" for r in rules]
    lines.append("")
    for rule in rules:
        lines += _section(rule)
    return "\n".join(lines).rstrip("\n") + "\n"
