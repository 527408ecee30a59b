"""engines/efc.py: the worker cache EFC's transformWorkerOptions sizes from the first tier path
(pkg/ddc/efc/transform_option.go: cache_capacity_gb = int(quota / miniWorkerQuota), refused below 1Gi)."""

from __future__ import annotations

from pathlib import Path

from fluidgen.base.quantity import to_bytes
from fluidgen.engines import efc
from tests.conftest import ROOT, run_cli

GI = 2**30


def test_the_worker_cache_is_whole_gibibytes_and_at_least_one() -> None:
    """Go divides two int64 quantities: 1.5Gi is 1, not 1.5; below 1Gi the runtime is refused."""
    assert efc.worker_cache_gb(GI + GI // 2) == 1 and isinstance(efc.worker_cache_gb(GI + GI // 2), int)
    assert efc.worker_cache_gb(GI) == 1
    assert efc.worker_cache_gb(GI - 1) is None
    assert efc.worker_cache_gb(int(to_bytes("16Gi"))) == 16


def test_a_worker_cache_below_one_gibibyte_is_refused_at_the_quota(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    golden = (ROOT / "golden" / "ok" / "efc-nas" / "spec.yaml").read_text()
    spec.write_text(golden.replace("quota: 16Gi", "quota: 512Mi"))
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == ""
    assert "runtime.cache[0].quota: EFC's worker cache" in result.err and "below 1Gi" in result.err, result.err
