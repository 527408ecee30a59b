"""ThinRuntime specifics: the generated profile's name and read-only options, and FG122."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import run_cli

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {{name: imagenet, namespace: {namespace}}}
{access}source:
  - uri: s3://bucket/imagenet
runtime:
  engine: thin
  thin:
    fileSystemType: fuse.s3fs
    profile:
      fuse:
        image: example.com/s3fs
{options}"""


def build(tmp_path: Path, namespace: str = "team-a", access: str = "", options: str = "") -> dict[str, Any]:
    spec = tmp_path / f"{namespace}.yaml"
    spec.write_text(SPEC.format(namespace=namespace, access=access, options=options))
    result = run_cli("build", str(spec))
    assert result.code == 0, result.err
    return {d["kind"]: d for d in yaml.safe_load_all(result.out)}


def test_generated_profile_names_differ_across_namespaces(tmp_path: Path) -> None:
    a, b = build(tmp_path, "team-a"), build(tmp_path, "team-b")
    names = {o["ThinRuntimeProfile"]["metadata"]["name"] for o in (a, b)}
    assert names == {"team-a.imagenet", "team-b.imagenet"}
    for objs in (a, b):
        assert objs["ThinRuntime"]["spec"]["profileName"] == objs["ThinRuntimeProfile"]["metadata"]["name"]


def test_profile_options_keep_read_only(tmp_path: Path) -> None:
    # Fluid replaces its own `ro` with the profile's fuse.options; the default access mode is
    # ReadOnlyMany, so fluidgen puts `ro` back.
    objs = build(tmp_path, options="        options: {allow_other: \"\"}\n")
    assert objs["ThinRuntimeProfile"]["spec"]["fuse"]["options"] == {"allow_other": "", "ro": ""}


def test_profile_without_options_is_left_alone(tmp_path: Path) -> None:
    objs = build(tmp_path)
    assert "options" not in objs["ThinRuntimeProfile"]["spec"]["fuse"]


def test_read_write_dataset_gets_no_ro(tmp_path: Path) -> None:
    objs = build(tmp_path, access="accessModes: [ReadWriteMany]\n",
                 options="        options: {allow_other: \"\"}\n")
    assert objs["ThinRuntimeProfile"]["spec"]["fuse"]["options"] == {"allow_other": ""}


@pytest.mark.parametrize("options", [{"rw": ""}, {"ro": "1"}])
def test_an_explicit_ro_or_rw_is_kept_as_written(tmp_path: Path, options: dict[str, str]) -> None:
    written = ", ".join(f'{k}: "{v}"' for k, v in options.items())
    objs = build(tmp_path, options=f"        options: {{{written}}}\n")
    assert objs["ThinRuntimeProfile"]["spec"]["fuse"]["options"] == options


MANIFESTS = """\
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntimeProfile
metadata: {name: s3fs}
spec:
  fileSystemType: fuse.s3fs
  fuse:
    image: example.com/s3fs
    options: {allow_other: ""}
---
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: ro-data, namespace: ml}
spec:
  mounts: [{mountPoint: "s3://bucket", name: b}]
---
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntime
metadata: {name: ro-data, namespace: ml}
spec: {profileName: s3fs%s}
"""


def test_lint_flags_profile_options_that_drop_ro(tmp_path: Path) -> None:
    manifest = tmp_path / "thin.yaml"
    manifest.write_text(MANIFESTS % "")
    result = run_cli("lint", str(manifest))
    assert result.code == 0  # a warning
    assert "thin.yaml:8:5: warning [FG122]: spec.fuse.options:" in result.err
    assert "ReadOnlyMany Dataset ro-data" in result.err


def test_lint_finds_the_runtime_that_uses_the_profile_past_one_that_does_not(tmp_path: Path) -> None:
    other = """\
---
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntime
metadata: {name: elsewhere, namespace: ml}
spec: {profileName: another}
"""
    manifest = tmp_path / "thin.yaml"
    manifest.write_text(other.removeprefix("---\n") + "---\n" + MANIFESTS % "")  # the other runtime first
    result = run_cli("lint", str(manifest))
    assert "warning [FG122]: spec.fuse.options:" in result.err, result.err
    assert "ReadOnlyMany Dataset ro-data" in result.err


def test_lint_looks_past_a_runtime_of_the_profile_that_keeps_ro(tmp_path: Path) -> None:
    keeps = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: kept, namespace: ml}
spec:
  mounts: [{mountPoint: "s3://bucket", name: b}]
