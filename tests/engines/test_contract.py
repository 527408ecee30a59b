"""The engines' Created records (engines/contract.py Created.names, read by lint FG126 and
diagnose) against what Fluid's charts and Go code name the objects a runtime makes.

Sources, at each commit of ../shared/fluid-src (v1.0.8 de578cd, master a826600):
- charts/<engine>/templates/**: each object's `kind:` and `metadata.name`, written from the
  chart's fullname (`{{ template "<chart>.fullname" . }}`, `$fullName`), the release name
  (`{{ printf "%s-loader" .Release.Name }}`) or a master's index (`$masterName` = master-<i>).
- pkg/ddc/<engine>/transform.go transform: `value.FullnameOverride = e.name`, or for JindoCache
  `fmt.Sprintf("%s-%s", e.name, common.JindoChartName)` with pkg/common/jindo.go JindoChartName.
- pkg/ddc/<engine>/master_internal.go: the Helm values ConfigMap `fmt.Sprintf("%s-%s-values",
  name, engineImpl)`, named in the engine's Go unit tests as "<runtime>-<engineImpl>-values".
(found by mutation, issue 42: a changed object name or chart fullname survived every test.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.base.fluidsource import FluidSource
from fluidgen.base.versions import NAMES
from fluidgen.engines.engine_table import ENGINES
from tests.harness.fluid_src import need_tree

RUNTIME = "demo"


def _sources(engine: str, key: str) -> tuple[FluidSource, ...]:
    got = ENGINES[engine].created.sources.get(key, ())
    return got if isinstance(got, tuple) else (got,)


def _charted() -> list[tuple[str, str]]:
    """(engine, version) for each engine whose created objects are cited from a chart there."""
    return [(name, v) for name in sorted(ENGINES) for v in NAMES
            if any(s.path.startswith("charts/") and s.holds_for(v) for s in _sources(name, "objects"))]


def _chart_objects(templates: Path, full: str) -> list[tuple[str, re.Pattern[str]]]:
    """(kind, name pattern) of each object in a chart's templates for a runtime RUNTIME whose
    chart fullname is `full`; a name built from anything else matches nothing."""
    out = []
    for path in sorted(templates.rglob("*.yaml")):
        kind = None
        for line in path.read_text().splitlines():
            if m := re.match(r"kind:\s*(\w+)\s*$", line):
                kind = m.group(1)
            elif kind and (m := re.match(r" {2}name:\s*(.+?)\s*$", line)):
                expr = m.group(1)
                expr = re.sub(r'\{\{-?\s*(template "[\w.-]+\.fullname" [.$\w]+|\$fullName)\s*-?\}\}', "\0F", expr)
                expr = re.sub(r'\{\{-?\s*printf "%s(-[\w-]+)" \.Release\.Name\s*-?\}\}', "\0R\\1", expr)
                expr = re.sub(r"\{\{-?\s*\$masterName\s*-?\}\}", "\0M", expr)
                if "{{" not in expr:
                    pattern = (re.escape(expr).replace("\0F", re.escape(full)).replace("\0R", re.escape(RUNTIME))
                               .replace("\0M", r"master-\d+"))
                    out.append((kind, re.compile(pattern)))
                kind = None
    return out


def _fullname(root: Path, engine: str) -> str:
    """The chart fullname Fluid's transform gives a runtime named RUNTIME (FullnameOverride)."""
    (cited,) = _sources(engine, "chart_fullname")
    text = (root / Path(cited.path).parent / "transform.go").read_text()
    if re.search(r"value\.FullnameOverride = \w\.name\n", text):
        return RUNTIME
    m = re.search(r'FullnameOverride:\s*fmt\.Sprintf\("%s-%s", \w\.name, common\.(\w+)\)', text)
    assert m, f"{cited.path}: no FullnameOverride this test can read"
    const = re.search(rf'\b{m.group(1)}\s*=\s*"([^"]+)"', "\n".join(
        p.read_text() for p in (root / "pkg/common").glob("*.go")))
    assert const, m.group(1)
    return f"{RUNTIME}-{const.group(1)}"


