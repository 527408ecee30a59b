"""Semantic rules over Fluid and core manifests, each with an ID, severity and reason.

The same rules run on compiled output (`fluidgen build`, each finding reported at the spec
value it came from) and on hand-written manifests (`fluidgen lint`). Rules that concern one
engine live in its module (engines/*.py) and are collected here. What only a spec can show
(which engine a Dataset asks for, names derived from spec keys) is checked while lowering,
in lower/mounts.py, lower/runtime.py and the engines' check hooks.

Silence a rule for one spec with `lint: {ignore: [FG103]}`, for one manifest file with a
comment line `# fluidgen-lint: ignore=FG103,FG109`, for one object with the annotation
`fluidgen.io/lint-ignore: FG103` (or at one of its fields and below: `FG109@spec/fuse/jvmOptions`),
or for a run with `--ignore FG103`. fluidgen writes that annotation on what it builds, for the
spec's lint.ignore and its profiles' waivers, so lint of its output agrees with the build.

Every run targets one Fluid version (the spec's `fluid:`, `--fluid-version`): a rule runs only
for the versions its sources hold for (Rule.versions), and reads the version on the index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Protocol

from ..base.diagnostics import Diagnostic, PathT, did_you_mean
from ..base.manifest import Manifest, meta
from ..base.manifest_index import Entry, ManifestIndex
from ..base.rules import Finding, Rule
from ..base.versions import DEFAULT, has
from ..engines import engine_table
from ..engines.engine_table import INDEX, OWNERS, RUNTIME_KINDS
from ..io.yamlreader import Document
from . import fields, fuse_jvm, fuse_mode, references, storage

IGNORE_ANNOTATION = "fluidgen.io/lint-ignore"

GENERIC: tuple[Rule, ...] = (*storage.RULES, *fuse_jvm.RULES, *fuse_mode.RULES, *references.RULES, *fields.RULES)

if TYPE_CHECKING:
    # Every rule (module __getattr__ below): reading it imports every engine.
    RULES: tuple[Rule, ...]


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every rule, generic and each engine's, by ID (imports every engine module)."""
    return tuple(sorted((*GENERIC, *(rule for engine in engine_table.all_engines().values() for rule in engine.rules)),
                        key=lambda r: r.id))


@cache
def rule_ids() -> frozenset[str]:
    return frozenset(r.id for r in all_rules())


_GENERIC_IDS = frozenset(r.id for r in GENERIC)


def is_rule_id(rule_id: str) -> bool:
    """Whether `rule_id` names a rule. The generic rules and the engines imported so far are asked
    first; every engine module is imported only for an ID none of them has."""
    return rule_id in _GENERIC_IDS or any(rule_id == r.id for name in engine_table.loaded()
                                          for r in engine_table.engine(name).rules) or rule_id in rule_ids()


def __getattr__(name: str) -> object:
    if name == "RULES":
        return all_rules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def rules_for(version: str, engines: frozenset[str] | None = None) -> tuple[Rule, ...]:
    """The rules that hold for a Fluid version: the generic ones and those of `engines` (None: every
    engine). An engine's rules speak only where an object of one of its kinds is in the run (its
    runtime bound to the Dataset or the operation they check: contract.py Engine.rules), so a run
    needs the rules of the engines whose kinds it holds, and imports no other engine module."""
    if engines is None:
        return tuple(r for r in all_rules() if version in r.versions)
    chosen = (*GENERIC, *(rule for name in NAMES_ORDER if name in engines for rule in engine_table.engine(name).rules))
    return tuple(r for r in sorted(chosen, key=lambda r: r.id) if version in r.versions)


NAMES_ORDER = engine_table.NAMES


def engines_in(index: ManifestIndex) -> frozenset[str]:
    """The engines that bring a kind among the run's objects."""
    return frozenset(OWNERS[e.kind] for e in index.entries if e.kind in OWNERS)


