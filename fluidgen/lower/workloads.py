"""Training jobs (`workloads:`) and the RBAC of data operations that submit jobs.

A job mounts the claim Fluid creates for the Dataset (its name, its namespace), read-only
when Fluid serves the Dataset read-only (ReadOnlyMany among its access modes, or none:
fluidbase.read_only_dataset), and is pinned to the nodes the cache is pinned to, so
training reads from local cache workers. The data appears where the engine's FUSE puts it
(Engine.workloads.data_layout): the job learns the path from an environment variable (DATA_DIR).
"""

from __future__ import annotations

import posixpath

from ..base.diagnostics import PathT
from ..base.manifest import Manifest, Tree
from ..base.uri import REFERENCE_PREFIX, is_reference
from ..engines import engine_table
from ..engines.contract import Engine
from ..engines.contract import replicas as cache_workers
from ..fluid.fluidbase import mount_path, read_only_dataset, reference_subpath
from ..fluid.jobkinds import GPU, WORKLOADS, Pod, submit_reasons, submit_rules
from ..model.context import BuiltDataset, Context
from ..model.specparts import Process, Workload
from .dataflow import hashed_name, step_name
from .dataset import node_affinity
from .mounts import mount_name_for

DATA_VOLUME, SHM_VOLUME, SHM_PATH = "dataset", "dshm", "/dev/shm"
WHY_ANNOTATION = "fluidgen.io/why"


def data_dir(ctx: Context, engine: Engine, w: Workload) -> str:
    """Where the data is inside the pod: the mount path, the mount's place in the engine's
    namespace (one mount: its absolute path, else /<name>, and "/" for an unnamed one:
    fluidbase.mount_path, GenUFSPathInUnifiedNamespace), and the folder the spec names. For a
    dataset:// reference to the root of a Dataset the run builds, the place its own engine
    gives its mounts (the reference's volume is that Dataset's: _referenced)."""
    where = w.mountPath
    mounts = ctx.spec.source
    target = _referenced(ctx)
    if target is not None:
        where = posixpath.join(where, _layout_path(target.layout, list(target.mounts)).lstrip("/"))
    elif engine.workloads.data_layout == "per-mount" and len(mounts) == 1:
        mount = mounts[0]
        unnamed = mount.name is None and "name" in mount.model_fields_set  # `name: null`: no name in the Dataset
        path = mount_path(None if unnamed else mount_name_for(ctx, 0, mount), mount.path)
        where = posixpath.join(where, path.lstrip("/"))
    if w.dataSubPath:
        where = posixpath.join(where, w.dataSubPath.strip("/"))
    return posixpath.normpath(where)


def _layout_path(layout: str, mounts: list[tuple[str | None, str | None]]) -> str:
    """Where a Dataset's data sits in its volume: the one mount's place in the namespace of a
    per-mount engine (fluidbase.mount_path), else the volume's root (several mounts sit at their
    own paths below it; the other engines mount their one mount at the root)."""
    if layout == "per-mount" and len(mounts) == 1:
        return mount_path(*mounts[0])
    return "/"


def _reference(ctx: Context) -> tuple[str, str, str] | None:
    """(uri, namespace, name) of the spec's dataset:// reference to another Dataset's root (no
    subpath: with one the volume is that folder), or None."""
    mounts = ctx.spec.source
    uri = mounts[0].uri if len(mounts) == 1 else None
    if uri is None or not is_reference(uri) or reference_subpath(uri):
        return None
    namespace, _, rest = uri[len(REFERENCE_PREFIX):].partition("/")
    return uri, namespace, rest.strip("/")


def _referenced(ctx: Context) -> BuiltDataset | None:
    """The Dataset a reference names, when this run built it: a dataset:// reference's volume is
    the referenced Dataset's volume plus the subpath (pkg/ddc/thin/referencedataset/volume.go
    createFusePersistentVolume), so its data sits where that Dataset's engine puts it."""
    ref = _reference(ctx)
    return ctx.datasets.get((ref[1], ref[2])) if ref is not None else None


def _reference_layout(ctx: Context, w: Workload, at: PathT) -> None:
    """A reference to a Dataset this run does not build: its layout is not known here."""
    ref = _reference(ctx)
    if ref is None or w.dataSubPath or _referenced(ctx) is not None:
        return
    uri = ref[0]
    per_mount = ", ".join(sorted(n for n, e in engine_table.all_engines().items()
                                 if e.workloads.data_layout == "per-mount"))
    ctx.report((*at, "dataSubPath"),
               f"{w.dataEnv or 'the job'} is the root of {uri}, laid out by the referenced Dataset's engine "
               f"(its layout: {per_mount} put each mount at /<mount name>, the others their one mount at the "
               "root); set dataSubPath to the mount name, or reference "
               f"{uri.rstrip('/')}/<folder>, or build the referenced Dataset in the same run", "warning")


