"""fluidgen/base/uri.py: the schemes of mount points, and Fluid's own (local://, pvc://,
dataset://) exactly as Fluid spells and tests them. tests/features/test_toolkit.py holds the
first table of scheme_of, is_reference and is_native; this file holds the edges it leaves and
checks the constants against Fluid's source."""

from __future__ import annotations

import re

import pytest

from fluidgen.base import uri
from tests.harness.fluid_src import TREES, need_tree


@pytest.mark.parametrize("version", sorted(TREES))
def test_the_schemes_are_spelled_as_fluid_spells_them(version: str) -> None:
    """pkg/common/fluid_ufs_scheme.go: PathScheme "local://", VolumeScheme "pvc://" (the two
    IsFluidNativeScheme tests), RefSchema "dataset://" (IsFluidRefSchema), at each commit."""
    text = (need_tree(version) / "pkg/common/fluid_ufs_scheme.go").read_text()
    declared = dict(re.findall(r'(\w+)\s+FluidUFSScheme = "([^"]*)"', text))
    assert declared["PathScheme"] == f"{uri.LOCAL}://" == "local://"
    assert declared["VolumeScheme"] == f"{uri.PVC}://" == "pvc://"
    assert declared["RefSchema"] == uri.REFERENCE_PREFIX == "dataset://"
    assert set(uri.NATIVE_PREFIXES) == {declared["PathScheme"], declared["VolumeScheme"]}


@pytest.mark.parametrize(("point", "scheme"), [
    ("HDFS://nn:8020/data", "hdfs"), ("Local:///mnt", "local"),  # lower-cased
    ("s3://b/x://y", "s3"),  # the first "://" ends the scheme
    ("://no-scheme", ""),  # nothing before the separator
    ("nfs:/export", ""), ("/mnt/data", ""), ("oss:bucket", ""),  # no "://": no scheme
])
def test_the_scheme_is_what_precedes_the_first_separator_in_lower_case(point: str, scheme: str) -> None:
    assert uri.scheme_of(point) == scheme


@pytest.mark.parametrize(("point", "reference", "native"), [
    ("PVC://claim", False, False), ("Local:///mnt", False, False),  # strings.HasPrefix: case counts
    ("pvc:/claim", False, False), ("local:/mnt", False, False), ("dataset:/ns/d", False, False),
    (" pvc://claim", False, False), (" dataset://ns/d", False, False),  # nothing trimmed first
    ("pvc://", False, True), ("local://", False, True), ("dataset://", True, False),  # the bare prefix
    ("https://host/file", False, False),  # a web scheme is neither (IsFluidWebScheme)
])
def test_fluid_tests_its_schemes_as_plain_prefixes(point: str, reference: bool, native: bool) -> None:
    """IsFluidNativeScheme and IsFluidRefSchema are strings.HasPrefix tests on the mountPoint."""
    assert uri.is_reference(point) is reference
    assert uri.is_native(point) is native