class Origins(Protocol):
    """Where compiled output came from (model/context.py): the spec location of a generated value,
    and the rules a profile breaks on purpose there."""

    def waived(self, obj: Manifest, path: PathT, rule: str) -> bool: ...

    def locate(self, obj: Manifest, path: PathT) -> tuple[str, int, int, PathT] | None: ...


FILE_DIRECTIVE = re.compile(r"^#\s*fluidgen-lint:\s*ignore=([A-Za-z0-9, ]+)\s*$", re.MULTILINE)


def file_ignores(text: str) -> set[str]:
    """Rule IDs silenced by `# fluidgen-lint: ignore=...` lines in a manifest file."""
    return {i.strip() for m in FILE_DIRECTIVE.finditer(text) for i in m.group(1).split(",") if i.strip()}


def unknown_ids(ids: Iterable[str]) -> list[str]:
    return sorted(i for i in set(ids) if not is_rule_id(i))


def directive_problems(path: str, text: str) -> list[Diagnostic]:
    """Unknown rule IDs in `# fluidgen-lint: ignore=...` lines: a typo would silence nothing."""
    out = []
    for m in FILE_DIRECTIVE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        for rule_id in unknown_ids(i.strip() for i in m.group(1).split(",") if i.strip()):
            out.append(Diagnostic(path, line, 1, "error", f"unknown lint rule {rule_id} in this directive"
                                                          f"{did_you_mean(rule_id, rule_ids())}", stage="lint"))
    return out


@cache
def runtime_kinds_at(version: str) -> frozenset[str]:
    """The runtime kinds Fluid `version` has (an engine removed or not yet added is not one)."""
    return frozenset(row.kind for name, row in INDEX.items() if has(version, name))


def index_of(objects: Iterable[Manifest], version: str = DEFAULT) -> ManifestIndex:
    """The view every rule of one run reads, built once, for the Fluid version the run targets:
    its runtimes are the kinds that version has."""
    return ManifestIndex(objects, runtime_kinds_at(version), version)


def _entries(obj: Manifest) -> list[str]:
    """The annotation's entries: a rule ID (the whole object), or RULE@a/b/c (at spec path a.b.c and
    below, the `/`-separated path a profile's `set:` writes)."""
    annotations = meta(obj).get("annotations")
    value = annotations.get(IGNORE_ANNOTATION, "") if isinstance(annotations, dict) else ""
    return [v.strip() for v in str(value).split(",") if v.strip()]


def _ignored(obj: Manifest) -> set[str]:
    """The rule IDs the annotation silences for the whole object."""
    return {e for e in _entries(obj) if "@" not in e}


def _named(obj: Manifest) -> set[str]:
    """Every rule ID the annotation names (for the unknown-ID check)."""
    return {e.split("@", 1)[0].strip() for e in _entries(obj)}


def _waived_at(obj: Manifest, path: PathT, rule: str) -> bool:
    """Whether the annotation silences `rule` at `path` (RULE@a/b: a finding at a.b or below)."""
    shown = [str(p) for p in path]
    for entry in _entries(obj):
        rule_id, at, where = entry.partition("@")
        parts = where.split("/")
        if at and rule_id.strip() == rule and shown[:len(parts)] == parts:
            return True
    return False


def ignore_annotation(given: str, rules: Iterable[str], waived: Iterable[tuple[str, PathT]]) -> str:
    """The annotation's value for an object fluidgen builds, so that lint of its output agrees with
    the build: `given` (the spec's own value of it), the spec's lint.ignore `rules` (whole object)
    and what its profiles waive where (`waived`: rule, object path; a path that cannot be written
    as RULE@a/b silences the rule for the whole object)."""
    out = [v.strip() for v in given.split(",") if v.strip()]
    out += sorted(rules)
    out += waiver_entries(waived)
    return ",".join(dict.fromkeys(out))


