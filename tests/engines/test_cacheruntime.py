"""engines/cacheruntime.py: the cache tiers of a CacheRuntime (its tieredStore levels: a hostPath with
one quota per path, or an emptyDir, of medium Memory for a MEM tier; api/v1alpha1/cacheruntime_types.go)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT, run_cli
from tests.harness.fluid_src import need_tree

SPEC = ROOT / "golden" / "ok" / "cache-curvine" / "spec.yaml"
TIER = "    - {medium: SSD, volumeType: emptyDir, quota: 1Gi, high: 0.8, low: 0.5}\n"


@pytest.mark.parametrize(("tier", "level"), [
    ("    - {medium: MEM, quota: 4Gi}\n", {"emptyDir": {"medium": "Memory", "quota": "4Gi"}}),
    ("    - {medium: SSD, volumeType: emptyDir, quota: 4Gi}\n", {"emptyDir": {"quota": "4Gi"}}),
    ("    - {medium: SSD, path: [/a, /b/], quota: 10Gi}\n", {"hostPath": {"paths": ["/a", "/b"],
                                                                         "quotas": ["10Gi", "10Gi"]}}),
    ("    - {medium: SSD, path: [/a, /b], quota: [10Gi, 20Gi]}\n", {"hostPath": {"paths": ["/a", "/b"],
                                                                             "quotas": ["10Gi", "20Gi"]}}),
    # a trailing "/" is dropped (and nothing else), the root stays itself
    ("    - {medium: SSD, path: [/], quota: 10Gi}\n", {"hostPath": {"paths": ["/"], "quotas": ["10Gi"]}}),
    ("    - {medium: SSD, path: [/mnt/X/], quota: 10Gi}\n", {"hostPath": {"paths": ["/mnt/X"], "quotas": ["10Gi"]}}),
    # an emptyDir tier's path names no volume: the level is the emptyDir
    ("    - {medium: SSD, volumeType: emptyDir, path: /mnt/x, quota: 4Gi}\n", {"emptyDir": {"quota": "4Gi"}}),
])
def test_each_cache_tier_becomes_its_level(tier: str, level: dict[str, Any], tmp_path: Path) -> None:
    text = SPEC.read_text()
    assert TIER in text
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace(TIER, tier))
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert result.code == 0, result.err
    runtime = next(d for d in yaml.safe_load_all(result.out) if d["kind"] == "CacheRuntime")
    (got,) = runtime["spec"]["worker"]["tieredStore"]["levels"]
    assert {k: v for k, v in got.items() if k in ("emptyDir", "hostPath")} == level


@pytest.mark.parametrize(("written", "said"), [
    ("fileSystemTyp: curvinefs", 'fileSystemTyp: CacheRuntimeClass has no field fileSystemTyp; did you mean '
                                 '"fileSystemType"?'),
    ("fileSystemType: [curvinefs]", "fileSystemType: expected a string, found a list"),
], ids=["unknown-field", "wrong-type"])
def test_a_defined_class_field_the_crd_refuses_is_said_at_its_key(tmp_path: Path, written: str, said: str) -> None:
    """cacheClass.define is the CacheRuntimeClass as emitted: a field its CRD lacks (with the closest
    field it has) or a value of the wrong type (in the schema's words) is an error at the key the user
    wrote, with the class's field path."""
    text = SPEC.read_text()
    assert "      fileSystemType: curvinefs\n" in text
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("      fileSystemType: curvinefs\n", f"      {written}\n"))
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert result.code == 1, result.err
    line = text.splitlines().index("      fileSystemType: curvinefs") + 1
    assert f"{spec}:{line}:7: error: runtime.cacheClass.define.{said}\n" in result.err, result.err


@pytest.mark.parametrize(("runtime_ns", "load_ns", "ref_ns"), [("default", None, None), (None, "default", None),
                                                            ("team", "default", "team")])
