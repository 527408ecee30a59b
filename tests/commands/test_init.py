"""`fluidgen init` (commands/init.py starter) for every storage scheme an engine declares
(engines' Mounts.storage): the starter renders, asks for the engine's required and paired secret
options and sets its required plain options (issue 42: contract.py Storage.suggested defaulting to
None survived, which breaks the starter of every storage that suggests nothing, efc's nfs:// and
cpfs:// among them)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from ruamel.yaml import YAML

from fluidgen.commands.init import starter
from fluidgen.engines.contract import Starter
from fluidgen.engines.engine_table import ENGINES
from tests.conftest import run_cli

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


NO_MOUNTS = sorted(name for name, engine in ENGINES.items() if not engine.mounts.takes_mounts)


@pytest.mark.parametrize("engine", NO_MOUNTS)
def test_a_source_for_an_engine_without_mounts_is_refused_not_dropped(engine: str) -> None:
    """Vineyard's Dataset has no mounts (Mounts.schemes is empty): a --source was left out of the
    starter without a word, exit 0. It is a usage error now, and nothing is written."""
    result = run_cli("init", "--engine", engine, "--source", "oss://bucket/path/")
    assert result.code == 2 and result.out == "", result.err
    assert f"--source: engine {engine} takes no mounts" in result.err, result.err


@pytest.mark.parametrize("engine", NO_MOUNTS)
def test_an_engine_without_mounts_states_no_starter_source(engine: str) -> None:
    """The starter's source is a fact only for an engine that takes mounts; one without names none
    (a misspelt or leftover source is refused when the record is made)."""
    assert ENGINES[engine].starter.source == ""
    with pytest.raises(ValueError, match="takes no mounts has no starter source"):
        dataclasses.replace(ENGINES[engine], starter=Starter(source="oss://bucket/path/"))


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_starter_names_its_profile_or_says_why_there_is_none(engine: str) -> None:
    lowering = ENGINES[engine].lowering
    text = starter(engine, None, "demo")
    if lowering.default_profile:
        assert f"  profile: {lowering.default_profile}  #" in text
    else:
        assert f"  # no bundled profile: {lowering.no_default_profile}\n" in text
