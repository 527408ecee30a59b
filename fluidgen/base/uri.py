"""URIs in mount points: their scheme, and Fluid's own schemes (toolkit: imports nothing of fluidgen).

Fluid's schemes are in pkg/common/fluid_ufs_scheme.go (the same in every version versions.py lists):
PathScheme local://, VolumeScheme pvc:// (IsFluidNativeScheme) and RefSchema dataset://, a
reference to another Dataset (IsFluidRefSchema: a plain prefix test, so case-sensitive).
"""

from __future__ import annotations

LOCAL = "local"
PVC = "pvc"
REFERENCE = "dataset"  # dataset://<namespace>/<name>: a reference to another Dataset
REFERENCE_PREFIX = f"{REFERENCE}://"
NATIVE_PREFIXES = (f"{PVC}://", f"{LOCAL}://")


def scheme_of(uri: str) -> str:
    """The URI's scheme in lower case; empty when it has none (server:/export)."""
    head, sep, _ = uri.partition("://")
    return head.lower() if sep else ""


def is_reference(mount_point: object) -> bool:
    """Whether a Dataset mountPoint refers to another Dataset, as Fluid tests it (IsFluidRefSchema)."""
    return str(mount_point).startswith(REFERENCE_PREFIX)


def is_native(mount_point: object) -> bool:
    """pvc:// and local:// mounts, which Fluid mounts itself (IsFluidNativeScheme)."""
    return str(mount_point).startswith(NATIVE_PREFIXES)