def test_fg128_finds_the_runtime_where_a_missing_namespace_lands(
        tmp_path: Path, runtime_ns: str | None, load_ns: str | None, ref_ns: str | None) -> None:
    """FG128 reads the class of the DataLoad's runtime: in the namespace its dataset reference names,
    else its own. An object without a namespace lands in `default` (kubectl's, unless set), as every
    lookup of the manifest index takes it: the runtime is found whether the namespace is written on
    the runtime or on the DataLoad only."""
    def meta(name: str, ns: str | None) -> str:
        return f"{{name: {name}, namespace: {ns}}}" if ns else f"{{name: {name}}}"
    manifest = tmp_path / "m.yaml"
    manifest.write_text(f"""\
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntimeClass
metadata: {{name: curvine}}
fileSystemType: curvine
dataOperationSpecs: []
---
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntime
metadata: {meta("imagenet", runtime_ns)}
spec: {{runtimeClassName: curvine}}
---
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {meta("warmup", load_ns)}
spec: {{dataset: {meta("imagenet", ref_ns)}}}
""")
    result = run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest))
    assert result.code == 1, result.err
    assert "error [FG128]: spec.dataset: CacheRuntimeClass curvine lists no DataLoad" in result.err, result.err


def test_a_cache_spec_without_a_class_is_refused_at_runtime_with_what_to_write(tmp_path: Path) -> None:
    """A CacheRuntime without runtimeClassName has no components: the spec says which class (and may define it)."""
    text = SPEC.read_text()
    start, end = text.index("  cacheClass:\n"), text.index("  overrides:\n")
    assert start > end  # cacheClass is runtime's last key: cut it to the end of the file
    spec = tmp_path / "spec.yaml"
    spec.write_text(text[:start])
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert result.code == 1, result.err
    line = text.splitlines().index("runtime:") + 1
    assert (f"{spec}:{line}:1: error: runtime: engine cache needs a cacheClass: section naming its CacheRuntimeClass "
            "(cacheClass: {name: ...}, plus define: to emit the class too)\n") in result.err, result.err


def test_an_override_of_the_class_name_names_the_spec_key(tmp_path: Path) -> None:
    """A CacheRuntime's runtimeClassName comes from runtime.cacheClass.name (Lowering.computed): an
    override of it is an error at the override naming that key."""
    anchor = "    master: {replicas: 1, options: {key1: master-value1}}\n"
    text = SPEC.read_text()
    assert anchor in text
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace(anchor, "    runtimeClassName: other\n" + anchor))
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert result.code == 1, result.err
    line = text.splitlines().index(anchor.rstrip("\n")) + 1
    assert (f"{spec}:{line}:5: error: runtime.overrides.runtimeClassName: set runtime.cacheClass.name instead; it is "
            "computed from the spec\n") in result.err, result.err


def test_a_defined_class_field_the_model_refuses_is_said_once_in_the_specs_words(tmp_path: Path) -> None:
    """The class's own model (cacheruntime.CLASS, held to the CRD) refuses service.headless: 5 at the
    key; the check of the generated class would say it again ("generated CacheRuntimeClass/..."), and
    does not: one error per key."""
    text = SPEC.read_text()
    assert text.count("          service: {headless: {}}\n") == 2
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("          service: {headless: {}}\n", "          service: {headless: 5}\n"))
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert result.code == 1, result.err
    lines = [i + 1 for i, line in enumerate(text.splitlines()) if line == "          service: {headless: {}}"]
    expected = [f"{spec}:{line}:21: error: runtime.cacheClass.define.topology.{part}.service.headless: expected a "
                "mapping, found an integer" for line, part in zip(lines, ("master", "worker"), strict=True)]
    assert result.err.splitlines() == [*expected, "fluidgen: 2 errors; nothing was written"], result.err


def test_a_component_the_class_lacks_must_be_disabled(tmp_path: Path) -> None:
    """cm.go generateRuntimeConfigData (master) reads runtimeClass.Topology.<C>.Options inside
    `if !runtime.Spec.<C>.Disabled`, for the master, worker and client: a class without <C> is a nil
    pointer there (FG143). A build whose defined class has no client is refused at the class's name."""
    go = need_tree("v1.1.0-dev") / "pkg/ddc/cache/engine/cm.go"
    text = go.read_text()
    body = text[text.index("func (e *CacheEngine) generateRuntimeConfigData("):]
    for part in ("Master", "Worker", "Client"):
        guard = body.index(f"if !runtime.Spec.{part}.Disabled {{")
        assert guard < body.index(f"runtimeClass.Topology.{part}.Options", guard), part
    spec_text = SPEC.read_text()
    at = spec_text.index("        client:\n")
    spec = tmp_path / "spec.yaml"
    spec.write_text(spec_text[:at] + spec_text[spec_text.index("dataflow:"):])
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert result.code == 1 and "error [FG143]" in result.err and "defines no client" in result.err, result.err
    disabled = spec_text[:at].replace("    client: {options: {key1: value1}}\n", "    client: {disabled: true}\n")
    spec.write_text(disabled + spec_text[spec_text.index("dataflow:"):])
    result = run_cli("build", "--fluid-version", "v1.1.0-dev", str(spec))
    assert "[FG143]" not in result.err, result.err


