"""docs/runtime-fields.md, made from the engines' runtime-fields cells (fluidgen/fluid/fields.py, each
engine module's FIELDS): what each engine's Fluid does with the runtime and Dataset fields, per version,
one sourced row per cell. tests/catalog/test_runtime_fields.py fails when the page is stale (regenerate with
`python -m pytest tests/catalog/test_runtime_fields.py --update-golden`)."""

from __future__ import annotations

from ..base.versions import NAMES, has
from ..engines.contract import Engine
from ..engines.engine_table import ENGINES
from ..fluid.fields import DATASET, HOWS, NOT_APPLIED, PARTS, RUNTIME, FieldRead

HEADER = """\
# What each engine's Fluid does with the runtime and Dataset fields

<!-- Generated from the engines' runtime-fields cells (fluidgen/fluid/fields.py; each engine module's
FIELDS). Do not edit: run `python -m pytest tests/catalog/test_runtime_fields.py --update-golden`. -->

The Fluid CRDs share their shapes across engines, so the API server accepts fields an engine never
reads, reads under another name, or applies only on a condition. Each row is one cell: a field, the
Fluid versions it holds for, what the engine's Fluid does with it, and the code that decides it
(tests/catalog/test_runtime_fields.py checks each against Fluid's source). fluidgen follows the cells: a spec
key never writes an ignored field and is refused when all its fields are ignored or its value misses a
condition; lint reports fields set where Fluid does not apply them (FG140 for the runtime, FG141 for
the Dataset); FG110 counts what Fluid adds to a limit; every bundled profile sets only applied fields.

What Fluid does (`how`): **read** as written; **merged** with what Fluid sets itself or with another
field; **own default**: read, with a default of this engine's own when left out; **condition**: applied
only when the condition holds; **other name**: not read for what it says, another field is;
**ignored**: no code of the engine reads it. Fields not listed are not in the matrix yet.
"""


def _text(value: str) -> str:
    return value.replace("|", "&#124;").replace("<", "&lt;").replace(">", "&gt;")


def _versions(cell: FieldRead, engine: Engine) -> str:
    held = [v for v in cell.source.versions if has(v, engine.name)]
    all_of = [v for v in NAMES if has(v, engine.name)]
    return "all" if held == all_of else ", ".join(held)


def _row(cell: FieldRead, engine: Engine) -> str:
    what = "; ".join(p for p in (cell.note, f"instead: {cell.instead}" if cell.instead and cell.how != "condition"
                                 else f"to apply it: {cell.instead}" if cell.instead else "") if p)
    how = f"**{cell.how}**" if cell.how in NOT_APPLIED or cell.how == "condition" else cell.how
    return (f"| `{cell.field}` | {_versions(cell, engine)} | {how} | {_text(what)} | "
            f"`{cell.source.path}` {cell.source.function} |\n")


def _summary() -> str:
    lines = ["## Cells per engine\n\n",
             "| engine | kind | versions | runtime cells | Dataset cells | not applied as written (ignored, other "
             "name, condition) |\n", "| --- | --- | --- | --- | --- | --- |\n"]
    for name, engine in sorted(ENGINES.items()):
        cells = [c for part in PARTS for c in engine.fields.cells(part)]
        if not cells:
            continue
        odd = sorted({f"`{c.field}`" for c in cells if c.how in NOT_APPLIED or c.how == "condition"})
        lines.append(f"| {name} | {engine.kind} | {', '.join(v for v in NAMES if has(v, name))} | "
                     f"{len(engine.fields.runtime)} | {len(engine.fields.dataset)} | {', '.join(odd) or '-'} |\n")
    return "".join(lines)


def page() -> str:
    out = [HEADER, "\n", _summary()]
    for name, engine in sorted(ENGINES.items()):
        if not any(engine.fields.cells(part) for part in PARTS):
            continue
        out.append(f"\n## {name} ({engine.kind})\n\nFluid package: `{engine.fields.package}`.\n")
        for part, title in ((RUNTIME, f"{engine.kind} spec"), (DATASET, "Dataset spec, read by this engine")):
            cells = sorted(engine.fields.cells(part), key=lambda c: (c.field, c.source.versions))
            if not cells:
                continue
            out.append(f"\n### {title}\n\n| field | versions | how | what Fluid does | source |\n"
                       "| --- | --- | --- | --- | --- |\n")
            out.extend(_row(c, engine) for c in cells)
    assert all(c.how in HOWS for e in ENGINES.values() for p in PARTS for c in e.fields.cells(p))
    return "".join(out)
