"""Dataset mounts as Fluid's controllers see them: where each one sits in a runtime's
namespace, which ones a runtime mounts itself, and which edits of spec.mounts a running
runtime carries out.

A runtime that remounts on a Dataset edit (Alluxio, GooseFS, the generic cache runtime)
compares the namespace paths of the mounts in spec.mounts with those in status.mounts (what
it mounted last) and mounts or unmounts only the difference. A mount whose path stays the
same is never remounted, whatever else about it changed (mountPoint, options,
encryptOptions, readOnly, shared); pvc:// and local:// mounts are no part of the comparison,
as the runtime's pods get them as volumes when they are created.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..fluidsource import source

# pkg/common/fluid_ufs_scheme.go: the schemes Fluid mounts as volumes, not through the runtime.
NATIVE_SCHEMES = ("local://", "pvc://")
NATIVE_SOURCE = source("pkg/common/fluid_ufs_scheme.go", "IsFluidNativeScheme")
# pkg/utils/ufs_path_builder.go: an absolute `path`, else "/" + name.
NAMESPACE_PATH_SOURCE = source("pkg/utils/ufs_path_builder.go", "GenUFSPathInUnifiedNamespace")
# pkg/utils/dataset.go: spec against status paths; SubtractString keeps the order of its first list.
DELTA_SOURCE = source("pkg/utils/dataset.go", "AnalyzePathsDelta")
SUBTRACT_SOURCE = source("pkg/utils/slice.go", "SubtractString")


def is_native(mount_point: object) -> bool:
    return isinstance(mount_point, str) and mount_point.startswith(NATIVE_SCHEMES)


def namespace_path(mount: Mapping[str, Any]) -> str:
    path = mount.get("path")
    if isinstance(path, str) and path.startswith("/"):
        return path
    name = mount.get("name")
    return "/" + (name if isinstance(name, str) else "").lstrip("/")


def _subtract(x: list[str], y: list[str]) -> list[str]:
    drop = set(y)
    return [v for v in x if v not in drop]


@dataclass(frozen=True)
class MountDelta:
    """The namespace paths a remounting runtime mounts (add) and unmounts (remove)."""

    add: tuple[str, ...]
    remove: tuple[str, ...]

    @property
    def update(self) -> bool:
        return bool(self.add or self.remove)


def _paths(mounts: Iterable[Any]) -> list[str]:
    return [namespace_path(m) for m in mounts if isinstance(m, Mapping) and not is_native(m.get("mountPoint"))]


def mount_delta(spec_mounts: Iterable[Any], status_mounts: Iterable[Any]) -> MountDelta:
    """What a remounting runtime does when spec.mounts is edited from `status_mounts`."""
    spec, status = _paths(spec_mounts), _paths(status_mounts)
    return MountDelta(tuple(_subtract(spec, status)), tuple(_subtract(status, spec)))
