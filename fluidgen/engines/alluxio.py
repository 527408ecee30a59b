"""AlluxioRuntime: multi-tier cache with JVM master/worker/FUSE, tuned through profiles.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/alluxioruntime_types.go: the spec.
- pkg/ddc/alluxio/operate.go: DataLoad, DataBackup and DataProcess are supported.
- pkg/ddc/alluxio/ufs_internal.go (genUFSMountOptions, genEncryptOptions): mount options
  and encryptOptions of any name are handed to `alluxio fs mount` as they are. A name given
  both as an option and as an encryptOption fails the mount ("set more than one times") only
  when the controller's ALLUXIO_MOUNT_CONFIG_STORAGE is not configmap; Fluid's chart sets
  configmap, where the encryptOption (a Secret file path) silently wins (mount_options below;
  Mounts.encrypt_config_storage, which lint's FG123 reads).
- pkg/ddc/alluxio/transform.go (FullnameOverride = runtime name) and charts/alluxio/templates:
  the StatefulSets, DaemonSet, Service and ConfigMaps Fluid creates.
- pkg/utils/ufs_path_builder.go (GenAlluxioUFSRootPath): `path: /` puts an object-store mount at
  the root only when it is the Dataset's one mount; otherwise the root is /underFSStorage (#3379),
  where a pvc:// or local:// mount at `/` lands itself (GenLocalStoragePath): Mounts.alluxio_root,
  FG124 in lint/storage.py.
Option names per storage are Alluxio's own UFS properties, as Fluid's docs use them
(docs/en/samples/s3_configuration.md, docs/zh/samples/... ; docs.alluxio.io ufs/*).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..base.fluidsource import decided_by, fact, source, sources_of_function
from ..base.manifest import Tree, fuse_options, fuse_spec, jvm_flag, levels_of, mapping
from ..base.manifest_index import Entry, ManifestIndex
from ..base.quantity import java_size_to_bytes, to_bytes
from ..base.rules import Example, Finding, Rule
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, obj
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
from ..fluid.fields import (
    CONDITION,
    IGNORED,
    MERGED,
    OWN_DEFAULT,
    READ,
    FieldRead,
    Fields,
    dataset_node_affinity,
    dataset_placement,
    fuse_clean_policy,
    memory_limit_given,
)
from ..fluid.fluidbase import encrypt_options_set_twice, read_only_dataset
from .contract import (
    Context,
    Created,
    Edits,
    Engine,
    Health,
    Hooks,
    Lowering,
    Mounts,
    MountSync,
    Storage,
    Workloads,
    mounts_only,
    named_after_runtime,
    not_the_reference_engine,
    partial_ready,
    paths_split_at_comma,
    runtime_status,
    scales,
    workers_as_written,
)

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

_ALLUXIO_DOCS = "the names shown are Alluxio UFS properties (docs.alluxio.io ufs/{}); every name is passed on"


# Every option and encryptOption name reaches `alluxio fs mount` (genUFSMountOptions): the
# names below are the documented ones, not the only ones Alluxio reads (s3a.accessKeyId, ...).
PASS_THROUGH = source("pkg/ddc/alluxio/ufs_internal.go", "genUFSMountOptions")


def _pair(scheme: str, key: str, secret: str, options: tuple[str, ...] = (),
          suggested: dict[str, str] | None = None, always: bool = False) -> Storage:
    pair = frozenset({key, secret})
    return Storage(pair, other_names_read=True, required=pair if always else frozenset(), pairs=(pair,),
                   options=options, suggested=suggested or {}, source=source(PASS_THROUGH.path, PASS_THROUGH.function,
                                                                             note=_ALLUXIO_DOCS.format(scheme)))


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




def _kernel_cache_needs_jni(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    jni = _fuse_properties(entry)[JNI_FUSE]  # Fluid's "true" unless set
    for i, opt in fuse_options(entry.obj):
        if opt == "kernel_cache" and jni != "true":
            yield Finding(("spec", "fuse", "args", i), f"kernel_cache needs the JNI FUSE, which Fluid enables unless "
                                                       f"alluxio.fuse.jnifuse.enabled is set: this runtime sets it to "
                                                       f"{jni!r}; drop that property or kernel_cache")


def _bound_here(dataset: Entry, index: ManifestIndex) -> bool:
    runtime = index.bound_runtime(dataset)
    return runtime is not None and runtime.kind == KIND


# How the Alluxio controller stores mount options (ALLUXIO_MOUNT_CONFIG_STORAGE): "configmap"
# unless the Fluid install sets otherwise (IsMountWithConfigMap: unset means configmap; the chart
# sets runtime.alluxio.mountConfigStorage: configmap).
MOUNT_CONFIG_STORAGE = fact("configmap", source("pkg/ddc/alluxio/ufs.go", "IsMountWithConfigMap"),
                            source("charts/fluid/fluid/values.yaml", "mountConfigStorage"))
SECRETS_DIR = "/etc/fluid/secrets"  # where configmap storage mounts each encryptOption's Secret


class OptionSetTwice(ValueError):
    """genEncryptOptions refuses an encryptOption whose name is already an option."""


@decided_by(source("pkg/ddc/alluxio/ufs_internal.go", "genUFSMountOptions"),
            source("pkg/ddc/alluxio/ufs_internal.go", "genEncryptOptions"))
def mount_options(options: Mapping[str, str], shared: Mapping[str, str], encrypt: Sequence[tuple[str, str, str]],
                  configmap: bool = True) -> dict[str, str]:
    """The options `alluxio fs mount` gets for one Dataset mount: sharedOptions, then the
    mount's options over them, then each (name, secret, key) of sharedEncryptOptions and the
    mount's encryptOptions. With configmap storage an encryptOption becomes the path of its
    Secret file and overwrites a plain option of that name; otherwise its value is read (shown
    here as "<value of secret/key>") and a name already set raises OptionSetTwice."""
    out = {**shared, **options}
    twice = [] if configmap else encrypt_options_set_twice(out, [name for name, _, _ in encrypt])
    if twice:
        raise OptionSetTwice(f"the option {encrypt[twice[0]][0]} is set more than one times")
    for name, secret, key in encrypt:
        out[name] = f"{SECRETS_DIR}/{secret}/{key}" if configmap else f"<value of {secret}/{key}>"
    return out


# -- Fluid's own defaults for an AlluxioRuntime --------------------------------------------------
# pkg/ddc/alluxio/transform_optimization.go, the same at every version versions.py lists.

_OPTIMIZE = "pkg/ddc/alluxio/transform_optimization.go"
_TRANSFORM = "pkg/ddc/alluxio/transform.go"
LIBFUSE_VERSION = "alluxio.fuse.jnifuse.libfuse.version"
JNI_FUSE = "alluxio.fuse.jnifuse.enabled"
JOURNAL_TYPE = "alluxio.master.journal.type"
# Properties Fluid sets when the runtime does not (setDefaultProperties), for one master and a
# Dataset that is not all HTTP; default_properties() adds what depends on the runtime.
DEFAULT_PROPERTIES: Mapping[str, str] = MappingProxyType({
    JNI_FUSE: "true",
    LIBFUSE_VERSION: "3",
    "alluxio.master.metastore": "ROCKS",
    "alluxio.user.update.file.accesstime.disabled": "true",
    "alluxio.user.client.cache.enabled": "false",
    "alluxio.master.metastore.inode.cache.max.size": "10000000",
    "alluxio.master.journal.log.size.bytes.max": "500MB",
    "alluxio.master.metadata.sync.concurrency.level": "128",
    "alluxio.master.metadata.sync.executor.pool.size": "128",
    "alluxio.master.metadata.sync.ufs.prefetch.pool.size": "128",
    "alluxio.user.block.worker.client.pool.min": "512",
    "alluxio.fuse.debug.enabled": "false",
    "alluxio.user.ufs.block.read.location.policy": "alluxio.client.block.policy.LocalFirstPolicy",
    "alluxio.user.block.write.location.policy.class": "alluxio.client.block.policy.LocalFirstAvoidEvictionPolicy",
    "alluxio.worker.allocator.class": "alluxio.worker.block.allocator.MaxFreeAllocator",
    "alluxio.user.block.size.bytes.default": "16MB",
    "alluxio.user.streaming.reader.chunk.size.bytes": "32MB",
    "alluxio.user.local.reader.chunk.size.bytes": "32MB",
    "alluxio.worker.network.reader.buffer.size": "32MB",
    "alluxio.user.metrics.collection.enabled": "true",
    "alluxio.master.rpc.executor.max.pool.size": "1024",
    "alluxio.master.rpc.executor.core.pool.size": "128",
    "alluxio.user.file.passive.cache.enabled": "false",
    "alluxio.user.block.avoid.eviction.policy.reserved.size.bytes": "2GB",
    "alluxio.master.journal.folder": "/journal",
    JOURNAL_TYPE: "UFS",
    "alluxio.user.block.master.client.pool.gc.threshold": "10min",
    "alluxio.user.file.master.client.threads": "1024",
    "alluxio.user.block.master.client.threads": "1024",
    "alluxio.user.file.create.ttl.action": "FREE",
    "alluxio.user.file.readtype.default": "CACHE",
    "alluxio.security.stale.channel.purge.interval": "365d",
    "alluxio.user.metadata.cache.enabled": "true",
    "alluxio.user.metadata.cache.expiration.time": "10min",
    "alluxio.user.metadata.cache.max.size": "6000000",
    "alluxio.fuse.cached.paths.max": "1000000",
    "alluxio.job.worker.threadpool.size": "32",
    "alluxio.user.worker.list.refresh.interval": "2min",
    "alluxio.user.logging.threshold": "1000ms",
    "alluxio.fuse.logging.threshold": "1000ms",
    "alluxio.worker.block.master.client.pool.size": "1024",
    "alluxio.job.master.finished.job.retention.time": "30sec",
    "alluxio.underfs.object.store.breadcrumbs.enabled": "false",
})
HTTP_PROPERTIES: Mapping[str, str] = MappingProxyType({  # optimizeDefaultPropertiesAndFuseForHTTP
    "alluxio.user.block.size.bytes.default": "256MB",
    "alluxio.user.streaming.reader.chunk.size.bytes": "256MB",
    "alluxio.user.local.reader.chunk.size.bytes": "256MB",
    "alluxio.worker.network.reader.buffer.size": "256MB",
    "alluxio.user.streaming.data.timeout": "300sec",
})
# Fluid's JVM options for a component the runtime gives none (optimizeDefaultForMaster,
# optimizeDefaultForWorker, optimizeDefaultFuse); given options replace them.
DEFAULT_JVM: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "master": ("-Xmx16G", "-XX:+UnlockExperimentalVMOptions"),
    "worker": ("-Xmx12G", "-XX:+UnlockExperimentalVMOptions", "-XX:MaxDirectMemorySize=32g"),
    "fuse": ("-Xmx16G", "-Xms16G", "-XX:+UseG1GC", "-XX:MaxDirectMemorySize=32g", "-XX:+UnlockExperimentalVMOptions"),
})
# FUSE options only libfuse 2 accepts: Fluid uses them only with libfuse version "2"
# (optimizeDefaultFuse, Fluid #3235 "Adapt to libfuse 3": libfuse 3 has no nonempty).
LIBFUSE2_ONLY = ("nonempty",)
FUSE_OPTS = "--fuse-opts="
NEW_FUSE_ARGS_FROM = (2, 8, 0)  # transform_fuse.go newFuseArgsVersion: the mount path moves into the args
# The FUSE image tag of a runtime without fuse.imageTag: parseFuseImage reads ALLUXIO_FUSE_IMAGE_ENV,
# which Fluid's chart sets from runtime.alluxio.fuse (alluxio-dev:2.9.0); DefaultAlluxioFuseImage's
# older tag is used only where that variable is unset, which no chart install does.
DEFAULT_FUSE_TAG = fact("2.9.0", source("pkg/ddc/alluxio/utils.go", "parseFuseImage"),
                        source("charts/fluid/fluid/templates/controller/alluxioruntime_controller.yaml",
                               "ALLUXIO_FUSE_IMAGE_ENV"),
                        source("charts/fluid/fluid/values.yaml", "alluxio-dev"))


@decided_by(source(_OPTIMIZE, "optimizeDefaultProperties"), source(_OPTIMIZE, "setDefaultProperties"),
            source(_OPTIMIZE, "optimizeDefaultPropertiesAndFuseForHTTP"))
def default_properties(given: Mapping[str, str], masters: int = 1, read_only: bool = True,
                       one_cache_path: bool = False, http_only: bool = False) -> dict[str, str]:
    """The properties Fluid ends with: the given ones, then each default the runtime did not set."""
    out = dict(given)
    defaults = dict(DEFAULT_PROPERTIES)
    if masters > 1:
        defaults[JOURNAL_TYPE] = "EMBEDDED"
    if read_only and one_cache_path:
        defaults["alluxio.user.direct.memory.io.enabled"] = "true"
    if http_only:
        defaults.update(HTTP_PROPERTIES)
    for key, value in defaults.items():
        out.setdefault(key, value)
    return out


@decided_by(source(_OPTIMIZE, "optimizeDefaultFuse"))
def default_fuse_opts(read_only: bool, libfuse: str | None) -> str:
    """Fluid's --fuse-opts when the runtime gives no fuse.args (libfuse: the runtime's
    alluxio.fuse.jnifuse.libfuse.version property; only "2" changes the set)."""
    if libfuse == "2":
        return ("kernel_cache,ro,max_read=131072,attr_timeout=7200,entry_timeout=7200,nonempty" if read_only
                else "kernel_cache,rw,max_read=131072")
    return "kernel_cache,ro,attr_timeout=7200,entry_timeout=7200" if read_only else "kernel_cache,rw"


@decided_by(source(_OPTIMIZE, "optimizeDefaultFuse"))
def optimized_fuse_args(given: Sequence[str], read_only: bool, libfuse: str | None, mount_path_in_args: bool,
                        mount_path: str) -> list[str]:
    """optimizeDefaultFuse: the runtime's fuse.args as given (they replace Fluid's whole
    default set), else Fluid's; the mount path and "/" appended for images that take them."""
    args = list(given) or ["fuse", "--fuse-opts=" + default_fuse_opts(read_only, libfuse)]
    return [*args, mount_path, "/"] if mount_path_in_args else args


