"""JindoRuntime (JindoCache): C++ cache for OSS and friends; reads only the first tier.

Sources in fluid-cloudnative/fluid, the same in every version versions.py lists:
- api/v1alpha1/jindoruntime_types.go: the spec.
- pkg/ddc/jindocache/transform.go (transformMaster): an oss:// mount without option
  fs.oss.endpoint is refused; credentials are read from encryptOptions named
  fs.<oss|s3|cos|obs|dls>.accessKeyId / .accessKeySecret; on master both OSS halves must come
  from encryptOptions together; other schemes are treated as oss.
- pkg/ddc/jindocache/operate.go: DataLoad and DataProcess are supported.
- pkg/ddc/jindocache/transform.go (FullnameOverride = <name>-jindofs) and
  charts/jindocache/templates: the objects Fluid creates.
- pkg/ddc/jindocache/transform.go (transformFuseArg): without fuse.args Fluid chooses the
  JindoFuse args per access mode (fuse_args below); given fuse.args replace that choice.
- jindocache, Fluid's default Jindo engine (pkg/utils/jindo/jindo.go GetDefaultEngineImpl), adds
  no -oroot_ns: only the legacy pkg/ddc/jindo engine (JINDO_ENGINE_TYPE=jindo) does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..base.diagnostics import PathT
from ..base.fluidsource import FluidSource, before, decided_by, fact, for_version, since, source
from ..base.manifest import Tree, fuse_spec, items, levels_of, mapping, mounts_of
from ..base.manifest_index import Entry, ManifestIndex
from ..base.quantity import canonical, to_bytes
from ..base.rules import Example, Finding, Rule
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, int32, obj
from ..base.versions import V1_0_8, V1_1_0_DEV
from ..fluid.common import (
    CLEAN_CACHE_POLICY,
    IMAGE,
    IMAGE_PULL_SECRETS,
    NETWORK_MODE,
    POD_METADATA,
    PORTS_MAP,
    REPLICAS,
    RESOURCES,
    RUN_AS,
    TIEREDSTORE,
    TOLERATIONS,
    VOLUME_MOUNTS,
    VOLUMES,
)
from ..fluid.fields import (
    CONDITION,
    IGNORED,
    MERGED,
    READ,
    FieldRead,
    Fields,
    Spec,
    dataset_node_affinity,
    dataset_placement,
    fuse_clean_policy,
)
from ..fluid.fluidbase import read_only_dataset
from .contract import (
    ON_RESTART,
    ROLLING,
    Context,
    Created,
    EditFact,
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
    not_the_reference_engine,
    partial_ready,
    runtime_status,
    scales,
    workers_as_written,
)

KIND = "JindoRuntime"

COMPONENT = obj(
    replicas=REPLICAS, properties=STR_MAP, ports=PORTS_MAP, resources=RESOURCES, env=STR_MAP, nodeSelector=STR_MAP,
    tolerations=TOLERATIONS, labels=STR_MAP, podMetadata=POD_METADATA, disabled=BOOL, volumeMounts=VOLUME_MOUNTS,
    imagePullSecrets=IMAGE_PULL_SECRETS)
FUSE = obj(
    image=STR, imageTag=STR, imagePullPolicy=STR, imagePullSecrets=IMAGE_PULL_SECRETS, properties=STR_MAP,
    env=STR_MAP, resources=RESOURCES, args=STR_LIST, nodeSelector=STR_MAP, tolerations=TOLERATIONS, labels=STR_MAP,
    podMetadata=POD_METADATA, cleanPolicy=STR, disabled=BOOL, logConfig=STR_MAP,
    metrics=obj(enabled=BOOL, scrapeTarget=STR))
SPEC = obj(
    jindoVersion=IMAGE, imagePullSecrets=IMAGE_PULL_SECRETS, master=COMPONENT, worker=COMPONENT, fuse=FUSE,
    properties=STR_MAP, tieredstore=TIEREDSTORE, replicas=int32(), runAs=RUN_AS, user=STR, hadoopConfig=STR,
    secret=STR, labels=STR_MAP, podMetadata=POD_METADATA, logConfig=STR_MAP, networkmode=NETWORK_MODE,
    cleanCachePolicy=CLEAN_CACHE_POLICY, volumes=VOLUMES)

_SOURCE = source("pkg/ddc/jindocache/transform.go", "transformMaster")


def _keys(kind: str, options: tuple[str, ...] = (), suggested: dict[str, str] | None = None) -> Storage:
    pair = frozenset({f"fs.{kind}.accessKeyId", f"fs.{kind}.accessKeySecret"})
    return Storage(pair, pairs=(pair,), options=options, suggested=suggested or {}, source=_SOURCE)


STORAGE = {
    "oss": _keys("oss", ("fs.oss.endpoint",), {"fs.oss.endpoint": "<OSS_ENDPOINT>"}),
    "s3": _keys("s3", suggested={"fs.s3.endpoint": "<S3_ENDPOINT>", "fs.s3.region": "<S3_REGION>"}),
    "cos": _keys("cos", suggested={"fs.cos.endpoint": "<COS_ENDPOINT>"}),
    "obs": _keys("obs", suggested={"fs.obs.endpoint": "<OBS_ENDPOINT>"}),
    "dls": _keys("dls", suggested={"fs.dls.endpoint": "<DLS_ENDPOINT>"}),
}


def _args_replace_defaults(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """fuse.args replace Fluid's per-access-mode set (fuse_args): name what they leave out (ro/rw
    aside, which follow the access modes: no default set has -orw)."""
    args = items(fuse_spec(entry.obj).get("args"))
    if not args:
        return
    given = {a.removeprefix("-o").split("=")[0] for a in args if isinstance(a, str)}
    for d in index.bound_datasets(entry):
        read_only = read_only_dataset([m for m in items(d.spec.get("accessModes")) if isinstance(m, str)])
        fluids = fuse_args([], read_only, len(mounts_of(d.obj)), index.version)
        missing = [o for o in fluids if o.removeprefix("-o").split("=")[0] not in given | {"ro"}]  # -oro: the modes
        if missing:
            mode = "read-only" if read_only else "read-write"
            yield Finding(("spec", "fuse", "args"),
                          f"fuse.args replace Fluid's JindoFuse defaults for this {mode} Dataset; of them these are "
                          f"not given: {' '.join(missing)}. Add them, or leave fuse.args out to get Fluid's set")
        return


# Which encryptOptions share the one Secret jindocache mounts into its pods (transformMaster,
# with the default images, whose tags support AK files: checkIfSupportSecretMount). V1_0_8: every
# mount's (value.Secret is the last one's, one key per credential name). Since V1_1_0_DEV an oss://
# mount's fs.oss.accessKeyId/accessKeySecret are projected per bucket (fluid-cloudnative/fluid#5778:
# <bucket>/AccessKeyId, <bucket>/AccessKeySecret), and a bucket's two mounts naming another Secret
# or key for one of them make Fluid refuse the runtime; the other mounts still share one Secret.
ONE_SECRET = source("pkg/ddc/jindocache/transform.go", "transformMaster", before(V1_1_0_DEV),
                    note="value.Secret, value.SecretKey, value.SecretValue are single values, for every mount")
PER_BUCKET = source("pkg/ddc/jindocache/transform.go", "transformMaster", since(V1_1_0_DEV),
                    note="oss:// mounts' OSS keys go to value.SecretProjections per bucket (#5778); "
                         "value.Secret, value.SecretKey, value.SecretValue stay single for the other mounts")
OSS_PER_BUCKET = (
    fact(False, ONE_SECRET),
    fact(True, PER_BUCKET, source("pkg/ddc/jindo/oss_secret.go", "AppendSecretProjection", since(V1_1_0_DEV))),
)
_SUPPORT = source("pkg/ddc/jindocache/transform.go", "checkIfSupportSecretMount")

Ref = tuple[PathT, str, str, str]  # where, credential name, Secret, key


def _refs(at: PathT, options: object) -> list[Ref]:
    out = []
    for j, option in enumerate(items(options)):
        ref = mapping(mapping(mapping(option).get("valueFrom")).get("secretKeyRef"))
        if isinstance(mapping(option).get("name"), str):
            out.append(((*at, j, "valueFrom", "secretKeyRef"), str(mapping(option)["name"]), str(ref.get("name", "")),
                        str(ref.get("key", ""))))
    return out


def _bucket(mount: Tree) -> str | None:
    """The OSS bucket of an oss:// mount point (jindo.ParseOSSMountBucket); None for another scheme."""
    point = mount.get("mountPoint")
    if not isinstance(point, str) or not point.startswith("oss://"):
        return None
    return point.removeprefix("oss://").split("/", 1)[0] or None


