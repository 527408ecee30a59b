"""docs/data-operations.md: the data operations' field matrix (fluid/operations.py CELLS) as a
page, with how many cells each operation has per engine and version (a test fails when the
committed page is stale: tests/fluid/test_operations.py)."""

from __future__ import annotations

from collections import Counter

from ..base.versions import NAMES, has
from ..engines.engine_table import ENGINES
from ..fluid.operations import CELLS, EVERY_ENGINE, KINDS, RENDERED, VERDICTS, Cell

GENERATED = ("<!-- Generated from fluidgen/fluid/operations.py by fluidgen/catalog/operations_page.py; "
             "regenerate: pytest tests/fluid/test_operations.py --update-golden -->")


def engines_running(kind: str, version: str) -> list[str]:
    """The engines (runtime.engine) that run `kind` at `version`."""
    return [name for name, engine in sorted(ENGINES.items()) if kind in engine.operations and has(version, name)]


def expanded(version: str) -> list[tuple[Cell, str]]:
    """Every cell at `version`: a row for each engine it holds for that runs the operation, for
    the fields the version's API has."""
    out = []
    for cell in CELLS:
        if version not in cell.versions or not has(version, cell.kind, cell.field.split(".")[0].split("[")[0]):
            continue
        for engine in engines_running(cell.kind, version):
            if EVERY_ENGINE in cell.engines or engine in cell.engines:
                out.append((cell, engine))
    return out


def counts() -> dict[tuple[str, str, str], Counter[str]]:
    """(kind, engine, version) -> cells by verdict."""
    out: dict[tuple[str, str, str], Counter[str]] = {}
    for version in NAMES:
        for cell, engine in expanded(version):
            out.setdefault((cell.kind, engine, version), Counter())[cell.verdict] += 1
    return out


def _esc(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _when(cell: Cell) -> str:
    return "; ".join(f"`{path or 'value'}` matches `{_esc(pattern) or '(empty)'}`" for path, pattern in cell.when)


def page() -> str:
    lines = [GENERATED, "", "# Data operations: what Fluid does with each field", "",
             "For DataLoad, DataMigrate, DataBackup and DataProcess, per engine (`runtime.engine`) and Fluid "
             "version: whether Fluid's controller and the operation's Helm chart **read** a field, **ignore** it, "
             "**refuse** the operation, render something **broken**, or read it only behind a feature gate that "
             "ships off (**gated**). `fluidgen build` reports every spec key that lands in an ignored or gated "
             "cell as a warning and in a refused or broken one as an error, with the reason and the source; "
             "`fluidgen explain dataflow.<op>.<key>` prints the same rows. A row with a condition decides the "
             "field only when its value (or another field's) matches; otherwise the field's plain row does.", "",
             "## Cells per operation, engine and version", "",
             "| operation | engine | version | cells | " + " | ".join(VERDICTS) + " |",
             "|---|---|---|---|" + "---|" * len(VERDICTS)]
    for (kind, engine, version), got in sorted(counts().items()):
        lines.append(f"| {kind} | {engine} | {version} | {sum(got.values())} | "
                     + " | ".join(str(got[v]) for v in VERDICTS) + " |")
    lines += ["", "## What each operation renders", "",
              "No operation chart sets hostNetwork: every operation pod is on the pod network, whatever the "
              "runtime's networkMode.", "",
              "| operation | engines | versions | objects | restartPolicy | backoffLimit | image | source |",
              "|---|---|---|---|---|---|---|---|"]
    for r in RENDERED:
        engines = "every engine" if EVERY_ENGINE in r.engines else ", ".join(r.engines)
        versions = "every version" if r.versions == NAMES else ", ".join(r.versions)
        cites = "<br>".join(f"`{s.path}` {s.function}" for s in r.sources)
        lines.append(f"| {r.kind} | {engines} | {versions} | {', '.join(r.objects)} | {_esc(r.restart_policy)} | "
                     f"{'no Job' if r.backoff_limit is None else r.backoff_limit} | {_esc(r.image)} | {cites} |")
    for kind in KINDS:
        lines += ["", f"## {kind}", "",
                  "| field | engines | versions | verdict | condition | what Fluid does | source |",
                  "|---|---|---|---|---|---|---|"]
        for cell in sorted((c for c in CELLS if c.kind == kind), key=lambda c: (c.field, c.engines, bool(c.when))):
            engines = "every engine" if EVERY_ENGINE in cell.engines else ", ".join(cell.engines)
            versions = "every version" if cell.versions == NAMES else ", ".join(cell.versions)
            cites = "<br>".join(f"`{s.path}` {s.function}" for s in cell.sources)
            lines.append(f"| `{cell.field}` | {engines} | {versions} | {cell.verdict} | {_when(cell)} | "
                         f"{_esc(cell.what)} | {cites} |")
    return "\n".join(lines) + "\n"
