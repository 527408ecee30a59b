"""What each field of a Dataset, runtime and data operation becomes in a spec.

One stage per spec section (source, sharedOptions, placement, dataset, runtime, dataflow),
each returning a Section: the section's value, the input keys it leaves for the overrides
stage (residual.py moves whatever the built spec still misses there), and its findings
(what became what, credential values for the round trip, what no spec key can say).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..base.manifest import Tree
from ..base.uri import REFERENCE, scheme_of
from ..engines.contract import Engine
from ..engines.engine_table import ENGINES
from ..lower import runtimekeys
from ..model.specparts import DEFAULT_GPU_LABEL
from .credentials import credential_name
from .objects import Obj, Scenario

GPU_LABELS = (DEFAULT_GPU_LABEL, "nvidia.com/gpu.product")


T = TypeVar("T")


@dataclass
class Findings:
    env: dict[str, str] = field(default_factory=dict)  # credential values for the round trip, in memory only
    notes: list[str] = field(default_factory=list)  # "what became what"
    failures: list[str] = field(default_factory=list)  # what no spec key (and no override) can say

    def add(self, other: Findings) -> None:
        self.env.update(other.env)
        self.notes += other.notes
        self.failures += other.failures


@dataclass
class Section(Generic[T]):
    """One stage's result: the spec section, its findings, and the input keys it leaves to overrides."""

    value: T
    findings: Findings = field(default_factory=Findings)
    left: tuple[str, ...] = ()


@dataclass
class Mapped(Findings):
    """The whole first-class spec and every stage's findings."""

    spec: Tree = field(default_factory=dict)

    def take(self, key: str, section: Section[Any]) -> None:
        """The section's findings, and its value under `key` unless empty."""
        self.add(section.findings)
        if section.value:
            self.spec[key] = section.value


