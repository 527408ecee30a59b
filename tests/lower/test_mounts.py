"""lower/mounts.py: which mountPoint schemes an engine mounts (Engine.mounts.schemes), held to
the Datasets of Fluid's own Go unit tests for that engine (issue 42).

Alluxio and GooseFS hand every mountPoint but local:// and pvc:// to `<engine> fs mount` as
written (pkg/ddc/{alluxio,goosefs}/ufs_internal.go mountUFS), so a scheme their tests mount is one
fluidgen must not refuse; the same holds for the other engines' fixtures, except where Fluid's
own code refuses the mount (EXCEPTIONS, each with the function that does). The list beyond
Fluid's fixtures (GooseFS's oss://, s3://, hdfs://, http://) is the engine's documented UFS, a
claim about GooseFS and Alluxio that no Fluid code decides (tests/mutation/README.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.engines.engine_table import ENGINES
from fluidgen.lower.mounts import _scheme_problem
from tests.conftest import run_cli
from tests.harness.fluid_src import TREES, need_tree

MOUNT_POINT = re.compile(r'MountPoint:\s*"([A-Za-z][A-Za-z0-9+.-]*)://')

# (engine, scheme) -> (file, function) in Fluid that refuses or ignores the mount, at every version
# the engine has; the fixtures that carry it test something else (a DataLoad's paths).
EXCEPTIONS = {
    ("juicefs", "local"): ("pkg/ddc/juicefs/utils.go", "func ParseSubPathFromMountPoint"),  # not juicefs://: error
    ("vineyard", "local"): ("pkg/ddc/vineyard/ufs.go", "func (e *VineyardEngine) PrepareUFS"),  # mounts nothing
}


def _package(name: str) -> str:
    """pkg/ddc/<dir> of the engine, from the source its scheme fact cites."""
    cited = ENGINES[name].mounts.sources["schemes"]
    first = cited[0] if isinstance(cited, tuple) else cited
    parts = Path(first.path).parts
    assert parts[:2] == ("pkg", "ddc"), first.path
    return "/".join(parts[:3])


def _versions(name: str) -> tuple[str, ...]:
    cited = ENGINES[name].mounts.sources["schemes"]
    first = cited[0] if isinstance(cited, tuple) else cited
    return first.versions


CASES = [(name, version) for name in sorted(ENGINES) for version in _versions(name) if version in TREES]


def fixture_schemes(root: Path, package: str) -> dict[str, list[str]]:
    """scheme -> the Go test files of `package` whose Datasets mount it."""
    found: dict[str, list[str]] = {}
    for test in sorted((root / package).rglob("*_test.go")):
        for scheme in sorted(set(MOUNT_POINT.findall(test.read_text()))):
            found.setdefault(scheme.lower(), []).append(str(test.relative_to(root)))
    return found


@pytest.mark.parametrize(("name", "version"), CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_every_scheme_fluids_own_tests_mount_is_accepted(name: str, version: str) -> None:
    root = need_tree(version)
    engine = ENGINES[name]
    found = fixture_schemes(root, _package(name))
    assert found, f"no mountPoint in {_package(name)}'s tests at {version}"
    refused = {scheme: (files, _scheme_problem(engine, scheme)) for scheme, files in found.items()
               if (name, scheme) not in EXCEPTIONS and _scheme_problem(engine, scheme) is not None}
    assert refused == {}


@pytest.mark.parametrize(("engine", "scheme"), sorted(EXCEPTIONS))
def test_each_exception_is_refused_by_fluid_and_by_fluidgen(engine: str, scheme: str) -> None:
    path, function = EXCEPTIONS[(engine, scheme)]
    assert _scheme_problem(ENGINES[engine], scheme) is not None
    for version in _versions(engine):
        root = need_tree(version)
        assert function in (root / path).read_text(), (version, path, function)
        assert scheme in fixture_schemes(root, _package(engine)), "the exception names a fixture that is gone"


def test_goosefs_fixtures_are_the_ones_its_scheme_list_must_hold() -> None:
    """The schemes GooseFS's tests mount (v1.0.8; GooseFS is gone from master): cos:// in
    ufs_internal_test.go, cosn:// in ufs_test.go, https:// in transform_optimization_test.go."""
    found = fixture_schemes(need_tree("v1.0.8"), "pkg/ddc/goosefs")
    assert {"cos", "cosn", "https", "local", "pvc"} <= set(found)