---
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntime
metadata: {name: kept, namespace: ml}
spec: {profileName: s3fs, fuse: {options: {ro: ""}}}
"""
    manifest = tmp_path / "thin.yaml"
    manifest.write_text(keeps + "---\n" + MANIFESTS % "")  # the runtime that keeps ro first
    result = run_cli("lint", str(manifest))
    assert "warning [FG122]: spec.fuse.options:" in result.err, result.err
    assert "ReadOnlyMany Dataset ro-data" in result.err


@pytest.mark.parametrize(("profile_options", "runtime_fuse"), [
    ('{allow_other: ""}', ', fuse: {options: {ro: ""}}'),
    ('{allow_other: ""}', ', fuse: {options: {rw: ""}}'),
    ('{allow_other: "", ro: ""}', ""),
    ('{allow_other: "", rw: ""}', ""),
])
def test_lint_accepts_ro_or_rw_said_in_the_profile_or_the_runtime(
        tmp_path: Path, profile_options: str, runtime_fuse: str) -> None:
    # parseFuseOptions (pkg/ddc/thin/transform_fuse.go): the runtime's options are laid over the
    # profile's, which replace Fluid's ro; an ro or rw written in either is the user's own choice
    manifest = tmp_path / "thin.yaml"
    manifest.write_text((MANIFESTS % runtime_fuse).replace('{allow_other: ""}', profile_options))
    result = run_cli("lint", str(manifest))
    assert "FG122" not in result.err, result.err


NO_MOUNTS = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: dynamic, namespace: team-a}
runtime:
  engine: thin
  thin:
    fileSystemType: fuse.s3fs
    profile:
      fuse:
        image: example.com/s3fs
"""


def test_a_dataset_without_mounts_builds(tmp_path: Path) -> None:
    # Fluid runs a ThinRuntime whose Dataset has no mounts yet (mounts added later reach the FUSE
    # config): pkg/ddc/thin/transform_config.go transformFuseConfig and validate.go
    # validateDuplicateDatasetMounts accept none, in every version. fluidgen refused it.
    spec = tmp_path / "dynamic.yaml"
    spec.write_text(NO_MOUNTS)
    result = run_cli("build", str(spec))
    assert result.code == 0, result.err
    objs = {d["kind"]: d for d in yaml.safe_load_all(result.out)}
    assert not objs["Dataset"]["spec"].get("mounts")
    assert objs["ThinRuntime"]["spec"]["profileName"] == "team-a.dynamic"


def test_vineyard_still_takes_no_mounts(tmp_path: Path) -> None:
    spec = tmp_path / "v.yaml"
    spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: v}\n"
                    "source:\n  - uri: s3://bucket/x\nruntime: {engine: vineyard}\n")
    result = run_cli("build", str(spec))
    assert result.code != 0 and "VineyardRuntime takes no mounts" in result.err


REFERENCE = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: imagenet, namespace: team-a}
source:
  - uri: dataset://team-b/imagenet
runtime:
  engine: thin
  replicas: 2
  thin: {profileName: s3fs}
  cache:
    - {medium: MEM, quota: 1Gi}
"""


def test_every_runtime_setting_of_a_reference_is_reported_at_its_own_key(tmp_path: Path) -> None:
    # A dataset:// reference is served by the referenced Dataset's runtime (pkg/ddc/thin/referencedataset
    # BuildReferenceDatasetThinEngine): replicas, the thin: section and the cache tiers each get an
    # error at their own line, not only the last kind found (issue 42: `ignored +=` -> `ignored =`
    # in thin.py _check survived; it dropped runtime.thin when a cache was also given).
    spec = tmp_path / "ref.yaml"
    spec.write_text(REFERENCE)
    result = run_cli("build", str(spec))
    assert result.code == 1
    said = {line.split(": error: ")[1].split(":")[0] for line in result.err.splitlines() if ": error: " in line}
    assert said == {"runtime.replicas", "runtime.thin", "runtime.cache"}, result.err


def test_a_thin_section_names_its_profile_one_way(tmp_path: Path) -> None:
    # A ThinRuntime names one ThinRuntimeProfile (spec.profileName, api/v1alpha1/thinruntime_types.go):
    # fluidgen's thin: section either names an existing one or generates one from fileSystemType, never
    # both and never neither (issue 42: the ThinSettings validator's decorator removed survived).
    one_of = "give exactly one of profileName (existing) or fileSystemType (generated)"
    for thin, expect in (("{profileName: p, fileSystemType: fuse.s3fs}", one_of),
                         ("{profile: {fuse: {image: x}}}", one_of),
                         ("{profileName: p, name: mine}",
                          "profile fields and name only apply to a generated profile (fileSystemType)")):
        spec = tmp_path / "one.yaml"
        spec.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: CachedDataset\nmetadata: {name: d}\n"
                        f"source:\n  - uri: s3://bucket/x\nruntime:\n  engine: thin\n  thin: {thin}\n")
        result = run_cli("build", str(spec))
        assert result.code == 1 and f"runtime.thin: {expect}\n" in result.err, (thin, result.err)


REFERENCE_RUNTIME = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: shared-imagenet, namespace: team-a}
spec:
  mounts:
    - {mountPoint: "dataset://default/imagenet", name: imagenet}
---
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntime
metadata: {name: shared-imagenet, namespace: team-a}
spec:
  replicas: 2
  tieredstore:
    levels: [{mediumtype: MEM, path: /dev/shm, quota: 1Gi}]
  fuse:
    nodeSelector: {gpu: "true"}
    args: [-f]
"""


