"""engines/efc.py: the worker cache EFC's transformWorkerOptions sizes from the first tier path
(pkg/ddc/efc/transform_option.go: cache_capacity_gb = int(quota / miniWorkerQuota), refused below 1Gi)."""

from __future__ import annotations

import re
from pathlib import Path

from fluidgen.base.quantity import to_bytes
from fluidgen.engines import efc
from tests.conftest import ROOT, run_cli
from tests.harness.fluid_src import TREES, need_tree

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


def test_each_uri_pattern_is_get_mount_infos_regexp_and_a_mount_it_refuses_is_said() -> None:
    """getMountInfo (pkg/ddc/efc/utils.go, both commits) parses the first mount with one regexp
    per prefix, nfs:// and cpfs://, and refuses what it does not match: fluidgen's patterns are
    those regexps, and FG118 says a mount they do not match at its mountPoint."""
    for version in sorted(TREES):
        body = (need_tree(version) / "pkg/ddc/efc/utils.go").read_text()
        body = body[body.index("func (e *EFCEngine) getMountInfo"):]
        go = dict(re.findall(r"regexp\.Compile\(`\^\((\w+)://\)(.*?)`\)", body))
        assert set(go) == set(efc.STORAGE) == {"nfs", "cpfs"}, go
        for scheme, rest in go.items():
            ours = efc.STORAGE[scheme].uri_pattern
            assert re.sub(r"\((\[[^]]+\]\+)\)", r"\1", f"^{scheme}://{rest}") == ours, (scheme, ours, rest)
    for uri, good in (("cpfs://cpfs-0a1b.cn-wulanchabu.cpfs.aliyuncs.com:/share/d/", True),
                      ("cpfs://cpfs-0a1b.cn-wulanchabu.cpfs.aliyuncs.com:/data/", False),
                      ("nfs://0f1a-abc12.cn-zhangjiakou.nas.aliyuncs.com:/d/", True), ("nfs://bad/x", False)):
        scheme = uri.split("://")[0]
        assert (re.match(efc.STORAGE[scheme].uri_pattern, uri) is not None) is good, uri


def test_a_second_mount_is_refused_getmountinfo_reads_only_the_first(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    golden = (ROOT / "golden" / "ok" / "efc-nas" / "spec.yaml").read_text()
    first = "  - uri: nfs://0f1a2b3c4d-abc12.cn-zhangjiakou.nas.aliyuncs.com:/datasets/\n"
    assert first in golden
    spec.write_text(golden.replace(first, first.replace("uri:", "name: a\n    uri:") + first.replace(
        "uri:", "name: b\n    uri:").replace("/datasets/", "/more/")))
    result = run_cli("build", str(spec))
    assert result.code == 1 and result.out == ""
    assert "source[1]: EFCRuntime uses only the first mount; split the data into several datasets" in result.err, \
        result.err


def test_the_worker_cache_is_the_first_paths_own_quota_of_a_quota_list(tmp_path: Path) -> None:
    """transformWorkerTieredStore keeps the first path of level 0 with its own quota (a quotaList
    entry): 512Mi then 2Gi is refused, 2Gi then 512Mi is not."""
    golden = (ROOT / "golden" / "ok" / "efc-nas" / "spec.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    for quotas, refused in (("[512Mi, 2Gi]", True), ("[2Gi, 512Mi]", False)):
        spec.write_text(golden.replace("cache: [{medium: MEM, quota: 16Gi}]",
                                       f"cache: [{{medium: SSD, path: [/a, /b], quota: {quotas}}}]"))
        result = run_cli("build", str(spec))
        assert ("runtime.cache[0].quota: EFC's worker cache (the first path of the first tier) gets "
                f"{512 * 2**20} bytes" in result.err) is refused, (quotas, result.err)
        assert (result.code == 1) is refused, result.err