def _groups(entry: Entry, per_bucket: bool) -> tuple[list[Ref], dict[str, list[Ref]]]:
    """The encryptOptions that share one Secret, and (per_bucket) each OSS bucket's OSS keys.
    Shared ones join every mount's own; listed once, where they are written."""
    shared = _refs(("spec", "sharedEncryptOptions"), entry.spec.get("sharedEncryptOptions"))
    one: list[Ref] = []
    buckets: dict[str, list[Ref]] = {}
    any_one_secret = False  # a mount whose credentials come from the one Secret
    for i, mount in enumerate(mounts_of(entry.obj)):
        own = _refs(("spec", "mounts", i, "encryptOptions"), mount.get("encryptOptions"))
        bucket = _bucket(mount) if per_bucket else None
        if bucket is None:
            any_one_secret = True
            one += own
        else:
            buckets.setdefault(bucket, []).extend(r for r in (*shared, *own) if r[1].startswith("fs.oss."))
    return (shared + one if any_one_secret else one), buckets


def _one_secret(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    runtime = index.bound_runtime(entry)
    if runtime is None or runtime.kind != KIND:
        return
    version, per_bucket = index.version, for_version(index.version, *OSS_PER_BUCKET)
    one, _ = _groups(entry, per_bucket)
    scope = "every mount but the oss:// ones (their keys are projected per bucket)" if per_bucket else "every mount"
    advice = ("use one Secret and key per credential name for these mounts" if per_bucket else
              "newer Fluid projects OSS keys per bucket. Use one Secret and key per credential name, or target a "
              "newer Fluid")
    for at, name, secret, key, _ in _clashes(one, any_secret=True):
        yield Finding(at, f"{name} comes from Secret {secret} key {key}, but Fluid {version}'s JindoRuntime mounts "
                          f"one Secret and one key per credential name for {scope} (the last one given wins), so "
                          f"the mounts cannot have different credentials there; {advice}")


def _bucket_conflict(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    runtime = index.bound_runtime(entry)
    if runtime is None or runtime.kind != KIND or not for_version(index.version, *OSS_PER_BUCKET):
        return
    _, buckets = _groups(entry, per_bucket=True)
    for bucket, refs in sorted(buckets.items()):
        for at, name, secret, key, was in _clashes(refs, any_secret=False):
            yield Finding(at, f"{name} of OSS bucket {bucket} comes from Secret {secret} key {key}, but it is also "
                              f"taken from Secret {was[0]} key {was[1]} for this bucket; Fluid {index.version} "
                              "projects one per bucket and refuses the runtime (conflicting secret projection). Use "
                              "one Secret and key per credential name for the bucket")


def _clashes(refs: list[Ref], any_secret: bool) -> Iterator[tuple[PathT, str, str, str, tuple[str, str]]]:
    """Refs that name another Secret or key for a credential name than the first one for it did
    (any_secret: or another Secret than any before), with that first (Secret, key)."""
    first: dict[str, tuple[str, str]] = {}
    secrets: set[str] = set()
    for at, name, secret, key in refs:
        was = first.setdefault(name, (secret, key))
        if (any_secret and secrets and secret not in secrets) or was != (secret, key):
            yield at, name, secret, key, was
        secrets.add(secret)


# A memory tier's quota in Mi: the worker's memory request Fluid sets is read in milli-bytes. transform
# takes levels[0]'s quota through TransformQuantityToJindoUnit (the quantity's String(), Gi written as g,
# Mi as m) and quotaList entries as written with the same two replacements; transformWorkerResources
# (a memory tier: getTieredStoreType, the last level's medium) writes g back as Gi, leaves m, and
# MustParses the result, where m is milli. Both commits.
JINDO_UNIT = source("pkg/utils/quantity.go", "TransformQuantityToJindoUnit",
                    note="q.String(), a Gi suffix replaced by g, an Mi suffix by m")
USER_QUOTAS = source("pkg/ddc/jindocache/transform.go", "transform",
                     note="userQuotas: levels[0]'s quota via TransformQuantityToJindoUnit, then each quotaList "
                          "entry with Gi -> g and Mi -> m")
MEMORY_TIER = source("pkg/ddc/jindocache/utils.go", "getTieredStoreType",
                     note="the last level's medium; only a memory one (0) sets the worker's memory request")
WORKER_REQUEST = (source("pkg/ddc/jindocache/transform.go", "transformWorkerResources", (V1_0_8,),
                         note="userQuotas with g -> Gi, MustParse'd; set as the memory request when the "
                              "written one is absent, zero or smaller; refused when above the memory limit"),
                  source("pkg/ddc/jindocache/transform_resources.go", "transformWorkerResources", (V1_1_0_DEV,),
                         note="userQuotas with g -> Gi, MustParse'd; set as the memory request when the "
                              "written one is absent, zero or smaller; refused when above the memory limit"))


@decided_by(JINDO_UNIT, USER_QUOTAS)
def user_quota(level: Tree) -> tuple[PathT, str, str, str] | None:
    """Where levels[0] writes its one quota, as written, as Kubernetes spells it (String()), and as
    Fluid's userQuotas for Jindo; None for no quota or several (those fail otherwise: _check)."""
    given: list[tuple[PathT, str, str, str]] = []
    quota = level.get("quota")
    if isinstance(quota, str | int) and not isinstance(quota, bool):
        try:
            spelled = canonical(quota) or str(quota)
        except ValueError:
            return None  # no quantity: schema validation and FG112 report it
        given.append((("quota",), str(quota), spelled, _jindo_unit(spelled)))
    if isinstance(level.get("quotaList"), str) and level["quotaList"]:
        given += [(("quotaList",), q, q, _jindo_unit(q)) for q in level["quotaList"].split(",")]
    return given[0] if len(given) == 1 else None


def _jindo_unit(value: str) -> str:
    """The quota as the request Fluid parses: Mi written as m. (Gi is written as g too, and written
    back as Gi before the parse: no change to the request, so it is left as it is here.)"""
    return value.replace("Mi", "m") if value.endswith("Mi") else value


def _mem_quota_in_milli(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    levels = [level for level in levels_of(entry.obj) if isinstance(level, dict)]
    if not levels or levels[-1].get("mediumtype") in ("SSD", "HDD"):
        return
    found = user_quota(levels[0])
    if found is None or not found[2].endswith("Mi"):
        return
    at, written, spelled, request = found  # spelled in Mi: the m Fluid's g -> Gi leaves as it is
    try:
        meant, read = to_bytes(spelled), to_bytes(request)
    except ValueError:
        return
    given = mapping(mapping(mapping(entry.spec.get("worker")).get("resources")).get("requests")).get("memory")
    try:
        kept = to_bytes(given) if isinstance(given, str | int) and not isinstance(given, bool) else None
    except ValueError:
        kept = None
    if kept is not None and kept >= meant:
        return  # a request of at least the quota is kept as written
    now = next(s for s in WORKER_REQUEST if index.version in s.versions).cite()
    how = "" if spelled == written else f" (Kubernetes spells it {spelled})"
    what = (f"the worker's memory request stays at {given} instead of rising to {written}"
            if kept is not None and kept >= read else
            f"the worker's memory request becomes {request} ({read.normalize():f} bytes) instead of {written}")
    yield Finding(("spec", "tieredstore", "levels", 0, *at),
                  f"Fluid reads this MEM tier's quota {written}{how} as {request} for the worker's memory "
                  f"request: Jindo's unit writes Mi as m ({JINDO_UNIT.cite()}), and m is milli in a Kubernetes "
                  f"quantity ({now}). So {what}, and Fluid no longer refuses a quota above the worker's memory "
                  f"limit. Write the quota in whole Gi (e.g. {-(-int(meant) // 2**30)}Gi), or give "
                  f"worker.resources.requests.memory of at least {written}")


RULES = (
    Rule(
        "FG136", "error", "a JindoRuntime MEM tier's quota in Mi becomes a memory request in milli-bytes",
        _mem_quota_in_milli,
        kinds=frozenset({KIND}),
        description="For a memory tier (the last level's medium MEM) Fluid's jindocache engine sets the worker's "
                    "memory request to the first level's quota, unless one at least as large is written. It "
                    "takes the quota in Jindo's unit first: Kubernetes' own spelling of the quantity with Gi "
                    "written as g and Mi as m, then g back as Gi but m left, and parses that. A quota Kubernetes "
                    "spells in Mi (500Mi, 1.5Gi = 1536Mi; a quotaList entry as written) becomes m, milli: the "
                    "worker requests under a byte of memory instead of the quota, and Fluid's check of the quota "
                    "against the worker's memory limit passes whatever the limit. A whole number of Gi, or a "
                    "written memory request of at least the quota, is read as meant.",
        sources=(JINDO_UNIT, USER_QUOTAS, MEMORY_TIER, *WORKER_REQUEST),
        elsewhere=("Kubernetes: the suffix m of a quantity is milli (10^-3)",),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: imagenet, namespace: default}
spec:
  tieredstore:
    levels:
      - {mediumtype: MEM, volumeType: emptyDir, path: /dev/shm, quota: 500Mi}
""", "Fluid sets the worker's memory request to 500m, half a byte, not 500Mi.")),
    Rule(
        "FG135", "warning", "JindoRuntime mounts one Secret for the encryptOptions it does not project per OSS bucket",
        _one_secret,
        kinds=frozenset({"Dataset"}),
        description=f"Fluid's jindocache engine (default images) mounts a single Secret into its pods and reads one "
                    "key per credential name: encryptOptions of a Dataset's mounts that name different Secrets, or "
                    "different keys for one credential name, end up with the last one's. In "
                    f"{V1_0_8} that holds for every mount. Since {V1_1_0_DEV} the OSS keys of an oss:// mount are "
                    "projected per bucket, so only the other mounts share the one Secret (FG138: two mounts of one "
                    "bucket that take a key from different Secrets or keys).",
        sources=(ONE_SECRET, PER_BUCKET, _SUPPORT),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - mountPoint: s3://bucket-a/
      name: a
      options: {fs.s3.endpoint: s3.us-east-1.amazonaws.com}
      encryptOptions:
        - {name: fs.s3.accessKeyId, valueFrom: {secretKeyRef: {name: keys-a, key: id}}}
    - mountPoint: s3://bucket-b/
      name: b
      options: {fs.s3.endpoint: s3.us-east-1.amazonaws.com}
      encryptOptions:
        - {name: fs.s3.accessKeyId, valueFrom: {secretKeyRef: {name: keys-b, key: id}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: imagenet, namespace: default}
spec: {}
""", f"Two mounts take their keys from two Secrets; {V1_0_8} mounts only keys-b, and so does {V1_1_0_DEV} "
       "for these s3:// mounts.")),
    Rule(
        "FG138", "error", "two mounts of one OSS bucket take a JindoRuntime credential from different Secrets or keys",
        _bucket_conflict,
        kinds=frozenset({"Dataset"}),
        description="Fluid's jindocache engine projects the OSS keys of an oss:// mount into its pods per bucket. "
                    "When two mounts of one bucket take a credential name from different Secrets or keys, the "
                    "projection conflicts and Fluid refuses the runtime (transformMaster returns the error of "
                    "AppendSecretProjection; its Go test "
                    "TestJindoCacheEngine_transformMasterRejectsConflictingSameBucketSecretProjection).",
        sources=(PER_BUCKET, source("pkg/ddc/jindo/oss_secret.go", "AppendSecretProjection", since(V1_1_0_DEV))),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - mountPoint: oss://bucket-a/train
      name: train
      options: {fs.oss.endpoint: oss-cn-shanghai.aliyuncs.com}
      encryptOptions:
        - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: keys-a, key: id}}}
        - {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: keys-a, key: secret}}}
    - mountPoint: oss://bucket-a/val
      name: val
      options: {fs.oss.endpoint: oss-cn-shanghai.aliyuncs.com}
      encryptOptions:
        - {name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: keys-b, key: id}}}
        - {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: keys-b, key: secret}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: imagenet, namespace: default}
