"""What each engine's Fluid does with the fields a spec key sets: `fluidgen explain`'s FLUID block.

Read from the engines' runtime-fields cells (fluid/fields.py, each engine module's FIELDS) for the
runtime keys (runtimekeys.KEYS) and the spec keys that set a Dataset field, and generated into
catalog/explain_index.py (`python -m fluidgen.lower.keyfacts`) so that explain imports no engine.
"""

from __future__ import annotations

import sys

from ..base.versions import NAMES, has
from ..catalog.schemas import has_field
from ..engines.engine_table import ENGINES
from ..fluid.fields import DATASET, RUNTIME
from .runtimekeys import KEYS

# Spec keys that set a Dataset field one engine reads and another does not.
DATASET_KEYS: dict[tuple[str, ...], str] = {
    ("dataset", "owner"): "owner", ("placement",): "nodeAffinity", ("placement", "gpu"): "nodeAffinity",
    ("placement", "nodeSelector"): "nodeAffinity", ("placement", "tolerations"): "tolerations",
    ("placement", "exclusive"): "placement", ("sharedOptions",): "sharedOptions"}


def fluid_lines(key: tuple[str, ...]) -> list[str]:
    """What each engine's Fluid does with the fields a spec key sets, from the runtime-fields cells:
    `fluidgen explain`'s FLUID block for the key ([] for a key that sets no such field)."""
    runtime_key = next((k for k in KEYS if key == ("runtime", *k.key)), None)
    dataset_field = DATASET_KEYS.get(key)
    if runtime_key is None and dataset_field is None:
        return []
    lines = ["", "FLUID (each engine's runtime-fields cells, docs/runtime-fields.md):"]
    for name, engine in sorted(ENGINES.items()):
        said: dict[str, list[str]] = {}
        for version in (v for v in NAMES if has(v, name)):
            if runtime_key is not None:
                paths = [p for p in runtime_key.paths if has_field(version, engine.kind, p)]
                cells = [(".".join(p), engine.fields.cell(RUNTIME, p, version)) for p in paths]
            else:
                cells = [(f"Dataset {dataset_field}", engine.fields.cell(DATASET, (str(dataset_field),), version))]
            text = "; ".join(f"{field}: {cell.says() if cell else 'not in the matrix'}" for field, cell in cells)
            said.setdefault(text or f"{engine.kind} has no such field", []).append(version)
        for text, held in said.items():
            lines.append(f"  {name} ({', '.join(held)}): {text}")
    return lines


def explain_index_source() -> str:
    """catalog/explain_index.py as the engines' cells give it (imports every engine module)."""
    keys = [("runtime", *k.key) for k in KEYS] + list(DATASET_KEYS)
    rows = "".join(f"    {key!r}: (\n" + "".join(f"        {line!r},\n" for line in fluid_lines(key)) + "    ),\n"
                   for key in keys)
    return EXPLAIN_HEADER + "RUNTIME_FLUID: dict[tuple[str, ...], tuple[str, ...]] = {\n" + rows + "}\n"


EXPLAIN_HEADER = '''\
"""Generated from the engines' runtime-fields cells by `python -m fluidgen.lower.keyfacts`:
do not edit.

`fluidgen explain`'s FLUID block for each spec key that sets a runtime or Dataset field: what each
engine's Fluid does with it, per version (lower/keyfacts.py fluid_lines). Generated so that explain
imports no engine module; tests/lower/test_keyfacts.py fails when this file differs from
what the cells say.
"""

'''


if __name__ == "__main__":
    from pathlib import Path

    Path(__file__).parent.parent.joinpath("catalog", "explain_index.py").write_text(explain_index_source())
    sys.exit(0)