@decided_by(source("pkg/ddc/alluxio/transform_fuse.go", "checkIfNewFuseArgVersion"), *DEFAULT_FUSE_TAG.sources)
def mount_path_in_args(image_tag: str) -> bool:
    """Whether Fluid appends the mount path and "/" to the FUSE args (checkIfNewFuseArgVersion): FUSE
    images 2.8.0 and later; "" is the runtime without fuse.imageTag (DEFAULT_FUSE_TAG)."""
    version = _tag_version(image_tag or DEFAULT_FUSE_TAG.value)
    return version is not None and version >= NEW_FUSE_ARGS_FROM


def _tag_version(tag: str) -> tuple[int, ...] | None:
    found = re.match(r"v?(\d+(?:\.\d+)+)", tag.lower().removeprefix("release-"))
    return tuple(int(p) for p in found.group(1).split(".")) if found else None


@decided_by(source("pkg/ddc/alluxio/transform_fuse.go", "transformFuse"),
            source("pkg/ddc/alluxio/transform_fuse.go", "checkIfNewFuseArgVersion"),
            source("pkg/utils/version/version.go", "RuntimeVersion"),
            *DEFAULT_FUSE_TAG.sources)
def fuse_args(given: Sequence[str], read_only: bool, libfuse: str | None, image_tag: str = "",
              mount_path: str = "", owner: tuple[int, int] | None = None) -> tuple[list[str], bool]:
    """(the FUSE container's args, whether the mount path goes in the MOUNT_POINT env instead):
    optimizeDefaultFuse's args with the mount path for fuse images 2.8.0 and later (image_tag "":
    the chart's DEFAULT_FUSE_TAG, which is), then uid/gid of the Dataset owner and allow_other
    (unless an allow_ option is there) added to the second arg."""
    new = mount_path_in_args(image_tag)
    args = optimized_fuse_args(given, read_only, libfuse, new, mount_path)
    if len(args) > 1 and owner is not None:
        args[1] += f",uid={owner[0]},gid={owner[1]}"
    if len(args) > 1 and "allow_" not in args[1]:
        args[1] += ",allow_other"
    return args, not new


