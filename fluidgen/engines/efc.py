"""EFCRuntime: Alibaba Cloud NAS / CPFS client cache; one mount, first tier, first path.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/efcruntime_types.go: the spec.
- pkg/ddc/efc/utils.go (getMountInfo): only the first mount is read; it must match
  nfs://<id>.<region>.nas.aliyuncs.com:<path> or cpfs://<id>.<region>.cpfs.aliyuncs.com:/share.
  EFC reads no encryptOptions (the efc.nas.* constants in const.go are unused).
- pkg/ddc/efc/operate.go: DataProcess only.
"""

from __future__ import annotations

from ..contract import Created, Edits, Engine, Lowering, Mounts, Starter, Storage, scales
from ..fluid.common import (
    CLEAN_CACHE_POLICY,
    IMAGE,
    NETWORK_MODE,
    POD_METADATA,
    PORTS_MAP,
    REPLICAS,
    RESOURCES,
    TIEREDSTORE,
)
from ..structural.dsl import BOOL, STR, STR_MAP, int32, obj

KIND = "EFCRuntime"

COMPONENT = obj(
    replicas=REPLICAS, properties=STR_MAP, ports=PORTS_MAP, resources=RESOURCES, nodeSelector=STR_MAP,
    networkMode=NETWORK_MODE, podMetadata=POD_METADATA, disabled=BOOL, version=IMAGE)
FUSE = obj(
    properties=STR_MAP, resources=RESOURCES, nodeSelector=STR_MAP, networkMode=NETWORK_MODE, podMetadata=POD_METADATA,
    cleanPolicy=STR, version=IMAGE)
SPEC = obj(
    master=COMPONENT, worker=COMPONENT, fuse=FUSE, initFuse=obj(version=IMAGE), tieredstore=TIEREDSTORE,
    replicas=int32(), osAdvise=obj(osVersion=STR, enabled=BOOL), podMetadata=POD_METADATA,
    cleanCachePolicy=CLEAN_CACHE_POLICY)

_SOURCE = "pkg/ddc/efc/utils.go (getMountInfo)"
STORAGE = {
    "nfs": Storage(uri_pattern=r"^nfs://[a-z0-9-]+\.[a-z0-9-]+\.nas\.aliyuncs\.com:", source=_SOURCE,
                   uri_example="nfs://<FILE_SYSTEM_ID>.<REGION>.nas.aliyuncs.com:/<PATH>/"),
    "cpfs": Storage(uri_pattern=r"^cpfs://[a-z0-9-]+\.[a-z0-9-]+\.cpfs\.aliyuncs\.com:/share", source=_SOURCE,
                    uri_example="cpfs://<FILE_SYSTEM_ID>.<REGION>.cpfs.aliyuncs.com:/share/<PATH>/"),
}

ENGINE = Engine(
    name="efc",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataProcess"}),
    mounts=Mounts(
        schemes=frozenset({"nfs", "cpfs"}),
        storage=STORAGE,
        single_mount=True,
    ),
    # SyncRuntime is empty and Dataset mounts are never remounted (pkg/ddc/efc/ufs.go ShouldUpdateUFS).
    edits=Edits(runtime=scales("efc")),
    lowering=Lowering(
        default_profile="efc-default",
    ),
    starter=Starter(
        source="nfs://<FILE_SYSTEM_ID>.<REGION>.nas.aliyuncs.com:/<PATH>/",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"),
                 ("ConfigMap", "{full}-worker-endpoints"), ("ConfigMap", "{name}-efc-values")),
    ),
)