spec: {}
""", "Both mounts are of bucket-a, with keys from keys-a and keys-b: Fluid refuses the runtime.")),
    Rule(
        "FG119", "warning", "JindoRuntime fuse.args replace Fluid's per-access-mode FUSE defaults",
        _args_replace_defaults,
        kinds=frozenset({KIND}),
        description="Without `fuse.args` Fluid mounts JindoFuse with kernel_cache and 7200 s attribute, entry "
                    "and negative caches for a read-only Dataset, auto_cache and no metadata caching for a "
                    f"read-write one, and no_symlink (always at {V1_0_8}; since {V1_1_0_DEV}, for a Dataset of one "
                    "mount at most). "
                    "`fuse.args` replace that set wholesale; the rule names the defaults the "
                    "given args leave out (ro and rw aside: they follow the access modes). jindocache, Fluid's "
                    "default Jindo engine, adds no -oroot_ns (only the legacy pkg/ddc/jindo engine does).",
        sources=(source("pkg/ddc/jindocache/transform.go", "transformFuseArg"),
                 source("pkg/utils/jindo/jindo.go", "GetDefaultEngineImpl")),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - {mountPoint: "oss://imagenet-bucket/", name: imagenet, path: /train}
---
apiVersion: data.fluid.io/v1alpha1
kind: JindoRuntime
metadata: {name: imagenet, namespace: default}
spec:
  fuse:
    args: ["-okernel_cache", "-oro"]
""", "These args replace Fluid's read-only set, so its 7200 s attribute, entry and negative caches are gone.")),
)