def _fuse_opts_at(args: list[Any]) -> int | None:
    return next((i for i, a in enumerate(args) if isinstance(a, str) and a.startswith(FUSE_OPTS)), None)


def _finish(ctx: Context, tree: Tree) -> Tree:
    """fuse.args replace Fluid's default set, ro or rw included (optimizeDefaultFuse), so a
    profile's or the spec's args get the mode Fluid would choose for the Dataset's access
    modes, when they name neither."""
    fuse = tree.get("fuse")
    args = fuse.get("args") if isinstance(fuse, dict) else None
    at = _fuse_opts_at(args) if isinstance(args, list) else None
    if not isinstance(args, list) or at is None:
        return tree
    opts = args[at][len(FUSE_OPTS):].split(",")
    if {"ro", "rw"} & set(opts):
        return tree
    mode = "ro" if read_only_dataset(ctx.access_modes()) else "rw"
    opts.insert(1 if opts[:1] == ["kernel_cache"] else 0, mode)  # where Fluid's own sets have it
    args[at] = FUSE_OPTS + ",".join(o for o in opts if o)
    return tree


def _fuse_properties(entry: Entry) -> dict[str, str]:
    """The FUSE's properties as Fluid ends with them, for the keys whose default depends on the
    runtime's own properties alone (JNI_FUSE, LIBFUSE_VERSION): the runtime's properties with
    Fluid's defaults (default_properties), then fuse.properties over them (transformFuse)."""
    fuse = mapping(fuse_spec(entry.obj).get("properties"))
    return {**default_properties(_strings(entry.spec.get("properties"))), **_strings(fuse)}


def _strings(properties: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in mapping(properties).items()}


