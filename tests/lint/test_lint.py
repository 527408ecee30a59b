"""Every lint rule fires through `fluidgen lint` on its documented example, at its severity, and
is silenced by --ignore; rules survive odd shapes; FG113's kept level. The manifest helpers
(dataset, runtime) serve the other rule tests too."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
import yaml

from fluidgen.base.rules import Rule
from fluidgen.base.versions import NAMES
from fluidgen.engines import engine_table
from fluidgen.lint import IGNORE_ANNOTATION, RULES, ignore_annotation, rules_for, waiver_entries, without_waivers
from tests.conftest import run_cli


def dataset(name: str = "d", mounts: str = '[{mountPoint: "https://example.com/data", name: d}]',
            extra: str = "") -> str:
    return f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: {name}, namespace: default}}
spec:
  mounts: {mounts}
{extra}"""


def lint_err(tmp_path: Path, *docs: str) -> str:
    """`fluidgen lint` of the documents as one manifest file: its stderr (exit 0 or 1, never more)."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join(docs))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err
    return result.err


def runtime(kind: str = "AlluxioRuntime", spec: str = "replicas: 1", name: str = "d") -> str:
    body = textwrap.indent(spec, "  ")
    return f"""\
apiVersion: data.fluid.io/v1alpha1
kind: {kind}
metadata: {{name: {name}, namespace: default}}
spec:
{body}
"""


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_fires_on_its_documented_example(rule: Rule, tmp_path: Path) -> None:
    """Each rule's documented example (rules.Example, shown in docs/rules.md) is its trigger: run
    through `fluidgen lint` as a user's manifest file at every Fluid version the rule holds for,
    the rule reports it at its severity, the exit code follows, and `--ignore` silences it. A
    new rule is covered by writing its example; there is no second table of triggers."""
    manifest = tmp_path / f"{rule.id}.yaml"
    manifest.write_text(rule.example.manifest)
    assert rule.versions, "no Fluid version holds every fact the rule rests on"
    for version in rule.versions:
        result = run_cli("lint", "--fluid-version", version, str(manifest))
        fired = [line for line in result.err.splitlines() if f"[{rule.id}]" in line]
        assert fired, (version, result.err)
        assert all(f" {rule.severity} [{rule.id}]" in line for line in fired)
        for line in fired:  # at the user's key: a key path the example's objects have
            where = line.split(f"[{rule.id}]: ", 1)[1].split(": ", 1)[0]
            assert any(_has_path(doc, where) for doc in yaml.safe_load_all(rule.example.manifest)), (where, line)
        assert result.code == (1 if rule.severity == "error" or "error [" in result.err else 0)
        silenced = run_cli("lint", "--fluid-version", version, "--ignore", rule.id, str(manifest))
        assert f"[{rule.id}]" not in silenced.err


@pytest.mark.parametrize("odd", [
    "sharedOptions: [a]\n  sharedEncryptOptions: 3\n  mounts: [{mountPoint: 'oss://b/p', name: d, options: 5, "
    "encryptOptions: [{name: {x: 1}}, 7]}]",
    "mounts: [{mountPoint: 'oss://b/p', name: d, encryptOptions: 9}]",
])
def test_rules_survive_odd_shapes(odd: str, tmp_path: Path) -> None:
    """Found by the fuzz suite: rules read hand-written input of any shape and never crash."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(f"apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {{name: d, namespace: default}}"
                        f"\nspec:\n  {odd}\n---\n" + runtime(spec="replicas: 1\nproperties: [x]\nfuse: {options: 3}"))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1) and "internal error" not in result.err, result.err


EFC_NAS = dataset(mounts='[{mountPoint: "nfs://abc.cn-beijing.nas.aliyuncs.com:/data", name: d}]')


@pytest.mark.parametrize(("written", "kept", "ignored"), [("SSD, MEM", "levels[1], MEM", 0),
                                                          ("MEM, SSD", "levels[0], MEM", 1),
                                                          ("HDD, SSD", "levels[1], SSD", 0)])
def test_fg113_names_the_level_efc_keeps(tmp_path: Path, written: str, kept: str, ignored: int) -> None:
    """EFC keeps the level of its fastest medium, not levels[0] (pkg/ddc/efc/transform_tieredstore.go
    transformWorkerTieredStore keeps tieredstore.GetTieredLevel 0: MEM, SSD, HDD). FG113 said
    'only uses the first tieredstore level' of every engine, so for [SSD, MEM] it called the
    one level EFC uses the ignored one."""
    paths = {"MEM": "/dev/shm", "SSD": "/mnt/ssd", "HDD": "/mnt/hdd"}
    levels = ", ".join(f"{{mediumtype: {m}, path: {paths[m]}, quota: 9Gi}}" for m in written.split(", "))
    manifest = tmp_path / "m.yaml"
    manifest.write_text(EFC_NAS + "---\n" + runtime("EFCRuntime", f"tieredstore:\n  levels: [{levels}]"))
    result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
    assert f"error [FG113]: spec.tieredstore.levels[{ignored}]: EFCRuntime only uses the level of its fastest " \
        f"medium ({kept}); the others are ignored" in result.err


