"""Schema pieces several Fluid kinds share (api/v1alpha1/common.go and friends)."""

from __future__ import annotations

from ..base.structural.dsl import (
    BOOL,
    INT_MAP,
    QUANTITY,
    STR,
    STR_LIST,
    STR_MAP,
    array,
    int32,
    int64,
    k8s,
    k8s_list,
    obj,
    string,
)

GROUP = "data.fluid.io"
GROUP_VERSION = "data.fluid.io/v1alpha1"

POD_METADATA = obj(labels=STR_MAP, annotations=STR_MAP)
IMAGE = obj(image=STR, imageTag=STR, imagePullPolicy=STR)
IMAGE_PULL_SECRETS = k8s_list("core.v1.LocalObjectReference")
RESOURCES = k8s("core.v1.ResourceRequirements")
VOLUMES = k8s_list("core.v1.Volume")
VOLUME_MOUNTS = k8s_list("core.v1.VolumeMount")
TOLERATIONS = k8s_list("core.v1.Toleration")
ENV_VARS = k8s_list("core.v1.EnvVar")
CONTAINER_PORTS = k8s_list("core.v1.ContainerPort")
AFFINITY = k8s("core.v1.Affinity")
REPLICAS = int32(minimum=1)
NETWORK_MODE = string(enum=("HostNetwork", "", "ContainerNetwork"))
RUN_AS = obj(uid=int64(), gid=int64(), user=STR, group=STR, required=("uid", "gid", "user", "group"))
CLEAN_CACHE_POLICY = obj(gracePeriodSeconds=int32(), maxRetryAttempts=int32())
MANAGEMENT = obj(cleanCachePolicy=CLEAN_CACHE_POLICY, metadataSyncPolicy=obj(autoSync=BOOL))
INIT_USERS = obj(image=STR, imageTag=STR, imagePullPolicy=STR, env=STR_MAP, resources=RESOURCES)
# Quantities joined by "," (at least two); every one but the last needs a unit suffix.
QUOTA_LIST = string(pattern=(
    r"^((\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)"
    r"|(\.[0-9]+)))),)+((\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?"
    r"(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$"))
LEVEL = obj(
    mediumtype=string(enum=("MEM", "SSD", "HDD")), volumeType=string(enum=("hostPath", "emptyDir")),
    volumeSource=k8s("core.v1.VolumeSource"), path=string(min_length=1), quota=QUANTITY, quotaList=QUOTA_LIST,
    high=STR, low=STR, required=("mediumtype",))
TIEREDSTORE = obj(levels=array(LEVEL))
ENCRYPT_OPTION = obj(
    name=STR, valueFrom=obj(secretKeyRef=obj(name=STR, key=STR, required=("name",))), required=("name",))
ENCRYPT_OPTIONS = array(ENCRYPT_OPTION)
PORTS_MAP = INT_MAP
JVM_OPTIONS = STR_LIST