def _libfuse2_options_need_libfuse2(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    libfuse = _fuse_properties(entry)[LIBFUSE_VERSION]
    if libfuse == "2":
        return
    for i, opt in fuse_options(entry.obj):
        if opt in LIBFUSE2_ONLY:
            yield Finding(("spec", "fuse", "args", i),
                          f"{opt} is a libfuse 2 option, but Fluid runs the JNI FUSE on libfuse {libfuse} "
                          f"({LIBFUSE_VERSION} defaults to {DEFAULT_PROPERTIES[LIBFUSE_VERSION]}), which refuses "
                          f'it and the mount fails; set properties {LIBFUSE_VERSION}: "2" or drop {opt}')


_MOUNT_PATH = "<mount path>"  # where Fluid mounts the FUSE; only its place in the args matters here


def _second_arg_altered(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """Fluid appends its own FUSE options to the second FUSE arg, whatever it is (fuse_args: the
    Dataset owner's uid and gid, and allow_other unless it names an allow_ option); after a single
    given arg, that is the mount path it adds for FUSE images 2.8.0 and later."""
    fuse = fuse_spec(entry.obj)
    given, tag = fuse.get("args"), fuse.get("imageTag")
    if not isinstance(given, list) or not given or not all(isinstance(a, str) for a in given):
        return
    tag = tag if isinstance(tag, str) else ""
    plain = optimized_fuse_args(given, True, None, mount_path_in_args(tag), _MOUNT_PATH)
    if len(plain) < 2 or plain[1].startswith(FUSE_OPTS):
        return
    dataset = index.bound_dataset(entry)
    owner = dataset.spec.get("owner") if dataset is not None else None
    uid, gid = mapping(owner).get("uid"), mapping(owner).get("gid")
    ids = (uid, gid) if isinstance(uid, int) and isinstance(gid, int) and not isinstance(uid, bool) \
        and not isinstance(gid, bool) else None
    if owner is not None and ids is None:
        return  # an owner without integer uid and gid: the CRD refuses it (both are required)
    started, _ = fuse_args(given, True, None, tag, _MOUNT_PATH, owner=ids)
    appended = started[1][len(plain[1]):]
    if not appended:
        return
    if len(given) == 1:
        yield Finding(("spec", "fuse", "args"),
                      f"with one fuse.arg, the second FUSE arg is the mount path Fluid adds for FUSE images 2.8.0 and "
                      f"later (tag {tag or DEFAULT_FUSE_TAG.value}), and Fluid appends {appended!r} to it: the FUSE "
                      f"mounts where no pod reads. Give {FUSE_OPTS}... as the second arg")
        return
    yield Finding(("spec", "fuse", "args", 1),
                  f"Fluid appends {appended!r} to the second of fuse.args, whatever it is, and this one is not "
                  f"{FUSE_OPTS}...: the FUSE mounts without those options and gets this arg changed. Put "
                  f"{FUSE_OPTS}... second, where Fluid's own args have it")


def _ufs_journal_with_several_masters(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    # the master runs with the runtime's properties, then master.properties over them (the chart's
    # ALLUXIO_MASTER_JAVA_OPTS); fuse.properties reach the FUSE only
    master = mapping(entry.spec.get("master"))
    masters, own = master.get("replicas"), mapping(master.get("properties"))
    if not isinstance(masters, int) or masters < 2:
        return
    journal = own.get(JOURNAL_TYPE, default_properties(_strings(entry.spec.get("properties")), masters=masters)[
        JOURNAL_TYPE])
    if journal == "UFS":
        path = ("spec", "master", "properties", JOURNAL_TYPE) if JOURNAL_TYPE in own else \
            ("spec", "properties", JOURNAL_TYPE)
        yield Finding(path, f"{masters} masters with a UFS journal: Fluid itself chooses the EMBEDDED journal "
                            "(Raft, with the journal addresses it sets) for more than one master, and a UFS journal "
                            "needs ZooKeeper for leader election; set EMBEDDED or leave the property to Fluid")


_BOUND_DATASET = """\
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: default}
spec:
  replicas: 1
"""
# An emptyDir level whose volumeSource.emptyDir has no medium: getMediumTypeFromVolumeSource makes ""
# its medium type (transformCommonPart joins one per path with ','), and the worker chart makes a volume
# only for a medium type, naming each path's volume of several '<part lowercased>-<i>' (both commits).
_NO_MEDIUM = (source(_TRANSFORM, "getMediumTypeFromVolumeSource"),
              source(_TRANSFORM, "transformCommonPart", note="MediumType: the medium type once per path, joined "
                                                             "with ','"),
              source("charts/alluxio/templates/_helpers.tpl", "alluxio.worker.tieredstoreVolumes",
                     note="no volume without a mediumtype; several paths: one volume per part named "
                          "'<part>-<i>'"),
              source("charts/alluxio/templates/_helpers.tpl", "alluxio.worker.tieredstoreVolumeMounts"))


def _emptydir_without_medium(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    for i, level in enumerate(levels_of(entry.obj)):
        if not isinstance(level, dict) or level.get("volumeType") != "emptyDir":
            continue
        empty = mapping(level.get("volumeSource")).get("emptyDir")
        if not isinstance(empty, dict) or empty.get("medium"):
            continue
        paths = str(level.get("path", "")).split(",")
        said = (f"Fluid takes this emptyDir's medium (none) as the tier's medium type instead of "
                f"{level.get('mediumtype')} ({_NO_MEDIUM[0].cite()})")
        fix = ("Leave volumeSource out (the chart makes the emptyDir from mediumtype: Memory for MEM, node disk "
               "for SSD or HDD), or give the emptyDir medium: Memory")
        if len(paths) > 1:
            names = ", ".join(f"'-{j}'" for j in range(len(paths)))
            yield Finding(("spec", "tieredstore", "levels", i, "volumeSource", "emptyDir"),
                          f"{said}, once per path: the worker chart names each path's volume after it, {names}, "
                          "which is no valid volume name, so Kubernetes refuses the worker StatefulSet and the "
                          f"runtime gets no workers ({_NO_MEDIUM[2].cite()}). Leave volumeSource out (the chart "
                          "makes the emptyDirs from mediumtype: Memory for MEM, node disk for SSD or HDD)")
        else:
            yield Finding(("spec", "tieredstore", "levels", i, "volumeSource", "emptyDir"),
                          f"{said}, and the worker chart makes no volume for a tier without one "
                          f"({_NO_MEDIUM[2].cite()}): the tier's cache is written into the worker container's own "
                          f"filesystem under {paths[0]}, on no emptyDir and with no size limit. {fix}")


RULES = (
    Rule(
        "FG137", "error", "an Alluxio emptyDir tier whose volumeSource.emptyDir has no medium gets no cache volume",
        _emptydir_without_medium,
        kinds=frozenset({KIND}),
        description="For a tier on an emptyDir with `volumeSource.emptyDir`, Fluid's Alluxio engine takes that "
                    "emptyDir's medium as the tier's medium type instead of `mediumtype`. Without a medium "
                    "(`emptyDir: {}`, a node-disk emptyDir in Kubernetes) the medium type is empty, and the worker "
                    "chart makes a volume only for a tier with one: a tier of one path gets no volume at all, its "
                    "cache written into the worker container's own filesystem; a tier of several paths gets "
                    "volumes named `-0`, `-1`, which Kubernetes refuses, so the worker StatefulSet is never "
                    "created. Leaving `volumeSource` out makes the emptyDir from `mediumtype` (Memory for MEM, "
                    "node disk for SSD and HDD).",
        sources=_NO_MEDIUM,
        elsewhere=("Kubernetes: a volume name is a DNS-1123 label (lower-case alphanumerics and '-', starting "
                   "and ending with an alphanumeric)",),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: default}
spec:
  tieredstore:
    levels:
      - mediumtype: SSD
        volumeType: emptyDir
        volumeSource: {emptyDir: {}}
        path: /mnt/cache
        quota: 100Gi
""", "The tier's medium type becomes empty: the worker gets no volume for it, and caches in its own filesystem.")),
    Rule(
        "FG108", "warning", "kernel_cache is only supported by the JNI-based AlluxioFuse", _kernel_cache_needs_jni,
        kinds=frozenset({KIND}),
        description="The `kernel_cache` FUSE option is one the JNI-based AlluxioFuse supports. Fluid enables "
                    'it (`alluxio.fuse.jnifuse.enabled: "true"`) unless the runtime\'s properties set that '
                    "property, so the rule reports kernel_cache in `fuse.args` only where the runtime's or the "
                    "FUSE's properties turn the JNI FUSE off.",
        sources=(source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultFuse"),
                 source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultProperties")),
        elsewhere=("Alluxio documentation, AlluxioFuse deep learning tuning guide: the JNI-based AlluxioFuse "
                   "supports kernel_cache",),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: default}
spec:
  properties: {alluxio.fuse.jnifuse.enabled: "false"}
  fuse:
    args: [fuse, "--fuse-opts=kernel_cache,ro,attr_timeout=7200,entry_timeout=7200"]
""", "kernel_cache is asked of a FUSE that is not the JNI one.")),
    Rule("FG132", "warning", "a UFS journal with several Alluxio masters; Fluid chooses EMBEDDED for them",
         _ufs_journal_with_several_masters,
         description="Fluid sets alluxio.master.journal.type to UFS for one master and EMBEDDED for more, "
                     "with the embedded journal addresses of every master; a runtime that pins UFS with "
                     "several masters gets no leader election (a UFS journal needs ZooKeeper).",
         sources=(source(_OPTIMIZE, "optimizeDefaultProperties"), source(_OPTIMIZE, "setPortProperties"),
                  source("charts/alluxio/templates/config/alluxio-conf.yaml", "ALLUXIO_MASTER_JAVA_OPTS")),
         kinds=frozenset({KIND}),
         example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: default}
spec:
  master: {replicas: 3}
  properties: {alluxio.master.journal.type: UFS}
""", "Three masters on a UFS journal have no leader election; Fluid itself would choose EMBEDDED.")),
    Rule("FG142", "warning", "Fluid appends FUSE options to the second of an AlluxioRuntime's fuse.args",
         _second_arg_altered,
         description="Fluid's AlluxioRuntime FUSE args are `fuse --fuse-opts=...`, and Fluid adds the Dataset "
                     "owner's uid and gid, and allow_other unless an allow_ option is there, to the second "
                     "FUSE arg, whatever it is. When that arg is not the --fuse-opts one, the FUSE gets it "
                     "with those options glued on, and its mount has none of them; after a single given arg it is "
                     "the mount path, which Fluid puts after the args for FUSE images 2.8.0 and later (the chart's "
                     "default image among them), and the FUSE then mounts where no pod reads.",
         sources=sources_of_function(fuse_args),
         kinds=frozenset({KIND}),
         example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: default}
spec:
  fuse:
    args: [fuse, --fuse-opts, "kernel_cache,ro"]
""", "--fuse-opts and its value as two args: Fluid glues allow_other onto --fuse-opts itself.")),
    Rule("FG133", "error", "libfuse 2 FUSE options need alluxio.fuse.jnifuse.libfuse.version 2",
         _libfuse2_options_need_libfuse2,
         description="Fluid runs the JNI FUSE on libfuse 3 unless the runtime's properties say 2, and puts "
                     "nonempty in its own FUSE options only for libfuse 2: libfuse 3 refuses it, so the "
                     "FUSE pod never mounts.",
         sources=(source(_OPTIMIZE, "optimizeDefaultProperties"), source(_OPTIMIZE, "optimizeDefaultFuse")),
         elsewhere=("Fluid #3235 (Adapt to libfuse 3); libfuse 3 removed the nonempty mount option",),
         kinds=frozenset({KIND}),
         example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: default}
spec:
  fuse:
    args: [fuse, "--fuse-opts=kernel_cache,ro,nonempty"]
""", "nonempty is a libfuse 2 option, but the JNI FUSE runs on libfuse 3 unless the properties say 2.")),
)


# transformResourcesForFuse: a FUSE memory limit given as 0 becomes 50Gi (its TODO: "it should be xmx +
# direct memory"), beside the default FUSE JVM of optimizeDefaultFuse (DEFAULT_JVM["fuse"]).
FUSE_ZERO_MEMORY_LIMIT = fact("50Gi", source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForFuse"))


def _heap_and_direct(jvm_options: Sequence[str]) -> int | None:
    sizes = [jvm_flag(list(jvm_options), flag) for flag in ("-Xmx", "-XX:MaxDirectMemorySize=")]
    parsed = [java_size_to_bytes(found[1]) if found else None for found in sizes]
    return None if None in parsed else sum(p for p in parsed if p is not None)


@decided_by(source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForFuse"),
            source(_OPTIMIZE, "optimizeDefaultFuse"))
def fuse_memory_limit(jvm_options: Sequence[str]) -> int | None:
    """A FUSE memory limit (bytes) for these JVM options by Fluid's own pairing: the limit it sets for a
    zero one (50Gi) is its default FUSE JVM's heap + direct memory (16Gi + 32Gi) + 2Gi for the JVM's own
    memory; the same 2Gi over the options' heap + direct memory. Fluid adds MEM tiers on top. None: the
    options name no heap or no direct memory size."""
    given, default = _heap_and_direct(jvm_options), _heap_and_direct(DEFAULT_JVM["fuse"])
    if given is None or default is None:
        return None
    return given + int(to_bytes(FUSE_ZERO_MEMORY_LIMIT.value)) - default


# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
# The same at every version versions.py lists unless a source says otherwise.
_RES = "pkg/ddc/alluxio/transform_resources.go"
_FUSE = "pkg/ddc/alluxio/transform_fuse.go"
# The FUSE mounts only the tiers not on an emptyDir (charts/alluxio/templates/_helpers.tpl
# alluxio.fuse.tieredstoreVolumeMounts, both commits), yet transformResourcesForFuse adds every MEM
# tier; without a memory request Kubernetes takes the limit as the request.
FUSE_RESOURCES = FieldRead(
    "fuse.resources", CONDITION, source(_RES, "transformResourcesForFuse"), go="Spec.Fuse.Resources",
    note="applied only when limits.memory is set: without it the FUSE container gets no limits and no requests "
         "at all; with it Fluid adds the quota of every MEM cache tier to that memory limit (a zero limit "
         "becomes 50Gi plus the tiers), an emptyDir tier too, which the FUSE never mounts; without a memory "
         "request Kubernetes takes that raised limit as the FUSE pod's request",
    evidence=(("charts/alluxio/templates/_helpers.tpl", '{{- if ne .type "emptyDir" }}', True),),
    instead="give limits.memory too", when=memory_limit_given("fuse"), adds_mem_tier=True)
FIELDS = Fields(
    package="pkg/ddc/alluxio", types="api/v1alpha1/alluxioruntime_types.go", base_var="alluxioRuntime",
    runtime=(
        FieldRead("runAs", READ, source("pkg/ddc/alluxio/transform_init_users.go", "transformInitUsers"),
                  go="Spec.RunAs", note="the uid and gid of the cache processes, and the users the init "
                                        "container creates"),
        FieldRead("master.replicas", READ, source(_TRANSFORM, "transformMasters"), go="Spec.Master.Replicas",
                  note="0 or left out: 1; above 1, Fluid chooses the EMBEDDED journal (FG132)"),
        FieldRead("master.networkMode", READ, source(_TRANSFORM, "transformMasters"), go="Spec.Master.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("worker.networkMode", READ, source(_TRANSFORM, "transformWorkers"), go="Spec.Worker.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("fuse.networkMode", READ, source(_FUSE, "transformFuse"), go="Spec.Fuse.NetworkMode",
                  note="left out: host network (IsHostNetwork)"),
        FieldRead("management.metadataSyncPolicy", OWN_DEFAULT, source("pkg/ddc/alluxio/metadata.go",
                                                                       "shouldSyncMetadata"),
                  go="Spec.RuntimeManagement.MetadataSyncPolicy", note="autoSync left out: on (AutoSyncEnabled)"),
        FieldRead("fuse.nodeSelector", READ, source(_FUSE, "transformFuse"), go="Spec.Fuse.NodeSelector"),
        fuse_clean_policy(),
        FieldRead("properties", MERGED, source(_TRANSFORM, "transformCommonPart"), go="Spec.Properties",
                  note="master.properties, worker.properties and fuse.properties are merged over them for "
                       "every component (transformMasters, transformWorkers, transformFuse); Fluid's own "
                       "defaults fill the rest (optimizeDefaultProperties)"),
        FieldRead("master.properties", MERGED, source(_TRANSFORM, "transformMasters"), go="Spec.Master.Properties",
                  note="merged over properties, for every component"),
        FieldRead("worker.properties", MERGED, source(_TRANSFORM, "transformWorkers"), go="Spec.Worker.Properties",
                  note="merged over properties, for every component"),
        FieldRead("fuse.properties", MERGED, source(_FUSE, "transformFuse"), go="Spec.Fuse.Properties",
                  note="merged over properties, for every component"),
        FieldRead("master.jvmOptions", READ, source(_OPTIMIZE, "optimizeDefaultForMaster"),
                  go="Spec.Master.JvmOptions", note="replace Fluid's default master JVM options"),
        FieldRead("worker.jvmOptions", READ, source(_OPTIMIZE, "optimizeDefaultForWorker"),
                  go="Spec.Worker.JvmOptions", note="replace Fluid's default worker JVM options"),
        FieldRead("fuse.jvmOptions", READ, source(_OPTIMIZE, "optimizeDefaultFuse"), go="Spec.Fuse.JvmOptions",
                  note="replace Fluid's default FUSE JVM options"),
        FieldRead("fuse.args", READ, source(_OPTIMIZE, "optimizeDefaultFuse"), go="Spec.Fuse.Args",
                  note="replace Fluid's default FUSE args, ro or rw included (FG131)"),
        FieldRead("fuse.env", READ, source(_FUSE, "transformFuse"), go="Spec.Fuse.Env"),
        FieldRead("master.resources", READ, source(_RES, "transformResourcesForMaster"), go="Spec.Master.Resources"),
        FieldRead("worker.resources", MERGED, source(_RES, "transformResourcesForWorker"), go="Spec.Worker.Resources",
                  note="a MEM cache tier raises the memory request to its quota, and must fit the memory limit"),
        FUSE_RESOURCES,
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("master.env", READ, source("pkg/ddc/alluxio/transform.go", "transformMasters"), go="Spec.Master.Env"),
        FieldRead("master.nodeSelector", READ, source("pkg/ddc/alluxio/transform.go", "transformMasterSelector"),
                  go="Spec.Master.NodeSelector"),
        FieldRead("master.podMetadata", READ, source("pkg/ddc/alluxio/transform.go", "transformPodMetadata"),
                  go="Spec.Master.PodMetadata"),
        FieldRead("master.volumeMounts", READ, source("pkg/ddc/alluxio/transform_volumes.go", "transformMasterVolumes"),
                  go="Spec.Master.VolumeMounts"),
        FieldRead("master.imagePullSecrets", READ, source("pkg/ddc/alluxio/transform.go", "transformMasters"),
                  go="Spec.Master.ImagePullSecrets"),
        FieldRead("worker.env", READ, source("pkg/ddc/alluxio/transform.go", "transformWorkers"), go="Spec.Worker.Env"),
        FieldRead("worker.nodeSelector", READ, source("pkg/ddc/alluxio/transform.go", "transformWorkers"),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.podMetadata", READ, source("pkg/ddc/alluxio/transform.go", "transformPodMetadata"),
                  go="Spec.Worker.PodMetadata"),
        FieldRead("worker.volumeMounts", READ, source("pkg/ddc/alluxio/transform_volumes.go", "transformWorkerVolumes"),
                  go="Spec.Worker.VolumeMounts"),
        FieldRead("worker.imagePullSecrets", READ, source("pkg/ddc/alluxio/transform.go", "transformWorkers"),
                  go="Spec.Worker.ImagePullSecrets"),
        FieldRead("fuse.podMetadata", READ, source("pkg/ddc/alluxio/transform.go", "transformPodMetadata"),
                  go="Spec.Fuse.PodMetadata"),
        FieldRead("fuse.volumeMounts", READ, source("pkg/ddc/alluxio/transform_volumes.go", "transformFuseVolumes"),
                  go="Spec.Fuse.VolumeMounts"),
        FieldRead("fuse.imagePullSecrets", READ, source("pkg/ddc/alluxio/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.ImagePullSecrets"),
        FieldRead("fuse.image", READ, source("pkg/ddc/alluxio/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.Image"),
        FieldRead("fuse.imageTag", READ, source("pkg/ddc/alluxio/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.ImageTag"),
        FieldRead("fuse.imagePullPolicy", READ, source("pkg/ddc/alluxio/transform_fuse.go", "transformFuse"),
                  go="Spec.Fuse.ImagePullPolicy"),
        FieldRead("jobMaster.env", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.Env"),
        FieldRead("jobMaster.nodeSelector", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.NodeSelector"),
        FieldRead("jobMaster.podMetadata", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.PodMetadata"),
        FieldRead("jobMaster.volumeMounts", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.VolumeMounts"),
        FieldRead("jobMaster.imagePullSecrets", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.ImagePullSecrets"),
        FieldRead("jobMaster.resources", READ,
                  source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForMaster"),
                  go="Spec.JobMaster.Resources"),
        FieldRead("jobMaster.jvmOptions", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.JvmOptions"),
        FieldRead("jobMaster.properties", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.Properties"),
        FieldRead("jobMaster.networkMode", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobMaster.NetworkMode"),
        FieldRead("jobWorker.env", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.Env"),
        FieldRead("jobWorker.nodeSelector", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.NodeSelector"),
        FieldRead("jobWorker.podMetadata", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.PodMetadata"),
        FieldRead("jobWorker.volumeMounts", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.VolumeMounts"),
        FieldRead("jobWorker.imagePullSecrets", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.ImagePullSecrets"),
        FieldRead("jobWorker.resources", READ,
                  source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForWorker"),
                  go="Spec.JobWorker.Resources"),
        FieldRead("jobWorker.jvmOptions", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.JvmOptions"),
        FieldRead("jobWorker.properties", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.Properties"),
        FieldRead("jobWorker.networkMode", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.JobWorker.NetworkMode"),
        FieldRead("apiGateway.env", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.Env"),
        FieldRead("apiGateway.nodeSelector", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.NodeSelector"),
        FieldRead("apiGateway.podMetadata", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.PodMetadata"),
        FieldRead("apiGateway.volumeMounts", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.VolumeMounts"),
        FieldRead("apiGateway.imagePullSecrets", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.ImagePullSecrets"),
        FieldRead("apiGateway.resources", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.Resources"),
        FieldRead("apiGateway.jvmOptions", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.JvmOptions"),
        FieldRead("apiGateway.properties", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.Properties"),
        FieldRead("apiGateway.networkMode", IGNORED, source("pkg/ddc/alluxio/transform.go", "transform"),
                  go="Spec.APIGateway.NetworkMode"),
        FieldRead("podMetadata", READ, source("pkg/ddc/alluxio/transform.go", "transformPodMetadata"),
                  go="Spec.PodMetadata"),
        FieldRead("volumes", READ, source("pkg/ddc/alluxio/transform_volumes.go", "transformFuseVolumes"),
                  go="Spec.Volumes"),
        FieldRead("imagePullSecrets", READ, source("pkg/ddc/alluxio/transform.go", "transformCommonPart"),
                  go="Spec.ImagePullSecrets"),
        FieldRead("disablePrometheus", READ, source("pkg/ddc/alluxio/transform.go", "transformCommonPart"),
                  go="Spec.DisablePrometheus"),
        FieldRead("initUsers", READ, source("pkg/ddc/alluxio/transform_init_users.go", "transformInitUsers"),
                  go="Spec.InitUsers"),
        FieldRead("jvmOptions", READ, source("pkg/ddc/alluxio/transform.go", "transformCommonPart"),
                  go="Spec.JvmOptions"),
        FieldRead("hadoopConfig", READ, source("pkg/ddc/alluxio/transform_hadoop_config.go", "transformHadoopConfig"),
                  go="Spec.HadoopConfig"),
    ),
    dataset=(
        FieldRead("owner", READ, source(_FUSE, "transformFuse"), go="Spec.Owner",
                  note="its uid and gid are added to the FUSE mount options"),
        FieldRead("tolerations", READ, source(_RES, "transformTolerations"), go="Spec.Tolerations",
                  note="every component's pods tolerate them"),
        dataset_node_affinity("pkg/ddc/alluxio", "alluxio"),
        dataset_placement("pkg/ddc/alluxio"),
        FieldRead("sharedOptions", READ, source(_TRANSFORM, "transformCommonPart"), go="Spec.SharedOptions",
                  note="under each mount's options"),
    ),
)



_HELPERS = "charts/alluxio/templates/_helpers.tpl"


@decided_by(source(_TRANSFORM, "getMediumTypeFromVolumeSource"), source(_TRANSFORM, "transformCommonPart"),
            source(_HELPERS, "alluxio.worker.tieredstoreVolumes"))
def worker_memory_emptydirs(levels: Sequence[Any]) -> list[Tree]:
    """The levels the worker chart makes Memory emptyDirs. A level on an emptyDir with a
    volumeSource.emptyDir takes that emptyDir's medium as its medium type, else its mediumtype
    (getMediumTypeFromVolumeSource), one per path joined with ',' (transformCommonPart). The chart
    makes no volume for an empty medium type; one path's volume has medium Memory for MEM, none for
    SSD or HDD, else the medium type as written (so Memory stays Memory); each path of several gets
    Memory for MEM only."""
    memory = []
    for level in levels:
        if not isinstance(level, dict) or level.get("volumeType") != "emptyDir":
            continue
        empty = mapping(level.get("volumeSource")).get("emptyDir")
        medium = mapping(empty).get("medium", "") if isinstance(empty, dict) else level.get("mediumtype")
        one_path = "," not in str(level.get("path", ""))
        if medium == "MEM" or (medium == "Memory" and one_path):
            memory.append(level)
    return memory


ENGINE = Engine(
    name="alluxio",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataBackup", "DataProcess"}),
    mounts=Mounts(
        # Anything Alluxio's UFS layer understands; these are the documented ones.
        schemes=frozenset({"oss", "s3", "s3a", "hdfs", "gs", "cos", "obs", "http", "https", "pvc", "local"}),
        documented_schemes=True,
        storage=STORAGE,
        # the runtime's properties become alluxio-site.properties, which Alluxio's UFS reads too
        options_in_properties=source("pkg/ddc/alluxio/transform.go", "transformCommonPart"),
        alluxio_root=True,
        encrypt_config_storage="ALLUXIO_MOUNT_CONFIG_STORAGE",
        sources={"encrypt_config_storage": (*MOUNT_CONFIG_STORAGE.sources,
                                            source("pkg/ddc/alluxio/const.go", "MountConfigStorage"),
                                            source("pkg/ddc/alluxio/ufs_internal.go", "genUFSMountOptions",
                                                   note="configmap: each encryptOption becomes its Secret "
                                                        "file's path; otherwise genEncryptOptions reads it"),
                                            source("charts/fluid/fluid/templates/controller/"
                                                   "alluxioruntime_controller.yaml", "ALLUXIO_MOUNT_CONFIG_STORAGE")),
                 "alluxio_root": (source("pkg/ddc/alluxio/transform.go", "transformCommonPart",
                                         note="the root UFS is GenAlluxioUFSRootPath's"),
                                  source("pkg/ddc/alluxio/ufs_internal.go", "mountUFS",
                                         note="a mount whose path IsMounted already is skipped"),
                                  source("pkg/ddc/alluxio/transform_ufs.go", "transformDatasetToVolume",
                                         note="local:// and pvc:// at GenLocalStoragePath")),
                 "documented_schemes": source("pkg/ddc/alluxio/ufs_internal.go", "mountUFS",
                                              note="`alluxio fs mount` gets every mountPoint but local:// and "
                                                   "pvc:// as written"),
                 "schemes": (source("pkg/ddc/alluxio/ufs_internal.go", "mountUFS",
                                    note="every mountPoint but local:// and pvc:// goes to `alluxio fs mount` as "
                                         "written; the remote schemes listed are Alluxio's documented UFS"),
                             source("pkg/ddc/alluxio/transform_ufs.go", "transformDatasetToVolume",
                                    note="local:// becomes a hostPath volume, pvc:// a PVC volume")),
                 "single_mount": source("pkg/ddc/alluxio/ufs_internal.go", "mountUFS",
                                        note="every mount of the Dataset is mounted"),
                 # without a mount the root is the master's local /underFSStorage
                 "needs_mounts": mounts_only("pkg/utils/ufs_path_builder.go", "GenAlluxioUFSRootPath"),
                 "references": not_the_reference_engine()},
    ),
    rules=RULES,
    hooks=Hooks(finish_runtime=_finish),
    lowering=Lowering(
        single_tier=False,
        # One copy of each block across workers unless the spec asks for more; the same as Fluid does
        # without the field (pkg/ddc/alluxio/transform.go: data.replicas <= 0 is taken as 1).
        defaults={"data": {"replicas": 1}},
        default_profile="alluxio-default",
        fuse_mode_source=source(_OPTIMIZE, "optimizeDefaultFuse"),
        worker_memory_emptydir=worker_memory_emptydirs,
        sources={"single_tier": (source(_TRANSFORM, "transformCommonPart",
                                        note="every level of the tieredstore becomes an Alluxio tier"),
                                 source(_TRANSFORM, "transformWorkers", note="level 0's path is also in the "
                                        "worker's ALLUXIO_WORKER_TIEREDSTORE_LEVEL0_DIRS_PATH")),
                 "defaults": source(_TRANSFORM, "transformCommonPart"),
                 "path_separator": paths_split_at_comma(note="split at ',' into cache paths, joined again with "
                                                             "',' in transformCommonPart"),
                 "mem_default_path": (source("charts/alluxio/values.yaml", "tieredstore",
                                             note="the chart's own MEM level is /dev/shm (emptyDir)"),
                                      source(_TRANSFORM, "transformCommonPart",
                                             note="a level's path is taken as given (+/<namespace>/<name>); "
                                                  "Fluid supplies none for a MEM level")),
                 "worker_memory_emptydir": (source(_TRANSFORM, "transformCommonPart",
                                                   note="a level's Type is its volumeType"),
                                            source(_TRANSFORM, "getMediumTypeFromVolumeSource",
                                                   note="an emptyDir level's volumeSource.emptyDir.medium, when "
                                                        "given, is its medium type"),
                                            source(_HELPERS, "alluxio.worker.tieredstoreVolumes",
                                                   note="an emptyDir level of MEM: medium Memory, one per path, "
                                                        "sizeLimit its quota; of one path and medium type Memory: "
                                                        "Memory; of no medium type: no volume")),
                 "emptydir_needs_path": (source(_TRANSFORM, "transformCommonPart",
                                                note="every level, emptyDir too, is a directory under its path"),
                                         source("charts/alluxio/templates/_helpers.tpl",
                                                "alluxio.worker.tieredstoreVolumeMounts",
                                                note="each level's volume is mounted at its path")),
                 "default_replicas": workers_as_written("pkg/ddc/alluxio/worker.go")},
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"),
                 ("ConfigMap", "{full}-config"), ("ConfigMap", "{full}-mount-config"),
                 ("ConfigMap", "{name}-alluxio-values")),
        per_master=(("Service", "{full}-master-{i}"),),  # charts/alluxio/templates/master/service.yaml
        sources={"chart_fullname": named_after_runtime(_TRANSFORM),
                 "objects": (source("charts/alluxio/templates/master/statefulset.yaml", "StatefulSet"),
                             source("charts/alluxio/templates/worker/statefulset.yaml", "StatefulSet"),
                             source("charts/alluxio/templates/fuse/daemonset.yaml", "DaemonSet"),
                             source("charts/alluxio/templates/config/alluxio-conf.yaml", "ConfigMap"),
                             source("charts/alluxio/templates/config/alluxio-mount-conf.yaml", "ConfigMap"),
                             source("pkg/ddc/alluxio/master_internal.go", "getHelmValuesConfigMapName")),
                 "per_master": source("charts/alluxio/templates/master/service.yaml", "masterCount")},
    ),
    edits=Edits(
        # SyncRuntime is empty (pkg/ddc/alluxio/sync_runtime.go): only replicas are synced. Mounts
        # whose namespace path appears or disappears are mounted or unmounted (ShouldUpdateUFS,
        # UpdateOnUFSChange: fluidbase.mount_delta); in the default configmap storage the master's
        # mount.sh (charts/alluxio/templates/config/alluxio-mount-conf.yaml) mounts only unmounted paths too.
        runtime=scales("alluxio"),
        # Nothing else remounts a path whose mount changed in place: with the default mount storage
        # (configmap) PrepareUFS never runs mountUFS, so Status.MountTime stays unset until a path is
        # added and checkIfRemountRequired does nothing; a restarted master mounts from the mount
        # ConfigMap, which Fluid rewrites only when a path appears or disappears (ufs.go, ufs_internal.go).
        mounts=(MountSync("paths", source("pkg/ddc/alluxio/ufs.go", "UpdateOnUFSChange")),),
    ),
    health=Health(sources={"status_shape": runtime_status("api/v1alpha1/alluxioruntime_types.go", "AlluxioRuntime",
                                                          "pkg/ddc/alluxio/worker.go"),
                           "partial_workers_ready": partial_ready("pkg/ddc/alluxio")}),
    workloads=Workloads(
        data_layout="per-mount",  # GenUFSPathInUnifiedNamespace in its FUSE/UFS setup
        sources={"data_layout": source("pkg/utils/ufs_path_builder.go", "GenUFSPathInUnifiedNamespace")},
    ),
    fields=FIELDS,
)
