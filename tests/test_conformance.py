"""Every golden output validates against the real Fluid CRDs (unknown fields are errors)
and every core object passes kubernetes-validate in strict mode."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from .test_golden import GOLDEN, _config, ok_outputs

CASES = ok_outputs()


def _target(case: str) -> str:
    cfg = _config(GOLDEN / "ok" / case)
    args = [str(a) for a in cfg.get("args", [])]  # type: ignore[union-attr]
    if "--fluid-version" in args:
        return args[args.index("--fluid-version") + 1]
    spec_file = GOLDEN / "ok" / case / "spec.yaml"
    if spec_file.exists():
        for doc in yaml.safe_load_all(spec_file.read_text()):
            if isinstance(doc, dict) and doc.get("fluid"):
                return str(doc["fluid"])
    return "v1.0.8"


@pytest.mark.parametrize(("case", "text"), CASES, ids=[c for c, _ in CASES])
def test_fluid_objects_match_real_crds(case: str, text: str, crds: dict[str, Any]) -> None:
    version = _target(case)
    crd_set = crds[version]
    checked = 0
    for obj in yaml.safe_load_all(text):
        if obj["apiVersion"].startswith("data.fluid.io/"):
            assert crd_set.knows(obj["apiVersion"], obj["kind"]), obj["kind"]
            problems = crd_set.check(obj)
            assert problems == [], [(p.path, p.message) for p in problems]
            checked += 1
    assert checked >= 2  # at least a Dataset and a runtime


@pytest.mark.parametrize(("case", "text"), CASES, ids=[c for c, _ in CASES])
def test_core_objects_pass_kubernetes_validate_strict(case: str, text: str) -> None:
    kv = pytest.importorskip("kubernetes_validate")
    for obj in yaml.safe_load_all(text):
        if "/" not in obj["apiVersion"] or obj["apiVersion"].startswith(("apps/", "batch/")):
            kv.validate(obj, kv.latest_version(), strict=True)
