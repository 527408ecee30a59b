"""Where a generated field came from: every spec key path a build traces a field to is a key the
spec's schema has. A trace is what `diagnose`, the self-check and the lint findings on generated
objects use to report at the user's own line; one naming a key the spec cannot have falls back,
silently, to the nearest key that exists, and the report lands on the wrong line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from fluidgen.base import versions
from fluidgen.base.options import Options
from fluidgen.catalog.objectcheck import check_object
from fluidgen.compile.pipeline import CompileResult, compile_paths
from tests.conftest import ROOT
from tests.harness.golden import GOLDEN, config, params

SCHEMA: dict[str, Any] = json.loads((ROOT / "schemas" / "fluidgen-spec.v1alpha1.json").read_text("utf-8"))


def _branches(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The node itself (its $ref followed) and every anyOf/oneOf/allOf branch, recursively."""
    if "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    found = [node]
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, ()):
            found += _branches(branch)
    return found


def schema_has(path: tuple[str | int, ...], node: dict[str, Any] = SCHEMA) -> bool:
    if not path:
        return True
    part, rest = path[0], path[1:]
    for branch in _branches(node):
        if isinstance(part, int):
            if isinstance(branch.get("items"), dict) and schema_has(rest, branch["items"]):
                return True
            continue
        if part in branch.get("properties", {}) and schema_has(rest, branch["properties"][part]):
            return True
        extra = branch.get("additionalProperties")
        if extra is True and not branch.get("properties"):
            return True  # free-form (runtime.overrides): any key below is the user's to write
        if isinstance(extra, dict) and schema_has(rest, extra):
            return True
    return False


def test_the_schema_walk_refuses_a_key_the_spec_cannot_have() -> None:
    assert schema_has(("runtime", "thin", "fileSystemType"))
    assert schema_has(("source", 0, "credentials", "existingSecret", "keys", "minio-access-key"))
    assert not schema_has(("XXruntimeXX", "thin", "fileSystemType"))
    assert not schema_has(("runtime", "thin", "fileSystemTypo"))
    assert not schema_has(("source", "credentials"))
    assert schema_has(("runtime", "overrides", "fuse", "options", "entry-cache"))


# the golden cases built from their spec.yaml alone, at each version they run at
BUILDS = [(name, version) for name, version in params("ok")
          if config(GOLDEN / "ok" / name).get("args", ["build", "spec.yaml"]) == ["build", "spec.yaml"]]


# settings no golden case writes, each traced to its own key
INLINE = {
    "thin-named-profile": """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: imagenet, namespace: team-a}
source:
  - uri: s3://bucket/imagenet
runtime:
  engine: thin
  thin:
    name: shared-s3fs
    fileSystemType: fuse.s3fs
    profile:
      fuse: {image: example.com/s3fs}
""",
}


@pytest.mark.parametrize(("name", "version"), BUILDS)
def test_every_trace_names_a_key_the_spec_can_have(name: str, version: str) -> None:
    result = compile_paths([str(GOLDEN / "ok" / name / "spec.yaml")], Options(fluid_version=version))
    assert_traces_named_well(result, version)


@pytest.mark.parametrize("name", sorted(INLINE))
@pytest.mark.parametrize("version", versions.NAMES)
def test_every_trace_of_a_setting_no_golden_case_writes(tmp_path: Path, name: str, version: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(INLINE[name])
    assert_traces_named_well(compile_paths([str(spec)], Options(fluid_version=version)), version)


def assert_traces_named_well(result: CompileResult, version: str) -> None:
    assert result.ok, result.diagnostics
    traces: list[tuple[str, tuple[str | int, ...]]] = []
    for oid, (origins, _) in result.traced.items():
        traces += [(str(path), where[3]) for path, where in origins._by_object.get(oid, {}).items()]
        traces += [("(a layer)", where[3]) for _, where in origins._layers.get(oid, [])]
    assert traces
    wrong = [(field, at) for field, at in traces if not schema_has(at)]
    assert not wrong, wrong
    # and the field side: a traced field may be absent (an override adds it later), but it is a
    # field its kind has: its object with the field set passes the kind's schema without an
    # unknown field (the real CRD's at the version built; ObjectMeta's fields for metadata)
    objects = {id(o): o for o in result.objects}
    astray = [(obj["kind"], path) for oid, (origins, _) in result.traced.items() if (obj := objects.get(oid))
              for path, where in origins._by_object.get(oid, {}).items()
              if "overrides" not in where[3] and not kind_has(obj, path, version)]  # an override is the user's field
    assert not astray, astray


OBJECT_META = {"name", "namespace", "labels", "annotations", "ownerReferences", "finalizers", "generateName"}


def kind_has(obj: dict[str, Any], path: tuple[str | int, ...], version: str) -> bool:
    if not path:
        return True  # the whole object
    if path[0] not in obj:
        return False
    if path[0] == "metadata":
        return len(path) == 1 or path[1] in OBJECT_META
    with_field = copy.deepcopy(obj)
    node: Any = with_field
    for part in path[:-1]:
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                return True  # an item the override adds: its fields are its list's (checked there)
            node = node[part]
        else:
            node = node.setdefault(part, {}) if isinstance(node, dict) else None
            if node is None:
                return False
    if isinstance(path[-1], str) and isinstance(node, dict):
        node.setdefault(path[-1], {})
    problems = check_object(with_field, version)
    return not any(p.unknown_field and p.path == path[:len(p.path)] for p in problems)


def test_the_specs_cover_every_engine() -> None:
    from fluidgen.engines.engine_table import ENGINES

    texts = [(GOLDEN / "ok" / name / "spec.yaml").read_text() for name, _ in BUILDS]
    engines = {text.split("engine:", 1)[1].split()[0] for text in texts if "engine:" in text}
    assert set(ENGINES) <= engines, set(ENGINES) - engines
