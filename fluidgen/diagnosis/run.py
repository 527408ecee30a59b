"""`fluidgen diagnose`: compile the specs as `build` does (same target options, so the names
expected are the names generated, each field with the spec place it came from), read the dump,
run every failure family, and say what was not judged and why.

Exit 0 when nothing is wrong, 1 otherwise (a finding, a spec that does not compile, a dump that
cannot be read or holds nothing the specs build). `--collect` runs exactly one read-only
kubectl command (COLLECT_VERBS: `get`) and diagnoses what it prints.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from ..base.diagnostics import Diagnostic
from ..base.options import Options
from ..compile.pipeline import CompileResult, compile_paths
from ..engines.engine_table import BY_KIND
from ..fluid.jobkinds import WORKLOADS
from ..fluid.operations import OPERATIONS
from ..io.inputs import Reader
from .cluster import Cluster, key_of, label
from .dump import FLUID_SYSTEM, Dump, Redactor, from_objects, read_dump, read_logs
from .findings import Diagnosis, Finding
from .rules import FAMILY_RULES, Run

FLUID_GROUP = "data.fluid.io"
CORE = ("pods", "persistentvolumeclaims", "persistentvolumes", "daemonsets.apps", "statefulsets.apps", "jobs.batch",
        "events", "nodes")
COLLECT_TIMEOUT = 120  # seconds
MAX_FINDINGS = 200  # findings shown; the rest are counted


def diagnose(result: CompileResult, dump: Dump, logs_dir: str | None = None,
             logs: Mapping[str, str] | None = None) -> Diagnosis:
    """The findings for a compiled build and a dump read (notes: what was not judged, and why)."""
    errors = [d.render() for d in result.diagnostics if d.severity == "error"]
    errors += [d.render() for d in dump.problems]
    if errors:
        return Diagnosis([], [], errors)
    cluster = Cluster(result, dump)
    pods = [key_of(p)[2] for p, _ in cluster.pods()]
    found_logs = dict(logs) if logs is not None else read_logs(logs_dir, pods)
    redact = Redactor(dump.secret_values)
    run = Run(cluster, found_logs, redact)
    findings: list[Finding] = []
    for rule in FAMILY_RULES:
        findings += rule(run)
    notes = [redact.text(n, limit=2000) for n in _notes(cluster, dump, found_logs, logs_dir)]
    if not any(k in cluster.live for k in cluster.generated):
        errors.append("the dump holds none of the objects these specs build (namespace "
                      f"{', '.join(sorted(cluster.namespaces)) or '?'}): collect the right namespace and context, "
                      "or give the same -n/--env as the build")
    findings = _merged(findings)
    if len(findings) > MAX_FINDINGS:
        notes.append(f"{len(findings) - MAX_FINDINGS} more findings not shown")
        findings = findings[:MAX_FINDINGS]
    return Diagnosis(findings, notes, errors)


def namespaces(result: CompileResult) -> set[str]:
    """The namespaces the build puts objects in: the ones a dump is judged in."""
    return {str(o["metadata"].get("namespace")) for o in result.objects
            if isinstance(o.get("metadata"), dict) and o["metadata"].get("namespace")}


def _merged(findings: list[Finding]) -> list[Finding]:
    """One finding per family, cause, evidence shape and place: pods of one StatefulSet with one
    problem are one finding naming every pod."""
    by: dict[tuple[str, str, str, str], Finding] = {}
    for f in findings:
        key = (f.family, f.cause, f.where(), f.fix)
        if key in by:
            old = by[key]
            by[key] = Finding(old.family, tuple(dict.fromkeys((*old.objects, *f.objects))), old.evidence, old.cause,
                              old.fix, old.file, old.line, old.column, old.path, old.outside)
        else:
            by[key] = f
    return sorted(by.values(), key=lambda f: (f.file or "~", f.line or 0, f.family, f.objects))


def _notes(cluster: Cluster, dump: Dump, logs: Mapping[str, str], logs_dir: str | None) -> list[str]:
    notes = []
    missing = [label(k) for k in sorted(cluster.generated) if k not in cluster.live and k[0] != "Secret"]
    if missing:
        notes.append(f"not in the dump, not judged: {', '.join(missing[:20])}"
                     + (f" and {len(missing) - 20} more" if len(missing) > 20 else ""))
    elsewhere, unknown = cluster.unexplained()
    if elsewhere:
        notes.append("objects in namespaces these specs do not build into, not judged: "
                     + ", ".join(f"{ns} ({n})" for ns, n in elsewhere.items()))
    if unknown:
        notes.append("objects these specs did not generate (nor Fluid for them), not judged: "
                     + ", ".join(f"{kind} ({n})" for kind, n in unknown.items()))
    if dump.skipped:
        notes.append(f"{dump.skipped} documents of the dump are not Kubernetes objects, skipped")
    if dump.dropped:
        notes.append(f"the dump has more than {len(dump.objects)} objects: {dump.dropped} not read (collect one "
                     "namespace)")
    if not cluster.of_kind("Node"):
        notes.append("no nodes in the dump: scheduling findings cannot compare with node labels")
    if logs_dir is not None and not logs:
        notes.append(f"no <pod>.log in {logs_dir} for the pods of these specs")
    return notes


# The command -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiagnoseArgs:
    specs: tuple[str, ...]
    cluster: tuple[str, ...]
    options: Options
    overlays: tuple[str, ...] = ()
    environment: str | None = None
    logs: str | None = None
    collect: bool = False
    fmt: str = "text"


def collect_command(result: CompileResult) -> list[str]:
    """The one kubectl command `--collect` runs: `get` (read-only) of the kinds these specs
    build, what Fluid and Kubernetes make for them, and the nodes, in every namespace (fluid-system
    holds the CSI plugin; other namespaces are counted and not judged), as JSON."""
    kinds = sorted({_resource(str(o.get("kind"))) for o in result.objects if "metadata" in o} - {""})
    return ["kubectl", "get", ",".join([*kinds, *CORE]), "--all-namespaces", "-o", "json"]


def _resource(kind: str) -> str:
    if kind == "Dataset" or kind in BY_KIND or kind in OPERATIONS:
        return f"{kind.lower()}.{FLUID_GROUP}"
    if kind in WORKLOADS:
        group = WORKLOADS[kind].api_version.rpartition("/")[0]
        return f"{WORKLOADS[kind].plural}.{group}" if group else WORKLOADS[kind].plural
    return ""  # Secrets, ConfigMaps, RBAC, claims: the core kinds cover what is judged; Secrets are never read


def execute(args: DiagnoseArgs, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    result = compile_paths(args.specs, args.options, args.overlays, environment=args.environment)
    dump = _collected(result, err) if args.collect else read_dump(args.cluster, Reader(), namespaces(result))
    found = diagnose(result, dump, args.logs)
    if args.fmt == "json":
        out.write(json.dumps({"findings": [f.as_json() for f in found.findings], "notes": found.notes,
                              "errors": found.errors}, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        out.write(render(found))
    return 0 if found.ok else 1


def _collected(result: CompileResult, err: TextIO) -> Dump:
    command = collect_command(result)
    dump = Dump()
    if not result.ok:
        return dump
    if shutil.which("kubectl") is None:
        dump.problems.append(Diagnostic("--collect", 0, 0, "error", "kubectl is not on PATH: collect the dump "
                                                                    f"yourself: {' '.join(command)}"))
        return dump
    err.write(f"fluidgen: running {' '.join(command)}\n")
    try:
        done = subprocess.run(command, capture_output=True, timeout=COLLECT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        dump.problems.append(Diagnostic("--collect", 0, 0, "error", f"kubectl did not finish: {exc}"))
        return dump
    if done.returncode != 0:
        first = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
        dump.problems.append(Diagnostic("--collect", 0, 0, "error", f"kubectl exited {done.returncode}: "
                                                                    f"{first[0] if first else ''}"))
        return dump
    reader = Reader()
    reader.provide("<kubectl>", done.stdout)
    return read_dump(["<kubectl>"], reader, namespaces(result))


def render(found: Diagnosis) -> str:
    lines: list[str] = [f"fluidgen: error: {e}" for e in found.errors]
    for f in found.findings:
        lines.append(f"{f.where()}: {f.family}: {f.cause}")
        lines.append(f"  objects:  {', '.join(f.objects)}")
        lines.append(f"  evidence: {f.evidence}")
        lines.append(f"  fix:      {f.fix}")
    lines += [f"note: {n}" for n in found.notes]
    if found.findings:
        lines.append(f"fluidgen: {len(found.findings)} problem{'s' if len(found.findings) != 1 else ''} found")
    elif not found.errors:
        lines.append("fluidgen: nothing wrong in what the dump shows")
    return "\n".join(lines) + "\n"


def api_diagnose(objects: Iterable[Mapping[str, Any]], result: CompileResult,
                 logs: Mapping[str, str] | None = None) -> Diagnosis:
    return diagnose(result, from_objects(objects, namespaces(result)), logs=logs)


__all__ = ["FLUID_SYSTEM", "DiagnoseArgs", "api_diagnose", "collect_command", "diagnose", "execute", "render"]