# jindocache's SyncRuntime copies master, worker and FUSE resources and the FUSE metrics switch
# into the StatefulSets and the DaemonSet (OnDelete: charts/jindocache/values.yaml). The older
# StatefulSets roll; newer Fluid switches them to OnDelete first (#5366), so their pods take an
# edit only when recreated.
_ROLLS = source("pkg/ddc/jindocache/sync_runtime.go", "syncMasterSpec", before(V1_1_0_DEV))
_ON_DELETE = source("pkg/ddc/jindocache/sync_runtime.go", "syncMasterSpec", since(V1_1_0_DEV),
                    note="UpdateStatefulSetUpdateStrategy to OnDelete for master and worker (#5366)")
_FUSE = source("pkg/ddc/jindocache/sync_runtime.go", "syncFuseSpec")
_SYNC_EDITS = (
    EditFact("master.resources", ROLLING, _ROLLS, "master"), EditFact("worker.resources", ROLLING, _ROLLS, "worker"),
    EditFact("master.resources", ON_RESTART, _ON_DELETE, "master"),
    EditFact("worker.resources", ON_RESTART, _ON_DELETE, "worker"),
    EditFact("fuse.resources", ON_RESTART, _FUSE, "fuse"), EditFact("fuse.metrics", ON_RESTART, _FUSE, "fuse"))


