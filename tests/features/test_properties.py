"""Property tests: every spec either compiles to output that passes the real CRDs strictly,
or fails with clean, located errors. Credential values never leave Secret data.

Fixed seed (derandomize) so CI is reproducible; the example counts are in the settings below.
"""

from __future__ import annotations

import base64
import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fluidgen.base.diagnostics import FluidgenError, errors_in
from fluidgen.base.emit import dump_all
from fluidgen.base.options import Options
from fluidgen.base.versions import NAMES as FLUID_VERSIONS
from fluidgen.compile.pipeline import compile_document
from fluidgen.io.yamlreader import load_text
from tests.conftest import crds_root

ENGINE_SCHEMES = {
    "alluxio": ["oss://b/d/", "s3://b/d", "hdfs://nn:8020/d", "pvc://claim/sub", "local:///mnt/d", "https://h/x/"],
    "jindo": ["oss://b/d/", "s3://b/d", "cos://b/d", "obs://b/d", "hdfs://nn/d", "pvc://claim"],
    "juicefs": ["juicefs:///", "juicefs:///sub"],
    "efc": ["nfs://abc.cn-hangzhou.nas.aliyuncs.com:/share/"],
    "thin": ["minio://bucket/x", "pvc://claim", "dataset://ns/other"],
    "vineyard": [],
    "goosefs": ["cosn://bucket-1/x/", "oss://b/d/", "hdfs://nn/d"],
}
ALL_SCHEMES = sorted({s for v in ENGINE_SCHEMES.values() for s in v} | {"gs://b/x", "ftp://h/x", "nope"})
# A fixed prefix keeps a random value from being a chance substring of ordinary output.
SECRETS = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=8, max_size=24).map(
    lambda t: "SeCrEt~" + t)