def waiver_entries(waived: Iterable[tuple[str, PathT]]) -> list[str]:
    """The annotation's entries for (rule, object path) waivers: RULE@a/b, or the bare rule (the
    whole object) where a path part cannot be written between `,`, `@` and `/`."""
    out = []
    for rule, path in waived:
        parts = [str(p) for p in path]
        plain = parts and all(p and not set(p) & set(",@/") for p in parts)
        out.append(f"{rule}@{'/'.join(parts)}" if plain else rule)
    return out


def without_waivers(annotations: dict[str, object], entries: Iterable[str]) -> dict[str, object]:
    """`annotations` without these `entries` of IGNORE_ANNOTATION (the key gone when nothing is
    left): what a profile writes again on a build needs no copy in a spec that names the profile."""
    value = annotations.get(IGNORE_ANNOTATION)
    if not isinstance(value, str):
        return dict(annotations)
    drop = set(entries)
    kept = ",".join(e.strip() for e in value.split(",") if e.strip() and e.strip() not in drop)
    rest = {k: v for k, v in annotations.items() if k != IGNORE_ANNOTATION}
    return {**rest, IGNORE_ANNOTATION: kept} if kept else rest


def run_rules(entry: Entry, index: ManifestIndex, ignore: set[str], rules: tuple[Rule, ...]
              ) -> Iterator[tuple[Rule, Finding]]:
    """The findings of `rules` (rules_for the run, computed once per run) for `entry`."""
    if entry.kind in RUNTIME_KINDS and not index.is_runtime(entry):
        return  # a runtime the target version lacks: validation says so, and no rule speaks for it
    skip = ignore | _ignored(entry.obj)
    for rule in rules:
        if rule.id not in skip and rule.applies_to(entry.kind):
            for finding in rule.check(entry, index):
                if not _waived_at(entry.obj, finding.path, rule.id):
                    yield rule, finding


def lint_manifests(docs: list[tuple[Document, set[str]]], context: Iterable[Manifest] = (),
                   version: str = DEFAULT) -> list[Diagnostic]:
    """Rules over hand-written manifests (each with the rule IDs its file silences) meant for Fluid
    `version`, located in their files. `context` holds objects that are not linted but may be
    referred to: what specs among the files compile to, and objects declared to exist elsewhere."""
    linted = [(d, ignore) for d, ignore in docs if isinstance(d.data, dict)]
    index = index_of([*(d.data for d, _ in linted), *context], version)
    out = []
    rules = rules_for(index.version, engines_in(index))
    for (doc, ignore), entry in zip(linted, index.entries, strict=False):
        for rule_id in unknown_ids(_named(entry.obj)):
            out.append(doc.diag(("metadata", "annotations", IGNORE_ANNOTATION), f"unknown lint rule {rule_id}"
                                f"{did_you_mean(rule_id, rule_ids())}", stage="lint"))
        for rule, f in run_rules(entry, index, ignore, rules):
            out.append(doc.diag(f.path, f.message, rule.severity, code=rule.id, stage="lint"))
    return out


def lint_objects(objects: list[Manifest], origins: Origins, doc: Document, ignore: set[str], version: str
                 ) -> list[Diagnostic]:
    """Rules over compiled output for Fluid `version`, reported at the spec value each finding comes from.

    `origins` locates a path in a generated object (file, line, col, spec path) and knows the
    rules a profile setting breaks on purpose (its `waive:`), which are not reported there.
    """
    index = index_of(objects, version)
    out = []
    rules = rules_for(index.version, engines_in(index))
    for entry in index.entries:
        where = f"{entry.kind}/{entry.name}"
        for rule, f in run_rules(entry, index, ignore, rules):
            if origins.waived(entry.obj, f.path, rule.id):
                continue
            found = origins.locate(entry.obj, f.path) or (doc.file, 1, 1, ())
            path: PathT = found[3]
            field = ".".join(map(str, f.path))
            message = f"generated {where} {field}: {f.message}"
            out.append(Diagnostic(found[0], found[1], found[2], rule.severity, message, path, code=rule.id,
                                  stage="lint"))
    return out