# -- Fluid's own FUSE args for a JindoRuntime (pkg/ddc/jindocache/transform.go transformFuseArg) --

_FUSE_ARG = "pkg/ddc/jindocache/transform.go"
READ_ONLY_ARGS = ("-okernel_cache", "-oro", "-oattr_timeout=7200", "-oentry_timeout=7200", "-onegative_timeout=7200")
READ_WRITE_ARGS = ("-oauto_cache", "-oattr_timeout=0", "-oentry_timeout=0", "-onegative_timeout=0")
# -ono_symlink follows the defaults: always before V1_1_0_DEV, since then only for a Dataset of at most one mount.
NO_SYMLINK_ANY_MOUNTS = (
    fact(True, source(_FUSE_ARG, "transformFuseArg", versions=before(V1_1_0_DEV))),
    fact(False, source(_FUSE_ARG, "transformFuseArg", versions=since(V1_1_0_DEV))),
)


@decided_by(source(_FUSE_ARG, "transformFuseArg"))
def fuse_args(given: Sequence[str], read_only: bool, mounts: int, version: str) -> list[str]:
    """The JindoFuse args: the runtime's fuse.args as given, or Fluid's set for the access mode."""
    if given:
        return list(given)
    args = list(READ_ONLY_ARGS if read_only else READ_WRITE_ARGS)
    if mounts <= 1 or for_version(version, *NO_SYMLINK_ANY_MOUNTS):
        args.append("-ono_symlink")
    return args


# transform reads levels[0]'s quota as one entry, or its quotaList as one per path;
# transformWorkerMountPath then takes quotas[index] for every path (both commits).
QUOTA_PER_PATH = source(_FUSE_ARG, "transformWorkerMountPath",
                        note="Quota: quotas[index] for each cache path; a single quota is one entry")


# A MEM tier's quotas, joined with ",", are one resource.MustParse (a panic on "10Gi,5Gi").
MEM_QUOTA_PARSED = (source("pkg/ddc/jindocache/transform.go", "transformWorkerResources", (V1_0_8,),
                           note="resource.MustParse(userQuotas) for a memory tier"),
                    source("pkg/ddc/jindocache/transform_resources.go", "transformWorkerResources", (V1_1_0_DEV,),
                           note="resource.MustParse(userQuotas) for a memory tier"))


def _at(sources: tuple[FluidSource, ...], version: str) -> FluidSource:
    """The source that holds at `version` (every version fluidgen targets is named by one)."""
    return next(s for s in sources if version in s.versions)


