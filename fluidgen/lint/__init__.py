"""Semantic rules over Fluid and core manifests, each with an ID, severity and reason.

The same rules run on compiled output (`fluidgen build`, each finding reported at the spec
value it came from) and on hand-written manifests (`fluidgen lint`). Rules that concern one
engine live in its module (engines/*.py) and are collected here. What only a spec can show
(which engine a Dataset asks for, names derived from spec keys) is checked while lowering,
in lower/mounts.py, lower/runtime.py and the engines' check hooks.

Silence a rule for one spec with `lint: {ignore: [FG103]}`, for one manifest file with a
comment line `# fluidgen-lint: ignore=FG103,FG109`, for one object with the annotation
`fluidgen.io/lint-ignore: FG103`, or for a run with `--ignore FG103`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ..diagnostics import Diagnostic, PathT, did_you_mean
from ..engine_table import ENGINES, REFERENCE_ENGINE
from ..fluidsource import source
from ..manifest import kind_of, meta
from ..rules import Example, Finding, Object, Rule
from ..yamlreader import Document
from .fuse_jvm import client_cache_size, fuse_direct_io, fuse_metadata_timeouts, jvm_memory_budget, processor_count
from .fuse_mode import fuse_mode_follows_access_modes
from .references import (
    collides_with_fluid,
    credential_facts,
    operation_references,
    operation_ttl,
    reference_engine,
    runtime_binding,
)
from .storage import (
    distinct_media,
    dns_names,
    mount_uniqueness,
    negative_resources,
    nfs_version_conflict,
    placeholders,
    plain_credentials,
    quota_forms,
    reference_dataset_alone,
    single_tier,
    watermarks,
)

IGNORE_ANNOTATION = "fluidgen.io/lint-ignore"

GENERIC: tuple[Rule, ...] = (
    Rule("FG101", "error", "credentials in plain options are stored unencrypted and shown by kubectl",
         plain_credentials),
    Rule("FG102", "error", "a <placeholder> from documentation is not a real value", placeholders),
    Rule("FG103", "warning", "vers= and nfsvers= disagree; mount.nfs silently keeps the last one",
         nfs_version_conflict),
    Rule("FG104", "error", "a runtime binds to the Dataset with its namespace and name", runtime_binding),
    Rule("FG105", "error", "names the API server accepts; DNS-1035 labels for Datasets and runtimes (Fluid)",
         dns_names),
    Rule("FG106", "error", "the low watermark must be below the high one", watermarks),
    Rule("FG107", "warning", "direct_io bypasses the page cache (AlluxioFuse tuning guide)", fuse_direct_io),
    Rule("FG109", "warning", "ActiveProcessorCount above the CPU limit oversizes JVM thread pools",
         processor_count),
    Rule("FG110", "error", "JVM heap + direct memory (+ MEM tier) must fit the memory limit", jvm_memory_budget),
    Rule("FG111", "warning", "a MEMORY client cache above 1800MB stresses the FUSE JVM heap", client_cache_size),
    Rule("FG112", "error", "quota/quotaList must be positive sizes, one per cache path", quota_forms),
    Rule("FG113", "error", "Jindo, JuiceFS and EFC use only the first cache tier", single_tier),
    Rule("FG114", "error", "mount names and paths must be unique within a Dataset", mount_uniqueness),
    Rule("FG115", "error", "a dataset:// reference must be the Dataset's only mount", reference_dataset_alone),
    Rule("FG120", "error", f"a dataset:// reference is served by a {REFERENCE_ENGINE.kind}, not another engine",
         reference_engine),
    Rule("FG116", "warning", "kernel_cache wants long attr/entry timeouts (AlluxioFuse tuning guide)",
         fuse_metadata_timeouts),
    Rule("FG118", "error", "each runtime reads fixed credential names per storage, and needs complete sets",
         credential_facts),
    Rule("FG125", "error", "a data operation runs in its Dataset's namespace, after an operation that exists",
         operation_references),
    Rule("FG126", "error", "names Fluid's controllers create for a Dataset, runtime or operation are taken",
         collides_with_fluid),
    Rule("FG127", "error", "each cache medium appears in one tieredstore level", distinct_media),
    Rule("FG129", "error", "resource requests and limits cannot be negative", negative_resources),
    Rule("FG130", "warning", "Fluid deletes an operation after its TTL, and a GitOps app re-creates and re-runs it",
         operation_ttl),
    Rule("FG131", "warning", "FUSE ro/rw follows the Dataset's access modes, as in Fluid's own FUSE args",
         fuse_mode_follows_access_modes,
         description="Fluid mounts the FUSE of Alluxio and JindoCache ro when the Dataset names "
                     "ReadOnlyMany (or no access mode) and rw otherwise, but only in the default args that "
                     "a runtime's fuse.args replace. Args without ro make a read-only Dataset writable "
                     "through FUSE; args with ro make every write to a ReadWriteMany Dataset fail.",
         sources=(source("pkg/utils/dataset.go", "GetAccessModesOfDataset"),
                  source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultFuse"),
                  source("pkg/ddc/jindocache/transform.go", "transformFuseArg")),
         example=Example(manifest=(
             "apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {name: d}\n"
             "spec: {mounts: [{mountPoint: 'oss://b/p', name: d}]}\n---\n"
             f"apiVersion: data.fluid.io/v1alpha1\nkind: {ENGINES['alluxio'].kind}\nmetadata: {{name: d}}\n"
             "spec: {fuse: {args: [fuse, '--fuse-opts=kernel_cache,attr_timeout=7200']}}\n"),
             why="the Dataset is read-only (no accessModes), but the args leave out ro"),
         kinds=frozenset()),
)

RULES: tuple[Rule, ...] = tuple(sorted(
    (*GENERIC, *(rule for engine in ENGINES.values() for rule in engine.rules)), key=lambda r: r.id))
RULE_IDS = frozenset(r.id for r in RULES)

FILE_DIRECTIVE = re.compile(r"^#\s*fluidgen-lint:\s*ignore=([A-Za-z0-9, ]+)\s*$", re.MULTILINE)


def file_ignores(text: str) -> set[str]:
    """Rule IDs silenced by `# fluidgen-lint: ignore=...` lines in a manifest file."""
    return {i.strip() for m in FILE_DIRECTIVE.finditer(text) for i in m.group(1).split(",") if i.strip()}


def unknown_ids(ids: Iterable[str]) -> list[str]:
    return sorted(set(ids) - RULE_IDS)


def directive_problems(path: str, text: str) -> list[Diagnostic]:
    """Unknown rule IDs in `# fluidgen-lint: ignore=...` lines: a typo would silence nothing."""
    out = []
    for m in FILE_DIRECTIVE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        for rule_id in unknown_ids(i.strip() for i in m.group(1).split(",") if i.strip()):
            out.append(Diagnostic(path, line, 1, "error", f"unknown lint rule {rule_id} in this directive"
                                                          f"{did_you_mean(rule_id, RULE_IDS)}", stage="lint"))
    return out


def _ignored(obj: Object) -> set[str]:
    annotations = meta(obj).get("annotations")
    value = annotations.get(IGNORE_ANNOTATION, "") if isinstance(annotations, dict) else ""
    return {v.strip() for v in str(value).split(",") if v.strip()}


def run_rules(obj: Object, objects: list[Object], ignore: set[str]) -> Iterator[tuple[Rule, Finding]]:
    skip = ignore | _ignored(obj)
    for rule in RULES:
        if rule.id not in skip:
            for finding in rule.check(obj, objects):
                yield rule, finding


def lint_manifests(docs: list[tuple[Document, set[str]]], context: Iterable[Object] = ()) -> list[Diagnostic]:
    """Rules over hand-written manifests (each with the rule IDs its file silences), located in
    their files. `context` holds objects that are not linted but may be referred to: what specs
    among the files compile to, and objects declared to exist elsewhere."""
    objects = [d.data for d, _ in docs if isinstance(d.data, dict)] + list(context)
    out = []
    for doc, ignore in docs:
        if isinstance(doc.data, dict):
            for rule_id in unknown_ids(_ignored(doc.data)):
                out.append(doc.diag(("metadata", "annotations", IGNORE_ANNOTATION), f"unknown lint rule {rule_id}"
                                    f"{did_you_mean(rule_id, RULE_IDS)}", stage="lint"))
            for rule, f in run_rules(doc.data, objects, ignore):
                out.append(doc.diag(f.path, f.message, rule.severity, code=rule.id, stage="lint"))
    return out


def lint_objects(objects: list[Object], origins: Any, doc: Document, ignore: set[str]) -> list[Diagnostic]:
    """Rules over compiled output, reported at the spec value each finding comes from.

    `origins` locates a path in a generated object (file, line, col, spec path) and knows the
    rules a profile setting breaks on purpose (its `waive:`), which are not reported there.
    """
    out = []
    for obj in objects:
        where = f"{kind_of(obj)}/{meta(obj).get('name')}"
        for rule, f in run_rules(obj, objects, ignore):
            if origins.waived(obj, f.path, rule.id):
                continue
            found = origins.locate(obj, f.path) or (doc.file, 1, 1, ())
            path: PathT = found[3]
            field = ".".join(map(str, f.path))
            message = f"generated {where} {field}: {f.message}"
            out.append(Diagnostic(found[0], found[1], found[2], rule.severity, message, path, code=rule.id,
                                  stage="lint"))
    return out