@pytest.mark.parametrize(("engine", "version"), _charted(), ids=[f"{e}-{v}" for e, v in _charted()])
def test_every_chart_object_fluidgen_expects_is_named_as_fluids_chart_names_it(engine: str, version: str) -> None:
    root = need_tree(version)
    created = ENGINES[engine].created
    full = _fullname(root, engine)
    assert created.chart_fullname.format(name=RUNTIME) == full
    (chart,) = {Path(s.path).parts[1] for s in _sources(engine, "objects") if s.path.startswith("charts/")}
    in_chart = _chart_objects(root / "charts" / chart / "templates", full)
    expected = created.names(RUNTIME, {"master": {"replicas": 3}})
    values = [(kind, name) for kind, name in expected if name.endswith("-values")]
    missing = [(kind, name) for kind, name in expected if (kind, name) not in values
               and not any(k == kind and p.fullmatch(name) for k, p in in_chart)]
    assert not missing, f"not in charts/{chart}/templates at {version}: {missing}"
    # The Helm values ConfigMap: "<name>-<engineImpl>-values" (master_internal.go), <engineImpl> as
    # the engine's Go tests name the ConfigMap or set the engine's engineImpl (common.*EngineImpl).
    assert len(values) <= 1
    for kind, name in values:
        assert kind == "ConfigMap"
        impl = name[len(RUNTIME) + 1:-len("-values")]
        package = root / Path(_sources(engine, "chart_fullname")[0].path).parent
        assert '"%s-%s-values' in (package / "master_internal.go").read_text()
        go = "\n".join(p.read_text() for p in package.glob("*.go"))
        impls = {_common(root, c) for c in re.findall(r"engineImpl:\s*common\.(\w+EngineImpl)", go)}
        assert re.search(rf'"[\w-]+-{re.escape(impl)}-values"', go) or impl in impls, (engine, impl, impls, version)


def _common(root: Path, const: str) -> str:
    """The string a pkg/common constant holds, following `A = B` to B's string."""
    text = "\n".join(p.read_text() for p in (root / "pkg/common").glob("*.go"))
    for _ in range(3):
        m = re.search(rf"^\s*{const}\s*(?:string\s*)?=\s*(?:\"([^\"]*)\"|(\w+))\s*$", text, re.M)
        assert m, const
        if m.group(1) is not None:
            return m.group(1)
        const = m.group(2)
    raise AssertionError(const)


def test_the_chart_reader_sees_every_kind_of_name(tmp_path: Path) -> None:
    """The reader above against one line of each form the charts use (so a chart change that it
    cannot read shows up as a missing object, never as a pass)."""
    (tmp_path / "a.yaml").write_text(
        'kind: StatefulSet\nmetadata:\n  name: {{ template "x.fullname" . }}-worker\n---\n'
        'kind: Role\nmetadata:\n  name: {{ printf "%s-loader" .Release.Name }}\n---\n'
        "kind: Service\nmetadata:\n  name: {{ $fullName }}-{{ $masterName }}\n---\n"
        "kind: PersistentVolumeClaim\nmetadata:\n  name: {{ .Values.pvcName }}\n")
    got = _chart_objects(tmp_path, "demo-x")
    assert [k for k, _ in got] == ["StatefulSet", "Role", "Service"]
    names = ["demo-x-worker", "demo-loader", "demo-x-master-2"]
    assert all(p.fullmatch(n) for (_, p), n in zip(got, names, strict=True))
    assert not got[0][1].fullmatch("demo-worker") and not got[2][1].fullmatch("demo-x-master-")


@pytest.mark.parametrize("version", NAMES)
def test_alluxio_makes_one_master_service_per_master(version: str) -> None:
    """charts/alluxio/templates/master/service.yaml ranges over $masterCount (master.replicaCount),
    which transform.go transformMasters sets to spec.master.replicas, or 1 when it is 0 or left out."""
    root = need_tree(version)
    chart = (root / "charts/alluxio/templates/master/service.yaml").read_text()
    assert "{{- $masterCount := int .Values.master.replicaCount }}" in chart
    go = (root / "pkg/ddc/alluxio/transform.go").read_text()
    assert "if runtime.Spec.Master.Replicas == 0 {\n\t\tvalue.Master.Replicas = 1" in go
    created = ENGINES["alluxio"].created

    def services(spec: dict[str, object] | None) -> list[str]:
        return [n for k, n in created.names(RUNTIME, spec) if k == "Service"]

    assert services(None) == services({}) == services({"master": {"replicas": 0}}) == [f"{RUNTIME}-master-0"]
    assert services({"master": {"replicas": 1}}) == [f"{RUNTIME}-master-0"]
    assert services({"master": {"replicas": 2}}) == [f"{RUNTIME}-master-0", f"{RUNTIME}-master-1"]


def test_a_classic_tier_level_joins_its_paths_without_a_trailing_slash_and_keeps_the_root() -> None:
    """A level's path is its paths joined by the engine's separator, each without a trailing "/"
    (Fluid appends /<namespace>/<name> to it: transformCommonPart), the root "/" kept as "/"; one
    quota is `quota`, several a `quotaList` joined by ","; watermarks and volumeType only when given."""
    from fluidgen.engines.contract import classic_level
    from fluidgen.model.specparts import CacheTier

    tier = CacheTier.model_validate({"medium": "SSD", "path": ["/", "/a/", "/b"], "quota": ["1Gi", "2Gi", "3Gi"]})
    assert classic_level(":", tier) == {"mediumtype": "SSD", "path": "/:/a:/b", "quotaList": "1Gi,2Gi,3Gi"}
    mem = CacheTier.model_validate({"medium": "MEM", "quota": "1Gi", "high": "0.9", "volumeType": "emptyDir"})
    assert classic_level(",", mem) == {"mediumtype": "MEM", "path": "/dev/shm", "quota": "1Gi", "high": "0.9",
                                       "volumeType": "emptyDir"}
    assert "path" not in classic_level(",", mem, None)