def _check(ctx: Context) -> None:
    """A cache tier over several paths with one quota: Fluid's Jindo transform indexes a quota per
    path and fails the runtime (index out of range), so each path needs its own quota."""
    for i, tier in enumerate(ctx.spec.runtime.cache):
        if len(tier.path) > 1 and tier.medium == "MEM":
            parsed = _at(MEM_QUOTA_PARSED, ctx.version).cite()
            ctx.report(("runtime", "cache", i, "path"),
                       f"JindoRuntime fails a MEM tier over {len(tier.path)} paths: it parses the tier's quotas, "
                       f"joined with ',', as one memory size ({parsed}), and one quota is read per path; give one "
                       "path", stage="check")
        elif len(tier.path) > 1 and len(tier.quota) == 1:
            share = int(to_bytes(tier.quota[0])) // len(tier.path)
            size = next((f"{share >> bits}{unit}" for bits, unit in ((30, "Gi"), (20, "Mi"))
                         if share and not share % (1 << bits)), str(share))
            ctx.report(("runtime", "cache", i, "quota"),
                       f"JindoRuntime needs a quota per cache path: with one quota for {len(tier.path)} paths "
                       f"Fluid indexes a quota for each path and fails the runtime ({QUOTA_PER_PATH.cite()}); "
                       f"give one per path, e.g. quota: [{', '.join([size] * len(tier.path))}] "
                       f"({tier.quota[0]} split evenly)", stage="check")


def _finish(ctx: Context, tree: Tree) -> Tree:
    """fuse.args replace Fluid's choice per access mode (transformFuseArg), -oro included: a
    read-only Dataset's args get -oro when they lack it (after -okernel_cache, where Fluid's
    set has it). A ReadWriteMany Dataset's args are left as given; FG131 reports an -oro there."""
    fuse = tree.get("fuse")
    args = fuse.get("args") if isinstance(fuse, dict) else None
    if not isinstance(args, list) or not args or not read_only_dataset(ctx.access_modes()):
        return tree
    if any(isinstance(a, str) and "ro" in a.removeprefix("-o").split(",") for a in args):
        return tree
    args.insert(1 if args[0] == "-okernel_cache" else 0, "-oro")
    return tree



@decided_by(source(_FUSE_ARG, "transform"), source(_FUSE_ARG, "getMediumTypeFromVolumeSource"),
            source("charts/jindocache/templates/worker/statefulset.yaml", "mediumType"))
def worker_memory_emptydirs(levels: Sequence[Any]) -> list[Tree]:
    """The levels the worker chart makes Memory emptyDirs: levels[0] only (transform reads no other),
    on an emptyDir, its medium type its volumeSource.emptyDir's medium when given, else its mediumtype
    (getMediumTypeFromVolumeSource); each path's emptyDir has medium Memory for MEM, none for SSD or
    HDD, else the medium type as written (so Memory stays Memory)."""
    first = levels[0] if levels and isinstance(levels[0], dict) else None
    if first is None or first.get("volumeType") != "emptyDir":
        return []
    empty = mapping(first.get("volumeSource")).get("emptyDir")
    medium = mapping(empty).get("medium", "") if isinstance(empty, dict) else first.get("mediumtype")
    return [first] if medium in ("MEM", "Memory") else []


# -- What Fluid does with each runtime and Dataset field (fluid/fields.py; docs/runtime-fields.md) ----
# JindoRuntime is served by the jindocache engine (pkg/ddc/jindocache), the default one.
_JT = "pkg/ddc/jindocache/transform.go"
_JR = "pkg/ddc/jindocache/transform_resources.go"
_OLD, _NEW = before(V1_1_0_DEV), since(V1_1_0_DEV)
_CPU_MEMORY = "only cpu and memory are read"
JINDO_MASTERS = (1, 3)  # transformReplicasCount: 3 (JINDO_HA_MASTERNUM) or else 1 (JINDO_MASTERNUM_DEFAULT)


def _honoured_masters(spec: Spec) -> bool:
    count = mapping(spec.get("master")).get("replicas")
    return count is None or count in JINDO_MASTERS


# transformWorkerResources (both commits): a memory tier (getTieredStoreType) raises the request to userQuotas.
_MEM_TIER_REQUEST = ("a MEM tier (the last level's medium) raises the memory request to the first level's quota, "
                     "which must fit the memory limit; a quota Kubernetes spells in Mi is read in milli-bytes (FG136)")


