"""Layering: built-in defaults < profile chain (base first) < the spec. One test per pair."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.conftest import run_cli

SPEC = """\
apiVersion: fluidgen.io/v1alpha1
kind: CachedDataset
metadata: {name: demo}
source:
  - uri: oss://bucket/data/
    options: {fs.oss.endpoint: oss-cn-hangzhou.aliyuncs.com}
    credentials: {existingSecret: {name: oss, keys: [fs.oss.accessKeyId, fs.oss.accessKeySecret]}}
runtime:
  engine: alluxio
  replicas: 2
  cache: [{medium: MEM, quota: 4Gi}]
"""


def runtime_spec(tmp_path: Path, extra: str = "", profiles: dict[str, str] | None = None) -> dict:
    for name, text in (profiles or {}).items():
        (tmp_path / f"{name}.yaml").write_text(text)
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC + extra)
    result = run_cli("build", str(spec), env={})
    assert result.code == 0, result.err
    docs = {d["kind"]: d for d in yaml.safe_load_all(result.out)}
    return docs["AlluxioRuntime"]["spec"]


def profile(name: str, settings: str, extends: str | None = None) -> str:
    head = f"extends: {extends}\n" if extends else ""
    return (f"apiVersion: fluidgen.io/v1alpha1\nkind: Profile\nname: {name}\nengine: alluxio\n"
            f"description: test profile\n{head}settings:\n{settings}")


def test_builtin_default_applies_without_profile(tmp_path: Path) -> None:
    assert runtime_spec(tmp_path)["data"] == {"replicas": 1}


def test_profile_beats_builtin_default(tmp_path: Path) -> None:
    p = profile("p", "  - why: two copies for hot data\n    set: {data/replicas: 2}\n")
    assert runtime_spec(tmp_path, "  profile: ./p.yaml\n", {"p": p})["data"] == {"replicas": 2}


def test_child_profile_beats_parent(tmp_path: Path) -> None:
    base = profile("base", "  - why: parent value here\n    set: {worker/jvmOptions: [-Xmx1G]}\n")
    child = profile("child", "  - why: child value here\n    set: {worker/jvmOptions: [-Xmx2G]}\n",
                    extends="./base.yaml")
    got = runtime_spec(tmp_path, "  profile: ./child.yaml\n", {"base": base, "child": child})
    assert got["worker"]["jvmOptions"] == ["-Xmx2G"]


def test_child_profile_null_deletes_parent_setting(tmp_path: Path) -> None:
    base = profile("base", "  - why: parent value here\n    set: {properties/a.b: x, properties/c.d: y}\n")
    child = profile("child", "  - why: drop one of them\n    set: {properties/a.b: null}\n",
                    extends="./base.yaml")
    got = runtime_spec(tmp_path, "  profile: ./child.yaml\n", {"base": base, "child": child})
    assert got["properties"] == {"c.d": "y"}


def test_override_beats_profile(tmp_path: Path) -> None:
    p = profile("p", "  - why: profile value here\n    set: {properties/a.b: from-profile}\n")
    got = runtime_spec(tmp_path, "  profile: ./p.yaml\n  overrides: {properties: {a.b: mine}}\n",
                       {"p": p})
    assert got["properties"] == {"a.b": "mine"}


def test_override_beats_builtin_default(tmp_path: Path) -> None:
    assert runtime_spec(tmp_path, "  overrides: {data: {replicas: 3}}\n")["data"] == {"replicas": 3}


def test_spec_fields_beat_profile(tmp_path: Path) -> None:
    p = profile("p", "  - why: profile sets replicas\n    set: {replicas: 9}\n")
    assert runtime_spec(tmp_path, "  profile: ./p.yaml\n", {"p": p})["replicas"] == 2


def test_override_of_computed_field_is_an_error(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC + "  overrides: {replicas: 3}\n")
    result = run_cli("build", str(spec), env={})
    assert result.code == 1
    assert "runtime.overrides.replicas: set runtime.replicas instead" in result.err


def _layers(*texts: str) -> dict:
    from fluidgen.io.yamlreader import load_text, overlay

    return overlay([load_text(f"l{i}.yaml", t)[0] for i, t in enumerate(texts)]).data


def test_overlay_later_file_beats_earlier() -> None:
    assert _layers("a: 1\nb: {c: 1}\n", "a: 2\n", "b: {c: 3}\n") == {"a": 2, "b": {"c": 3}}


def test_overlay_maps_merge_lists_replace_null_deletes() -> None:
    got = _layers("m: {x: 1, y: 2}\nl: [1, 2, 3]\nd: {k: v}\n", "m: {y: 5, z: 6}\nl: [9]\nd: null\n")
    assert got == {"m": {"x": 1, "y": 5, "z": 6}, "l": [9]}


def test_overlay_positions_follow_the_layer_that_set_the_key() -> None:
    from fluidgen.io.yamlreader import load_text, overlay

    doc = overlay([load_text("base.yaml", "a: 1\nb: 2\n")[0], load_text("prod.yaml", "\n\nb: 3\n")[0]])
    assert doc.diag(("a",), "x").render().startswith("base.yaml:1:1:")
    assert doc.diag(("b",), "x").render().startswith("prod.yaml:3:1:")