def test_fg113_keeps_the_first_level_for_the_other_engines(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(dataset(mounts='[{mountPoint: "juicefs:///", name: d}]') + "---\n" + runtime(
        "JuiceFSRuntime", "tieredstore:\n  levels: [{mediumtype: SSD, path: /c, quota: 9Gi}, "
                          "{mediumtype: MEM, path: /dev/shm, quota: 1Gi}]"))
    result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
    assert "error [FG113]: spec.tieredstore.levels[1]: JuiceFSRuntime only uses the first tieredstore level; " \
        "the others are ignored" in result.err


def _has_path(node: object, where: str) -> bool:
    """Whether `where` (a.b[1].c["d.e"], as lint prints a key path) names a node of `node`."""
    where = where.removeprefix(".")
    if where == "":
        return True
    m = re.match(r"\[(\d+)\]", where)
    if m is not None:
        index = int(m[1])
        return isinstance(node, list) and index < len(node) and _has_path(node[index], where[m.end():])
    m = re.match(r'\["([^"]*)"\]|([^.\[]+)', where)
    key = (m[1] if m[1] is not None else m[2]) if m is not None else None
    return m is not None and isinstance(node, dict) and key in node and _has_path(node[key], where[m.end():])


def test_a_builds_ignore_annotation_keeps_the_specs_own_value_then_adds() -> None:
    """lint of fluidgen's own output agrees with the build: the spec's own annotation value first,
    then its lint.ignore rules, then its profiles' waivers (RULE@path, or the whole rule where a path
    cannot be written so), each once."""
    assert ignore_annotation("FG101, FG102", ["FG109", "FG101"], [("FG110", ("spec", "fuse")),
                                                                 ("FG111", ("spec", "properties", "a,b"))]) == \
        "FG101,FG102,FG109,FG110@spec/fuse,FG111"


def test_only_the_named_waiver_entries_are_dropped_and_an_emptied_key_goes() -> None:
    given = {IGNORE_ANNOTATION: "FG101, FG110@spec/fuse,FG102@spec/mounts", "a": "b"}
    assert without_waivers(given, ["FG110@spec/fuse"]) == {IGNORE_ANNOTATION: "FG101,FG102@spec/mounts", "a": "b"}
    assert without_waivers(given, ["FG101", "FG110@spec/fuse", "FG102@spec/mounts"]) == {"a": "b"}
    assert without_waivers(given, ["FG110@spec"]) == {IGNORE_ANNOTATION: "FG101,FG110@spec/fuse,FG102@spec/mounts",
                                                      "a": "b"}  # an entry, not a prefix
    assert without_waivers({"a": "b"}, ["FG101"]) == {"a": "b"}


def test_waiver_entries_write_a_path_or_the_whole_rule_where_a_part_cannot_be_written() -> None:
    assert waiver_entries([("FG110", ("spec", "fuse")), ("FG111", ("spec", "properties", "a@b")),
                           ("FG112", ("spec", "")), ("FG113", ()), ("FG109", ("spec", "fuse", "jvmOptions", "X"))]
                          ) == ["FG110@spec/fuse", "FG111", "FG112", "FG113", "FG109@spec/fuse/jvmOptions/X"]


def test_a_directive_naming_no_rule_is_an_error_at_its_own_line(tmp_path: Path) -> None:
    """`# fluidgen-lint: ignore=` with a typo would silence nothing: an error at the directive's
    line (counted from the file's first byte, a blank first line too), column 1, the look-alike
    digit suggested, in the lint stage (JSON carries the stage)."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text("\napiVersion: v1\nkind: ConfigMap\n# fluidgen-lint: ignore=FG101, FG1O3\n"
                        "metadata: {name: c}\n")
    result = run_cli("lint", str(manifest))
    assert result.code == 1
    assert result.err.splitlines()[0] == (f'{manifest}:4:1: error: unknown lint rule FG1O3 in this directive; '
                                          'did you mean "FG103"?'), result.err
    shown = json.loads(run_cli("lint", "--format", "json", str(manifest)).out)["diagnostics"]
    assert shown == [{"code": "", "col": 1, "file": str(manifest), "line": 4, "path": "", "severity": "error",
                      "stage": "lint", "message": 'unknown lint rule FG1O3 in this directive; did you mean "FG103"?'}]


def test_a_manifests_findings_and_unknown_annotation_rules_are_of_the_lint_stage(tmp_path: Path) -> None:
    err_manifest = tmp_path / "m.yaml"
    err_manifest.write_text("---\n".join([dataset(), runtime(
        spec="fuse: {args: [fuse, '--fuse-opts=direct_io,ro']}").replace(
        "metadata: {name: d, namespace: default}",
        "metadata: {name: d, namespace: default, annotations: {fluidgen.io/lint-ignore: FGl07}}")]))
    shown = json.loads(run_cli("lint", "--format", "json", str(err_manifest)).out)["diagnostics"]
    assert [(d["code"], d["message"], d["stage"]) for d in shown] == [
        ("", 'unknown lint rule FGl07; did you mean "FG107"?', "lint"),
        ("FG107", "direct_io disables the page cache and read-ahead and is unstable under heavy IO; use "
                  "kernel_cache", "lint")], shown


def test_a_specs_findings_are_of_the_lint_stage(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: d}\n"
                    "source: [{uri: 'https://e.com/d/'}]\n"
                    "runtime:\n  engine: alluxio\n  cache: [{medium: MEM, quota: 1Gi}]\n"
                    "  overrides: {fuse: {args: [fuse, --fuse-opts=direct_io]}}\n")
    shown = json.loads(run_cli("lint", "--format", "json", str(spec)).out)["diagnostics"]
    assert {(d["code"], d["stage"]) for d in shown if d["code"] == "FG107"} == {("FG107", "lint")}, shown


@pytest.mark.parametrize("version", NAMES)
def test_the_rules_of_a_version_are_those_that_hold_for_it_and_every_engines(version: str) -> None:
    """rules_for(version) without engines: every engine's rules, only those that hold at `version`."""
    held = tuple(r for r in RULES if version in r.versions)
    assert held and rules_for(version) == held
    assert rules_for(version, frozenset(engine_table.NAMES)) == held