FIELDS = Fields(
    package="pkg/ddc/jindocache", types="api/v1alpha1/jindoruntime_types.go", base_var="jindoRuntime",
    runtime=(
        FieldRead("runAs", IGNORED, source(_JT, "transformRunAsUser"), go="Spec.RunAs",
                  instead="spec.user, the user name the FUSE runs as (transformRunAsUser)"),
        FieldRead("master.replicas", CONDITION, source(_JT, "transformReplicasCount"), go="Spec.Master.Replicas",
                  note="only 3 is honoured (HA masters); any other value runs 1 master",
                  instead="1 or 3", when=_honoured_masters),
        FieldRead("networkmode", READ, source(_JT, "transformNetworkMode"), go="Spec.NetworkMode",
                  note="spelt networkmode; one mode for master, worker and FUSE; left out: host network"),
        FieldRead("properties", IGNORED, source(_JT, "transformMaster"), go="Spec.Properties",
                  instead="master.properties, worker.properties or fuse.properties"),
        FieldRead("master.properties", READ, source(_JT, "transformMaster"), go="Spec.Master.Properties"),
        FieldRead("worker.properties", READ, source(_JT, "transformWorker"), go="Spec.Worker.Properties"),
        FieldRead("fuse.properties", READ, source(_JT, "transformFuse"), go="Spec.Fuse.Properties"),
        FieldRead("fuse.nodeSelector", READ, source(_JT, "transformFuseNodeSelector"), go="Spec.Fuse.NodeSelector"),
        fuse_clean_policy(),
        FieldRead("fuse.args", READ, source(_JT, "transformFuseArg"), go="Spec.Fuse.Args",
                  note="replace Fluid's default args, which it chooses from the access modes"),
        FieldRead("fuse.env", READ, source(_JT, "transformEnvVariables"), go="Spec.Fuse.Env"),
        FieldRead("master.resources", READ, source(_JT, "transformMasterResources", _OLD), go="Spec.Master.Resources",
                  note=_CPU_MEMORY),
        FieldRead("master.resources", READ, source(_JR, "transformMasterResources", _NEW), go="Spec.Master.Resources"),
        FieldRead("worker.resources", MERGED, source(_JT, "transformWorkerResources", _OLD), go="Spec.Worker.Resources",
                  note=f"{_CPU_MEMORY}; {_MEM_TIER_REQUEST}"),
        FieldRead("worker.resources", MERGED, source(_JR, "transformWorkerResources", _NEW), go="Spec.Worker.Resources",
                  note=_MEM_TIER_REQUEST),
        FieldRead("fuse.resources", READ, source(_JT, "transformFuseResources", _OLD), go="Spec.Fuse.Resources",
                  note=_CPU_MEMORY),
        FieldRead("fuse.resources", READ, source(_JR, "transformFuseResources", _NEW), go="Spec.Fuse.Resources"),
        # components' fields that Fluid reads as written, or that no code of the engine reads
        FieldRead("master.env", READ, source("pkg/ddc/jindocache/transform.go", "transformEnvVariables"),
                  go="Spec.Master.Env"),
        FieldRead("master.nodeSelector", READ, source("pkg/ddc/jindocache/transform.go", "transformMasterSelector"),
                  go="Spec.Master.NodeSelector"),
        FieldRead("master.podMetadata", READ, source("pkg/ddc/jindocache/transform.go", "transformPodMetadata"),
                  go="Spec.Master.PodMetadata"),
        FieldRead("master.volumeMounts", READ, source("pkg/ddc/jindocache/transform.go", "transformMasterVolumes"),
                  go="Spec.Master.VolumeMounts"),
        FieldRead("master.imagePullSecrets", READ, source("pkg/ddc/jindocache/transform.go", "transformMaster"),
                  go="Spec.Master.ImagePullSecrets"),
        FieldRead("worker.env", READ, source("pkg/ddc/jindocache/transform.go", "transformEnvVariables"),
                  go="Spec.Worker.Env"),
        FieldRead("worker.nodeSelector", READ, source("pkg/ddc/jindocache/transform.go", "transformNodeSelector"),
                  go="Spec.Worker.NodeSelector"),
        FieldRead("worker.podMetadata", READ, source("pkg/ddc/jindocache/transform.go", "transformPodMetadata"),
                  go="Spec.Worker.PodMetadata"),
        FieldRead("worker.volumeMounts", IGNORED, source("pkg/ddc/jindocache/transform.go", "transform"),
                  go="Spec.Worker.VolumeMounts"),
        FieldRead("worker.imagePullSecrets", READ, source("pkg/ddc/jindocache/transform.go", "transformWorker"),
                  go="Spec.Worker.ImagePullSecrets"),
        FieldRead("fuse.podMetadata", READ, source("pkg/ddc/jindocache/transform.go", "transformPodMetadata"),
                  go="Spec.Fuse.PodMetadata"),
        FieldRead("fuse.imagePullSecrets", READ, source("pkg/ddc/jindocache/transform.go", "transformFuse"),
                  go="Spec.Fuse.ImagePullSecrets"),
        FieldRead("fuse.image", READ, source("pkg/ddc/jindocache/transform.go", "parseFuseImage"),
                  go="Spec.Fuse.Image"),
        FieldRead("fuse.imageTag", READ, source("pkg/ddc/jindocache/transform.go", "parseFuseImage"),
                  go="Spec.Fuse.ImageTag"),
        FieldRead("fuse.imagePullPolicy", READ, source("pkg/ddc/jindocache/transform.go", "parseFuseImage"),
                  go="Spec.Fuse.ImagePullPolicy"),
        FieldRead("podMetadata", READ, source("pkg/ddc/jindocache/transform.go", "transformPodMetadata"),
                  go="Spec.PodMetadata"),
        FieldRead("volumes", READ, source("pkg/ddc/jindocache/transform.go", "transformMasterVolumes"),
                  go="Spec.Volumes"),
        FieldRead("imagePullSecrets", READ, source("pkg/ddc/jindocache/transform.go", "transform"),
                  go="Spec.ImagePullSecrets"),
        FieldRead("hadoopConfig", READ,
                  source("pkg/ddc/jindocache/transform_hadoop_config.go", "transformHadoopConfig"),
                  go="Spec.HadoopConfig"),
    ),
    dataset=(
        FieldRead("owner", IGNORED, source(_JT, "transform"), go="Spec.Owner"),
        FieldRead("tolerations", MERGED, source(_JT, "transformTolerations"), go="Spec.Tolerations",
                  note="every component's pods tolerate them, with the component's own tolerations appended"),
        dataset_node_affinity("pkg/ddc/jindocache", "jindocache"),
        dataset_placement("pkg/ddc/jindocache"),
        FieldRead("sharedOptions", READ, source(_JT, "transformMaster"), go="Spec.SharedOptions",
                  note="under each mount's options"),
    ),
)


