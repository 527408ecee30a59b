"""Whether Fluid serves a Dataset read-only is one fact (fluidbase.read_only_dataset): Fluid reads
no access mode as ReadOnlyMany (pkg/utils/dataset.go GetAccessModesOfDataset), and its Alluxio,
JindoCache and thin FUSE defaults mount ro as soon as ReadOnlyMany is among the modes
(optimizeDefaultFuse, transformFuseArg, parseFuseOptions; v1.0.8 and master alike). The FUSE args
fluidgen lowers, lint rule FG131 and the training jobs' volume mounts all read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fluidgen.base.versions import NAMES
from fluidgen.catalog.schemas import has_field
from fluidgen.engines.engine_table import ENGINES
from fluidgen.fluid.fluidbase import read_only_dataset
from fluidgen.lint import runtime_kinds_at
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree
from tests.lint.test_lint import dataset, runtime
from tests.lower.test_workloads import build, one, write_spec

ROX, RWX, RWO = "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"
# access modes -> read-only
COMBOS: list[tuple[list[str], bool]] = [
    ([], True), ([ROX], True), ([RWX], False), ([RWO], False), ([ROX, RWX], True), ([RWX, ROX], True),
]


@pytest.mark.parametrize(("modes", "read_only"), COMBOS)
def test_the_fact(modes: list[str], read_only: bool) -> None:
    assert read_only_dataset(modes) is read_only


def _pod(docs: list[dict[str, Any]]) -> dict[str, Any]:
    pod: dict[str, Any] = one(docs, "PyTorchJob")["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]
    return pod


@pytest.mark.parametrize("version", NAMES)
@pytest.mark.parametrize(("modes", "read_only"), [c for c in COMBOS if RWO not in c[0]])
def test_workload_volume_and_fuse_args_agree(tmp_path: Path, modes: list[str], read_only: bool,
                                             version: str) -> None:
    """The job mounts the claim readOnly exactly when Fluid's FUSE (here Alluxio's, with the FUSE args
    of the alluxio-default profile, given the mode Fluid would choose) mounts ro."""
    top: dict[str, Any] = {"fluid": version, **({"accessModes": modes} if modes else {}),
                           "runtime": {"engine": "alluxio", "replicas": 2, "profile": "alluxio-default",
                                       "cache": [{"medium": "MEM", "quota": "4Gi"}]}}
    docs = build(str(write_spec(tmp_path, {}, **top)))
    pod = _pod(docs)
    claim = pod["volumes"][0]["persistentVolumeClaim"]
    assert claim.get("readOnly", False) is read_only
    assert pod["containers"][0]["volumeMounts"][0].get("readOnly", False) is read_only
    args = " ".join(one(docs, "AlluxioRuntime")["spec"]["fuse"]["args"])
    assert ("ro" in args.split("=", 1)[1].split(",")) is read_only, args
    assert one(docs, "Dataset")["spec"].get("accessModes", []) == modes


def test_read_only_many_beside_read_write_many_is_read_only(tmp_path: Path) -> None:
    """Was mounted writable because ReadWriteMany was named, though Fluid's FUSE mounts it ro."""
    pod = _pod(build(str(write_spec(tmp_path, {}, accessModes=[ROX, RWX]))))
    assert pod["volumes"][0] == {"name": "dataset", "persistentVolumeClaim": {"claimName": "imagenet",
                                                                             "readOnly": True}}


def test_a_spec_takes_no_read_write_once(tmp_path: Path) -> None:
    """A Dataset's claim is shared by every pod of a job: the spec offers ReadOnlyMany and ReadWriteMany."""
    result = run_cli("build", str(write_spec(tmp_path, {}, accessModes=[RWO])))
    assert result.code == 1 and not result.out and "accessModes" in result.err, result.err


def _modes(modes: list[str]) -> str:
    return f"  accessModes: {yaml.safe_dump(modes, default_flow_style=True).strip()}\n" if modes else ""


