"""fluidgen's own typed model of the Fluid API, per target version.

This is the built-in schema used when the user has not pointed fluidgen at CRD
files: it knows every field of every data.fluid.io kind fluidgen emits, with
types, enums and required keys, and treats unknown fields as errors the way
kubectl's strict validation does. Embedded Kubernetes types (resources, env vars,
volumes, pod specs, ...) are checked for shape only; `--crds` checks them fully.

A test cross-checks every field here against the real CRDs of each version.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .diagnostics import PathT
from .quantity import QUANTITY_RE

GROUP_VERSION = "data.fluid.io/v1alpha1"


@dataclass(frozen=True)
class T:
    """A node of the API tree."""

    kind: str  # obj | map | arr | str | int | bool | ios | k8s-obj | k8s-arr | any
    fields: Mapping[str, T] = field(default_factory=dict)
    item: T | None = None
    enum: tuple[str, ...] = ()
    minimum: int | None = None
    min_length: int | None = None
    pattern: str | None = None
    required: frozenset[str] = frozenset()


def obj(fields: Mapping[str, T] | None = None, req: tuple[str, ...] = (), **kw: T) -> T:
    return T("obj", fields={**(fields or {}), **kw}, required=frozenset(req))


S = T("str")
I = T("int")  # noqa: E741 - a type tag, not a variable
B = T("bool")
SMAP = T("map", item=S)
IMAP = T("map", item=I)
SLIST = T("arr", item=S)
K8S = T("k8s-obj")  # an embedded core object (resources, affinity, probes, podSpec...)
K8S_LIST = T("k8s-arr")  # an embedded list of core objects (env, volumes, tolerations...)
REPLICAS = T("int", minimum=1)
QUANTITY = T("ios", pattern=QUANTITY_RE.pattern)
QUOTA_LIST = T("str", pattern=(
    r"^((\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)"
    r"|(\.[0-9]+)))),)+((\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?"
    r"(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$"))
NETWORK_MODE = T("str", enum=("HostNetwork", "", "ContainerNetwork"))
POLICY = T("str", enum=("Once", "Cron", "OnEvent"))
OP_KINDS = ("DataLoad", "DataBackup", "DataMigrate", "DataProcess")

POD_METADATA = obj(labels=SMAP, annotations=SMAP)
IMAGE = obj(image=S, imageTag=S, imagePullPolicy=S)
RUN_AS = obj(uid=I, gid=I, user=S, group=S, req=("uid", "gid", "user", "group"))
CLEAN_CACHE = obj(gracePeriodSeconds=I, maxRetryAttempts=I)
MANAGEMENT = obj(cleanCachePolicy=CLEAN_CACHE, metadataSyncPolicy=obj(autoSync=B))
LEVEL = obj(
    mediumtype=T("str", enum=("MEM", "SSD", "HDD")), volumeType=T("str", enum=("hostPath", "emptyDir")),
    volumeSource=K8S, path=T("str", min_length=1), quota=QUANTITY, quotaList=QUOTA_LIST, high=S, low=S,
    req=("mediumtype",))
TIEREDSTORE = obj(levels=T("arr", item=LEVEL))
ENCRYPT_OPTION = obj(
    name=S, valueFrom=obj(secretKeyRef=obj(name=S, key=S, req=("name",))), req=("name",))
ENCRYPT_OPTIONS = T("arr", item=ENCRYPT_OPTION)
SELECTOR_REQ = obj(key=S, operator=S, values=SLIST, req=("key", "operator"))
NODE_SELECTOR_TERM = obj(matchExpressions=T("arr", item=SELECTOR_REQ), matchFields=T("arr", item=SELECTOR_REQ))
OBJECT_REF = obj(apiVersion=S, kind=T("str", enum=OP_KINDS), name=S, namespace=S, req=("kind", "name"))
RUN_AFTER = obj(
    apiVersion=S, kind=T("str", enum=OP_KINDS), name=S, namespace=S, req=("kind", "name"),
    affinityStrategy=obj(
        policy=S, dependOn=OBJECT_REF,
        prefers=T("arr", item=obj(name=S, weight=I, req=("name", "weight"))),
        requires=T("arr", item=obj(name=S, req=("name",)))))
OP_COMMON = {"runAfter": RUN_AFTER, "ttlSecondsAfterFinished": I}
POD_PLACEMENT = {"affinity": K8S, "tolerations": K8S_LIST, "nodeSelector": SMAP,
                 "schedulerName": S, "podMetadata": POD_METADATA, "resources": K8S}

# Component templates -------------------------------------------------------------
ALLUXIO_COMP = obj(
    replicas=REPLICAS, jvmOptions=SLIST, properties=SMAP, ports=IMAP, resources=K8S, env=SMAP,
    enabled=B, nodeSelector=SMAP, networkMode=NETWORK_MODE, volumeMounts=K8S_LIST,
    podMetadata=POD_METADATA, imagePullSecrets=K8S_LIST)
ALLUXIO_FUSE = obj(
    image=S, imageTag=S, imagePullPolicy=S, imagePullSecrets=K8S_LIST, jvmOptions=SLIST,
    properties=SMAP, env=SMAP, resources=K8S, args=SLIST, nodeSelector=SMAP, cleanPolicy=S,
    networkMode=NETWORK_MODE, volumeMounts=K8S_LIST, podMetadata=POD_METADATA)
JINDO_COMP = obj(
    replicas=REPLICAS, properties=SMAP, ports=IMAP, resources=K8S, env=SMAP, nodeSelector=SMAP,
    tolerations=K8S_LIST, labels=SMAP, podMetadata=POD_METADATA, disabled=B, volumeMounts=K8S_LIST,
    imagePullSecrets=K8S_LIST)
JINDO_FUSE = obj(
    image=S, imageTag=S, imagePullPolicy=S, imagePullSecrets=K8S_LIST, properties=SMAP, env=SMAP,
    resources=K8S, args=SLIST, nodeSelector=SMAP, tolerations=K8S_LIST, labels=SMAP,
    podMetadata=POD_METADATA, cleanPolicy=S, disabled=B, logConfig=SMAP,
    metrics=obj(enabled=B, scrapeTarget=S))
JUICEFS_COMP = obj(
    replicas=REPLICAS, ports=K8S_LIST, resources=K8S, options=SMAP, env=K8S_LIST, enabled=B,
    nodeSelector=SMAP, volumeMounts=K8S_LIST, podMetadata=POD_METADATA, networkMode=NETWORK_MODE)
JUICEFS_FUSE = obj(
    image=S, imageTag=S, imagePullPolicy=S, env=K8S_LIST, resources=K8S, options=SMAP,
    nodeSelector=SMAP, volumeMounts=K8S_LIST, cleanPolicy=S, podMetadata=POD_METADATA,
    networkMode=NETWORK_MODE)
EFC_COMP = obj(
    replicas=REPLICAS, properties=SMAP, ports=IMAP, resources=K8S, nodeSelector=SMAP,
    networkMode=NETWORK_MODE, podMetadata=POD_METADATA, disabled=B, version=IMAGE)
EFC_FUSE = obj(
    properties=SMAP, resources=K8S, nodeSelector=SMAP, networkMode=NETWORK_MODE,
    podMetadata=POD_METADATA, cleanPolicy=S, version=IMAGE)
THIN_FUSE = obj(
    image=S, imageTag=S, imagePullPolicy=S, imagePullSecrets=K8S_LIST, env=K8S_LIST, resources=K8S,
    ports=K8S_LIST, livenessProbe=K8S, readinessProbe=K8S, lifecycle=K8S, networkMode=NETWORK_MODE,
    volumeMounts=K8S_LIST, nodeSelector=SMAP, cleanPolicy=S, command=SLIST, args=SLIST,
    options=SMAP, podMetadata=POD_METADATA)
THIN_WORKER = obj(
    image=S, imageTag=S, imagePullPolicy=S, imagePullSecrets=K8S_LIST, replicas=REPLICAS, env=K8S_LIST,
    resources=K8S, ports=K8S_LIST, livenessProbe=K8S, readinessProbe=K8S, enabled=B,
    networkMode=NETWORK_MODE, volumeMounts=K8S_LIST, nodeSelector=SMAP)
VINEYARD_COMP = obj(
    replicas=REPLICAS, image=S, imageTag=S, imagePullPolicy=S, env=SMAP, options=SMAP, ports=IMAP,
    resources=K8S, nodeSelector=SMAP, networkMode=NETWORK_MODE, podMetadata=POD_METADATA,
    volumeMounts=K8S_LIST)
GOOSEFS_COMP = obj(
    replicas=REPLICAS, jvmOptions=SLIST, properties=SMAP, ports=IMAP, resources=K8S, env=SMAP,
    enabled=B, nodeSelector=SMAP, annotations=SMAP)


def _kinds(version: str) -> dict[str, T]:
    dev = version != "v1.0.8"
    kinds: dict[str, T] = {
        "Dataset": obj(
            mounts=T("arr", item=obj(
                mountPoint=T("str", min_length=5), name=S, path=S, options=SMAP,
                encryptOptions=ENCRYPT_OPTIONS, readOnly=B, shared=B, req=("mountPoint",))),
            sharedOptions=SMAP, sharedEncryptOptions=ENCRYPT_OPTIONS,
            nodeAffinity=obj(required=obj(
                nodeSelectorTerms=T("arr", item=NODE_SELECTOR_TERM), req=("nodeSelectorTerms",))),
            tolerations=K8S_LIST, accessModes=SLIST,
            placement=T("str", enum=("Exclusive", "", "Shared")),
            owner=obj(uid=I, gid=I, user=S, group=S, req=("uid", "gid", "user", "group")),
            runtimes=T("arr", item=obj(name=S, namespace=S, category=S, type=S, masterReplicas=I)),
            dataRestoreLocation=obj(path=S, nodeName=S)),
        "AlluxioRuntime": obj(
            alluxioVersion=IMAGE, imagePullSecrets=K8S_LIST, master=ALLUXIO_COMP,
            jobMaster=ALLUXIO_COMP, worker=ALLUXIO_COMP, jobWorker=ALLUXIO_COMP,
            apiGateway=ALLUXIO_COMP, fuse=ALLUXIO_FUSE, properties=SMAP, jvmOptions=SLIST,
            tieredstore=TIEREDSTORE, data=obj(replicas=I, pin=B), replicas=I, runAs=RUN_AS,
            initUsers=obj(image=S, imageTag=S, imagePullPolicy=S, env=SMAP, resources=K8S),
            disablePrometheus=B, hadoopConfig=S, volumes=K8S_LIST, podMetadata=POD_METADATA,
            management=MANAGEMENT),
        "JindoRuntime": obj(
            jindoVersion=IMAGE, imagePullSecrets=K8S_LIST, master=JINDO_COMP, worker=JINDO_COMP,
            fuse=JINDO_FUSE, properties=SMAP, tieredstore=TIEREDSTORE, replicas=I, runAs=RUN_AS,
            user=S, hadoopConfig=S, secret=S, labels=SMAP, podMetadata=POD_METADATA,
            logConfig=SMAP, networkmode=NETWORK_MODE, cleanCachePolicy=CLEAN_CACHE,
            volumes=K8S_LIST),
        "JuiceFSRuntime": obj(
            juicefsVersion=IMAGE,
            initUsers=obj(image=S, imageTag=S, imagePullPolicy=S, env=SMAP, resources=K8S),
            master=JUICEFS_COMP, worker=JUICEFS_COMP, jobWorker=JUICEFS_COMP, fuse=JUICEFS_FUSE,
            tieredstore=TIEREDSTORE, configs=SLIST, replicas=I, runAs=RUN_AS, disablePrometheus=B,
            volumes=K8S_LIST, podMetadata=POD_METADATA, management=MANAGEMENT),
        "EFCRuntime": obj(
            master=EFC_COMP, worker=EFC_COMP, fuse=EFC_FUSE, initFuse=obj(version=IMAGE),
            tieredstore=TIEREDSTORE, replicas=I, osAdvise=obj(osVersion=S, enabled=B),
            podMetadata=POD_METADATA, cleanCachePolicy=CLEAN_CACHE),
        "ThinRuntime": obj(
            profileName=S, fuse=THIN_FUSE, worker=THIN_WORKER, tieredstore=TIEREDSTORE, replicas=I,
            runAs=RUN_AS, disablePrometheus=B, volumes=K8S_LIST, imagePullSecrets=K8S_LIST,
            management=MANAGEMENT),
        "ThinRuntimeProfile": obj(
            fileSystemType=S, fuse=THIN_FUSE, worker=THIN_WORKER, volumes=K8S_LIST,
            imagePullSecrets=K8S_LIST, req=("fileSystemType",),
            nodePublishSecretPolicy=T("str", enum=(
                "NotMountNodePublishSecret", "MountNodePublishSecretIfExists",
                "CopyNodePublishSecretAndMountIfNotExists"))),
        "VineyardRuntime": obj(
            master=obj({**VINEYARD_COMP.fields,
                        "endpoint": obj(uri=S, options=SMAP, encryptOptions=ENCRYPT_OPTIONS)}),
            worker=VINEYARD_COMP,
            fuse=obj(image=S, imageTag=S, imagePullPolicy=S, env=SMAP, options=SMAP, resources=K8S,
                     cleanPolicy=S, networkMode=NETWORK_MODE, podMetadata=POD_METADATA),
            tieredstore=TIEREDSTORE, replicas=I, volumes=K8S_LIST, podMetadata=POD_METADATA,
            disablePrometheus=B),
        "DataLoad": obj(
            {**OP_COMMON, **POD_PLACEMENT},
            dataset=obj(name=S, namespace=S, req=("name",)), loadMetadata=B,
            target=T("arr", item=obj(path=S, replicas=I, req=("path",))), options=SMAP,
            policy=POLICY, schedule=S),
        "DataMigrate": obj(
            {**OP_COMMON, **POD_PLACEMENT, "from": _migrate_end(), "to": _migrate_end()},
            image=S, imageTag=S, imagePullPolicy=S, block=B, runtimeType=S, options=SMAP,
            policy=POLICY, schedule=S, parallelism=REPLICAS, parallelOptions=SMAP,
            req=("from", "to")),
        "DataProcess": obj(
            {**OP_COMMON, **({"policy": POLICY, "schedule": S} if dev else {})},
            dataset=obj(name=S, namespace=S, mountPath=S, subPath=S, req=("name", "mountPath")),
            processor=obj(
                serviceAccountName=S, podMetadata=POD_METADATA, job=obj(podSpec=K8S),
                script=obj(image=S, imageTag=S, imagePullPolicy=S, command=SLIST, source=S,
                           env=K8S_LIST, volumes=K8S_LIST, volumeMounts=K8S_LIST, resources=K8S,
                           restartPolicy=T("str", enum=("Never", "OnFailure")),
                           req=("source",))),
            req=("dataset", "processor")),
        "DataBackup": obj(OP_COMMON, dataset=S, backupPath=S, runAs=RUN_AS),
    }
    if dev:  # added after v1.0.8
        runtime = kinds["JuiceFSRuntime"]
        kinds["JuiceFSRuntime"] = obj({**runtime.fields, "volumeClaimTemplates": K8S_LIST})
    else:  # removed after v1.0.8
        kinds["GooseFSRuntime"] = obj(
            goosefsVersion=IMAGE, master=GOOSEFS_COMP, jobMaster=GOOSEFS_COMP, worker=GOOSEFS_COMP,
            jobWorker=GOOSEFS_COMP, apiGateway=GOOSEFS_COMP,
            fuse=obj(image=S, imageTag=S, imagePullPolicy=S, jvmOptions=SLIST, properties=SMAP,
                     env=SMAP, resources=K8S, args=SLIST, nodeSelector=SMAP, cleanPolicy=S,
                     annotations=SMAP),
            properties=SMAP, jvmOptions=SLIST, tieredstore=TIEREDSTORE, data=obj(replicas=I, pin=B),
            replicas=I, runAs=RUN_AS, hadoopConfig=S, cleanCachePolicy=CLEAN_CACHE,
            disablePrometheus=B,
            initUsers=obj(image=S, imageTag=S, imagePullPolicy=S, env=SMAP, resources=K8S))
    return kinds


def _migrate_end() -> T:
    return obj(dataset=obj(name=S, namespace=S, path=S, req=("name", "namespace")),
               externalStorage=obj(uri=S, encryptOptions=ENCRYPT_OPTIONS, req=("uri",)))


CLUSTER_SCOPED = frozenset({"ThinRuntimeProfile"})


@cache
def spec_model(version: str, kind: str) -> T | None:
    """The `spec` tree of a Fluid kind in a version, or None if the version lacks it."""
    return _kinds(version).get(kind)


@cache
def kinds(version: str) -> frozenset[str]:
    return frozenset(_kinds(version))


@dataclass(frozen=True)
class Problem:
    path: PathT
    message: str
    unknown_field: bool = False
    choices: tuple[str, ...] = ()


def check(node: T, value: Any, path: PathT = ()) -> Iterator[Problem]:
    """Every way `value` breaks `node`: unknown fields, wrong types, enums, required keys."""
    kind = node.kind
    if kind == "any":
        return
    if kind in ("obj", "k8s-obj", "map"):
        if not isinstance(value, dict):
            yield Problem(path, f"expected a mapping, found {_type(value)}")
            return
        if kind == "k8s-obj":
            return
        if kind == "map":
            assert node.item is not None
            for key, item in value.items():
                yield from check(node.item, item, (*path, key))
            return
        for key, item in value.items():
            sub = node.fields.get(key)
            if sub is None:
                yield Problem((*path, key), "unknown field", True, tuple(sorted(node.fields)))
            else:
                yield from check(sub, item, (*path, key))
        for key in sorted(node.required - set(value)):
            yield Problem(path, f'missing required field "{key}"')
        return
    if kind in ("arr", "k8s-arr"):
        if not isinstance(value, list):
            yield Problem(path, f"expected a list, found {_type(value)}")
            return
        if kind == "arr":
            assert node.item is not None
            for i, item in enumerate(value):
                yield from check(node.item, item, (*path, i))
        return
    yield from _check_scalar(node, value, path)


def _check_scalar(node: T, value: Any, path: PathT) -> Iterator[Problem]:
    if node.kind == "bool":
        if not isinstance(value, bool):
            yield Problem(path, f"expected true or false, found {_type(value)}")
        return
    if node.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            yield Problem(path, f"expected an integer, found {_type(value)}")
        elif node.minimum is not None and value < node.minimum:
            yield Problem(path, f"must be at least {node.minimum}, got {value}")
        return
    if node.kind == "ios":
        if isinstance(value, int) and not isinstance(value, bool):
            return
        if not isinstance(value, str):
            yield Problem(path, f"expected an integer or a string, found {_type(value)}")
        elif node.pattern and not re.match(node.pattern, value):
            yield Problem(path, f'"{value}" is not a Kubernetes quantity')
        return
    if not isinstance(value, str):
        hint = ""
        if isinstance(value, bool | int | float):
            text = str(value).lower() if isinstance(value, bool) else str(value)
            hint = f'; quote it: "{text}"'
        yield Problem(path, f"expected a string, found {_type(value)}{hint}")
        return
    if node.enum and value not in node.enum:
        yield Problem(path, f"must be one of {', '.join(repr(e) for e in node.enum)}, got {value!r}",
                      choices=node.enum)
    elif node.min_length is not None and len(value) < node.min_length:
        yield Problem(path, f"must be at least {node.min_length} characters long")
    elif node.pattern and not re.match(node.pattern, value):
        yield Problem(path, f'"{value}" does not match the required format')


def prune(node: T, value: Any) -> Any:
    """`value` without the fields `node` does not know (for emitting to a target version)."""
    if node.kind == "obj" and isinstance(value, dict):
        return {k: prune(node.fields[k], v) for k, v in value.items() if k in node.fields}
    if node.kind == "map" and isinstance(value, dict) and node.item is not None:
        return {k: prune(node.item, v) for k, v in value.items()}
    if node.kind == "arr" and isinstance(value, list) and node.item is not None:
        return [prune(node.item, v) for v in value]
    return value


def lookup(node: T, path: PathT) -> T | None:
    """The sub-tree at a field path (list indices and map keys are stepped through)."""
    for part in path:
        if node.kind in ("arr", "map"):
            assert node.item is not None
            node = node.item
            if isinstance(part, int) or node.kind != "obj":
                continue
        if node.kind != "obj" or not isinstance(part, str) or part not in node.fields:
            return None
        node = node.fields[part]
    return node


def _type(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number"}.get(type(value), type(value).__name__)
