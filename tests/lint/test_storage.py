"""lint/storage.py: the edges of FG112 (a positive size is any size above zero) and FG106 (every
level's watermarks are checked, past a level whose watermarks are not numbers)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.lint.test_lint import dataset, runtime


def _lint(tmp_path: Path, levels: str) -> str:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join([dataset(), runtime("AlluxioRuntime", f"tieredstore:\n  levels:\n{levels}")]))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1), result.err
    return result.err


def test_fg112_takes_a_one_byte_quota_as_positive(tmp_path: Path) -> None:
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: '/a,/b', quotaList: '1,2Gi'}\n")
    assert "[FG112]" not in err, err
    err = _lint(tmp_path, "    - {mediumtype: SSD, path: '/a,/b', quotaList: '0,2Gi'}\n")
    assert "[FG112]" in err and "zero or negative" in err, err


def test_fg106_checks_every_level_past_one_it_cannot_read(tmp_path: Path) -> None:
    err = _lint(tmp_path, "    - {mediumtype: MEM, path: /dev/shm, quota: 1Gi, high: 'x', low: '0.5'}\n"
                          "    - {mediumtype: SSD, path: /ssd, quota: 9Gi, high: '0.5', low: '0.9'}\n")
    assert "[FG106]: spec.tieredstore.levels[1].low: low watermark 0.9 must be below high watermark 0.5" in err, err
