"""The golden cases under golden/, found by listing (used by test_golden and test_conformance).

golden/ok/<case>/ and golden/err/<case>/ hold a spec.yaml (or the command's args in
_config.yaml) and the exact expected stdout (ok: expected.yaml) or stderr (err:
expected.txt; ok cases with warnings: expected.stderr). golden/plan/<case>/ holds what is
deployed (old.yaml, rendered from old-spec.yaml), the edited spec.yaml, the report `fluidgen
plan` prints (expected.txt) and its exit code (`exit:` in _config.yaml). Each case runs once per Fluid version
in its _config.yaml `versions:` (default: every version), with --fluid-version. One expected
file serves every version unless a version has its own, expected.<version>.<ext>.
Regenerate with `pytest --update-golden` (identical per-version files are folded into one),
then review `git diff golden/` like code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from fluidgen.base import versions
from tests.conftest import ROOT

GOLDEN = ROOT / "golden"
TAKES_VERSION = {"build", "validate", "lint", "diff", "plan"}


def cases(kind: str) -> list[str]:
    return sorted(p.name for p in (GOLDEN / kind).iterdir() if p.is_dir())


def config(case: Path) -> dict[str, Any]:
    cfg = case / "_config.yaml"
    data = yaml.safe_load(cfg.read_text()) if cfg.exists() else {}
    return data or {}


def case_versions(case: Path) -> list[str]:
    return [str(v) for v in config(case).get("versions") or versions.NAMES]


def params(kind: str) -> list[tuple[str, str]]:
    return [(name, version) for name in cases(kind) for version in case_versions(GOLDEN / kind / name)]


def args(case: Path, version: str) -> list[str]:
    given = [str(a) for a in config(case).get("args", ["build", "spec.yaml"])]
    return [given[0], "--fluid-version", version, *given[1:]] if given[0] in TAKES_VERSION else given


def expected_path(case: Path, name: str, version: str) -> Path:
    stem, _, ext = name.partition(".")
    own = case / f"{stem}.{version}.{ext}"
    return own if own.exists() else case / name


def target(case: Path) -> str:
    given = [str(a) for a in config(case).get("args", [])]
    return given[given.index("--target") + 1] if "--target" in given else "fluid"


def ok_outputs(wanted: str = "fluid") -> list[tuple[str, str, str]]:
    """(case, version, expected stdout) for every ok case that builds `wanted` output."""
    out = []
    for name, version in params("ok"):
        case = GOLDEN / "ok" / name
        path = expected_path(case, "expected.yaml", version)
        if target(case) == wanted and path.exists():
            out.append((name, version, path.read_text()))
    return out


def fold_versions() -> None:
    """After --update-golden: where every version's file of a case is the same, keep one."""
    for kind in ("ok", "err", "plan"):
        for name in cases(kind):
            case = GOLDEN / kind / name
            wanted = case_versions(case)
            for shared in ("expected.yaml", "expected.stderr", "expected.txt"):
                stem, _, ext = shared.partition(".")
                own = [case / f"{stem}.{v}.{ext}" for v in wanted]
                if not all(p.exists() for p in own):
                    continue
                texts = {p.read_text() for p in own}
                if len(texts) == 1:
                    (case / shared).write_text(texts.pop())
                    for p in own:
                        p.unlink()
                elif (case / shared).exists():
                    (case / shared).unlink()  # every version has its own: the shared one is stale
