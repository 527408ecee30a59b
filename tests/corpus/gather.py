"""Rebuild tests/corpus/cases/ from a snapshot of fluid-cloudnative/fluid.

    python tests/corpus/gather.py /path/to/fluid [REV]

Every YAML block in docs/en, docs/zh (Markdown, `cat <<EOF` wrappers unwrapped) and every
file under samples/ that holds a data.fluid.io object becomes one case file: the Fluid
objects of that source plus the Secrets, PersistentVolumes and claims beside them, headed by
the source path it came from. Blocks that are not YAML (shell sessions, elided values) are
listed and skipped; a source whose objects equal an earlier one's (the Chinese twin of an
English page) is kept once. The cases are test data for `fluidgen import` (tests/importer/test_run.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

KEEP = {"Secret", "PersistentVolume", "PersistentVolumeClaim"}
OPERATIONS = {"DataLoad", "DataMigrate", "DataProcess", "DataBackup"}


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout


def _yaml_parts(block: str) -> list[str]:
    """The YAML in a fenced block: heredoc bodies, or the block itself when it is not a shell session."""
    parts: list[str] = []
    current: tuple[str, list[str]] | None = None
    for line in block.split("\n"):
        heredoc = re.search(r"<<\s*['\"]?(\w+)['\"]?", line)
        if current is None and heredoc and ("cat" in line or "kubectl" in line):
            current = (heredoc.group(1), [])
        elif current is not None:
            if line.strip() == current[0]:
                parts.append("\n".join(current[1]))
                current = None
            else:
                current[1].append(line)
    if current is not None:
        parts.append("\n".join(current[1]))
    if not parts and not re.search(r"^\s*\$|^kubectl ", block, re.M):
        parts = [block]
    return parts


def _key(d: Any) -> tuple[str, str, str]:
    meta = d.get("metadata") if isinstance(d.get("metadata"), dict) else {}
    return str(d.get("kind")), str(meta.get("namespace", "")), str(meta.get("name"))


def _segments(docs: list[Any]) -> list[list[Any]]:
    """A page that shows variants of one object (the same kind and name again) is cut into
    one case per variant. A new case carries the Datasets, runtimes, Secrets and volumes of the
    one before (a DataLoad variant still needs its Dataset) until it writes its own."""
    segments: list[list[Any]] = [[]]
    own: set[tuple[str, str, str]] = set()
    for d in docs:
        key = _key(d)
        current = segments[-1]
        if key in own:
            carried = [c for c in current if c.get("kind") not in OPERATIONS]
            segments.append(carried)
            own = set()
            current = segments[-1]
        replaced = [i for i, c in enumerate(current) if _key(c) == key]
        if replaced:
            current[replaced[0]] = d
        else:
            current.append(d)
        own.add(key)
    return segments


def gather(repo: str, rev: str) -> tuple[dict[str, list[Any]], list[str]]:
    yaml = YAML(typ="safe", pure=True)
    names = _git(repo, "ls-tree", "-r", "--name-only", rev).split()
    wanted = [n for n in names if (n.startswith(("docs/en/", "docs/zh/")) and n.endswith(".md"))
              or (n.startswith("samples/") and n.endswith((".yaml", ".yml")))]
    cases: dict[str, list[Any]] = {}
    skipped: list[str] = []
    seen: set[str] = set()
    sources: dict[str, list[str]] = {}
    for name in sorted(wanted, key=lambda n: (not n.startswith("docs/en/"), n)):
        # a sample directory's files are one scenario (dataset.yaml beside runtime.yaml)
        sources.setdefault(name.rsplit("/", 1)[0] if name.startswith("samples/") else name, []).append(name)
    for name, members in sources.items():
        text = "\n---\n".join(_git(repo, "show", f"{rev}:{m}") for m in members)
        blocks = re.findall(r"```[a-zA-Z]*\s*\n(.*?)```", text, re.S) if name.endswith(".md") else [text]
        docs: list[Any] = []
        for block in blocks:
            if "apiVersion" not in block or "kind:" not in block:
                continue
            for part in _yaml_parts(block):
                try:
                    docs += [d for d in yaml.load_all(part) if isinstance(d, dict) and "kind" in d]
                except Exception as exc:  # a broken block in the docs is reported and skipped
                    if "fluid.io" in part:
                        skipped.append(f"{name}: {str(exc).splitlines()[0]}")
        fluid = [d for d in docs if str(d.get("apiVersion", "")).startswith("data.fluid.io/")]
        if not fluid:
            continue
        kept = [d for d in docs if d in fluid or d.get("kind") in KEEP]
        for n, segment in enumerate(_segments(kept)):
            digest = hashlib.sha256(json.dumps(segment, sort_keys=True, default=str).encode()).hexdigest()
            if digest not in seen:
                seen.add(digest)
                cases[f"{name}#{n + 1}" if n else name] = segment
    return cases, skipped


def main(repo: str, rev: str = "HEAD") -> None:
    commit = _git(repo, "rev-parse", rev).strip()
    out = Path(__file__).parent / "cases"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    cases, skipped = gather(repo, commit)
    dump = YAML()
    dump.width = 4096
    for name, docs in cases.items():
        source, _, part = name.partition("#")
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", source.removesuffix(".md").removesuffix(".yaml")).strip("-").lower()
        slug += f"-{part}" if part else ""
        buf = StringIO()
        dump.dump_all(docs, buf)
        (out / f"{slug}.yaml").write_text(
            f"# source: fluid-cloudnative/fluid {commit[:12]} {source}\n{buf.getvalue()}", encoding="utf-8")
    print(f"{len(cases)} cases from {commit[:12]}; {len(skipped)} blocks are not YAML:", file=sys.stderr)
    for line in skipped:
        print(f"  {line}", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:])