@pytest.mark.parametrize(("modes", "read_only"), COMBOS)
@pytest.mark.parametrize("kind", ["AlluxioRuntime", "GooseFSRuntime", "JindoRuntime"])
def test_fg131_over_every_combination(tmp_path: Path, modes: list[str], read_only: bool, kind: str) -> None:
    """fuse.args with ro are reported for a writable Dataset, args without it for a read-only one
    (GooseFS: v1.0.8 only, pkg/ddc/goosefs/transform_optimization.go optimizeDefaultFuse)."""
    jindo = kind == "JindoRuntime"
    with_ro = "['-okernel_cache', '-oro']" if jindo else "[fuse, '--fuse-opts=kernel_cache,ro']"
    without = "['-okernel_cache']" if jindo else "[fuse, '--fuse-opts=kernel_cache']"
    manifest = tmp_path / "m.yaml"
    for args, reported in ((with_ro, not read_only), (without, read_only)):
        manifest.write_text("---\n".join([dataset(extra=_modes(modes)), runtime(kind, f"fuse: {{args: {args}}}")]))
        for version in (v for v in NAMES if kind in runtime_kinds_at(v)):
            err = run_cli("lint", "--fluid-version", version, str(manifest)).err
            assert ("[FG131]" in err) is reported, (args, version, err)
            if reported:  # at the user's key: the args that lack ro, or the ro item itself (index 1 in both)
                assert f"[FG131]: spec.fuse.args{'' if read_only else '[1]'}: " in err, err
            if reported and not read_only:
                assert "is writable (no ReadOnlyMany among its access modes)" in err, err


FUSE_ARGS_ONLY = sorted(e.kind for e in ENGINES.values() if e.lowering.fuse_mode_source is None
                        and any(has_field(v, e.kind, ("fuse", "args")) for v in NAMES if e.kind in runtime_kinds_at(v)))


@pytest.mark.parametrize("kind", FUSE_ARGS_ONLY)
def test_fg131_is_silent_where_fluid_sets_no_fuse_mode(tmp_path: Path, kind: str) -> None:
    """Only Alluxio, GooseFS and JindoCache set ro/rw from the access modes (Lowering.fuse_mode_source);
    another engine's fuse.args are its own, ro or not, and FG131 says nothing of them."""
    manifest = tmp_path / "m.yaml"
    for modes in ([], ["ReadWriteMany"]):
        for args in ("[fuse, '--fuse-opts=kernel_cache,ro']", "[fuse, '-o', ro]", "[fuse]"):
            manifest.write_text("---\n".join([dataset(extra=_modes(modes)), runtime(kind, f"fuse: {{args: {args}}}")]))
            for version in (v for v in NAMES if kind in runtime_kinds_at(v)):
                result = run_cli("lint", "--fluid-version", version, str(manifest))
                assert result.code in (0, 1) and "[FG131]" not in result.err, (kind, modes, args, version, result.err)