@pytest.mark.parametrize(("topology", "runtime_spec", "said"), [
    ("{master: {}, worker: {}, client: {}}", "", []),
    ("{worker: {}, client: {}}", "", ["spec.runtimeClassName: CacheRuntimeClass k defines no master"]),
    ("{worker: {}, client: {}}", "master: {disabled: true}\n", []),
    ("{worker: {}}", "master: {replicas: 1}\n", ["spec.runtimeClassName: CacheRuntimeClass k defines no client",
                                                   "spec.master: CacheRuntimeClass k defines no master"]),
    ("{worker: {}, client: {}, master: null}", "master: {disabled: false}\n",
     ["spec.master: CacheRuntimeClass k defines no master"]),
])
def test_fg143_names_each_component_left_enabled(topology: str, runtime_spec: str, said: list[str],
                                                  tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    runtime = "".join(f"  {line}\n" for line in runtime_spec.splitlines())
    manifest.write_text(f"apiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntimeClass\nmetadata: {{name: k}}\n"
                        f"fileSystemType: f\ntopology: {topology}\n---\napiVersion: data.fluid.io/v1alpha1\n"
                        "kind: CacheRuntime\nmetadata: {name: d, namespace: default}\n"
                        f"spec:\n  runtimeClassName: k\n{runtime}")
    err = run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest)).err
    got = [x.split("error [FG143]: ", 1)[1].split(",", 1)[0] for x in err.splitlines() if "[FG143]" in x]
    assert got == said, err


def test_of_two_classes_of_one_name_the_last_applied_stands(tmp_path: Path) -> None:
    """A CacheRuntimeClass is cluster-scoped: `kubectl apply` of two with one name leaves the last."""
    def klass(topology: str) -> str:
        return (f"apiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntimeClass\nmetadata: {{name: k}}\n"
                f"fileSystemType: f\ntopology: {topology}\n")
    runtime = ("apiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntime\nmetadata: {name: d, namespace: default}\n"
               "spec: {runtimeClassName: k}\n")
    manifest = tmp_path / "m.yaml"
    full, workers = "{master: {}, worker: {}, client: {}}", "{worker: {}, client: {}}"
    manifest.write_text("---\n".join((klass(full), klass(workers), runtime)))
    assert "defines no master" in run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest)).err
    manifest.write_text("---\n".join((klass(workers), klass(full), runtime)))
    assert "[FG143]" not in run_cli("lint", "--fluid-version", "v1.1.0-dev", str(manifest)).err


def test_a_class_without_any_component_is_refused_once(tmp_path: Path) -> None:
    """transform.go transform (master) refuses a class whose topology defines no component, before
    cm.go is reached: FG143 says that once, not three nil components."""
    go = (need_tree("v1.1.0-dev") / "pkg/ddc/cache/engine/transform.go").read_text()
    assert 'fmt.Errorf("at least one component should be defined in runtimeClass")' in go
    manifest = tmp_path / "m.yaml"
    manifest.write_text("apiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntimeClass\nmetadata: {name: k}\n"
                        "fileSystemType: f\n---\napiVersion: data.fluid.io/v1alpha1\nkind: CacheRuntime\n"
                        "metadata: {name: d, namespace: default}\nspec: {runtimeClassName: k}\n")
    said = [x.split("error [FG143]: ", 1)[1] for x in run_cli("lint", "--fluid-version", "v1.1.0-dev",
                                                                str(manifest)).err.splitlines() if "[FG143]" in x]
    assert said == ["spec.runtimeClassName: CacheRuntimeClass k defines no component (topology: master, worker or "
                    "client), and Fluid refuses the runtime: 'at least one component should be defined in "
                    "runtimeClass'"], said
