"""The engines' FIELDS records (fluid/fields.py FieldRead, one per runtime or Dataset field, read by
`fluidgen explain`, docs/runtime-fields.md and the build's warnings) name the Go selector that
reads each field (`go=`). tests/catalog/test_runtime_fields.py checks a read field's selector is in its
cited function and an ignored field's selector is read nowhere; an ignored cell with a selector
that names no field at all passed that check whatever it said (issue 42's mutation run: `go=
"XXSpec.OwnerXX"` survived). Here each selector is checked against Fluid's API types at every
version the cell holds for: segment by segment, a Go field of that name whose json tag is the
cell's field name (api/v1alpha1/*.go, both commits of ../shared/fluid-src)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from fluidgen.base.fluidsource import source
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid.fields import (
    CONDITION,
    IGNORED,
    MERGED,
    OTHER_NAME,
    OWN_DEFAULT,
    PARTS,
    READ,
    RUNTIME,
    FieldRead,
    Fields,
)
from tests.harness.fluid_src import need_tree

_FIELD = re.compile(r'^\s+(\w+)\s+[^`\n]*`json:"([^",]*)', re.M)


@cache
def _json_names(root: Path) -> dict[str, frozenset[str]]:
    """Go field name -> the json names fields of that name carry in Fluid's API types."""
    names: dict[str, set[str]] = {}
    for path in sorted((root / "api/v1alpha1").glob("*.go")):
        if path.name.startswith(("zz_generated", "openapi_generated")) or path.name.endswith("_test.go"):
            continue
        for go, tag in _FIELD.findall(path.read_text()):
            names.setdefault(go, set()).add(tag)
    return {go: frozenset(tags) for go, tags in names.items()}


def selector_problem(cell: FieldRead, root: Path) -> str | None:
    """Why the cell's Go selector is not its field in Fluid's API types (None: it is)."""
    parts, keys = cell.go.split("."), cell.field.split(".")
    if parts[0] != "Spec" or len(parts) != len(keys) + 1:
        return f"{cell.field}: go={cell.go!r} is not Spec.<one Go field per key>"
    known = _json_names(root)
    for go, key in zip(parts[1:], keys, strict=True):
        if key not in known.get(go, ()):
            return f"{cell.field}: no API field {go} with json name {key!r} (json names: {sorted(known.get(go, ()))})"
    return None


def _cells() -> list[tuple[str, str, FieldRead]]:
    return [(name, part, cell) for name, engine in sorted(ENGINES.items()) for part in PARTS
            for cell in engine.fields.cells(part) if cell.go]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_go_selector_is_its_field_in_fluids_api_types(engine: str) -> None:
    problems = []
    for name, part, cell in _cells():
        if name != engine:
            continue
        for version in cell.source.versions:
            problem = selector_problem(cell, need_tree(version))
            if problem:
                problems.append(f"{part} {problem} at {version}")
    assert not problems, "\n".join(problems)


def test_a_selector_off_by_one_name_is_caught() -> None:
    """The check is not kind: a wrong Go name, a wrong json name, a missing segment each fail it."""
    root = need_tree("v1.0.8")
    good = FieldRead("owner", "ignored", ENGINES["juicefs"].fields.dataset[0].source, go="Spec.Owner")
    assert selector_problem(good, root) is None
    for go, field in (("Spec.Ownerx", "owner"), ("Spec.Owner", "owners"), ("Spec.Fuse", "fuse.env"),
                      ("Spec.RuntimeManagement.MetadataSyncPolicy", "management.metadataSync")):
        assert selector_problem(FieldRead(field, "ignored", good.source, go=go), root), (go, field)


# --- the cell record itself (fluid/fields.py FieldRead, Fields) --------------------------------------

_SRC = source("pkg/ddc/alluxio/transform.go", "transformFuse")


def test_a_cell_that_cannot_say_what_it_means_is_refused() -> None:
    """A cell of an unknown kind, a condition without its words or its check, another name without
    the name: each would print a message with a hole in it, so none can be built."""
    with pytest.raises(ValueError, match=r"fuse: how must be one of read, merged, .*got 'maybe'"):
        FieldRead("fuse", "maybe", _SRC)
    with pytest.raises(ValueError, match="a condition cell states its condition"):
        FieldRead("fuse", CONDITION, _SRC, when=lambda spec: True)
    with pytest.raises(ValueError, match="a condition cell states its condition"):
        FieldRead("fuse", CONDITION, _SRC, note="only with a limit")
    with pytest.raises(ValueError, match="an other-name cell names the field"):
        FieldRead("fuse", OTHER_NAME, _SRC)


def test_each_kind_of_cell_says_what_to_do_instead() -> None:
    cite = _SRC.cite()
    assert FieldRead("owner", IGNORED, _SRC).message("JindoRuntime") == f"JindoRuntime ignores owner; drop it ({cite})"
    assert FieldRead("runAs", IGNORED, _SRC, note="no code reads it", instead="spec.user").message(
        "JindoRuntime", "the Dataset's ") == \
        f"JindoRuntime ignores the Dataset's runAs: no code reads it; use spec.user ({cite})"
    assert FieldRead("fuse.resources", CONDITION, _SRC, note="only with a limit", instead="give limits.memory",
                     when=lambda spec: False).message("AlluxioRuntime") == \
        f"AlluxioRuntime applies fuse.resources only on a condition: only with a limit; give limits.memory ({cite})"
    assert FieldRead("tieredstore", OTHER_NAME, _SRC, instead="spec.cache").message("EFCRuntime") == \
        f"EFCRuntime does not apply tieredstore as written; set spec.cache ({cite})"
    assert FieldRead("tieredstore", OTHER_NAME, _SRC, instead="spec.cache").says() == \
        "not read under this name; instead: spec.cache"
    assert FieldRead("x", CONDITION, _SRC, note="n", instead="y", when=lambda spec: True).says() == \
        "read only on a condition; n; to apply it: y"
    assert [FieldRead("x", how, _SRC, note="n", instead="i", when=lambda spec: True).says().split(";")[0]
            for how in (MERGED, OWN_DEFAULT)] == ["read, merged", "read, with a default of its own"]


def test_the_deepest_cell_decides_a_path_in_any_order() -> None:
    """Fields.cell: the cell whose field is the longest prefix of the path, whether the path is
    dotted text or a tuple and whichever cell comes first."""
    deep = FieldRead("fuse.resources.limits", READ, _SRC)
    mid = FieldRead("fuse.resources", IGNORED, _SRC)
    top = FieldRead("fuse", READ, _SRC)
    for order in ((deep, mid, top), (top, mid, deep), (mid, deep, top)):
        fields = Fields(runtime=order)
        assert fields.cell(RUNTIME, "fuse.resources.limits.memory", "v1.0.8") is deep
        assert fields.cell(RUNTIME, ("fuse", "resources", "limits", "memory"), "v1.0.8") is deep
        assert fields.cell(RUNTIME, "fuse.resources.requests", "v1.0.8") is mid
        assert fields.cell(RUNTIME, ("fuse", "args"), "v1.0.8") is top
        assert fields.cell(RUNTIME, "master", "v1.0.8") is None
