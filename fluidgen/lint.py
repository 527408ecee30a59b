"""Semantic lint rules over Fluid and core manifests, each with an ID, severity and reason.

Silence a rule for one spec with `lint: {ignore: [FG103]}`, for one manifest file with a
comment line `# fluidgen-lint: ignore=FG103,FG109`, for one object with the annotation
`fluidgen.io/lint-ignore: FG103`, or for a run with `--ignore FG103`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, PathT, Severity, did_you_mean
from .quantity import QUANTITY_RE, cpu_to_millis, java_size_to_bytes, quantity_hint, to_bytes
from .source import Document

IGNORE_ANNOTATION = "fluidgen.io/lint-ignore"
RUNTIME_KINDS = frozenset({"AlluxioRuntime", "JindoRuntime", "JuiceFSRuntime", "EFCRuntime", "ThinRuntime",
                           "VineyardRuntime", "GooseFSRuntime"})
SINGLE_TIER = frozenset({"JindoRuntime", "JuiceFSRuntime", "EFCRuntime"})
DNS1035 = re.compile(r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$")
SECRET_OPTION = re.compile(r"(accesskeysecret|secretkey|secret-key|secret_key|password|token|metaurl)$",
                           re.IGNORECASE)
PLACEHOLDER = re.compile(r"<[A-Za-z_][A-Za-z0-9_ -]*>")
MEMORY_CLIENT_CACHE_LIMIT = 1800 * 2**20


@dataclass(frozen=True)
class Finding:
    path: PathT
    message: str


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    reason: str
    check: Callable[[dict[str, Any], list[dict[str, Any]]], Iterator[Finding]]


def _strings(value: Any, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*path, i))
    elif isinstance(value, str):
        yield path, value


def plain_credentials(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "Dataset":
        return
    spec = obj.get("spec") or {}
    for i, mount in enumerate(spec.get("mounts") or []):
        for key in (mount.get("options") or {}):
            if SECRET_OPTION.search(key):
                yield Finding(("spec", "mounts", i, "options", key),
                              f"credential {key} is in plain options; move it to encryptOptions backed "
                              "by a Secret (fluidgen: credentials.fromEnv/fromFile)")
    for key in (spec.get("sharedOptions") or {}):
        if SECRET_OPTION.search(key):
            yield Finding(("spec", "sharedOptions", key), f"credential {key} is in plain sharedOptions; "
                                                          "use sharedEncryptOptions")


def placeholders(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    for path, text in _strings(obj):
        match = PLACEHOLDER.search(text)
        if match:
            yield Finding(path, f"placeholder {match.group(0)} was never filled in")


def nfs_version_conflict(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "PersistentVolume":
        return
    options = (obj.get("spec") or {}).get("mountOptions") or []
    versions = [(i, o.split("=", 1)[1]) for i, o in enumerate(options)
                if isinstance(o, str) and o.split("=", 1)[0] in ("vers", "nfsvers") and "=" in o]
    if len({v for _, v in versions}) > 1:
        said = ", ".join(options[i] for i, _ in versions)
        yield Finding(("spec", "mountOptions", versions[-1][0]),
                      f"conflicting NFS versions ({said}); the last one wins, keep only the one you mean")


def runtime_binding(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") not in RUNTIME_KINDS:
        return
    meta = obj.get("metadata") or {}
    datasets = [o for o in objects if o.get("kind") == "Dataset"]
    if not datasets:
        return
    key = (meta.get("namespace"), meta.get("name"))
    if key not in {((d.get("metadata") or {}).get("namespace"), (d.get("metadata") or {}).get("name"))
                   for d in datasets}:
        yield Finding(("metadata", "name"), f"no Dataset named {meta.get('name')} in namespace "
                                            f"{meta.get('namespace') or '(default)'}; Fluid binds a runtime "
                                            "to the Dataset with the same namespace and name")


def dns_names(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") in RUNTIME_KINDS | {"Dataset"}:
        name = str((obj.get("metadata") or {}).get("name", ""))
        if not DNS1035.match(name):
            yield Finding(("metadata", "name"), f'"{name}" is not a DNS-1035 label; Fluid will not '
                                                "reconcile this object")


def watermarks(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    levels = (((obj.get("spec") or {}).get("tieredstore") or {}).get("levels")) or []
    for i, level in enumerate(levels):
        try:
            high, low = float(level.get("high", "nan")), float(level.get("low", "nan"))
        except (TypeError, ValueError):
            continue
        if high <= low:
            yield Finding(("spec", "tieredstore", "levels", i, "low"),
                          f"low watermark {level['low']} must be below high watermark {level['high']}")


def _fuse(obj: dict[str, Any]) -> dict[str, Any]:
    fuse = (obj.get("spec") or {}).get("fuse")
    return fuse if isinstance(fuse, dict) else {}


def _fuse_opts(obj: dict[str, Any]) -> list[tuple[int, str]]:
    out = []
    for i, arg in enumerate(_fuse(obj).get("args") or []):
        if isinstance(arg, str):
            body = arg.split("=", 1)[1] if arg.startswith("--fuse-opts=") else arg.removeprefix("-o")
            out += [(i, o.strip()) for o in body.split(",")]
    return out


def fuse_direct_io(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    for i, opt in _fuse_opts(obj):
        if opt == "direct_io":
            yield Finding(("spec", "fuse", "args", i), "direct_io disables the page cache and read-ahead "
                                                       "and is unstable under heavy IO; use kernel_cache")


def kernel_cache_needs_jni(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "AlluxioRuntime":
        return
    props = {**((obj.get("spec") or {}).get("properties") or {}), **(_fuse(obj).get("properties") or {})}
    for i, opt in _fuse_opts(obj):
        if opt == "kernel_cache" and props.get("alluxio.fuse.jnifuse.enabled") != "true":
            yield Finding(("spec", "fuse", "args", i), "kernel_cache needs the JNI FUSE; set "
                                                       'alluxio.fuse.jnifuse.enabled: "true"')


def client_cache_size(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    spec = obj.get("spec") or {}
    for base, props in ((("spec", "properties"), spec.get("properties")),
                        (("spec", "fuse", "properties"), _fuse(obj).get("properties"))):
        if not isinstance(props, dict) or props.get("alluxio.user.client.cache.store.type") != "MEMORY":
            continue
        size = props.get("alluxio.user.client.cache.size", "512MB")
        parsed = java_size_to_bytes(str(size).removesuffix("B").removesuffix("b"))
        if parsed is not None and parsed > MEMORY_CLIENT_CACHE_LIMIT:
            yield Finding((*base, "alluxio.user.client.cache.size"),
                          f"a MEMORY client cache of {size} lives on the JVM heap; keep it within 1800MB")


def _components(obj: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    spec = obj.get("spec") or {}
    for name in ("master", "worker", "fuse", "jobMaster", "jobWorker"):
        comp = spec.get(name)
        if isinstance(comp, dict):
            yield name, comp


def _jvm_flag(options: list[Any], flag: str) -> tuple[int, str] | None:
    found = None
    for i, opt in enumerate(options):
        if isinstance(opt, str) and opt.startswith(flag):
            found = (i, opt[len(flag):])
    return found


def processor_count(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    for name, comp in _components(obj):
        found = _jvm_flag(comp.get("jvmOptions") or [], "-XX:ActiveProcessorCount=")
        limit = ((comp.get("resources") or {}).get("limits") or {}).get("cpu")
        if found is None or limit is None or not found[1].isdigit():
            continue
        millis = cpu_to_millis(limit)
        if millis is not None and int(found[1]) * 1000 > millis:
            yield Finding(("spec", name, "jvmOptions", found[0]),
                          f"ActiveProcessorCount={found[1]} is above the {name} CPU limit ({limit}); "
                          "the JVM sizes thread pools for CPUs it cannot use")


def jvm_memory_budget(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    spec = obj.get("spec") or {}
    for name, comp in _components(obj):
        limit = ((comp.get("resources") or {}).get("limits") or {}).get("memory")
        if limit is None:
            continue
        options = comp.get("jvmOptions") or []
        parts = {}
        for flag, label in (("-Xmx", "heap"), ("-XX:MaxDirectMemorySize=", "direct memory")):
            found = _jvm_flag(options, flag)
            size = java_size_to_bytes(found[1]) if found else None
            if size:
                parts[label] = size
        if name == "worker":
            for level in ((spec.get("tieredstore") or {}).get("levels")) or []:
                if level.get("mediumtype") == "MEM" and level.get("volumeType") == "emptyDir":
                    with contextlib.suppress(ValueError):
                        parts["MEM tier"] = int(to_bytes(level.get("quota", 0)))
        try:
            budget = int(to_bytes(str(limit)))
        except ValueError:
            continue
        if parts and sum(parts.values()) > budget:
            used = " + ".join(f"{k} {v / 2**30:.1f}GiB" for k, v in parts.items())
            yield Finding(("spec", name, "resources", "limits", "memory"),
                          f"{used} exceeds the {name} memory limit {limit}; the container will be OOM-killed")


def _levels(obj: dict[str, Any]) -> list[Any]:
    levels = (((obj.get("spec") or {}).get("tieredstore") or {}).get("levels")) or []
    return levels if isinstance(levels, list) else []


def _quota_problems(level: dict[str, Any], separator: str) -> Iterator[tuple[str, str]]:
    paths = [p for p in str(level.get("path", "")).split(separator) if p]
    quota, quota_list = level.get("quota"), level.get("quotaList")
    if quota is None and quota_list is None:
        yield "quota", "set quota or quotaList; Fluid refuses a level with neither"
    if isinstance(quota, str) and not QUANTITY_RE.match(quota):
        yield "quota", quantity_hint(quota)
    if isinstance(quota_list, str):
        items = [q.strip() for q in quota_list.split(",")]
        if len(items) < 2:
            yield "quotaList", f'quotaList "{quota_list}" holds one value; use quota for a single size'
        elif quota_list != ",".join(items) or not all(QUANTITY_RE.match(q) for q in items):
            yield "quotaList", f'quotaList "{quota_list}" must be sizes joined by "," with no spaces'
        elif paths and len(items) != len(paths):
            yield "quotaList", f"{len(items)} quotas for {len(paths)} paths; give one quota per path"


def quota_forms(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    separator = ":" if obj.get("kind") == "JuiceFSRuntime" else ","
    for i, level in enumerate(_levels(obj)):
        if isinstance(level, dict):
            for key, message in _quota_problems(level, separator):
                yield Finding(("spec", "tieredstore", "levels", i, key), message)


def single_tier(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") in SINGLE_TIER and len(_levels(obj)) > 1:
        yield Finding(("spec", "tieredstore", "levels", 1),
                      f"{obj['kind']} only uses the first tieredstore level; the others are ignored")


def juicefs_byte_quota(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "JuiceFSRuntime":
        return
    for i, level in enumerate(_levels(obj)):
        quota = level.get("quota") if isinstance(level, dict) else None
        if isinstance(quota, int) and quota < 2**20:
            yield Finding(("spec", "tieredstore", "levels", i, "quota"),
                          f"quota {quota} is in bytes, so the JuiceFS cache-size becomes {quota >> 20} MiB; "
                          f"did you mean {quota}Mi?")


def _mounts(obj: dict[str, Any]) -> list[Any]:
    mounts = ((obj.get("spec") or {}).get("mounts")) or [] if obj.get("kind") == "Dataset" else []
    return [m for m in mounts if isinstance(m, dict)] if isinstance(mounts, list) else []


def mount_uniqueness(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    seen: dict[tuple[str, str], int] = {}
    for i, m in enumerate(_mounts(obj)):
        name = str(m.get("name", ""))
        for label, value in (("name", name), ("path", str(m.get("path") or f"/{name}"))):
            if value and (label, value) in seen:
                yield Finding(("spec", "mounts", i, label if label in m else "mountPoint"),
                              f'mount {label} "{value}" is also used by mounts[{seen[(label, value)]}]')
            seen.setdefault((label, value), i)


def reference_dataset_alone(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    mounts = _mounts(obj)
    for i, m in enumerate(mounts):
        if str(m.get("mountPoint", "")).startswith("dataset://") and len(mounts) > 1:
            yield Finding(("spec", "mounts", i, "mountPoint"),
                          "a dataset:// mount must be the only mount of its Dataset")


def fuse_metadata_timeouts(obj: dict[str, Any], _: list[dict[str, Any]]) -> Iterator[Finding]:
    opts = _fuse_opts(obj)
    names = {o.split("=", 1)[0] for _, o in opts}
    if "kernel_cache" in names:
        missing = [n for n in ("attr_timeout", "entry_timeout") if n not in names]
        if missing:
            where = next(i for i, o in opts if o == "kernel_cache")
            yield Finding(("spec", "fuse", "args", where),
                          f"kernel_cache without {' and '.join(missing)} keeps the 1 s default, so every "
                          "file is looked up again each second; 7200 suits read-only training data")


def secret_key_names(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    from .lower import ENGINES

    if obj.get("kind") != "Dataset":
        return
    meta = obj.get("metadata") or {}
    runtime = next((o for o in objects if o.get("kind") in RUNTIME_KINDS
                    and (o.get("metadata") or {}).get("name") == meta.get("name")
                    and (o.get("metadata") or {}).get("namespace") == meta.get("namespace")), None)
    engine = next((e for e in ENGINES.values() if runtime and e.kind == runtime.get("kind")), None)
    if engine is None:
        return
    for i, m in enumerate(_mounts(obj)):
        scheme = str(m.get("mountPoint", "")).partition("://")[0].lower()
        expected = engine.secret_keys.get(scheme)
        for j, option in enumerate(m.get("encryptOptions") or []):
            name = option.get("name") if isinstance(option, dict) else None
            if expected and name not in expected and engine.name != "juicefs":
                hint = did_you_mean(str(name), expected)
                yield Finding(("spec", "mounts", i, "encryptOptions", j, "name"),
                              f"{engine.kind} does not read {name} for {scheme}:// (it reads "
                              f"{', '.join(sorted(expected))}){hint}")


def jindo_args_drop_root_ns(obj: dict[str, Any], objects: list[dict[str, Any]]) -> Iterator[Finding]:
    if obj.get("kind") != "JindoRuntime" or not _fuse(obj).get("args"):
        return
    meta = obj.get("metadata") or {}
    for d in objects:
        dmeta = d.get("metadata") or {}
        same = (dmeta.get("name"), dmeta.get("namespace")) == (meta.get("name"), meta.get("namespace"))
        if d.get("kind") == "Dataset" and same and any(m.get("path") for m in _mounts(d)):
            yield Finding(("spec", "fuse", "args"),
                          "fuse.args replaces Fluid's JindoFuse defaults, including the -oroot_ns=jindo it adds "
                          "for mounts that set path; add it to fuse.args or drop the mount path")


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
        for path, text in _strings(doc.data):
            if text == value:
                return path
    return ("runtime",) if obj["kind"] in RUNTIME_KINDS else ()