def lower_workloads(ctx: Context, engine: Engine) -> list[Manifest]:
    out = []
    names: dict[str, int] = {}
    for i, w in enumerate(ctx.spec.workloads):
        at: PathT = ("workloads", i)
        if w.name in names:
            ctx.report((*at, "name"), f"workloads[{names[w.name]}] is also named {w.name}")
        names.setdefault(w.name, i)
        if _checked(ctx, w, at):
            out.append(_object(ctx, engine, w, at))
    return out


def _mount_path_problem(w: Workload) -> str | None:
    if not w.mountPath.startswith("/") or posixpath.normpath(w.mountPath) == "/":
        return f'"{w.mountPath}" must be an absolute path below /, such as /data'
    mount = posixpath.normpath(w.mountPath)
    if mount == SHM_PATH or mount.startswith(SHM_PATH + "/") or SHM_PATH.startswith(mount + "/"):
        return f"{w.mountPath} collides with {SHM_PATH}, where the job's shared memory is mounted"
    return None


def _errors(ctx: Context, w: Workload) -> list[tuple[str, str]]:
    """(key, message) of each reason the job cannot be written, in the order they are reported."""
    kind = WORKLOADS[w.kind]
    mount_path = _mount_path_problem(w)
    checks = (  # (key, whether it is wrong, why)
        ("namespace", w.namespace is not None and w.namespace != ctx.namespace,
         f"the job is in namespace {w.namespace}, the dataset in {ctx.namespace}; a pod can mount only a claim of "
         "its own namespace"),
        ("mountPath", mount_path is not None, str(mount_path)),
        ("workers", not kind.multi_node and w.workers > 1,
         f"a {w.kind} runs one pod; use MPIJob, PyTorchJob or TrainJob for {w.workers} workers"),
        ("workingDir", bool(w.workingDir) and not kind.working_dir,
         f"{w.kind} cannot set the working directory (the runtime owns the container); change directory in the "
         "command"),
        ("runtime", w.runtime is not None and w.kind != "TrainJob",
         "runtime names a ClusterTrainingRuntime and applies to TrainJob only"),
        ("workerCommand", bool(w.workerCommand) and w.kind != "MPIJob", "workerCommand applies to MPIJob only"),
        ("cleanPodPolicy", w.cleanPodPolicy is not None and w.kind not in ("MPIJob", "PyTorchJob"),
         "cleanPodPolicy applies to MPIJob and PyTorchJob only"),
    )
    return [(key, message) for key, wrong, message in checks if wrong]


def _checked(ctx: Context, w: Workload, at: PathT) -> bool:
    kind = WORKLOADS[w.kind]
    errors = _errors(ctx, w)
    for key, message in errors:
        ctx.report((*at, key), message)
    replicas = cache_workers(ctx, engine_table.engine(ctx.spec.runtime.engine))
    if kind.multi_node and replicas is not None and w.workers > replicas:
        # Only more training nodes than cache workers leaves some without a local cache worker;
        # fewer (1 job on 4 cache workers, the NFS guide's 1x8 run) reads the cache locally.
        ctx.report((*at, "workers"), f"{w.workers} workers but runtime.replicas is {replicas}: "
                                     f"{w.workers - replicas} training node(s) without a cache worker read over "
                                     "the network; raise runtime.replicas to match", "warning")
    if w.gpus and not ctx.spec.placement.gpu:
        ctx.report((*at, "gpus"), "the job asks for GPUs but placement.gpu names no GPU model, so the cache "
                                  "may sit on other nodes than the training", "warning")
    return not errors


def _object(ctx: Context, engine: Engine, w: Workload, at: PathT) -> Tree:
    kind = WORKLOADS[w.kind]
    env = _env(ctx, engine, w, at)
    mounts, volumes = _volumes(ctx, w)
    affinity = node_affinity(ctx)
    pod = Pod(image=w.image, command=list(w.command), args=list(w.args), working_dir=w.workingDir,
              env=[{"name": k, "value": env[k]} for k in sorted(env)], resources=_resources(w), volume_mounts=mounts,
              volumes=volumes,
              affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": affinity["required"]}}
              if affinity else None,
              tolerations=[t.model_dump(exclude_none=True) for t in ctx.spec.placement.tolerations],
              service_account=w.serviceAccount, workers=w.workers, gpus=w.gpus,
              options={k: v for k, v in (("runtime", w.runtime), ("cleanPodPolicy", w.cleanPodPolicy),
                                         ("workerCommand", list(w.workerCommand) or None)) if v is not None})
    spec = kind.build(pod)
    # nameHash: a job's spec edits are refused or ignored in place (fluid/updates.py); a new name runs them
    name = hashed_name(w.name, kind.kind, spec) if w.nameHash else w.name
    obj = {"apiVersion": kind.api_version, "kind": kind.kind, "metadata": ctx.metadata(name), "spec": spec}
    ctx.trace(obj, (), at)
    ctx.trace(obj, ("metadata", "name"), (*at, "name"))
    return obj