@pytest.mark.parametrize("name", sorted(n for n, e in ENGINES.items() if e.mounts.schemes is not None))
def test_a_scheme_no_engine_lists_is_refused_with_the_list(name: str) -> None:
    problem = _scheme_problem(ENGINES[name], "zz")
    assert problem is not None and problem.startswith(f"{ENGINES[name].kind} cannot mount zz://")


SECOND_MOUNT = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: d, namespace: default}
source:
  - name: a
    uri: juicefs:///
    credentials: {existingSecret: {name: jfs, keys: [metaurl]}}
  - name: b
    uri: juicefs:///b
    credentials: {existingSecret: {name: jfs, keys: [metaurl]}}
runtime: {engine: juicefs, cache: [{medium: MEM, quota: 1Gi}]}
"""


@pytest.mark.parametrize("version", sorted(TREES))
def test_juicefs_refuses_a_second_mount_fluid_would_never_read(version: str, tmp_path: Path) -> None:
    """JuiceFS renders its FUSE and worker from the Dataset's first mount alone
    (pkg/ddc/juicefs/transform_fuse.go transformFuse: `mount := dataset.Spec.Mounts[0]`, at both
    commits): a second mount would be silently unserved, so the spec is refused at it."""
    root = need_tree(version)
    assert "mount := dataset.Spec.Mounts[0]" in (root / "pkg/ddc/juicefs/transform_fuse.go").read_text()
    spec = tmp_path / "spec.yaml"
    spec.write_text(SECOND_MOUNT)
    result = run_cli("build", "--fluid-version", version, str(spec))
    assert result.code == 1
    assert (f"{spec}:8:5: error: source[1]: JuiceFSRuntime uses only the first mount; split the data into several "
            "datasets") in result.err, result.err


@pytest.mark.parametrize(("engine", "warned"), [("alluxio", True), ("goosefs", True), ("jindo", False),
                                                 ("efc", False)])
def test_a_scheme_outside_an_engines_documented_list_is_a_warning_not_a_refusal(engine: str, warned: bool,
                                                                                 tmp_path: Path) -> None:
    """Alluxio and GooseFS hand every mountPoint but local:// and pvc:// to `fs mount` as written
    (ufs_internal.go mountUFS): their list is their documented storage, so another scheme may work
    and is a warning; an engine whose Fluid code decides the scheme (Jindo's transformMaster, EFC's
    transform) still refuses it."""
    assert ENGINES[engine].mounts.documented_schemes is warned
    version = "v1.0.8"
    root = need_tree(version)
    if warned:
        mount = (root / f"pkg/ddc/{engine}/ufs_internal.go").read_text()
        assert re.search(r"if common\.IsFluidNativeScheme\(mount\.MountPoint\) \{\s*continue", mount)
    spec = tmp_path / "spec.yaml"
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: d, namespace: default}\n"
                    f"source: [{{uri: 'zz://b/p/'}}]\nruntime: {{engine: {engine}, replicas: 1}}\n")
    result = run_cli("build", "--fluid-version", version, str(spec))
    kind = ENGINES[engine].kind
    if warned:
        assert result.code == 0 and result.out, result.err
        assert (f"{spec}:4:11: warning: source[0].uri: zz:// is not one of the storage schemes fluidgen knows {kind} "
                "mounts (") in result.err, result.err
        assert "so it mounts if the engine's image supports that storage" in result.err
    else:
        assert result.code == 1 and f"error: source[0].uri: {kind} cannot mount zz://" in result.err, result.err


@pytest.mark.parametrize("engine", ["alluxio", "jindo"])
def test_text_before_a_later_scheme_is_refused_and_never_echoed(engine: str, tmp_path: Path) -> None:
    """scheme_of takes the text before the first ://, which in `user:hunter2@host/p?r=https://x` holds a
    password: that is no URI scheme (RFC 3986 3.1), so the build refuses it without saying it back."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: d, namespace: default}\n"
                    "source: [{uri: 'user:hunter2@host/p?r=https://x'}]\n"
                    f"runtime: {{engine: {engine}, replicas: 1}}\n")
    result = run_cli("build", "--fluid-version", "v1.0.8", str(spec))
    assert result.code == 1 and "hunter2" not in result.err + result.out, result.err
    assert (f"{spec}:4:11: error: source[0].uri: expected a URI whose scheme (the text before ://) is a letter "
            "followed by letters, digits, +, - or ., such as oss://bucket/dir/") in result.err, result.err
