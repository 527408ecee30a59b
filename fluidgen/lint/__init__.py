"""Semantic lint rules over Fluid and core manifests, each with an ID, severity and reason.

Silence a rule for one spec with `lint: {ignore: [FG103]}`, for one manifest file with a
comment line `# fluidgen-lint: ignore=FG103,FG109`, for one object with the annotation
`fluidgen.io/lint-ignore: FG103`, or for a run with `--ignore FG103`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..diagnostics import Diagnostic, PathT
from ..source import Document
from .base import RUNTIME_KINDS, Finding, Rule, walk_strings
from .fuse_jvm import (
    client_cache_size,
    fuse_direct_io,
    fuse_metadata_timeouts,
    jindo_args_drop_root_ns,
    jvm_memory_budget,
    kernel_cache_needs_jni,
    processor_count,
)
from .storage import (
    dns_names,
    juicefs_byte_quota,
    mount_uniqueness,
    nfs_version_conflict,
    placeholders,
    plain_credentials,
    quota_forms,
    reference_dataset_alone,
    reference_dataset_engine,
    reference_dataset_spec,
    runtime_binding,
    secret_key_names,
    single_tier,
    thin_profile_drops_ro,
    watermarks,
)

IGNORE_ANNOTATION = "fluidgen.io/lint-ignore"


RULES: tuple[Rule, ...] = (
    Rule("FG101", "error", "credentials in plain options are stored unencrypted and shown by kubectl",
         plain_credentials),
    Rule("FG102", "error", "a <placeholder> from documentation is not a real value", placeholders),
    Rule("FG103", "warning", "vers= and nfsvers= disagree; mount.nfs silently keeps the last one",
         nfs_version_conflict),
    Rule("FG104", "error", "runtime and Dataset must share namespace and name to bind", runtime_binding),
    Rule("FG105", "error", "Fluid requires DNS-1035 names for Datasets and runtimes", dns_names),
    Rule("FG106", "error", "the low watermark must be below the high one", watermarks),
    Rule("FG107", "warning", "direct_io bypasses the page cache (AlluxioFuse tuning guide)", fuse_direct_io),
    Rule("FG108", "warning", "kernel_cache is only supported by the JNI-based AlluxioFuse", kernel_cache_needs_jni),
    Rule("FG109", "warning", "ActiveProcessorCount above the CPU limit oversizes JVM thread pools",
         processor_count),
    Rule("FG110", "error", "JVM heap + direct memory (+ MEM tier) must fit the memory limit", jvm_memory_budget),
    Rule("FG111", "warning", "a MEMORY client cache above 1800MB stresses the FUSE JVM heap", client_cache_size),
    Rule("FG112", "error", "quota/quotaList must be valid sizes, one per cache path", quota_forms),
    Rule("FG113", "error", "Jindo, JuiceFS and EFC use only the first cache tier", single_tier),
    Rule("FG114", "error", "mount names and paths must be unique within a Dataset", mount_uniqueness),
    Rule("FG115", "error", "a dataset:// reference must be the Dataset's only mount", reference_dataset_alone),
    Rule("FG116", "warning", "kernel_cache wants long attr/entry timeouts (AlluxioFuse tuning guide)",
         fuse_metadata_timeouts),
    Rule("FG117", "warning", "a plain-integer JuiceFS quota is bytes and is rounded down to MiB", juicefs_byte_quota),
    Rule("FG118", "warning", "each runtime reads fixed encryptOption names per storage type", secret_key_names),
    Rule("FG119", "warning", "JindoRuntime fuse.args replace Fluid's defaults, including -oroot_ns",
         jindo_args_drop_root_ns),
    Rule("FG120", "error", "a dataset:// reference is served by a ThinRuntime, not another engine",
         reference_dataset_engine),
    Rule("FG121", "warning", "Fluid ignores the ThinRuntime spec of a dataset:// reference", reference_dataset_spec),
    Rule("FG122", "warning", "ThinRuntimeProfile fuse.options replace the ro Fluid adds for read-only datasets",
         thin_profile_drops_ro),
)


RULE_IDS = frozenset(r.id for r in RULES)


FILE_DIRECTIVE = re.compile(r"^#\s*fluidgen-lint:\s*ignore=([A-Z0-9, ]+)\s*$", re.MULTILINE)


def file_ignores(text: str) -> set[str]:
    """Rule IDs silenced by `# fluidgen-lint: ignore=...` lines in a manifest file."""
    return {i.strip() for m in FILE_DIRECTIVE.finditer(text) for i in m.group(1).split(",") if i.strip()}


def _ignored(obj: dict[str, Any]) -> set[str]:
    value = ((obj.get("metadata") or {}).get("annotations") or {}).get(IGNORE_ANNOTATION, "")
    return {v.strip() for v in str(value).split(",") if v.strip()}


def run_rules(obj: dict[str, Any], objects: list[dict[str, Any]], ignore: set[str]) -> Iterator[tuple[Rule, Finding]]:
    skip = ignore | _ignored(obj)
    for rule in RULES:
        if rule.id not in skip:
            for finding in rule.check(obj, objects):
                yield rule, finding


def lint_manifests(docs: list[Document], ignore: set[str]) -> list[Diagnostic]:
    """Rules over hand-written manifests, located in their files."""
    objects = [d.data for d in docs if isinstance(d.data, dict)]
    out = []
    for doc in docs:
        if isinstance(doc.data, dict):
            for rule, f in run_rules(doc.data, objects, ignore):
                out.append(doc.diag(f.path, f.message, rule.severity, code=rule.id, stage="lint"))
    return out


def lint_objects(objects: list[dict[str, Any]], doc: Document, ignore: set[str]) -> list[Diagnostic]:
    """Rules over compiled output, reported against the spec that produced it."""
    out = []
    for obj in objects:
        where = f"{obj['kind']}/{obj['metadata']['name']}"
        for rule, f in run_rules(obj, objects, ignore):
            path = ".".join(map(str, f.path))
            at = _spec_location(doc, obj, f)
            out.append(doc.diag(at, f"generated {where} {path}: {f.message}", rule.severity, code=rule.id,
                                stage="lint"))
    return out


def _spec_location(doc: Document, obj: dict[str, Any], finding: Finding) -> PathT:
    """Where in the spec a finding on generated output comes from, as closely as known."""
    value: Any = obj
    for part in finding.path:
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int):
            value = value[part]
        else:
            value = None
    if isinstance(value, str):
        for path, text in walk_strings(doc.data):
            if text == value:
                return path
    return ("runtime",) if obj["kind"] in RUNTIME_KINDS else ()
