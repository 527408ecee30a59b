"""Lint targets one Fluid version: a rule runs only where the Fluid facts it rests on hold
(Rule.versions, from its sources), through `fluidgen build` (the spec's `fluid:` or
--fluid-version) and `fluidgen lint --fluid-version` alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from fluidgen.base.fluidsource import holding, source
from fluidgen.base.rules import Rule
from fluidgen.base.versions import DEFAULT, NAMES, V1_0_8, V1_1_0_DEV
from fluidgen.io.yamlreader import load_text
from fluidgen.lint import RULES, index_of, lint_manifests, rules_for
from tests.conftest import run_cli

OLD_ONLY = source("pkg/a.go", "f", (V1_0_8,))
NEW_ONLY = source("pkg/a.go", "f", (V1_1_0_DEV,))
EVERY = source("pkg/b.go", "g")


def test_sources_of_one_citation_add_up_and_different_citations_must_all_hold() -> None:
    assert holding(()) == NAMES
    assert holding((EVERY,)) == NAMES
    assert holding((OLD_ONLY, EVERY)) == (V1_0_8,)
    assert holding((OLD_ONLY, NEW_ONLY, EVERY)) == NAMES  # one fact, read at each version
    assert holding((OLD_ONLY, source("pkg/c.go", "h", (V1_1_0_DEV,)))) == ()


def test_the_index_carries_the_target_version() -> None:
    assert index_of([]).version == DEFAULT
    assert index_of([], V1_1_0_DEV).version == V1_1_0_DEV


def test_rules_for_a_version_are_those_that_hold_there() -> None:
    for version in NAMES:
        assert {r.id for r in rules_for(version)} == {r.id for r in RULES if version in r.versions}
    assert "FG128" not in {r.id for r in rules_for(V1_0_8)}  # the cache engine is new in v1.1.0-dev


VERSIONED = [r for r in RULES if r.versions != NAMES]


@pytest.mark.parametrize("rule", VERSIONED, ids=[r.id for r in VERSIONED])
def test_a_versioned_rule_is_silent_where_it_does_not_hold(rule: Rule) -> None:
    docs = load_text(f"{rule.id}.yaml", rule.example.manifest)
    for version in set(NAMES) - set(rule.versions):
        found = lint_manifests([(d, set()) for d in docs], version=version)
        assert rule.id not in {d.code for d in found}, version


# -- FG135: one Secret for every encryptOption (pkg/ddc/jindocache/transform.go transformMaster) --

def _jindo_spec(tmp_path: Path, fluid: str = "", scheme: str = "oss") -> Path:
    """Two mounts whose credentials come from two Secrets."""
    endpoint = f"fs.{scheme}.endpoint" if scheme != "oss" else "fs.oss.endpoint"
    keys = ("{" + f"fs.{scheme}.accessKeyId: id, fs.{scheme}.accessKeySecret: secret" + "}")
    sources = "".join(f"""\
  - uri: {scheme}://bucket-{n}/data/
    name: {n}
    options: {{{endpoint}: e.example.com}}
    credentials: {{existingSecret: {{name: keys-{n}, keys: {keys}}}}}
""" for n in ("a", "b"))
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"""\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {{name: imagenet, namespace: default}}
{f"fluid: {fluid}" if fluid else ""}
source:
{sources}runtime: {{engine: jindo}}
""")
    return spec


def test_fg135_two_oss_buckets_two_secrets_through_build(tmp_path: Path) -> None:
    """v1.0.8 mounts one Secret for every mount; v1.1.0-dev projects OSS keys per bucket."""
    old = run_cli("build", str(_jindo_spec(tmp_path, V1_0_8)))
    assert old.code == 0 and "[FG135]" in old.err and "Secret keys-b" in old.err, old.err
    new = run_cli("build", str(_jindo_spec(tmp_path, V1_1_0_DEV)))
    assert new.code == 0 and new.out and "[FG135]" not in new.err, new.err
    flag_old = run_cli("build", "--fluid-version", V1_0_8, str(_jindo_spec(tmp_path)))
    assert "[FG135]" in flag_old.err, flag_old.err
    flag_new = run_cli("build", "--fluid-version", V1_1_0_DEV, str(_jindo_spec(tmp_path)))
    assert flag_new.code == 0 and "[FG135]" not in flag_new.err, flag_new.err


TWO_OSS_SECRETS = """\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - mountPoint: oss://bucket-a/
      name: a
      options: {fs.oss.endpoint: e}
      encryptOptions:
        - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: keys-a, key: id}}}
        - {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: keys-a, key: secret}}}
    - mountPoint: oss://bucket-b/
      name: b
      options: {fs.oss.endpoint: e}
      encryptOptions:
        - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: keys-b, key: id}}}
        - {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: keys-b, key: secret}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: imagenet, namespace: default}
