"""`fluidgen init` (commands/init.py starter) for every storage scheme an engine declares
(engines' Mounts.storage): the starter renders, asks for the engine's required and paired secret
options and sets its required plain options (issue 42: contract.py Storage.suggested defaulting to
None survived, which breaks the starter of every storage that suggests nothing, efc's nfs:// and
cpfs:// among them)."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from fluidgen.commands.init import starter
from fluidgen.engines.engine_table import ENGINES

URIS = {"nfs": "nfs://abc-123.cn-hangzhou.nas.aliyuncs.com:/data", "cpfs": "cpfs://abc-123.cn-hangzhou.cpfs.aliyuncs.com:/share/data"}
CASES = [(name, scheme) for name in sorted(ENGINES) for scheme in sorted(ENGINES[name].mounts.storage)]


@pytest.mark.parametrize(("engine", "scheme"), CASES, ids=[f"{e}-{s}" for e, s in CASES])
def test_a_starter_for_each_declared_storage(engine: str, scheme: str) -> None:
    facts = ENGINES[engine].mounts.storage[scheme]
    uri = URIS.get(scheme, f"{scheme}://bucket/path" if scheme != "juicefs" else "juicefs:///")
    doc: dict[str, Any] = YAML(typ="safe").load(starter(engine, uri, "demo"))
    source = doc["source"][0]
    assert source["uri"] == uri and doc["runtime"]["engine"] == engine
    asked = set(source.get("credentials", {}).get("fromEnv", {}))
    assert facts.required <= asked and (not facts.pairs or facts.pairs[0] <= asked)
    assert set(facts.options) | set(facts.suggested) == set(source.get("options", {}))
