"""The Dataset kind: its schema, and what Fluid's controllers create for each Dataset.

Sources (fluid-cloudnative/fluid, the same in every version versions.py lists):
- api/v1alpha1/dataset_types.go: fields, phases, condition types.
- pkg/ddc/base/pv.go (GetPersistentVolumeName) and pkg/utils/dataset/volume/create.go:
  once a runtime binds, Fluid creates the PersistentVolume `<namespace>-<name>` and, in the
  Dataset's namespace, the PersistentVolumeClaim `<name>` that workloads mount.
"""

from __future__ import annotations

from ..base.fluidsource import fact, source
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, array, fields, int32, int64, k8s, obj, string
from .common import ENCRYPT_OPTIONS, TOLERATIONS

KIND = "Dataset"
MOUNT = obj(
    mountPoint=string(min_length=5), name=string(min_length=0), path=STR, options=STR_MAP,
    encryptOptions=ENCRYPT_OPTIONS, readOnly=BOOL, shared=BOOL, required=("mountPoint",))
SPEC = obj(
    mounts=array(MOUNT, min_items=1), sharedOptions=STR_MAP, sharedEncryptOptions=ENCRYPT_OPTIONS,
    nodeAffinity=fields({"required": k8s("core.v1.NodeSelector")}), tolerations=TOLERATIONS, accessModes=STR_LIST,
    placement=string(enum=("Exclusive", "", "Shared")),
    owner=obj(uid=int64(), gid=int64(), user=STR, group=STR, required=("uid", "gid", "user", "group")),
    runtimes=array(obj(name=STR, namespace=STR, category=STR, type=STR, masterReplicas=int32())),
    dataRestoreLocation=obj(path=STR, nodeName=STR))

# Where a Dataset names the Secrets its encryptOptions read (Mount.EncryptOptions and
# DatasetSpec.SharedEncryptOptions), as kustomize field paths (output.py's kustomizeconfig).
SECRET_REFS = fact(("spec/mounts/encryptOptions/valueFrom/secretKeyRef/name",
                    "spec/sharedEncryptOptions/valueFrom/secretKeyRef/name"),
                   source("api/v1alpha1/dataset_types.go", "EncryptOptions"),
                   source("api/v1alpha1/dataset_types.go", "SharedEncryptOptions"))


def created_volume_names(name: str, namespace: str) -> dict[str, str]:
    """The PersistentVolume (cluster-scoped) and claim Fluid creates for a bound Dataset."""
    return {"PersistentVolume": f"{namespace}-{name}", "PersistentVolumeClaim": name}
