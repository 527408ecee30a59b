"""How diagnostics reach people and tools: sorted and once each, counted in JSON, the closing
lines' wording and plurals, and a refusal to write Secrets that names them, never their values."""

from __future__ import annotations

import io
import json
from typing import Any

from fluidgen.base.diagnostics import Diagnostic
from fluidgen.io import report

LATE = Diagnostic("b.yaml", 1, 1, "warning", "late")
EARLY = Diagnostic("a.yaml", 9, 1, "error", "early")
NOTE = Diagnostic("a.yaml", 2, 5, "info", "note")


def test_text_is_sorted_by_place_and_says_each_diagnostic_once() -> None:
    out = io.StringIO()
    report.text([LATE, EARLY, NOTE, EARLY], out)
    assert out.getvalue() == ("a.yaml:2:5: info: note\n"
                              "a.yaml:9:1: error: early\n"
                              "b.yaml:1:1: warning: late\n")


def test_json_counts_errors_and_warnings_but_not_notes() -> None:
    out = io.StringIO()
    report.as_json([LATE, EARLY, NOTE, Diagnostic("c.yaml", 0, 0, "error", "again")], out)
    data = json.loads(out.getvalue())
    assert (data["errors"], data["warnings"]) == (2, 1)
    assert [d["message"] for d in data["diagnostics"]] == ["note", "early", "late", "again"]
    assert out.getvalue().endswith("}\n")


def test_failure_and_summary_count_in_the_singular_and_plural() -> None:
    assert report.failure([EARLY]) == "fluidgen: 1 error; nothing was written"
    assert report.failure([EARLY, EARLY, LATE, NOTE]) == "fluidgen: 2 errors, 1 warning; nothing was written"
    assert report.failure([EARLY, LATE, LATE]) == "fluidgen: 1 error, 2 warnings; nothing was written"
    assert report.summary(1, 1, []) == "fluidgen: 1 spec, 1 object, 0 warnings, 0 errors"
    assert report.summary(3, 12, [EARLY, LATE, NOTE]) == "fluidgen: 3 specs, 12 objects, 1 warning, 1 error"


def test_refusing_to_write_secrets_names_them_never_their_values() -> None:
    objects: list[dict[str, Any]] = [
        {"kind": "Secret", "metadata": {"name": "zeta", "namespace": "ml"}, "data": {"key": "c2VjcmV0LWRhdGE="}},
        {"kind": "Secret", "metadata": {"name": "alpha", "namespace": "ml"}, "stringData": {"key": "plain-secret"}},
        {"kind": "Secret", "metadata": {"name": "empty", "namespace": "ml"}, "data": {}},
        {"kind": "ConfigMap", "metadata": {"name": "config", "namespace": "ml"}, "data": {"k": "v"}},
        {"kind": "Secret", "metadata": {"name": "bare"}, "data": {"k": "eA=="}},
    ]
    message = report.secrets_refused("rendered/", objects)
    assert message.startswith("fluidgen: error: the build reads credential values into Secret /bare, ml/alpha, "
                              "ml/zeta, and rendered/ is the kind of directory that gets committed; nothing was "
                              "written. Choose one:\n")
    assert "c2VjcmV0LWRhdGE=" not in message and "plain-secret" not in message and "config" not in message
    assert "  - --sops-age RECIPIENT (or a .sops.yaml above the spec)" in message
    assert message.endswith("  - leave out -o and pipe stdout to kubectl apply")