ENGINE = Engine(
    name="jindo",
    kind=KIND,
    doc=__doc__ or "",
    spec=SPEC,
    operations=frozenset({"DataLoad", "DataProcess"}),
    mounts=Mounts(
        schemes=frozenset({"oss", "s3", "cos", "obs", "hdfs", "dls", "pvc", "local"}),
        storage=STORAGE,
        # pvc:// becomes a UFS volume, local:/// a hostPath; the others each get their bucket settings.
        sources={"schemes": _SOURCE,
                 "single_mount": source("pkg/ddc/jindocache/ufs_internal.go", "mountUFS",
                                        note="every mount of the Dataset is mounted (and gets a cacheset in "
                                             "transformMaster)"),
                 # without a mount there is no cacheset, nothing to mount
                 "needs_mounts": mounts_only("pkg/ddc/jindocache/transform.go", "transformMaster"),
                 "references": not_the_reference_engine()},
    ),
    rules=RULES,
    hooks=Hooks(finish_runtime=_finish, check=_check),
    lowering=Lowering(
        default_profile="jindo-default",
        fuse_mode_source=source(_FUSE_ARG, "transformFuseArg"),
        worker_memory_emptydir=worker_memory_emptydirs,
        sources={"worker_memory_emptydir": (
                     source(_FUSE_ARG, "transformWorkerMountPath", note="one Level per path, Type the volume type, "
                                                                       "Quota that path's quota"),
                     source(_FUSE_ARG, "getMediumTypeFromVolumeSource",
                            note="levels[0]'s volumeSource.emptyDir.medium, when given, is every mount's medium "
                                 "type"),
                     source("charts/jindocache/templates/worker/statefulset.yaml", "sizeLimit",
                            note="an emptyDir mount of MEM: medium Memory, sizeLimit its quota; of medium type "
                                 "Memory: Memory")),
                 "single_tier": source(_FUSE_ARG, "transform", note="only tieredstore.levels[0] is read (path, "
                                       "quota or quotaList, medium and volume type)"),
                 "path_separator": source(_FUSE_ARG, "transform", note="levels[0].path is split at ','"),
                 "mem_default_path": source(_FUSE_ARG, "transform",
                                            note="/dev/shm/ is Fluid's own cache path without a tieredstore; a "
                                                 "level's path is taken as given"),
                 "emptydir_needs_path": source(_FUSE_ARG, "transformWorkerMountPath",
                                               note="each path is where the level's volume (emptyDir too) is "
                                                    "mounted"),
                 "default_replicas": workers_as_written("pkg/ddc/jindocache/worker.go")},
    ),
    created=Created(
        chart_fullname="{name}-jindofs",
        objects=(("StatefulSet", "{full}-master"), ("StatefulSet", "{full}-worker"), ("DaemonSet", "{full}-fuse"),
                 ("Service", "{full}-master-0"), ("ConfigMap", "{full}-config"), ("ConfigMap", "{full}-client-config"),
                 ("ConfigMap", "{name}-jindocache-values")),
        sources={"chart_fullname": source("pkg/ddc/jindocache/transform.go", "FullnameOverride"),
                 "objects": (source("charts/jindocache/templates/master/statefulset.yaml", "StatefulSet"),
                             source("charts/jindocache/templates/worker/statefulset.yaml", "StatefulSet"),
                             source("charts/jindocache/templates/fuse/daemonset.yaml", "DaemonSet"),
                             source("charts/jindocache/templates/master/service.yaml", "Service"),
                             source("charts/jindocache/templates/config/jindofs-conf.yaml", "ConfigMap"),
                             source("charts/jindocache/templates/config/jindofs-client-conf.yaml", "ConfigMap"))},
    ),
    edits=Edits(
        runtime=(*scales("jindocache"), *_SYNC_EDITS),
        # jindocache does not remount (ShouldUpdateUFS returns nothing); on newer Fluid a restarted
        # master mounts paths it lacks (ShouldSyncDatasetMounts), with the bucket endpoints and keys
        # of the configuration rendered when the runtime was created.
        mounts=(MountSync("none", source("pkg/ddc/jindocache/ufs.go", "ShouldUpdateUFS")),),
    ),
    health=Health(sources={"status_shape": runtime_status("api/v1alpha1/jindoruntime_types.go", "JindoRuntime",
                                                          "pkg/ddc/jindocache/worker.go"),
                           "partial_workers_ready": partial_ready("pkg/ddc/jindocache",
                                                                          status_check="syncCacheModeRuntimeStatus")}),
    workloads=Workloads(
        data_layout="per-mount",  # GenUFSPathInUnifiedNamespace in its FUSE/UFS setup
        sources={"data_layout": source("pkg/ddc/jindocache/ufs_internal.go", "GenUFSPathInUnifiedNamespace")},
    ),
    fields=FIELDS,
)