def test_fg121_spares_the_two_fields_fluid_reads_of_a_reference_runtime(tmp_path: Path) -> None:
    """pkg/ddc/thin/referencedataset/runtime.go getRuntimeInfo (both commits) reads the referencing
    ThinRuntime's Spec.TieredStore and Spec.Fuse.NodeSelector; FG121 said the whole spec was ignored."""
    manifest = tmp_path / "ref.yaml"
    manifest.write_text(REFERENCE_RUNTIME)
    result = run_cli("lint", str(manifest))
    flagged = sorted(line.split("]: ", 1)[1].split(":", 1)[0] for line in result.err.splitlines() if "[FG121]" in line)
    assert flagged == ["spec.fuse.args", "spec.replicas"], result.err


def test_a_thin_runtime_without_its_section_is_refused_at_the_runtime_key(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.format(namespace="team-a", access="", options="").split("  thin:\n")[0])
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == "", result.err
    assert (f"{spec}:6:1: error: runtime: engine thin needs a thin: section (profileName or fileSystemType), "
            "unless the source is a dataset:// reference") in result.err, result.err


def test_thin_name_names_the_generated_profile(tmp_path: Path) -> None:
    """runtime.thin.name replaces the generated name (namespace.dataset), in the profile and in the
    runtime's profileName (ThinRuntimeProfiles are cluster-scoped: the name is the user's to share)."""
    objs = build(tmp_path, options="    name: shared-s3fs\n")  # a key of runtime.thin
    assert objs["ThinRuntimeProfile"]["metadata"]["name"] == "shared-s3fs"
    assert objs["ThinRuntime"]["spec"]["profileName"] == "shared-s3fs"


def test_lint_leaves_a_read_write_dataset_alone(tmp_path: Path) -> None:
    # read_only_dataset: without ReadOnlyMany the FUSE mounts rw, so options without ro lose nothing
    manifest = tmp_path / "thin.yaml"
    written = (MANIFESTS % "").replace("spec:\n  mounts:", "spec:\n  accessModes: [ReadWriteMany]\n  mounts:")
    manifest.write_text(written)
    assert "accessModes: [ReadWriteMany]" in manifest.read_text()
    result = run_cli("lint", str(manifest))
    assert "FG122" not in result.err, result.err


def test_a_generated_profiles_field_is_refused_at_its_own_line(tmp_path: Path) -> None:
    """Of the generated ThinRuntimeProfile, fileSystemType comes from thin.fileSystemType and every
    other field from thin.profile: a problem in the profile is said at the profile's own key."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.format(namespace="team-a", access="", options="").replace("image:", "imagee:"))
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == "", result.err
    assert result.err.splitlines() == [
        f'{spec}:12:9: error: runtime.thin.profile.fuse.imagee: ThinRuntimeProfile has no field fuse.imagee; '
        'did you mean "image"?', "fluidgen: 1 error; nothing was written"], result.err  # said once


def test_a_profile_cannot_hold_a_second_file_system_type(tmp_path: Path) -> None:
    """Written in thin.profile too, a fileSystemType silently won over thin.fileSystemType (the
    profile's fields are laid over it), and a wrong one was said at thin.fileSystemType's line."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.format(namespace="team-a", access="", options="").replace(
        "    profile:\n", "    profile:\n      fileSystemType: other\n"))
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == "", result.err
    assert (f"{spec}:10:5: error: runtime.thin.profile: fileSystemType is runtime.thin.fileSystemType; remove "
            "it from the profile") in result.err, result.err
