"""Every golden output validates against the real Fluid CRDs of its version (unknown fields
are errors, embedded Kubernetes types included) and every core object passes the strict
Kubernetes schemas; each case is checked against both, for the objects it has."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from fluidgen.base.structural import kube
from fluidgen.catalog.objectcheck import check_object
from tests.harness.golden import ok_outputs

CASES = ok_outputs()
IDS = [f"{c}[{v}]" for c, v, _ in CASES]


@pytest.mark.parametrize(("case", "version", "text"), CASES, ids=IDS)
def test_fluid_objects_match_real_crds(case: str, version: str, text: str, crds: dict[str, Any]) -> None:
    crd_set = crds[version]
    checked = 0
    for obj in yaml.safe_load_all(text):
        if obj["apiVersion"].startswith("data.fluid.io/"):
            assert crd_set.knows(obj["apiVersion"], obj["kind"]), obj["kind"]
            problems = crd_set.check(obj)
            assert problems == [], [(p.path, p.message) for p in problems]
            checked += 1
    assert checked >= 2  # at least a Dataset and a runtime


CORE = [(c, v, t) for c, v, t in CASES if any(kube.knows(o["apiVersion"], o["kind"]) for o in yaml.safe_load_all(t))]


@pytest.mark.parametrize(("case", "version", "text"), CORE, ids=[f"{c}[{v}]" for c, v, _ in CORE])
def test_core_objects_pass_kubernetes_validate_strict(case: str, version: str, text: str) -> None:
    import kubernetes_validate as kv

    for obj in yaml.safe_load_all(text):
        if kube.knows(obj["apiVersion"], obj["kind"]):
            kv.validate(obj, kv.latest_version(), strict=True)  # the library itself, not only our reading of it
            assert check_object(obj, version) == []