@pytest.mark.parametrize("engine", ["alluxio", "jindo", "thin"])
@pytest.mark.parametrize(("given", "overridden", "read_only"), [
    ({}, [RWX], False), ({"accessModes": [RWX]}, [ROX], True), ({"accessModes": [RWX]}, None, True),
])
def test_access_modes_are_read_from_the_dataset_as_built(engine: str, given: dict[str, Any],
                                                         overridden: list[str] | None, read_only: bool,
                                                         tmp_path: Path) -> None:
    """Issue 42 (5): dataset.overrides.accessModes made the Dataset writable while the FUSE mount
    stayed ro and the jobs mounted the claim readOnly (or the reverse): every reader of the modes
    reads the Dataset as finally built (null deletes them: none is ReadOnlyMany)."""
    runtimes: dict[str, dict[str, Any]] = {
        "alluxio": {"engine": "alluxio", "replicas": 2, "profile": "alluxio-default",
                    "cache": [{"medium": "MEM", "quota": "4Gi"}]},
        "jindo": {"engine": "jindo", "replicas": 2, "cache": [{"medium": "MEM", "quota": "4Gi"}],
                  "overrides": {"fuse": {"args": ["-okernel_cache"]}}},
        "thin": {"engine": "thin", "replicas": 1,
                 "thin": {"fileSystemType": "fuse", "profile": {"fuse": {
                     "image": "i", "imageTag": "t", "command": ["sh"], "options": {"allow_other": ""}}}}},
    }
    source = {"jindo": [{"uri": "oss://bucket/imagenet/", "name": "imagenet", "options": {"fs.oss.endpoint": "e"}}],
              "thin": [{"uri": "minio://bucket/imagenet/", "name": "imagenet"}]}
    top: dict[str, Any] = {**given, "runtime": runtimes[engine], "dataset": {"overrides": {"accessModes": overridden}}}
    if engine in source:
        top["source"] = source[engine]
    docs = build(str(write_spec(tmp_path, {}, **top)))
    built = one(docs, "Dataset")["spec"].get("accessModes", [])
    assert built == (overridden or [])
    pod = _pod(docs)
    assert pod["volumes"][0]["persistentVolumeClaim"].get("readOnly", False) is read_only
    assert pod["containers"][0]["volumeMounts"][0].get("readOnly", False) is read_only
    if engine == "alluxio":
        args = " ".join(one(docs, "AlluxioRuntime")["spec"]["fuse"]["args"])
        assert ("ro" in args.split("=", 1)[1].split(",")) is read_only, args
    elif engine == "jindo":
        assert ("-oro" in one(docs, "JindoRuntime")["spec"]["fuse"]["args"]) is read_only
    else:
        assert ("ro" in one(docs, "ThinRuntimeProfile")["spec"]["fuse"]["options"]) is read_only
    out = tmp_path / "out.yaml"
    out.write_text(yaml.safe_dump_all(docs))
    lint = run_cli("validate", "--lint", str(out))
    assert "FG131" not in lint.err, lint.err


@pytest.mark.parametrize("version", NAMES)
def test_fg131_reads_every_engine_whose_fluid_fuse_defaults_follow_the_access_modes(version: str) -> None:
    """Every function of Fluid's engines (pkg/ddc/*/, at `version`) that reads the Dataset's access
    modes (GetAccessModesOfDataset, ReadOnlyMany) and lets runtime.Spec.Fuse.Args replace the FUSE
    args it sets is the fuse_mode_source of the fluidgen engine of that folder, and no other engine
    has one: FG131 missed GooseFS (v1.0.8 optimizeDefaultFuse). jindofsx is not fluidgen's Jindo
    engine (jindocache is the default: pkg/utils/jindo/jindo.go GetDefaultEngineImpl)."""
    import re

    root = need_tree(version)
    found = set()
    for path in sorted((root / "pkg/ddc").rglob("*.go")):
        if path.name.endswith("_test.go") or "mock" in path.name:
            continue
        text = path.read_text()
        for m in re.finditer(r"^func (\([^)]*\) )?(\w+)\(", text, re.M):
            body = text[m.start():text.find("\n}\n", m.start())]
            if re.search(r"GetAccessModesOfDataset|ReadOnlyMany", body) and "= runtime.Spec.Fuse.Args" in body:
                found.add((str(path.relative_to(root)), m[2]))
    found -= {(p, f) for p, f in found if p.startswith("pkg/ddc/jindofsx/")}
    cited = {(e.lowering.fuse_mode_source.path, e.lowering.fuse_mode_source.function)
             for e in ENGINES.values() if e.lowering.fuse_mode_source is not None
             and e.kind in runtime_kinds_at(version) and version in e.lowering.fuse_mode_source.versions}
    assert cited == found


def test_fg131_reads_exactly_the_runtimes_of_those_engines() -> None:
    """FG131's kinds (the rules page, `--rules`, the runner's filter) are the runtimes whose FUSE
    mode Fluid chooses from the access modes at some version (the scan above): Alluxio, GooseFS, JindoCache."""
    from fluidgen.lint import RULES

    fg131 = next(r for r in RULES if r.id == "FG131")
    assert fg131.kinds == {ENGINES[name].kind for name in ("alluxio", "goosefs", "jindo")}
    assert all(ENGINES[name].lowering.fuse_mode_source is not None for name in ("alluxio", "goosefs", "jindo"))