EXTRA = [(name, x.kind, version) for name, engine in sorted(ENGINES.items()) for x in engine.extra_kinds
         if x.named_by and x.named_by_source is not None for version in x.named_by_source.versions]


@pytest.mark.parametrize(("engine", "kind", "version"), EXTRA)
def test_the_runtime_field_naming_an_extra_kind_is_the_go_field_its_source_names(
        engine: str, kind: str, version: str) -> None:
    """ExtraKind.named_by (the kustomize path output.py renames the extra object by) is the JSON name
    of the Go field named_by_source cites in the runtime's API type: ThinRuntime's profileName
    (ThinRuntimeProfileName), CacheRuntime's runtimeClassName (RuntimeClassName)."""
    extra = next(x for x in ENGINES[engine].extra_kinds if x.kind == kind)
    cited = extra.named_by_source
    assert cited is not None
    text = (need_tree(version) / cited.path).read_text()
    tag = re.search(rf"^\s*{re.escape(cited.function)}\s+\S+\s+`json:\"([^,\"]+)", text, re.M)
    assert tag is not None, f"{cited.path} has no field {cited.function} at {version}"
    assert extra.named_by == f"spec/{tag.group(1)}"


def test_every_extra_kind_a_runtime_field_names_cites_that_field() -> None:
    assert all(x.named_by_source is not None for e in ENGINES.values() for x in e.extra_kinds if x.named_by)
    assert {(e, k) for e, k, _ in EXTRA} == {("cache", "CacheRuntimeClass"), ("thin", "ThinRuntimeProfile")}


def _go_format(root: Path, path: str, function: str) -> str:
    """The one fmt.Sprintf format the Go function returns, with %s as {} (its arguments in order)."""
    text = (root / path).read_text()
    body = re.search(rf"^func {function}\(.*?^}}", text, re.M | re.S)
    assert body, f"{path} has no {function}"
    (fmt,) = re.findall(r'return fmt\.Sprintf\("([^"]+)"', body.group(0))
    return fmt.replace("%s", "{}")


@pytest.mark.parametrize("version", [v for v in NAMES if any(s.holds_for(v) for s in _sources("cache", "objects"))])
def test_the_cache_engines_objects_are_named_as_its_go_helpers_name_them(version: str) -> None:
    """A CacheRuntime's components are made without Helm, named by pkg/common/cacheruntime.go
    GetCacheComponentName (<name>-<component>: AdvancedStatefulSets of master and worker, the client
    DaemonSet), pkg/ddc/cache/engine/util.go GetComponentServiceName (svc-<name>-<component>) and
    GetCacheRuntimeConfigConfigMapName; the component words are pkg/common's ComponentType values."""
    root = need_tree(version)
    by_function = {s.function: s.path for s in (*_sources("cache", "objects"), *_sources("cache", "by_related"))}
    words = dict(re.findall(r'ComponentType(\w+)\s+ComponentType = "(\w+)"',
                            (root / "pkg/common/cacheruntime.go").read_text()))
    component = _go_format(root, by_function["GetCacheComponentName"], "GetCacheComponentName")
    service = _go_format(root, by_function["GetComponentServiceName"], "GetComponentServiceName")
    config = _go_format(root, by_function["GetCacheRuntimeConfigConfigMapName"], "GetCacheRuntimeConfigConfigMapName")
    expected = {("AdvancedStatefulSet", component.format(RUNTIME, words["Master"])),
                ("AdvancedStatefulSet", component.format(RUNTIME, words["Worker"])),
                ("DaemonSet", component.format(RUNTIME, words["Client"])),
                ("Service", service.format(RUNTIME, words["Master"])),
                ("Service", service.format(RUNTIME, words["Worker"])),
                ("Service", service.format(RUNTIME, words["Client"])),
                ("ConfigMap", config.format(RUNTIME))}
    every = {"topology": {c: {"service": {"headless": {}}} for c in ("master", "worker", "client")}}
    created = ENGINES["cache"].created
    assert set(created.names(RUNTIME, {}, every)) == expected
    assert set(created.names(RUNTIME, {}, None, maybe=True)) == expected  # what diagnose may meet
    assert created.names(RUNTIME) == [("ConfigMap", config.format(RUNTIME))]  # the class unknown: nothing else
    # no Service without service.headless (transform_common.go initComponentValue)
    plain = {"topology": {c: {} for c in ("master", "worker", "client")}}
    assert set(created.names(RUNTIME, {}, plain)) == {x for x in expected if x[0] != "Service"}
    assert set(created.names(RUNTIME, {}, plain, maybe=True)) == {x for x in expected if x[0] != "Service"}
