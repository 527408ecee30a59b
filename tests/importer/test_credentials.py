"""importer/credentials.py: where a credential value could hide in what an import writes.
A `$VAR` reference, a flag (true/false) and an empty value are no values; keys that name a
Secret (secretName) are no values either; a value list under a credential key, a `key`/`values`
match expression and a pair of words (authKey) are found. Only key paths are ever returned."""

from __future__ import annotations

import pytest

from fluidgen.importer.credentials import credential_name, credential_values, in_text


@pytest.mark.parametrize(("text", "found"), [
    ("-Dfs.oss.accessKeySecret=abc", True), ("run --secret-key abc", False), ("run --secret-key=abc", True),
    ("run --secret-key=$SECRET_KEY", False), ("export DB_PASS=hunter2", True), ("s3://AK:SK@bucket/", True),
    ("s3://bucket/path?x=1", False), ("https://mirror.example.com/a@2x.png", False),
    ("--endpoint=oss.example.com", False),
])
def test_a_credential_inside_a_string_is_an_assignment_with_a_value_or_user_info(text: str, found: bool) -> None:
    assert in_text(text) is found


@pytest.mark.parametrize(("value", "paths"), [
    (True, []), (False, []), ("", []), (0, ["o.password"]), ("x", ["o.password"]), ([], []), (["x"], ["o.password"]),
])
def test_a_flag_or_an_empty_value_under_a_credential_key_is_no_value(value: object, paths: list[str]) -> None:
    assert credential_values({"o": {"password": value}}) == paths


def test_keys_that_name_a_secret_are_skipped_and_their_neighbours_still_read() -> None:
    tree = {"volumes": [{"secret": {"secretName": "tls-certs"}}],
            "credentials": {"fromEnv": {"fs.oss.accessKeySecret": "FS_OSS_ACCESS_KEY_SECRET"}},
            "options": {"endpoint": "e", "token": "t0k"}}
    assert credential_values(tree) == ["options.token"]


def test_a_match_expression_naming_a_credential_is_found_by_its_key() -> None:
    tree = {"nodeAffinity": [{"key": "api-token", "operator": "In", "values": ["abc"]},
                             {"key": "zone", "operator": "In", "values": ["a"]}]}
    assert credential_values(tree) == ["nodeAffinity.api-token"]


@pytest.mark.parametrize(("name", "credential"), [
    ("authKey", True), ("privateKey", True), ("client_secret", True), ("passphrase", True), ("keyFile", False),
    ("passport", False), ("authMode", False),
])
def test_word_pairs_and_whole_words_name_credentials(name: str, credential: bool) -> None:
    assert credential_name(name) is credential