def env_var(option: str, taken: set[str], prefix: str = "") -> str:
    """fs.oss.accessKeyId -> FS_OSS_ACCESS_KEY_ID (with the mount's name in front if taken)."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", option)
    base = re.sub(r"[^A-Za-z0-9]+", "_", words).strip("_").upper() or "SECRET"
    if base[0].isdigit():
        base = f"V_{base}"
    name = base
    if name in taken and prefix:
        name = f"{re.sub(r'[^A-Za-z0-9]+', '_', prefix).upper()}_{base}"
    n = 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def secret_options(engine: Engine, scheme: str) -> frozenset[str]:
    storage = engine.mounts.storage.get(scheme)
    return storage.secret_options if storage is not None else frozenset()


def _secret_ref(item: Any) -> tuple[str, str, str] | None:
    """An encryptOptions entry as (option, Secret, key); None unless it names all three."""
    ref = item.get("valueFrom", {}).get("secretKeyRef", {}) if isinstance(item, dict) else {}
    if not isinstance(ref, dict) or not ref.get("name") or not ref.get("key") or not item.get("name"):
        return None
    return str(item["name"]), str(ref["name"]), str(ref["key"])


def _secret_keys(refs: list[tuple[str, str, str]]) -> dict[str, str] | list[str]:
    """existingSecret.keys: the option names alone when each is also its key in the Secret."""
    pairs = {opt: key for opt, _, key in refs}
    return [opt for opt, _, _ in refs] if all(o == k for o, k in pairs.items()) else pairs


def _existing(encrypt: list[Any], at: str, out: Findings, key: str = "credentials") -> Tree:
    """encryptOptions that all read one Secret -> existingSecret under `key` (empty when they do not)."""
    refs = []
    for item in encrypt:
        ref = _secret_ref(item)
        if ref is None:
            out.failures.append(f"{at}: an encryptOptions entry without valueFrom.secretKeyRef name and key")
            return {}
        refs.append(ref)
    secrets = {r[1] for r in refs}
    if len(secrets) != 1:
        out.failures.append(f"{at}: encryptOptions read {len(secrets)} Secrets ({', '.join(sorted(secrets))}); a spec "
                            "reads one per mount")
        return {}
    return {key: {"existingSecret": {"name": secrets.pop(), "keys": _secret_keys(refs)}}}


_PLAIN_PV = frozenset({"capacity", "volumeMode", "accessModes", "persistentVolumeReclaimPolicy", "storageClassName",
                       "nfs", "mountOptions"})
_PLAIN_PVC = frozenset({"accessModes", "resources", "storageClassName", "volumeName"})


def _written_by_fluidgen(pv: Obj, pvc: Obj, claim: str) -> bool:
    """The PV + PVC pair has exactly the shape fluidgen writes for an nfs source."""
    pvs, pvcs = pv.spec, pvc.spec
    capacity = _mapping(pvs.get("capacity")).get("storage")
    return not any([
        set(pvs) - _PLAIN_PV, set(pvcs) - _PLAIN_PVC,
        pvs.get("volumeMode", "Filesystem") != "Filesystem",
        pvs.get("persistentVolumeReclaimPolicy", "Retain") != "Retain",
        pvcs.get("volumeName", claim) != claim, pvcs.get("accessModes") != pvs.get("accessModes"),
        pvcs.get("storageClassName") != pvs.get("storageClassName"),
        pvcs.get("resources") != {"requests": {"storage": capacity}},
        set(pvs["nfs"]) - {"server", "path"}, pv.data["metadata"].keys() - {"name"},
        pvc.data["metadata"].keys() - {"name", "namespace"}])


def _nfs(scenario: Scenario, claim: str, mount_name: str, out: Findings) -> Tree | None:
    """A PV + PVC pair fluidgen itself would write -> an nfs source (else None: keep pvc://)."""
    pv, pvc = scenario.volumes.get(claim, (None, None))
    if pv is None or pvc is None or pv.name != claim or not isinstance(pv.spec.get("nfs"), dict):
        return None
    if not _written_by_fluidgen(pv, pvc, claim):
        out.notes.append(f"PersistentVolume/{claim}: not in the shape fluidgen writes for NFS; kept as pvc://{claim} "
                         "(the volume and claim are left as they are)")
        return None
    nfs = _nfs_source(pv.spec)
    if claim != mount_name or claim == scenario.name:
        nfs["volumeName"] = claim
    out.notes.append(f"PersistentVolume + PersistentVolumeClaim {claim} -> source nfs (server {nfs['server']})")
    return nfs


def _nfs_source(pvs: Tree) -> Tree:
    """The nfs source a PersistentVolume's spec gives, leaving out what the spec defaults to."""
    nfs: Tree = {"server": pvs["nfs"].get("server"), "path": pvs["nfs"].get("path"),
                 "capacity": pvs.get("capacity", {}).get("storage")}
    if pvs.get("mountOptions"):
        nfs["mountOptions"] = list(pvs["mountOptions"])
    if pvs.get("storageClassName", "nfs") != "nfs":
        nfs["storageClass"] = pvs.get("storageClassName")
    if pvs.get("accessModes") != ["ReadOnlyMany"]:
        nfs["accessModes"] = pvs.get("accessModes")
    return nfs


def _mount_location(scenario: Scenario, m: Tree, count: int, out: Findings) -> Tree:
    """Where a mount reads from (uri or nfs) and its name."""
    point = str(m.get("mountPoint", ""))
    name = m.get("name")
    claim = point[len("pvc://"):]
    nfs = _nfs(scenario, claim, str(name or scenario.name), out) \
        if point.startswith("pvc://") and "/" not in claim else None
    entry: Tree = {"nfs": nfs} if nfs is not None else {"uri": point}
    entry.update(_mount_name(name, scenario.name if count == 1 else None, nfs is not None))
    entry.update(_picked(m, ("path", "readOnly", "shared")))
    return entry


def _mount_name(name: Any, default: str | None, nfs: bool) -> Tree:
    """The mount's name key: an nfs source keeps any name it has; a URI mount leaves out the
    default name and writes null when unnamed (kept unnamed)."""
    if name is None:
        return {} if nfs else {"name": None}
    return {"name": name} if name != default or nfs else {}


def _split_secret(options: Tree, secret: frozenset[str]) -> tuple[Tree, dict[str, str]]:
    """Options as (plain ones, credential values): an engine's secret option or a credential name."""
    moved = {k: str(v) for k, v in options.items() if k in secret or credential_name(k)}
    return {k: v for k, v in options.items() if k not in moved}, moved


def _from_env(moved: dict[str, str], taken: set[str], prefix: str, out: Findings) -> dict[str, str]:
    """Credential values -> env var names (option -> name, in option order); the values go to
    the findings for the round trip."""
    env = {opt: env_var(opt, taken, prefix) for opt in sorted(moved)}
    out.env.update({env[opt]: value for opt, value in moved.items()})
    return env


def _mount_credentials(m: Tree, secret: frozenset[str], at: str, out: Findings,
                       taken: set[str]) -> Tree:
    """A mount's options and credentials: secret-named options become env var names."""
    plain, moved = _split_secret(dict(m.get("options") or {}), secret)
    entry: Tree = {"options": plain} if plain else {}
    encrypt = m.get("encryptOptions")
    if moved and encrypt:
        out.failures.append(f"{at}: secret values in options and encryptOptions together; a spec reads one Secret "
                            "per mount")
    elif moved:
        env = _from_env(moved, taken, str(m.get("name") or ""), out)
        entry["credentials"] = {"fromEnv": env}
        out.notes.append(f"{at}: options {', '.join(sorted(moved))} are credentials: now read from the environment "
                         f"({', '.join(env.values())}) into a generated Secret; set them before "
                         "building, or switch to existingSecret/externalSecret")
    elif encrypt:
        entry.update(_existing(list(encrypt), at, out))
    return entry


def source(scenario: Scenario, engine: Engine, taken: set[str]) -> Section[list[Tree]]:
    """Dataset mounts -> source."""
    found = Findings()
    given = [m for m in scenario.dataset.spec.get("mounts") or [] if isinstance(m, dict)]
    entries = []
    for i, m in enumerate(given):
        at = f"Dataset {scenario.name} mounts[{i}]"
        entry = _mount_location(scenario, m, len(given), found)
        secret = secret_options(engine, scheme_of(str(m.get("mountPoint", ""))))
        entry.update(_mount_credentials(m, secret, at, found, taken))
        entries.append(entry)
    return Section(entries, found)


def _one_term(affinity: Any) -> Any:
    """The match expressions of a required node affinity of exactly one term (else None)."""
    if not isinstance(affinity, dict) or set(affinity) != {"required"}:
        return None
    terms = _mapping(affinity["required"]).get("nodeSelectorTerms")
    if not isinstance(terms, list) or len(terms) != 1 or not isinstance(terms[0], dict) \
            or set(terms[0]) != {"matchExpressions"}:
        return None
    return terms[0]["matchExpressions"]


def _in_values(expr: Any) -> bool:
    """A `key In [values]` expression with at least one value and nothing else."""
    return isinstance(expr, dict) and set(expr) == {"key", "operator", "values"} and expr["operator"] == "In" \
        and isinstance(expr["values"], list) and bool(expr["values"])


def _simple_terms(affinity: Any) -> list[Tree] | None:
    """The match expressions of a required node affinity of one term of `In` expressions (else None)."""
    exprs = _one_term(affinity)
    if not isinstance(exprs, list) or not exprs or not all(_in_values(e) for e in exprs):
        return None
    return exprs


def _gpu(expr: Tree) -> Tree:
    """The GPU models expression -> gpu, and gpuLabel unless it is the default label."""
    out: Tree = {"gpu": [str(v) for v in expr["values"]]}
    if expr["key"] != DEFAULT_GPU_LABEL:
        out["gpuLabel"] = expr["key"]
    return out


def _node_selector(exprs: list[Tree]) -> Tree | None:
    """Single-value expressions, each key once in sorted order -> nodeSelector (else None)."""
    keys = [e["key"] for e in exprs]
    if not all(len(e["values"]) == 1 for e in exprs) or keys != sorted(keys) or len(set(keys)) != len(keys):
        return None
    return {"nodeSelector": {e["key"]: str(e["values"][0]) for e in exprs}} if exprs else {}


def _node_affinity(affinity: Any) -> Tree | None:
    """A node affinity fluidgen writes (GPU models first, then sorted single-value labels) -> placement keys."""
    exprs = _simple_terms(affinity)
    if exprs is None:
        return None
    first = exprs[0]
    gpu = first["key"] in GPU_LABELS or len(first["values"]) > 1
    selector = _node_selector(exprs[1:] if gpu else exprs)
    if selector is None:
        return None
    return {**(_gpu(first) if gpu else {}), **selector}


TOLERATION_KEYS = frozenset({"key", "operator", "value", "effect", "tolerationSeconds"})


def _tolerations(value: Any) -> Tree | None:
    """Tolerations of the plain Kubernetes fields -> placement.tolerations (else None)."""
    if isinstance(value, list) and all(isinstance(t, dict) and set(t) <= TOLERATION_KEYS for t in value):
        return {"tolerations": value}
    return None


def _exclusive(value: Any) -> Tree | None:
    """placement Exclusive or Shared -> placement.exclusive (else None)."""
    return {"exclusive": value == "Exclusive"} if value in ("Exclusive", "Shared") else None


# Dataset key -> what reads it into placement keys (None: it stays for overrides)
PLACEMENT_READERS: tuple[tuple[str, Callable[[Any], Tree | None]], ...] = (
    ("nodeAffinity", _node_affinity), ("tolerations", _tolerations), ("placement", _exclusive))


def placement(spec: Tree) -> Section[Tree]:
    """Dataset nodeAffinity/tolerations/placement -> placement; what it leaves goes to overrides."""
    found = Findings()
    result: Tree = {}
    took: set[str] = set()
    for key, read in PLACEMENT_READERS:
        keys = read(spec.get(key))
        if keys is not None:
            result.update(keys)
            took.add(key)
    if took:
        found.notes.append(f"Dataset {', '.join(sorted(took))} -> placement")
    return Section(result, found, tuple(k for k, _ in PLACEMENT_READERS if k in spec and k not in took))


def own_metadata(obj: Obj) -> Tree:
    """The object's labels and annotations, lint waivers included (those the chosen profile writes
    again leave the runtime's once the profile is chosen: residual._choose_profile)."""
    meta = obj.data.get("metadata", {})
    return {k: dict(meta[k]) for k in ("labels", "annotations") if isinstance(meta.get(k), dict) and meta[k]}


def shared(scenario: Scenario, ds: Tree, taken: set[str]) -> Section[Tree]:
    """sharedOptions and sharedEncryptOptions; secret values among the options become env vars."""
    found = Findings()
    plain, moved = _split_secret(dict(ds.get("sharedOptions") or {}), frozenset())
    spec: Tree = {"sharedOptions": plain} if plain else {}
    at = f"Dataset {scenario.name} sharedOptions"
    encrypt = ds.get("sharedEncryptOptions")
    if moved and encrypt:
        found.failures.append(f"{at}: secret values in sharedOptions and sharedEncryptOptions together; a spec reads "
                              "one Secret for them")
    elif moved:
        env = _from_env(moved, taken, "shared", found)
        spec["sharedCredentials"] = {"fromEnv": env}
        found.notes.append(f"{at}: {', '.join(sorted(moved))} are credentials: now read from the environment "
                           f"({', '.join(env.values())})")
    elif encrypt:
        spec.update(_existing(list(encrypt), f"Dataset {scenario.name} sharedEncryptOptions", found,
                              "sharedCredentials"))
    return Section(spec, found)


def dataset_section(scenario: Scenario) -> Section[Tree]:
    """Dataset metadata, owner and dataRestoreLocation -> dataset."""
    ds = scenario.dataset.spec
    section = own_metadata(scenario.dataset)
    for key in ("owner", "dataRestoreLocation"):
        if isinstance(ds.get(key), dict):
            section[key] = ds[key]
    return Section(section)


def dataset(scenario: Scenario, engine: Engine, out: Mapped, taken: set[str]) -> None:
    """Every section read from the Dataset, in spec order."""
    ds = scenario.dataset.spec
    out.take("source", source(scenario, engine, taken))
    both = shared(scenario, ds, taken)
    out.add(both.findings)
    out.spec.update(both.value)
    if ds.get("accessModes"):
        out.spec["accessModes"] = ds["accessModes"]
    out.take("placement", placement(ds))
    out.take("dataset", dataset_section(scenario))


def runtime(scenario: Scenario, engine: Engine, version: str) -> Section[Tree]:
    """The runtime object -> runtime (engine, replicas, cache tiers, runtime keys, the engine's own section)."""
    found = Findings()
    if scenario.runtime is None or is_reference(scenario):  # Fluid ignores a reference's runtime spec
        found.notes.append(f"Dataset {scenario.name}: a dataset:// reference, runtime {engine.kind} "
                           "(its spec is ignored)")
        return Section({"engine": engine.name}, found)
    rt = scenario.runtime.spec
    section: Tree = {"engine": engine.name, **_replicas(rt, engine), **_cache(rt, engine, found),
                     **runtimekeys.imported(version, engine, rt), **_engine_section(rt, engine),
                     **own_metadata(scenario.runtime)}
    return Section(section, found)


def _replicas(rt: Tree, engine: Engine) -> Tree:
    """replicas as written; null where the input leaves it to a default of Fluid's."""
    if "replicas" in rt:
        return {"replicas": rt["replicas"]}
    return {"replicas": None} if engine.lowering.default_replicas is not None else {}


def _cache(rt: Tree, engine: Engine, found: Findings) -> Tree:
    """tieredstore levels -> cache tiers, for an engine whose tiers the spec computes."""
    levels = _mapping(rt.get("tieredstore")).get("levels") if "tieredstore" in engine.lowering.computed else None
    return {"cache": [_tier(engine, level, found) for level in levels]} if isinstance(levels, list) else {}


def _engine_section(rt: Tree, engine: Engine) -> Tree:
    """The engine's own spec section, read by its import hook (none without a section: the
    default hook reads nothing)."""
    own = engine.hooks.import_section(rt)
    return {engine.section.key: own} if own is not None and engine.section is not None else {}


def _tier(engine: Engine, level: Any, out: Findings) -> Tree:
    if not isinstance(level, dict):
        out.failures.append("a tieredstore level that is not a mapping")
        return {}
    tier: Tree = {"medium": level.get("mediumtype"), **tier_path(level, engine.lowering.path_separator),
                  **_quota(level), **{k: str(level[k]) for k in ("high", "low") if k in level},
                  **_picked(level, ("volumeType",))}
    left = set(level) - {"mediumtype", "path", "quota", "quotaList", "high", "low", "volumeType"}
    if left:
        out.failures.append(f"tieredstore level fields a spec cannot write: {', '.join(sorted(left))}")
    return tier


def tier_path(level: Tree, separator: str) -> Tree:
    """path: one directory as text, several as a list."""
    if not level.get("path"):
        return {}
    paths = str(level["path"]).split(separator)
    return {"path": paths[0] if len(paths) == 1 else paths}


def _quota(level: Tree) -> Tree:
    """quota as written, or quotaList as a list (a quota per path)."""
    if "quota" in level:
        return {"quota": level["quota"]}
    return {"quota": str(level["quotaList"]).split(",")} if "quotaList" in level else {}


# -- data operations -----------------------------------------------------------------------

def dataflow(scenario: Scenario) -> Section[list[Tree]]:
    """Data operations -> dataflow steps, in runAfter order."""
    found = Findings()
    ordered = _order(scenario.operations, found)
    steps = []
    position = {(o.kind, o.name): i for i, o in enumerate(ordered)}
    for i, op in enumerate(ordered):
        step = _step(op, found)
        step.update(_after(op, i, position, ordered, found))
        steps.append(step)
        found.notes.append(f"{op.kind} {op.name} -> dataflow[{i}]")
    return Section(steps, found)


def _after(op: Obj, i: int, position: dict[tuple[str, str], int], ordered: list[Obj],
           found: Findings) -> Tree:
    """A step's after/affinityStrategy from its runAfter (the previous step is the default)."""
    after = op.spec.get("runAfter")
    if not isinstance(after, dict):
        return {"after": "none"} if i > 0 else {}
    out: Tree = {}
    target = position.get(_ref(after))
    if target is None:
        found.failures.append(f"{op.kind} {op.name} runs after {after.get('kind')} {after.get('name')}, which is "
                              "not in the input")
    elif target != i - 1:
        out["after"] = ordered[target].name
    if isinstance(after.get("affinityStrategy"), dict):
        out["affinityStrategy"] = after["affinityStrategy"]
    return out


def _order(ops: list[Obj], out: Findings) -> list[Obj]:
    """Input order, moved so that every operation comes after the one it runs after (iterative:
    a runAfter chain is as long as the input makes it; a cycle ends where it closes)."""
    by_key = {(o.kind, o.name): o for o in ops}
    placed: set[int] = set()
    done: list[Obj] = []
    for o in ops:
        chain: list[Obj] = []
        current: Obj | None = o
        while current is not None and id(current) not in placed and all(c is not current for c in chain):
            chain.append(current)
            after = current.spec.get("runAfter")
            current = by_key.get(_ref(after)) if isinstance(after, dict) else None
        for step in reversed(chain):
            placed.add(id(step))
            done.append(step)
    return done


STEP_KEYS = ("ttlSecondsAfterFinished", "nodeSelector", "affinity", "schedulerName")
SCHEDULING = ("policy", "schedule")


def _step(op: Obj, out: Findings) -> Tree:
    s = op.spec
    step: Tree = {"name": op.name, **own_metadata(op), **_picked(s, STEP_KEYS)}
    if isinstance(s.get("tolerations"), list):
        step["tolerations"] = s["tolerations"]
    if op.kind in OPERATION_READERS:
        key, read = OPERATION_READERS[op.kind]
        step[key] = read(op, out)
    return step


def _load(op: Obj, out: Findings) -> Tree:
    s = op.spec
    targets = [t for t in s.get("target") or [] if isinstance(t, dict)]
    load = _load_paths(targets)
    if "loadMetadata" in s:
        load["metadata"] = s["loadMetadata"]
    if s.get("options"):
        load["options"] = s["options"]
    return {**load, **_picked(s, SCHEDULING)}


def _load_paths(targets: list[Tree]) -> Tree:
    """The targets' paths, with one replicas count when they all have the same (no target: no
    path, as written; the loader then loads no path, see spec.Load)."""
    counts = {t.get("replicas") for t in targets}
    if len(counts) != 1:
        return {"paths": [{"path": t.get("path"), **({"replicas": t["replicas"]} if "replicas" in t else {})}
                          for t in targets]}
    load: Tree = {"paths": [t.get("path") for t in targets]}
    if counts != {None}:
        load["replicas"] = counts.pop()
    return load


def _mapping(value: Any) -> Tree:
    return value if isinstance(value, dict) else {}


def _picked(source: Tree, keys: tuple[str, ...]) -> Tree:
    """The `keys` that `source` has, in the order of `keys`."""
    return {k: source[k] for k in keys if k in source}


def _ref(value: Any) -> tuple[str, str]:
    ref = _mapping(value)
    return str(ref.get("kind")), str(ref.get("name"))


def _migrate(op: Obj, out: Findings) -> Tree:
    s = op.spec
    migrate: Tree = {}
    for side in ("from", "to"):
        migrate.update(_migrate_end(_mapping(s.get(side)), side, f"{op.kind} {op.name} {side}", out))
    migrate.update(_picked(s, ("image", "imageTag", "parallelism", "options")))
    ssh = _mapping(s.get("parallelOptions")).get("sshSecretName")
    if ssh:
        migrate["sshSecretName"] = ssh
    return {**migrate, **_picked(s, SCHEDULING)}


def _migrate_end(end: Tree, side: str, at: str, out: Findings) -> Tree:
    """One side of a migration: a path in the Dataset, or external storage's URI and the
    Secret its encryptOptions read."""
    if isinstance(end.get("dataset"), dict):
        return {side: end["dataset"].get("path") or "/"}
    ext = end.get("externalStorage")
    if not isinstance(ext, dict):
        return {}
    return {side: ext.get("uri"), **(_existing(list(ext["encryptOptions"]), at, out) if ext.get("encryptOptions")
                                      else {})}


def _process(op: Obj, out: Findings) -> Tree:
    s = op.spec
    ds = _mapping(s.get("dataset"))
    processor = _mapping(s.get("processor"))
    process: Tree = {"mountPath": ds.get("mountPath")}
    if ds.get("subPath"):
        process["subPath"] = ds["subPath"]
    if processor.get("serviceAccountName"):
        process["serviceAccount"] = processor["serviceAccountName"]
    job = processor.get("job")
    script = processor.get("script")
    if isinstance(job, dict) and isinstance(job.get("podSpec"), dict):
        process["job"] = job["podSpec"]
    elif isinstance(script, dict):
        process.update(_script(script))
    return {**process, **_picked(s, SCHEDULING)}


def _script(script: Tree) -> Tree:
    """A script processor -> script, image, command, and env when it is plain name/value pairs."""
    process: Tree = {"script": script.get("source", ""), **_picked(script, ("image", "imageTag", "restartPolicy")),
                     "command": script.get("command", [])}
    env = script.get("env")
    if isinstance(env, list) and all(isinstance(e, dict) and set(e) == {"name", "value"} for e in env):
        process["env"] = {e["name"]: e["value"] for e in env}
    return process


def _backup(op: Obj, out: Findings) -> Tree:
    s = op.spec
    return {k: v for k, v in (("path", s.get("backupPath")), ("runAs", s.get("runAs"))) if v}


# operation kind -> the step key it becomes and what reads the operation into it
OPERATION_READERS: dict[str, tuple[str, Callable[[Obj, Findings], Tree]]] = {
    "DataLoad": ("load", _load), "DataMigrate": ("migrate", _migrate), "DataProcess": ("process", _process),
    "DataBackup": ("backup", _backup)}


def is_reference(scenario: Scenario) -> bool:
    """Only dataset:// mounts: served by the referenced Dataset's runtime, no runtime written."""
    given = [m for m in scenario.dataset.spec.get("mounts") or [] if isinstance(m, dict)]
    return bool(given) and all(scheme_of(str(m.get("mountPoint", ""))) == REFERENCE for m in given)


def engine_of(scenario: Scenario) -> Engine | None:
    if scenario.runtime is None:
        return next((e for e in ENGINES.values() if e.mounts.references), None) if is_reference(scenario) else None
    return next((e for e in ENGINES.values() if e.kind == scenario.runtime.kind), None)


def first_class(scenario: Scenario, version: str) -> Mapped:
    engine = engine_of(scenario)
    out = Mapped(spec={"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
                       "metadata": {"name": scenario.name}})
    if scenario.namespace:
        out.spec["metadata"]["namespace"] = scenario.namespace
    if engine is None:
        kinds = ", ".join(sorted(e.kind for e in ENGINES.values()))
        out.failures.append(f"Dataset {scenario.name}: no runtime named {scenario.name} in the input (give the file "
                            f"with its runtime: one of {kinds})")
        return out
    taken: set[str] = set()
    dataset(scenario, engine, out, taken)
    out.take("runtime", runtime(scenario, engine, version))
    out.take("dataflow", dataflow(scenario))
    return out