def _env(ctx: Context, engine: Engine, w: Workload, at: PathT) -> dict[str, str]:
    """The job's environment: as given, and with dataEnv, the variable naming where the data is."""
    env = dict(w.env)
    if not w.dataEnv:
        return env
    _reference_layout(ctx, w, at)
    where = data_dir(ctx, engine, w)
    if w.dataEnv in env and env[w.dataEnv] != where:
        ctx.report((*at, "env", w.dataEnv), f"{w.dataEnv}={env[w.dataEnv]}, but the data is at {where} (mount "
                                            f"path + where {engine.kind} puts the mount); kept as given",
                   "warning")
    env.setdefault(w.dataEnv, where)
    return env


def _resources(w: Workload) -> Tree:
    """The container's requests (cpu, memory, GPUs) and limits (GPUs)."""
    requests: Tree = {key: value for key, value in (("cpu", w.cpu), ("memory", w.memory)) if value is not None}
    resources: Tree = {}
    if w.gpus:
        requests[GPU] = w.gpus
        resources["limits"] = {GPU: w.gpus}
    if requests:
        resources["requests"] = requests
    return resources


def _volumes(ctx: Context, w: Workload) -> tuple[list[Tree], list[Tree]]:
    """The container's volume mounts and the pod's volumes: the Dataset's claim (read-only when
    Fluid serves the Dataset read-only: fluidbase.read_only_dataset) and the shared memory."""
    read_only = {"readOnly": True} if read_only_dataset(ctx.access_modes()) else {}
    mounts: list[Tree] = [{"name": DATA_VOLUME, "mountPath": posixpath.normpath(w.mountPath), **read_only}]
    volumes: list[Tree] = [{"name": DATA_VOLUME, "persistentVolumeClaim": {"claimName": ctx.name, **read_only}}]
    if w.shm is not None:
        mounts.append({"name": SHM_VOLUME, "mountPath": SHM_PATH})
        volumes.append({"name": SHM_VOLUME, "emptyDir": {"medium": "Memory", "sizeLimit": w.shm}})
    return mounts, volumes


def _submitters(ctx: Context) -> dict[str, list[tuple[int, Process, str]]]:
    """The steps whose scripts submit jobs, by service account: (index, process, step name)."""
    by_account: dict[str, list[tuple[int, Process, str]]] = {}
    for i, step in enumerate(ctx.spec.dataflow):
        p = step.process
        if p is not None and p.submits is not None and p.serviceAccount is not None:
            by_account.setdefault(p.serviceAccount, []).append((i, p, step_name(ctx, i, step)))
    return by_account


def submitter_rbac(ctx: Context) -> list[Manifest]:
    """ServiceAccount, Role and RoleBinding per service account of the steps whose scripts
    submit jobs (the kinds of all its steps together)."""
    by_account = _submitters(ctx)
    out = []
    for account in sorted(by_account):
        steps = by_account[account]
        tools = {p.submits.tool for _, p, _ in steps if p.submits is not None}
        if len(tools) > 1:
            ctx.report(("dataflow", steps[-1][0], "process", "submits", "tool"), f"the steps using service account "
                       f"{account} submit with {' and '.join(sorted(tools))}; give them one tool or two accounts")
            continue
        kinds = sorted({k for _, p, _ in steps if p.submits is not None for k in p.submits.kinds})
        out += _rbac(ctx, account, kinds, tools.pop(), [name for _, _, name in steps],
                     ("dataflow", steps[0][0], "process", "submits"))
    return out


def _rbac(ctx: Context, account: str, kinds: list[str], tool: str, steps: list[str], at: PathT
          ) -> list[Manifest]:
    role = f"{account}-submitter"
    why = (f"data operation {', '.join(steps)} submits and watches {', '.join(kinds)} with {tool}. "
           f"{submit_reasons(kinds, tool)}")
    meta = ctx.metadata(role)
    meta.setdefault("annotations", {})[WHY_ANNOTATION] = why
    objects: list[Manifest] = [
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": ctx.metadata(account)},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta,
         "rules": submit_rules(kinds, tool)},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": ctx.metadata(role),
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": role},
         "subjects": [{"kind": "ServiceAccount", "name": account, "namespace": ctx.namespace}]},
    ]
    for obj in objects:
        ctx.trace(obj, (), at)
    return objects
