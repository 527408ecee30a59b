"""fluidgen/diagnosis/dump.py: reading a dump bounded and without secrets. Lists opened to
MAX_LIST_DEPTH, what is not an object counted, other namespaces counted and not kept (Fluid's
own namespace, pkg/common/constants.go NamespaceFluidSystem, kept); a Secret kept as its key
names with its values (and their base64 decoding) only for masking; env values, managedFields and
the last-applied annotation dropped; the Redactor's masking and bounds; core/v1 and
events.k8s.io/v1 Events normalised; bad JSON said at its file; logs read from their tail."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import pytest

from fluidgen.diagnosis import dump
from fluidgen.diagnosis.dump import Dump, Redactor, event_of, from_objects, read_dump, read_logs
from tests.harness.fluid_src import TREES, need_tree


def obj(kind: str, name: str, ns: str | None = "default", **rest: Any) -> dict[str, Any]:
    meta = {"name": name, **({"namespace": ns} if ns else {})}
    return {"apiVersion": "v1", "kind": kind, "metadata": meta, **rest}


@pytest.mark.parametrize("version", sorted(TREES))
def test_fluid_system_is_fluids_namespace(version: str) -> None:
    text = (need_tree(version) / "pkg/common/constants.go").read_text()
    assert re.search(r'NamespaceFluidSystem\s*=\s*"fluid-system"', text)
    kept = from_objects([obj("Pod", "csi-nodeplugin-fluid-x", "fluid-system"), obj("Pod", "p", "other")],
                        namespaces=["default"])
    assert [o["metadata"]["name"] for o in kept.objects] == ["csi-nodeplugin-fluid-x"]
    assert kept.elsewhere == {"other": 1}


def test_lists_open_four_levels_and_non_objects_are_counted() -> None:
    nested: dict[str, Any] = obj("Node", "n1", None)
    for _ in range(4):
        nested = {"kind": "List", "items": [nested]}
    d = Dump()
    d.add(nested)
    assert [o["metadata"]["name"] for o in d.objects] == ["n1"] and d.skipped == 0
    d.add({"kind": "PodList", "items": [nested]})  # a fifth level
    d.add({"kind": "Pod", "metadata": {}})  # no name
    d.add(["not", "a", "mapping"])
    assert len(d.objects) == 1 and d.skipped == 3


def test_over_max_objects_are_dropped_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dump, "MAX_OBJECTS", 2)
    d = from_objects([obj("Pod", f"p{i}") for i in range(5)])
    assert len(d.objects) == 2 and d.dropped == 3


def test_a_secret_keeps_key_names_only_and_its_values_mask() -> None:
    encoded = base64.b64encode(b"LTAIsecretid").decode()
    d = from_objects([obj("Secret", "creds", data={"fs.oss.accessKeyId": encoded},
                          stringData={"fs.oss.accessKeySecret": "plain-secret", "n": 5})])
    assert d.objects == [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "creds", "namespace": "default"},
                          "keys": ["fs.oss.accessKeyId", "fs.oss.accessKeySecret", "n"]}]
    assert d.secret_values == {encoded, "LTAIsecretid", "plain-secret"}


def test_env_values_credential_keys_and_applied_config_are_dropped_or_masked() -> None:
    pod = obj("Pod", "p", spec={"containers": [{"name": "c", "env": [
        {"name": "AWS_SECRET_ACCESS_KEY", "value": "s3cr3tvalue"}, {"name": "MODE", "value": "fast"}],
        "args": {"password": "hunter22", "secretName": "creds", "tokenSecretName": "tok"}}]})
    pod["metadata"].update(managedFields=[{"manager": "kubectl"}],
                           annotations={dump.LAST_APPLIED: '{"data": {"k": "v"}}', "keep": "me"})
    d = from_objects([pod])
    kept = d.objects[0]
    container = kept["spec"]["containers"][0]
    assert container["env"] == [{"name": "AWS_SECRET_ACCESS_KEY"}, {"name": "MODE"}]
    assert container["args"] == {"password": "***", "secretName": "creds", "tokenSecretName": "tok"}
    assert kept["metadata"] == {"name": "p", "namespace": "default", "annotations": {"keep": "me"}}
    assert d.secret_values == {"s3cr3tvalue", "hunter22"}


def test_redactor_masks_values_assignments_controls_and_bounds() -> None:
    r = Redactor(["abc", "longsecret"])
    assert r.text("abc longsecret") == "abc ***"  # values under 4 characters are not masked
    assert r.text("accessKeySecret=xyz123 endpoint=oss.example") == "accessKeySecret=*** endpoint=oss.example"
    assert r.text("a\tb\x00\nc") == "a b c"
    assert r.text("x" * 10, limit=5) == "xxxx…"


def test_events_of_both_apis_are_normalised() -> None:
    core = obj("Event", "e1", involvedObject={"kind": "Pod", "name": "p"}, reason="FailedMount", message="m",
               type="Warning", count=True, lastTimestamp="2026-11-27T10:05:00Z")
    e = event_of(core)
    assert e is not None and e.about() == ("Pod", "default", "p")
    assert type(e.count) is int and e.count == 1  # a bool count is no count
    assert e.time is not None and e.time.isoformat() == "2026-11-27T10:05:00+00:00"
    new = {"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e2", "namespace": "ns"},
           "regarding": {"kind": "Dataset", "name": "d"}, "reason": "RuntimeNotReady", "note": "n",
           "series": {"count": 4, "lastObservedTime": "2026-11-27T10:07:00.000000Z"}}
    e2 = event_of(new)
    assert e2 is not None and (e2.about(), e2.message, e2.count) == (("Dataset", "ns", "d"), "n", 4)
    assert e2.time is not None and e2.time.minute == 7
    assert event_of(obj("Pod", "p")) is None
    naive = event_of(obj("Event", "e3", involvedObject={}, lastTimestamp="2026-11-27T10:05:00"))
    assert naive is not None and naive.time is None


def test_bad_json_is_a_problem_at_its_file_and_logs_are_read_from_the_tail(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "dump.json"
    bad.write_text('{"kind": ')
    d = read_dump([str(bad)])
    assert len(d.problems) == 1 and (d.problems[0].file, d.problems[0].line, d.problems[0].col) == (str(bad), 1, 1)
    assert d.problems[0].message.startswith("not valid JSON: ")
    monkeypatch.setattr(dump, "MAX_LOG_BYTES", 4)
    (tmp_path / "w-0.log").write_text("head\ntail")
    (tmp_path / "Bad_Name.log").write_text("x")
    assert read_logs(str(tmp_path), ["w-0", "Bad_Name", "absent"]) == {"w-0": "tail"}
    assert read_logs(None, ["w-0"]) == {}