names = st.from_regex(r"[a-z][a-z0-9-]{0,10}[a-z0-9]", fullmatch=True)
OPS = {"alluxio": ["load", "process", "backup"], "jindo": ["load", "process"],
       "juicefs": ["load", "process", "migrate"], "goosefs": []}


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Valid values 7 times in 8: both outcomes get exercised."""
    return st.integers(0, 7).flatmap(lambda n: bad if n == 7 else good)


quantity = mostly(st.sampled_from(["1Gi", "500Mi", "100G", "2Ti", 1073741824, "1.5Gi"]),
                  st.sampled_from(["10GB", "1 Gi", "lots"]))


@st.composite
def tiers(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    media = draw(mostly(st.lists(st.sampled_from(["MEM", "SSD", "HDD"]), max_size=1, unique=True),
                        st.lists(st.sampled_from(["MEM", "SSD", "HDD"]), min_size=2, max_size=3)))
    for medium in media:
        paths = draw(st.lists(st.sampled_from(["/mnt/a", "/mnt/b", "/var/cache"]), min_size=medium != "MEM",
                              max_size=2, unique=True))
        quota = draw(mostly(st.lists(quantity, min_size=len(paths) or 1, max_size=len(paths) or 1),
                            st.lists(quantity, min_size=1, max_size=3)))
        tier: dict[str, Any] = {"medium": medium, "quota": quota if len(quota) > 1 else quota[0]}
        if paths:
            tier["path"] = paths if len(paths) > 1 else paths[0]
        if draw(st.booleans()):
            tier["high"], tier["low"] = draw(mostly(st.sampled_from([(0.99, 0.8), ("0.95", "0.7"), (1, 0)]),
                                                    st.sampled_from([(0.5, 0.8), (1.5, 0.1)])))
        out.append(tier)
    return out


@st.composite
def mounts(draw: st.DrawFn, engine: str) -> tuple[list[dict[str, Any]], dict[str, str]]:
    secrets: dict[str, str] = {}
    pool = ALL_SCHEMES if draw(st.integers(0, 7)) == 7 else ENGINE_SCHEMES[engine]
    single = engine in ("juicefs", "efc") or draw(st.integers(0, 3)) > 0
    out = []
    for i in range(draw(st.integers(0 if engine == "vineyard" else 1, 1 if single else 2)) if pool else 0):
        if draw(st.integers(0, 5)) == 0:
            m: dict[str, Any] = {"nfs": {"server": "nas.example.com", "path": "/export", "capacity": draw(quantity),
                                         "mountOptions": ["nfsvers=4.1", "hard"]}}
        else:
            m = {"uri": draw(st.sampled_from(pool)), "options": {"fs.oss.endpoint": "oss-cn-hangzhou.aliyuncs.com"}}
        m["name"] = f"m{i}"
        if draw(st.booleans()):
            value = draw(SECRETS)
            key = {"juicefs": "metaurl"}.get(engine, "fs.oss.accessKeySecret")
            secrets[key + str(i)] = value
            m["credentials"] = {"inline": {key: value}, "allowInline": True}
        out.append(m)
    return out, secrets


@st.composite
def dataflow(draw: st.DrawFn, engine: str) -> list[dict[str, Any]]:
    steps = []
    supported = OPS.get(engine, ["process"])
    for _ in range(draw(st.integers(0, 3)) if supported else 0):
        op = draw(mostly(st.sampled_from(supported), st.sampled_from(["migrate", "process", "load", "backup"])))
        if op == "migrate":
            steps.append({"migrate": {"from": "oss://b/raw/", "to": "/raw"}})
        elif op == "process":
            steps.append({"process": {"mountPath": "/data", "image": "busybox", "script": "ls /data"}})
        elif op == "load":
            steps.append({"load": {"paths": ["/"], "metadata": draw(st.booleans())}})
        else:
            steps.append({"backup": {"path": draw(mostly(st.just("pvc://claim/backup/"), st.just("/tmp/x")))}})
    return steps


@st.composite
def specs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, str]]:
    engine = draw(st.sampled_from(sorted(ENGINE_SCHEMES)))
    source, secrets = draw(mounts(engine))
    replicas = draw(mostly(st.integers(1, 5), st.just(0)))
    runtime: dict[str, Any] = {"engine": engine, "replicas": replicas, "cache": draw(tiers())}
    reference = any(str(m.get("uri", "")).startswith("dataset://") for m in source)
    if reference and draw(mostly(st.just(True), st.just(False))):
        runtime = {"engine": engine}  # Fluid ignores a reference dataset's runtime spec
    elif engine == "thin":
        runtime["thin"] = {"fileSystemType": "fuse", "profile": {"fuse": {"image": "x/y", "imageTag": "v1"}}}
    if len(runtime) > 1 and draw(st.booleans()):
        extra = ["alluxio-imagenet"] if engine == "alluxio" else []
        runtime["profile"] = draw(st.sampled_from([f"{engine}-default", "none", *extra]))
    if draw(st.booleans()):
        runtime["overrides"] = draw(mostly(
            st.sampled_from([{"podMetadata": {"labels": {"a": "b"}}}, {"master": {"bogusField": 1}}]),
            st.sampled_from([{"podMetadata": "not-a-map"}, {"replicas": 3}])))
    spec: dict[str, Any] = {"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
                            "metadata": {"name": draw(names), "namespace": draw(names)},
                            "fluid": draw(st.sampled_from(FLUID_VERSIONS)), "source": source, "runtime": runtime,
                            "dataflow": draw(dataflow(engine))}
    if draw(st.booleans()):
        spec["placement"] = {"gpu": draw(st.sampled_from(["Tesla-V100-SXM2-16GB", ["A100", "H800"]]))}
    return spec, secrets


@functools.cache
def _crds() -> dict[str, Any]:
    from fluidgen.io.crds import CrdSet

    root = crds_root()
    if root is None:
        pytest.skip("Fluid CRDs not found: set FLUIDGEN_CRDS_DIR or put them in ../shared/fluid-crds")
    return {v: CrdSet.load(root / v) for v in FLUID_VERSIONS}


@pytest.mark.slow
@settings(max_examples=1000, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_compiles_to_valid_output_or_fails_cleanly(case: tuple[dict[str, Any], dict[str, str]]) -> None:
    crds = _crds()
    spec, secrets = case
    doc = load_text("spec.yaml", dump_all([spec]))[0]
    try:
        objects, diags = compile_document(doc, Options(env={}))
    except FluidgenError as exc:
        objects, diags = [], exc.diagnostics
    rendered = "\n".join(d.render() for d in diags)
    for value in secrets.values():
        assert value not in rendered
    event("rejected" if errors_in(diags) else "compiled")
    if errors_in(diags):
        for d in errors_in(diags):
            assert d.file == "spec.yaml" and d.line >= 1 and d.col >= 1 and d.message
        return
    text = dump_all(objects)
    for value in secrets.values():
        assert value not in text
    for obj in objects:
        if obj["apiVersion"].startswith("data.fluid.io/"):
            problems = crds[spec["fluid"]].check(obj)
            assert problems == [], (obj["kind"], [(p.path, p.message) for p in problems])
        elif obj["kind"] == "Secret":
            decoded = {base64.b64decode(v).decode() for v in obj["data"].values()}
            assert decoded <= set(secrets.values())
