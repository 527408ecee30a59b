"""JuiceFSRuntime: POSIX file system over an object store with a metadata engine.

Only the first mount (juicefs:///<subpath>) and the first cache tier are used; several
cache paths are joined with ":" as JuiceFS reads them, and quota becomes cache-size in MiB.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/juicefsruntime_types.go: the spec (volumeClaimTemplates: master only).
- pkg/ddc/juicefs/transform_fuse.go (genValue, genMountOptions): encryptOptions named
  metaurl (community edition), token (enterprise), access-key, secret-key; any other name
  becomes an environment variable; options storage and bucket configure the object store;
  cache-size = quota >> 20 (MiB), free-space-ratio = low, cache-dir joined with ":".
- pkg/ddc/juicefs/data_migrate.go (genDataUrl): a DataMigrate's external storage reads
  encryptOptions access-key, secret-key and token and builds a `juicefs sync` URL from the
  URI, so object stores that need an endpoint need it in the URI (oss://BUCKET.ENDPOINT/..).
- pkg/ddc/juicefs/operate.go: DataLoad, DataMigrate and DataProcess are supported.
- charts/juicefs/templates: the objects Fluid creates (FullnameOverride = runtime name).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..contract import ON_RESTART, ROLLING, SCALES, Created, Edits, Engine, Lowering, Mounts, Starter, Storage
from ..fluid.common import (
    CONTAINER_PORTS,
    ENV_VARS,
    IMAGE,
    INIT_USERS,
    MANAGEMENT,
    NETWORK_MODE,
    POD_METADATA,
    REPLICAS,
    RESOURCES,
    RUN_AS,
    TIEREDSTORE,
    VOLUME_MOUNTS,
    VOLUMES,
)
from ..manifest import kind_of, levels_of
from ..quantity import to_bytes
from ..rules import Finding, Object, Rule
from ..structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, k8s_list, obj

KIND = "JuiceFSRuntime"

COMPONENT = obj(
    replicas=REPLICAS, ports=CONTAINER_PORTS, resources=RESOURCES, options=STR_MAP, env=ENV_VARS, enabled=BOOL,
    nodeSelector=STR_MAP, volumeMounts=VOLUME_MOUNTS, podMetadata=POD_METADATA, networkMode=NETWORK_MODE)
FUSE = obj(
    image=STR, imageTag=STR, imagePullPolicy=STR, env=ENV_VARS, resources=RESOURCES, options=STR_MAP,
    nodeSelector=STR_MAP, volumeMounts=VOLUME_MOUNTS, cleanPolicy=STR, podMetadata=POD_METADATA,
    networkMode=NETWORK_MODE)
SPEC = obj(
    juicefsVersion=IMAGE, initUsers=INIT_USERS, master=COMPONENT, worker=COMPONENT, jobWorker=COMPONENT,
    fuse=FUSE, tieredstore=TIEREDSTORE, configs=STR_LIST, replicas=int32(), runAs=RUN_AS, disablePrometheus=BOOL,
    volumes=VOLUMES, podMetadata=POD_METADATA, management=MANAGEMENT,
    volumeClaimTemplates=k8s_list("core.v1.PersistentVolumeClaim"))

KEYS = frozenset({"access-key", "secret-key"})
STORAGE = {"juicefs": Storage(
    frozenset({"metaurl", "token", "access-key", "secret-key", "access-key2", "secret-key2"}),
    other_names_read=True, pairs=(KEYS, frozenset({"access-key2", "secret-key2"})),
    needs_one_of=frozenset({"metaurl", "token"}),
    suggested={"bucket": "<OBJECT_STORE_BUCKET_URL>", "storage": "<STORAGE_TYPE>"},
    source="pkg/ddc/juicefs/transform_fuse.go (genValue)")}
_MIGRATE = "pkg/ddc/juicefs/data_migrate.go (genDataUrl)"
_SYNC = frozenset({"access-key", "secret-key", "token"})
MIGRATE_STORAGE = {
    **{scheme: Storage(_SYNC, pairs=(KEYS,), endpoint_in_uri=True, source=_MIGRATE)
       for scheme in ("oss", "cos", "obs")},
    "*": Storage(_SYNC, pairs=(KEYS,), source=_MIGRATE),
}


def _byte_quota(obj_: Object, _: list[Object]) -> Iterator[Finding]:
    """cache-size is quota >> 20 (genMountOptions): below 1 MiB it is 0, and there is no cache."""
    if kind_of(obj_) != KIND:
        return
    for i, level in enumerate(levels_of(obj_)):
        quota = level.get("quota") if isinstance(level, dict) else None
        try:
            size = to_bytes(quota) if isinstance(quota, int | str) and not isinstance(quota, bool) else None
        except ValueError:
            continue
        if size is not None and 0 < size < 2**20:
            hint = f"; did you mean {quota}Mi?" if str(quota).isdigit() else ""
            yield Finding(("spec", "tieredstore", "levels", i, "quota"),
                          f"quota {quota} is {int(size)} bytes, so the JuiceFS cache-size becomes 0 MiB and nothing "
                          f"is cached{hint}")


ENGINE = Engine(
    name="juicefs",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataMigrate", "DataProcess"}),
    mounts=Mounts(
        schemes=frozenset({"juicefs"}),
        storage=STORAGE,
        migrate_storage=MIGRATE_STORAGE,
        single_mount=True,
    ),
    rules=(Rule("FG117", "error", "a JuiceFS quota below 1 MiB makes a cache-size of 0 (quota is bytes, in MiB)",
                _byte_quota),),
    lowering=Lowering(
        path_separator=":",
        default_profile="juicefs-default",
        # Workers are optional: with none the FUSE clients cache on their own nodes, and the runtime
        # is ready without them (pkg/ddc/juicefs/status.go: Replicas() == 0 counts as ready).
        default_replicas=None,
    ),
    starter=Starter(
        source="juicefs:///",
    ),
    created=Created(
        objects=(("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"), ("ConfigMap", "{full}-fuse-script"),
                 ("ConfigMap", "{full}-worker-script"), ("ConfigMap", "{name}-juicefs-values"),
                 ("ServiceAccount", "{name}-loader"), ("Role", "{name}-loader"), ("RoleBinding", "{name}-loader")),
    ),
    edits=Edits(
        # SyncRuntime rewrites the worker StatefulSet (node selector, volumes, pod metadata,
        # resources, env, volume mounts, image, and the mount command built from options and the
        # cache tier, restarting workers) and the FUSE DaemonSet, which FUSE pods take up when
        # recreated (pkg/ddc/juicefs/sync_runtime.go, in every Fluid version fluidgen targets).
        runtime=(*SCALES, *((f"worker.{k}", ROLLING) for k in ("nodeSelector", "volumeMounts", "podMetadata",
                                                                "resources", "env", "options")),
                 ("volumes", ROLLING), ("tieredstore", ROLLING), ("juicefsVersion", ROLLING),
                 *((f"fuse.{k}", ON_RESTART) for k in ("nodeSelector", "volumeMounts", "podMetadata", "resources",
                                                        "env", "options", "image", "imageTag", "imagePullPolicy"))),
    ),
)
