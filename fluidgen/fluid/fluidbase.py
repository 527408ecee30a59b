"""Fluid's engine-neutral behaviour that fluidgen relies on (pkg/utils, pkg/ddc/base), each
function the fact, with its source attached (fluidsource.decided_by). Toolkit floor.

tests/fluid_fixtures/ holds the cases of Fluid's own Go tests for these; test_fluid_fixtures.py
runs them against the functions here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ..base import uri
from ..base.fluidsource import before, decided_by, source
from ..base.quantity import to_bytes
from ..base.uri import REFERENCE_PREFIX, is_reference
from ..base.versions import V1_1_0_DEV

READ_ONLY = "ReadOnlyMany"
LOCAL_STORAGE_ROOT = "/underFSStorage"  # pkg/common/ufs_path.go LocalStorageRootPath


@decided_by(source("pkg/utils/ufs_path_builder.go", "GenUFSPathInUnifiedNamespace"))
def mount_path(name: str | None, path: str | None) -> str:
    """Where a Dataset mount appears in the cache engine's namespace (and so under the pod's
    mount of the Dataset's claim, for the engines whose FUSE shows that namespace): its
    absolute `path`, else `/<name>`; an unnamed mount without a path is the root `/`."""
    if path and path.startswith("/"):
        return path
    return "/" + (name or "").lstrip("/")


@decided_by(source("pkg/utils/ufs_path_builder.go", "GenAlluxioUFSRootPath"),
            source("pkg/common/ufs_path.go", "LocalStorageRootPath"))
def alluxio_root_ufs(mounts: Sequence[tuple[str | None, str, str | None]]) -> tuple[str, int | None]:
    """(what Alluxio mounts at its root, the index of that Dataset mount or None) for mounts
    given as (name, mountPoint, path): the only mount, when it is not local:// or pvc:// and
    sits at `/`; otherwise the local /underFSStorage."""
    if len(mounts) == 1:
        name, point, path = mounts[0]
        if not is_native(point) and mount_path(name, path) == "/":
            return point, 0
    return LOCAL_STORAGE_ROOT, None


@decided_by(source("pkg/utils/ufs_path_builder.go", "GenAlluxioUFSRootPath"),
            source("pkg/utils/ufs_path_builder.go", "GenLocalStoragePath"),
            source("pkg/ddc/alluxio/ufs_internal.go", "mountUFS"))
def unmounted_at_root(mounts: Sequence[tuple[str | None, str, str | None]]) -> list[int]:
    """The indexes of the mounts (name, mountPoint, path) an Alluxio-style namespace never shows
    at its root `/`: an object-store mount (not local:// or pvc://) at `/` beside other mounts.
    The root is then the local /underFSStorage (alluxio_root_ufs), and mountUFS skips a mount
    whose namespace path is mounted already, which the root always is. A local:// or pvc://
    mount at `/` is honoured, alone or not: it is a volume at /underFSStorage joined with `/`,
    the root's own directory; and a single object-store mount at `/` is the root."""
    if len(mounts) < 2:
        return []
    return [i for i, (name, point, path) in enumerate(mounts) if not is_native(point) and mount_path(name, path) == "/"]


@decided_by(source("pkg/utils/dataset.go", "GetAccessModesOfDataset"),
            source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultFuse"),
            source("pkg/ddc/jindocache/transform.go", "transformFuseArg"),
            source("pkg/ddc/thin/transform_fuse.go", "parseFuseOptions"),
            source("pkg/utils/dataset/volume/create.go", "CreatePersistentVolumeForRuntime",
                   note="the PersistentVolume (and claim) Fluid creates carry the Dataset's access modes"),
            source("pkg/csi/plugins/nodeserver.go", "NodePublishVolume",
                   note="bind-mounts the FUSE mount ro into a pod for a MULTI_NODE_READER_ONLY volume"))
def read_only_dataset(access_modes: Sequence[str]) -> bool:
    """Whether Fluid serves a Dataset read-only: it names ReadOnlyMany among its access modes, or
    names none (Fluid reads none as ReadOnlyMany). Then the Alluxio, JindoCache and thin engines'
    FUSE defaults mount ro (whatever else is named: ReadOnlyMany with ReadWriteMany is ro), and
    the claim Fluid creates offers ReadOnlyMany; without ReadOnlyMany (ReadWriteMany,
    ReadWriteOnce) the FUSE mounts rw. The one place fluidgen decides it, for the FUSE args, the
    lint rules and the workloads' volume mounts."""
    return not access_modes or READ_ONLY in access_modes


@decided_by(source("pkg/ddc/base/dataset.go", "GetPhysicalDatasetSubPath"))
def reference_subpath(mount_point: str) -> str | None:
    """The folder inside the referenced Dataset's volume that a dataset://<ns>/<name>/<sub>
    reference serves: `<sub>` ("" for a trailing "/", None when there is no third part)."""
    if not is_reference(mount_point):
        return None
    parts = mount_point[len(REFERENCE_PREFIX):].split("/", 2)
    return parts[2] if len(parts) == 3 else None


@decided_by(source("pkg/ddc/base/dataset.go", "CheckReferenceDataset"))
def reference_dataset(mount_points: Sequence[str]) -> tuple[bool, str | None]:
    """(whether the Dataset is a reference, why Fluid refuses it): one dataset:// mount and
    nothing else; several, or one beside other mounts, is refused."""
    refs = sum(1 for m in mount_points if is_reference(m))
    if refs > 1:
        return False, f"{refs} dataset:// mounts; a reference Dataset has exactly one"
    if refs == 1 and len(mount_points) > 1:
        return False, "a dataset:// mount must be the Dataset's only mount"
    return refs == 1, None


@decided_by(source("pkg/ddc/thin/referencedataset/volume.go", "accessModesForVirtualDataset"),
            source("pkg/ddc/thin/referencedataset/volume.go", "createFusePersistentVolume"))
def reference_access_modes(reference: Sequence[str], referenced_volume: Sequence[str]) -> list[str]:
    """The access modes of a reference's volume: ReadOnlyMany when the reference names none or
    the referenced Dataset's volume is ReadOnlyMany, else the reference's own."""
    if not reference or READ_ONLY in referenced_volume:
        return [READ_ONLY]
    return list(reference)


class TierError(ValueError):
    """Fluid cannot build the runtime's info from this tieredstore level: it never sets up."""


@decided_by(source("pkg/ddc/alluxio/ufs_internal.go", "genEncryptOptions"),
            source("pkg/ddc/thin/ufs_internal.go", "genEncryptOptions"),
            source("pkg/ddc/goosefs/ufs_internal.go", "genEncryptOptions", before(V1_1_0_DEV)))
def encrypt_options_set_twice(taken: Iterable[str], encrypt_names: Sequence[str]) -> list[int]:
    """The encryptOptions, by their names in the order Fluid reads them (sharedEncryptOptions,
    then the mount's own), whose name is already set when Fluid reaches them: by an option in
    `taken` (sharedOptions and the mount's options) or by an encryptOption before it. When Fluid
    reads the Secrets' values, genEncryptOptions refuses the first of them ("the option %s is set
    more than one times") and the mount fails."""
    seen = set(taken)
    twice = []
    for k, name in enumerate(encrypt_names):
        if name in seen:
            twice.append(k)
        seen.add(name)
    return twice


@decided_by(source("pkg/ddc/base/runtime.go", "convertToTieredstoreInfo"),
            source("pkg/ddc/base/runtime.go", "WithTieredStore"))
def tier_paths(path: str, quota: str | int | None, quota_list: str = "") -> list[tuple[str, Decimal]]:
    """The (path, bytes) cache directories Fluid reads from one tieredstore level: `path`
    split on ","; a quota divided equally (whole bytes), or a quotaList with one entry per
    path, which wins over quota. Raises TierError where Fluid fails the runtime."""
    paths = path.split(",")
    if not quota_list:
        if quota is None:
            raise TierError("either quota or quotaList must be set")
        each = Decimal(int(to_bytes(quota)) // len(paths))
        return [(p.rstrip("/"), each) for p in paths]
    quotas = quota_list.split(",")
    if len(quotas) != len(paths):
        raise TierError(f"quotaList has {len(quotas)} entries for {len(paths)} paths (split on \",\")")
    return [(p.rstrip("/"), to_bytes(q)) for p, q in zip(paths, quotas, strict=True)]


@decided_by(source("api/v1alpha1/container_network.go", "IsHostNetwork"))
def host_network(mode: str | None) -> bool:
    """Fluid runs a component in the host network unless its networkMode is ContainerNetwork."""
    return mode != "ContainerNetwork"


@decided_by(source("pkg/common/fluid_ufs_scheme.go", "IsFluidNativeScheme"))
def is_native(mount_point: object) -> bool:
    """Fluid mounts local:// and pvc:// itself, as volumes of the runtime's pods."""
    return isinstance(mount_point, str) and uri.is_native(mount_point)


@dataclass(frozen=True)
class MountDelta:
    """The namespace paths a remounting runtime mounts (add) and unmounts (remove)."""

    add: tuple[str, ...]
    remove: tuple[str, ...]

    @property
    def update(self) -> bool:
        return bool(self.add or self.remove)


def _remounted_paths(mounts: Iterable[object]) -> list[str]:
    return [mount_path(m.get("name"), m.get("path")) for m in mounts
            if isinstance(m, Mapping) and not is_native(m.get("mountPoint"))]


@decided_by(source("pkg/utils/dataset.go", "AnalyzePathsDelta"), source("pkg/utils/slice.go", "SubtractString"))
def mount_delta(spec_mounts: Iterable[object], status_mounts: Iterable[object]) -> MountDelta:
    """What a remounting runtime (Alluxio, GooseFS, the generic cache runtime) does when a
    Dataset's spec.mounts differ from status.mounts (what it mounted last): it mounts the
    namespace paths only spec has and unmounts those only status has, in list order. A mount
    at an unchanged path is never remounted, whatever else changed; local:// and pvc:// mounts
    take no part."""
    spec, status = _remounted_paths(spec_mounts), _remounted_paths(status_mounts)
    return MountDelta(tuple(p for p in spec if p not in set(status)), tuple(p for p in status if p not in set(spec)))


MEDIUM_ORDER = ("MEM", "SSD", "HDD")  # pkg/common/constants.go tieredStoreOrderMap: Memory 0, SSD 1, HDD 2


@decided_by(source("pkg/utils/tieredstore/tiered_store.go", "GetTieredLevel"),
            source("pkg/common/constants.go", "GetDefaultTieredStoreOrder"))
def fastest_level(media: Sequence[object]) -> int | None:
    """The index of the level Fluid ranks first (tier level 0) among levels with these media:
    the fastest medium, MEM before SSD before HDD, whatever the order they are written in
    (the first of equals); None when no medium is known."""
    ranked = [(MEDIUM_ORDER.index(m), i) for i, m in enumerate(media) if isinstance(m, str) and m in MEDIUM_ORDER]
    return min(ranked)[1] if ranked else None