spec: {}
"""


def test_fg135_two_oss_buckets_two_secrets_through_lint(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(TWO_OSS_SECRETS)
    old = run_cli("lint", "--fluid-version", V1_0_8, str(manifest))
    assert "[FG135]" in old.err, old.err
    assert "[FG135]" in run_cli("lint", str(manifest)).err  # the default target is v1.0.8
    new = run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest))
    assert new.code == 0 and "[FG135]" not in new.err, new.err
    validated = run_cli("validate", "--lint", "--fluid-version", V1_1_0_DEV, str(manifest))
    assert "[FG135]" not in validated.err, validated.err
    assert "[FG135]" in run_cli("validate", "--lint", "--fluid-version", V1_0_8, str(manifest)).err


def test_fg135_other_schemes_share_one_secret_at_every_version(tmp_path: Path) -> None:
    """Since v1.1.0-dev only oss:// mounts' OSS keys are projected per bucket: two s3:// mounts
    still share the one Secret (transformMaster, value.Secret)."""
    for version in NAMES:
        built = run_cli("build", "--fluid-version", version, str(_jindo_spec(tmp_path, scheme="s3")))
        assert built.code == 0 and f"Fluid {version}'s JindoRuntime mounts one Secret" in built.err, built.err
    manifest = tmp_path / "m.yaml"
    manifest.write_text(TWO_OSS_SECRETS.replace("oss", "s3"))
    for version in NAMES:
        assert "[FG135]" in run_cli("lint", "--fluid-version", version, str(manifest)).err, version
    new = run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest)).err
    assert "every mount but the oss:// ones" in new and "target a newer Fluid" not in new, new


def test_fg135_an_oss_mount_beside_another_scheme(tmp_path: Path) -> None:
    """oss://bucket-a from keys-a, s3://bucket-b from keys-b: one Secret at v1.0.8, fine since v1.1.0-dev
    (the OSS keys are projected, the s3 mount alone uses the one Secret)."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(TWO_OSS_SECRETS.replace("oss://bucket-b/", "s3://bucket-b/")
                        .replace("fs.oss.access", "fs.ACCESS").replace("fs.ACCESS", "fs.oss.access", 2)
                        .replace("fs.ACCESS", "fs.s3.access"))
    assert "fs.s3.accessKeyId" in manifest.read_text()
    assert "[FG135]" in run_cli("lint", "--fluid-version", V1_0_8, str(manifest)).err
    new = run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest))
    assert "[FG135]" not in new.err, new.err


def test_fg135_shared_encrypt_options_join_the_one_secret_of_other_schemes(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(TWO_OSS_SECRETS.replace("spec:\n  mounts:", "spec:\n  sharedEncryptOptions:\n"
                                                "    - {name: fs.s3.accessKeyId, valueFrom: {secretKeyRef: "
                                                "{name: shared, key: id}}}\n  mounts:")
                        .replace("oss://bucket-b/", "s3://bucket-b/"))
    new = run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest)).err
    assert "Secret keys-b key id" in new and "[FG135]" in new, new
    only_oss = TWO_OSS_SECRETS.replace("spec:\n  mounts:", "spec:\n  sharedEncryptOptions:\n"
                                       "    - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: "
                                       "{name: shared, key: id}}}\n  mounts:")
    manifest.write_text(only_oss)  # every mount oss://: the shared key is projected per bucket, beside the own one
    both = run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest)).err
    assert "bucket-a comes from Secret keys-a key id, but it is also taken from Secret shared key id" in both, both


def test_fg135_one_bucket_two_secrets_is_refused_by_newer_fluid(tmp_path: Path) -> None:
    """Two mounts of one bucket naming different Secrets for a key: jindo.AppendSecretProjection
    refuses the conflicting projection since v1.1.0-dev; v1.0.8 takes the last one."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(TWO_OSS_SECRETS.replace("oss://bucket-b/", "oss://bucket-a/other/"))
    new = run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest)).err
    assert "of OSS bucket bucket-a comes from Secret keys-b key id" in new, new
    assert "from Secret keys-a key id" in new and "conflicting secret projection" in new, new
    old = run_cli("lint", "--fluid-version", V1_0_8, str(manifest)).err
    assert "Fluid v1.0.8's JindoRuntime mounts one Secret" in old and "bucket-a" not in old, old
    manifest.write_text(TWO_OSS_SECRETS.replace("oss://bucket-b/", "oss://bucket-a/other/").replace("keys-b", "keys-a"))
    assert "[FG135]" not in run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest)).err


# -- runtimes of an engine the target version lacks ----------------------------------------

LONELY_GOOSEFS = """\
apiVersion: data.fluid.io/v1alpha1
kind: GooseFSRuntime
metadata: {name: lonely, namespace: default}
spec: {replicas: 1}
"""


def test_no_rule_speaks_for_a_runtime_the_target_lacks(tmp_path: Path) -> None:
    """GooseFS is gone in v1.1.0-dev: FG104 (a runtime binds to its Dataset) says nothing about a
    GooseFSRuntime there, where validation reports the kind instead."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(LONELY_GOOSEFS)
    assert "[FG104]" in run_cli("lint", "--fluid-version", V1_0_8, str(manifest)).err
    assert "[FG104]" not in run_cli("lint", "--fluid-version", V1_1_0_DEV, str(manifest)).err
    validated = run_cli("validate", "--lint", "--fluid-version", V1_1_0_DEV, str(manifest))
    assert validated.code == 1 and "has no kind GooseFSRuntime" in validated.err, validated.err
    assert "[FG104]" not in validated.err, validated.err
    assert "GooseFSRuntime" not in index_of([], V1_1_0_DEV).runtime_kinds
    assert "GooseFSRuntime" in index_of([], V1_0_8).runtime_kinds
