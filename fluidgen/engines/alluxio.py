"""AlluxioRuntime: multi-tier cache with JVM master/worker/FUSE, tuned through profiles.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/alluxioruntime_types.go: the spec.
- pkg/ddc/alluxio/operate.go: DataLoad, DataBackup and DataProcess are supported.
- pkg/ddc/alluxio/ufs_internal.go (genUFSMountOptions, genEncryptOptions): mount options
  and encryptOptions are handed to `alluxio fs mount` as they are; an option given both as
  a plain option and as an encryptOption fails the mount ("set more than one times").
- pkg/ddc/alluxio/transform.go (FullnameOverride = runtime name) and charts/alluxio/templates:
  the StatefulSets, DaemonSet, Service and ConfigMaps Fluid creates.
- pkg/utils/ufs_path_builder.go (GenAlluxioUFSRootPath): `path: /` puts a mount at the root
  only when it is the Dataset's one mount and not pvc:// or local://; otherwise the root is
  /underFSStorage (#3379).
Option names per storage are Alluxio's own UFS properties, as Fluid's docs use them
(docs/en/samples/s3_configuration.md, docs/zh/samples/... ; docs.alluxio.io ufs/*).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..contract import Created, Edits, Engine, Lowering, Mounts, MountSync, Storage, Workloads, scales
from ..fluid.common import (
    IMAGE,
    IMAGE_PULL_SECRETS,
    INIT_USERS,
    JVM_OPTIONS,
    MANAGEMENT,
    NETWORK_MODE,
    POD_METADATA,
    PORTS_MAP,
    REPLICAS,
    RESOURCES,
    RUN_AS,
    TIEREDSTORE,
    VOLUME_MOUNTS,
    VOLUMES,
)
from ..fluidsource import source
from ..manifest import fluid_runtime_at, fuse_options, fuse_spec, kind_of, mapping, mounts_of, names_given, spec_of
from ..rules import Finding, Object, Rule
from ..structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, obj
from ..uri import is_native

KIND = "AlluxioRuntime"

COMPONENT = obj(
    replicas=REPLICAS, jvmOptions=JVM_OPTIONS, properties=STR_MAP, ports=PORTS_MAP, resources=RESOURCES, env=STR_MAP,
    enabled=BOOL, nodeSelector=STR_MAP, networkMode=NETWORK_MODE, volumeMounts=VOLUME_MOUNTS,
    podMetadata=POD_METADATA, imagePullSecrets=IMAGE_PULL_SECRETS)
FUSE = obj(
    image=STR, imageTag=STR, imagePullPolicy=STR, imagePullSecrets=IMAGE_PULL_SECRETS, jvmOptions=JVM_OPTIONS,
    properties=STR_MAP, env=STR_MAP, resources=RESOURCES, args=STR_LIST, nodeSelector=STR_MAP, cleanPolicy=STR,
    networkMode=NETWORK_MODE, volumeMounts=VOLUME_MOUNTS, podMetadata=POD_METADATA)
SPEC = obj(
    alluxioVersion=IMAGE, imagePullSecrets=IMAGE_PULL_SECRETS, master=COMPONENT, jobMaster=COMPONENT,
    worker=COMPONENT, jobWorker=COMPONENT, apiGateway=COMPONENT, fuse=FUSE, properties=STR_MAP,
    jvmOptions=JVM_OPTIONS, tieredstore=TIEREDSTORE, data=obj(replicas=int32(), pin=BOOL), replicas=int32(),
    runAs=RUN_AS, initUsers=INIT_USERS, disablePrometheus=BOOL, hadoopConfig=STR, volumes=VOLUMES,
    podMetadata=POD_METADATA, management=MANAGEMENT)

_ALLUXIO_DOCS = "Alluxio UFS properties (docs.alluxio.io ufs/{}), passed through by pkg/ddc/alluxio/ufs_internal.go"


def _pair(scheme: str, key: str, secret: str, options: tuple[str, ...] = (),
          suggested: dict[str, str] | None = None, always: bool = False) -> Storage:
    pair = frozenset({key, secret})
    return Storage(pair, required=pair if always else frozenset(), pairs=(pair,),
                   options=options, suggested=suggested or {}, source=_ALLUXIO_DOCS.format(scheme))


STORAGE = {
    # OSSUnderFileSystemFactory.checkOSSCredentials: key, secret and endpoint, or no mount.
    "oss": _pair("OSS", "fs.oss.accessKeyId", "fs.oss.accessKeySecret", ("fs.oss.endpoint",),
                 {"fs.oss.endpoint": "<OSS_ENDPOINT>"}, always=True),
    "s3": _pair("S3", "aws.accessKeyId", "aws.secretKey", suggested={
        "alluxio.underfs.s3.endpoint": "<S3_ENDPOINT>", "alluxio.underfs.s3.region": "<S3_REGION>"}),
    "s3a": _pair("S3", "aws.accessKeyId", "aws.secretKey"),
    "cos": _pair("COS", "fs.cos.access.key", "fs.cos.secret.key", ("fs.cos.region", "fs.cos.app.id"),
                 {"fs.cos.region": "<COS_REGION>", "fs.cos.app.id": "<COS_APP_ID>"}),
    "obs": _pair("OBS", "fs.obs.accessKey", "fs.obs.secretKey", ("fs.obs.endpoint",),
                 {"fs.obs.endpoint": "<OBS_ENDPOINT>"}),
}


def _kernel_cache_needs_jni(obj_: Object, _: list[Object]) -> Iterator[Finding]:
    if kind_of(obj_) != KIND:
        return
    props = {**mapping(spec_of(obj_).get("properties")), **mapping(fuse_spec(obj_).get("properties"))}
    for i, opt in fuse_options(obj_):
        if opt == "kernel_cache" and props.get("alluxio.fuse.jnifuse.enabled") != "true":
            yield Finding(("spec", "fuse", "args", i), "kernel_cache needs the JNI FUSE; set "
                                                       'alluxio.fuse.jnifuse.enabled: "true"')


def _option_given_twice(obj_: Object, objects: list[Object]) -> Iterator[Finding]:
    """genEncryptOptions fails a mount whose option is also an encryptOption."""
    if kind_of(obj_) != "Dataset" or kind_of(fluid_runtime_at(obj_, objects) or {}) != KIND:
        return
    spec = spec_of(obj_)
    shared = {name for _, name in names_given(spec.get("sharedEncryptOptions"))}
    for i, mount in enumerate(mounts_of(obj_)):
        plain = {**mapping(spec.get("sharedOptions")), **mapping(mount.get("options"))}
        seen = set(shared)
        for j, name in names_given(mount.get("encryptOptions")):
            if name in plain or name in seen:
                yield Finding(("spec", "mounts", i, "encryptOptions", j, "name"),
                              f"{name} is set more than once (as an option and an encryptOption); Alluxio "
                              "refuses the mount. Keep only the encryptOption")
            seen.add(name)


def _root_path_with_many_mounts(obj_: Object, objects: list[Object]) -> Iterator[Finding]:
    if kind_of(obj_) != "Dataset" or kind_of(fluid_runtime_at(obj_, objects) or {}) != KIND:
        return
    mounts = mounts_of(obj_)
    for i, m in enumerate(mounts):
        native = is_native(m.get("mountPoint", ""))
        if isinstance(m.get("path"), str) and m["path"].strip("/") == "" and (len(mounts) > 1 or native):
            why = "a pvc:// or local:// mount" if native and len(mounts) == 1 else "one mount of several"
            yield Finding(("spec", "mounts", i, "path"), f'path "/" is honoured only for a Dataset\'s single '
                                                         f"object-store mount, not for {why}; Alluxio keeps "
                                                         "/underFSStorage at the root. Drop path or the other mounts")


ENGINE = Engine(
    name="alluxio",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataBackup", "DataProcess"}),
    mounts=Mounts(
        # Anything Alluxio's UFS layer understands; these are the documented ones.
        schemes=frozenset({"oss", "s3", "s3a", "hdfs", "gs", "cos", "obs", "http", "https", "pvc", "local"}),
        storage=STORAGE,
    ),
    rules=(
        Rule("FG108", "warning", "kernel_cache is only supported by the JNI-based AlluxioFuse",
             _kernel_cache_needs_jni),
        Rule("FG123", "error", "Alluxio refuses a mount whose option is also an encryptOption",
             _option_given_twice),
        Rule("FG124", "error", 'Alluxio honours path "/" only for a Dataset\'s single object-store mount',
             _root_path_with_many_mounts),
    ),
    lowering=Lowering(
        single_tier=False,
        # One copy of each block across workers unless the spec asks for more; the same as Fluid does
        # without the field (pkg/ddc/alluxio/transform.go: data.replicas <= 0 is taken as 1).
        defaults={"data": {"replicas": 1}},
        default_profile="alluxio-default",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"),
                 ("Service", "{full}-master-0"), ("ConfigMap", "{full}-config"), ("ConfigMap", "{full}-mount-config"),
                 ("ConfigMap", "{name}-alluxio-values")),
    ),
    edits=Edits(
        # SyncRuntime is empty (pkg/ddc/alluxio/sync_runtime.go): only replicas are synced. Mounts
        # whose namespace path appears or disappears are mounted or unmounted (ShouldUpdateUFS,
        # UpdateOnUFSChange: fluidbase.mount_delta); in the default configmap storage the master's
        # mount.sh (charts/alluxio/templates/config/alluxio-mount-conf.yaml) mounts only unmounted paths too.
        runtime=scales("alluxio"),
        mounts=(MountSync("paths", source("pkg/ddc/alluxio/ufs.go", "UpdateOnUFSChange")),),
    ),
    workloads=Workloads(
        data_layout="per-mount",  # GenUFSPathInUnifiedNamespace in its FUSE/UFS setup
    ),
)
