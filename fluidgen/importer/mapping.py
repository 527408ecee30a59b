"""What each field of a Dataset, runtime and data operation becomes in a spec.

Only first-class keys are written here; residual.py moves whatever the built spec still
misses into overrides. Each function returns the spec fragment and notes for the report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..engines import ENGINES, Engine
from ..lower import runtimekeys
from ..spec import DEFAULT_GPU_LABEL
from .objects import Obj, Scenario

# option names that hold a secret whatever the engine (a value must never stay in options)
SECRET_NAME = re.compile(r"secret|password|passwd|token|access[._-]?key|credential", re.I)
GPU_LABELS = (DEFAULT_GPU_LABEL, "nvidia.com/gpu.product")


@dataclass
class Mapped:
    spec: dict[str, Any]
    env: dict[str, str] = field(default_factory=dict)  # credential values for the round trip, in memory only
    notes: list[str] = field(default_factory=list)  # "what became what"
    failures: list[str] = field(default_factory=list)  # what no spec key (and no override) can say


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
    storage = engine.storage.get(scheme)
    return storage.secret_options if storage is not None else frozenset()


def _existing(encrypt: list[Any], at: str, out: Mapped) -> dict[str, Any] | None:
    """encryptOptions that all read one Secret -> existingSecret."""
    refs = []
    for item in encrypt:
        ref = item.get("valueFrom", {}).get("secretKeyRef", {}) if isinstance(item, dict) else {}
        if not isinstance(ref, dict) or not ref.get("name") or not ref.get("key") or not item.get("name"):
            out.failures.append(f"{at}: an encryptOptions entry without valueFrom.secretKeyRef name and key")
            return None
        refs.append((str(item["name"]), str(ref["name"]), str(ref["key"])))
    secrets = {r[1] for r in refs}
    if len(secrets) != 1:
        out.failures.append(f"{at}: encryptOptions read {len(secrets)} Secrets ({', '.join(sorted(secrets))}); a spec "
                            "reads one per mount")
        return None
    pairs = {opt: key for opt, _, key in refs}
    keys: dict[str, str] | list[str] = [opt for opt, _, _ in refs] if all(o == k for o, k in pairs.items()) else pairs
    return {"existingSecret": {"name": secrets.pop(), "keys": keys}}


def _nfs(scenario: Scenario, claim: str, mount_name: str, out: Mapped) -> dict[str, Any] | None:
    """A PV + PVC pair fluidgen itself would write -> an nfs source (else None: keep pvc://)."""
    pv, pvc = scenario.volumes.get(claim, (None, None))
    if pv is None or pvc is None or pv.name != claim or not isinstance(pv.spec.get("nfs"), dict):
        return None
    pvs, pvcs = pv.spec, pvc.spec
    capacity = pvs.get("capacity", {}).get("storage")
    plain = {"capacity", "volumeMode", "accessModes", "persistentVolumeReclaimPolicy", "storageClassName", "nfs",
             "mountOptions"}
    if set(pvs) - plain or set(pvcs) - {"accessModes", "resources", "storageClassName", "volumeName"} \
            or pvs.get("volumeMode", "Filesystem") != "Filesystem" \
            or pvs.get("persistentVolumeReclaimPolicy", "Retain") != "Retain" \
            or pvcs.get("volumeName", claim) != claim or pvcs.get("accessModes") != pvs.get("accessModes") \
            or pvcs.get("storageClassName") != pvs.get("storageClassName") \
            or pvcs.get("resources") != {"requests": {"storage": capacity}} \
            or set(pvs["nfs"]) - {"server", "path"} or pv.data["metadata"].keys() - {"name"} \
            or pvc.data["metadata"].keys() - {"name", "namespace"}:
        out.notes.append(f"PersistentVolume/{claim}: not in the shape fluidgen writes for NFS; kept as pvc://{claim} "
                         "(the volume and claim are left as they are)")
        return None
    nfs: dict[str, Any] = {"server": pvs["nfs"].get("server"), "path": pvs["nfs"].get("path"), "capacity": capacity}
    if pvs.get("mountOptions"):
        nfs["mountOptions"] = list(pvs["mountOptions"])
    if pvs.get("storageClassName", "nfs") != "nfs":
        nfs["storageClass"] = pvs.get("storageClassName")
    if pvs.get("accessModes") != ["ReadOnlyMany"]:
        nfs["accessModes"] = pvs.get("accessModes")
    if claim != mount_name or claim == scenario.name:
        nfs["volumeName"] = claim
    out.notes.append(f"PersistentVolume + PersistentVolumeClaim {claim} -> source nfs (server {nfs['server']})")
    return nfs


def mounts(scenario: Scenario, engine: Engine, out: Mapped, taken: set[str]) -> list[dict[str, Any]]:
    from ..lower.mounts import scheme_of

    given = [m for m in scenario.dataset.spec.get("mounts") or [] if isinstance(m, dict)]
    source = []
    for i, m in enumerate(given):
        at = f"Dataset {scenario.name} mounts[{i}]"
        point = str(m.get("mountPoint", ""))
        name = m.get("name")
        entry: dict[str, Any] = {}
        nfs = _nfs(scenario, point[len("pvc://"):], str(name or scenario.name), out) \
            if point.startswith("pvc://") and "/" not in point[len("pvc://"):] else None
        if nfs is not None:
            entry["nfs"] = nfs
        else:
            entry["uri"] = point
        default_name = scenario.name if len(given) == 1 else None
        if name is None and nfs is None:
            entry["name"] = None  # unnamed in the input: kept unnamed
        elif name is not None and (name != default_name or nfs is not None):
            entry["name"] = name
        for key in ("path", "readOnly", "shared"):
            if key in m:
                entry[key] = m[key]
        options = dict(m.get("options") or {})
        secret = secret_options(engine, scheme_of(point))
        moved = {k: str(v) for k, v in options.items() if k in secret or SECRET_NAME.search(k)}
        plain = {k: v for k, v in options.items() if k not in moved}
        if plain:
            entry["options"] = plain
        encrypt = m.get("encryptOptions") or []
        if moved and encrypt:
            out.failures.append(f"{at}: secret values in options and encryptOptions together; a spec reads one Secret "
                                "per mount")
        elif moved:
            env = {opt: env_var(opt, taken, str(name or "")) for opt in sorted(moved)}
            out.env.update({env[opt]: value for opt, value in moved.items()})
            entry["credentials"] = {"fromEnv": env}
            out.notes.append(f"{at}: options {', '.join(sorted(moved))} are credentials: now read from the environment "
                             f"({', '.join(env[o] for o in sorted(moved))}) into a generated Secret; set them before "
                             "building, or switch to existingSecret/externalSecret")
        elif encrypt:
            creds = _existing(list(encrypt), at, out)
            if creds is not None:
                entry["credentials"] = creds
        source.append(entry)
    return source


def placement(spec: dict[str, Any], out: Mapped) -> tuple[dict[str, Any], set[str]]:
    """Dataset nodeAffinity/tolerations/placement -> placement; the keys it took."""
    result: dict[str, Any] = {}
    took: set[str] = set()
    affinity = spec.get("nodeAffinity")
    terms = affinity.get("required", {}).get("nodeSelectorTerms") if isinstance(affinity, dict) else None
    if isinstance(affinity, dict) and set(affinity) == {"required"} and isinstance(terms, list) and len(terms) == 1 \
            and isinstance(terms[0], dict) and set(terms[0]) == {"matchExpressions"}:
        exprs = terms[0]["matchExpressions"]
        ok = isinstance(exprs, list) and all(isinstance(e, dict) and set(e) == {"key", "operator", "values"}
                                             and e["operator"] == "In" and isinstance(e["values"], list)
                                             and e["values"] for e in exprs)
        if ok and exprs:
            first, rest = exprs[0], exprs[1:]
            gpu = first["key"] in GPU_LABELS or len(first["values"]) > 1
            selector = rest if gpu else exprs
            keys = [e["key"] for e in selector]
            if all(len(e["values"]) == 1 for e in selector) and keys == sorted(keys) and len(set(keys)) == len(keys):
                if gpu:
                    result["gpu"] = [str(v) for v in first["values"]]
                    if first["key"] != DEFAULT_GPU_LABEL:
                        result["gpuLabel"] = first["key"]
                if selector:
                    result["nodeSelector"] = {e["key"]: str(e["values"][0]) for e in selector}
                took.add("nodeAffinity")
    if isinstance(spec.get("tolerations"), list):
        allowed = {"key", "operator", "value", "effect", "tolerationSeconds"}
        if all(isinstance(t, dict) and set(t) <= allowed for t in spec["tolerations"]):
            result["tolerations"] = spec["tolerations"]
            took.add("tolerations")
    if spec.get("placement") in ("Exclusive", "Shared"):
        result["exclusive"] = spec["placement"] == "Exclusive"
        took.add("placement")
    if took:
        out.notes.append(f"Dataset {', '.join(sorted(took))} -> placement")
    return result, took


def own_metadata(obj: Obj) -> dict[str, Any]:
    meta = obj.data.get("metadata", {})
    return {k: dict(meta[k]) for k in ("labels", "annotations") if isinstance(meta.get(k), dict) and meta[k]}


def _shared(scenario: Scenario, ds: dict[str, Any], spec: dict[str, Any], out: Mapped, taken: set[str]) -> None:
    """sharedOptions and sharedEncryptOptions; secret values among the options become env vars."""
    shared = dict(ds.get("sharedOptions") or {})
    moved = {k: str(v) for k, v in shared.items() if SECRET_NAME.search(k)}
    if {k: v for k, v in shared.items() if k not in moved}:
        spec["sharedOptions"] = {k: v for k, v in shared.items() if k not in moved}
    at = f"Dataset {scenario.name} sharedOptions"
    if moved and ds.get("sharedEncryptOptions"):
        out.failures.append(f"{at}: secret values in sharedOptions and sharedEncryptOptions together; a spec reads "
                            "one Secret for them")
    elif moved:
        env = {opt: env_var(opt, taken, "shared") for opt in sorted(moved)}
        out.env.update({env[opt]: value for opt, value in moved.items()})
        spec["sharedCredentials"] = {"fromEnv": env}
        out.notes.append(f"{at}: {', '.join(sorted(moved))} are credentials: now read from the environment "
                         f"({', '.join(env[o] for o in sorted(moved))})")
    elif ds.get("sharedEncryptOptions"):
        creds = _existing(list(ds["sharedEncryptOptions"]), f"Dataset {scenario.name} sharedEncryptOptions", out)
        if creds is not None:
            spec["sharedCredentials"] = creds


def dataset(scenario: Scenario, engine: Engine, out: Mapped, taken: set[str]) -> None:
    spec, ds = out.spec, scenario.dataset.spec
    source = mounts(scenario, engine, out, taken)
    if source:
        spec["source"] = source
    _shared(scenario, ds, spec, out, taken)
    if ds.get("accessModes"):
        spec["accessModes"] = ds["accessModes"]
    where, _ = placement(ds, out)
    if where:
        spec["placement"] = where
    section = own_metadata(scenario.dataset)
    for key in ("owner", "dataRestoreLocation"):
        if isinstance(ds.get(key), dict):
            section[key] = ds[key]
    if section:
        spec["dataset"] = section


def runtime(scenario: Scenario, engine: Engine, out: Mapped, version: str) -> None:
    if scenario.runtime is None or is_reference(scenario):  # Fluid ignores a reference's runtime spec
        out.spec["runtime"] = {"engine": engine.name}
        out.notes.append(f"Dataset {scenario.name}: a dataset:// reference, runtime {engine.kind} "
                         "(its spec is ignored)")
        return
    rt = scenario.runtime.spec
    section: dict[str, Any] = {"engine": engine.name}
    if "replicas" in rt:
        section["replicas"] = rt["replicas"]
    elif engine.default_replicas is not None:
        section["replicas"] = None  # Fluid's default, as the input left it
    levels = (rt.get("tieredstore") or {}).get("levels") if "tieredstore" in engine.computed else None
    if isinstance(levels, list):
        section["cache"] = [_tier(engine, level, out) for level in levels]
    section.update(runtimekeys.imported(version, engine.kind, rt))
    if engine.section is not None:
        found = engine.import_section(rt)
        if found is not None:
            section[engine.section.key] = found
    section.update(own_metadata(scenario.runtime))
    out.spec["runtime"] = section


def _tier(engine: Engine, level: Any, out: Mapped) -> dict[str, Any]:
    if not isinstance(level, dict):
        out.failures.append("a tieredstore level that is not a mapping")
        return {}
    tier: dict[str, Any] = {"medium": level.get("mediumtype")}
    if level.get("path"):
        paths = str(level["path"]).split(engine.path_separator)
        tier["path"] = paths[0] if len(paths) == 1 else paths
    if "quota" in level:
        tier["quota"] = level["quota"]
    elif "quotaList" in level:
        tier["quota"] = str(level["quotaList"]).split(",")
    for key in ("high", "low", "volumeType"):
        if key in level:
            tier[key] = str(level[key]) if key != "volumeType" else level[key]
    left = set(level) - {"mediumtype", "path", "quota", "quotaList", "high", "low", "volumeType"}
    if left:
        out.failures.append(f"tieredstore level fields a spec cannot write: {', '.join(sorted(left))}")
    return tier


# -- data operations -----------------------------------------------------------------------

def dataflow(scenario: Scenario, out: Mapped) -> None:
    ordered = _order(scenario.operations, out)
    steps = []
    position = {(o.kind, o.name): i for i, o in enumerate(ordered)}
    for i, op in enumerate(ordered):
        step = _step(scenario, op, out)
        after = op.spec.get("runAfter")
        if isinstance(after, dict):
            target = position.get(_ref(after))
            if target is None:
                out.failures.append(f"{op.kind} {op.name} runs after {after.get('kind')} {after.get('name')}, which is "
                                    "not in the input")
            elif target != i - 1:
                step["after"] = ordered[target].name
            if isinstance(after.get("affinityStrategy"), dict):
                step["affinityStrategy"] = after["affinityStrategy"]
        elif i > 0:
            step["after"] = "none"
        steps.append(step)
        out.notes.append(f"{op.kind} {op.name} -> dataflow[{i}]")
    if steps:
        out.spec["dataflow"] = steps


def _order(ops: list[Obj], out: Mapped) -> list[Obj]:
    """Input order, moved so that every operation comes after the one it runs after."""
    by_key = {(o.kind, o.name): o for o in ops}
    done: list[Obj] = []
    visiting: set[int] = set()

    def visit(o: Obj) -> None:
        if any(d is o for d in done) or id(o) in visiting:
            return
        visiting.add(id(o))
        after = o.spec.get("runAfter")
        if isinstance(after, dict) and _ref(after) in by_key:
            visit(by_key[_ref(after)])
        done.append(o)

    for o in ops:
        visit(o)
    return done


def _step(scenario: Scenario, op: Obj, out: Mapped) -> dict[str, Any]:
    s = op.spec
    step: dict[str, Any] = {"name": op.name}
    step.update(own_metadata(op))
    for key in ("ttlSecondsAfterFinished", "nodeSelector", "affinity", "schedulerName"):
        if key in s:
            step[key] = s[key]
    if isinstance(s.get("tolerations"), list):
        step["tolerations"] = s["tolerations"]
    if op.kind == "DataLoad":
        step["load"] = _load(s)
    elif op.kind == "DataMigrate":
        step["migrate"] = _migrate(scenario, op, out)
    elif op.kind == "DataProcess":
        step["process"] = _process(s)
    elif op.kind == "DataBackup":
        step["backup"] = {k: v for k, v in (("path", s.get("backupPath")), ("runAs", s.get("runAs"))) if v}
    return step


def _scheduling(s: dict[str, Any], into: dict[str, Any]) -> None:
    for key in ("policy", "schedule"):
        if key in s:
            into[key] = s[key]


def _load(s: dict[str, Any]) -> dict[str, Any]:
    load: dict[str, Any] = {}
    targets = [t for t in s.get("target") or [] if isinstance(t, dict)]
    counts = {t.get("replicas") for t in targets}
    if not targets:
        load["paths"] = []  # no target, as written (the loader then loads no path; see spec.Load)
    else:
        if len(counts) == 1:
            load["paths"] = [t.get("path") for t in targets]
            if counts != {None}:
                load["replicas"] = counts.pop()
        else:
            load["paths"] = [{"path": t.get("path"), **({"replicas": t["replicas"]} if "replicas" in t else {})}
                             for t in targets]
    if "loadMetadata" in s:
        load["metadata"] = s["loadMetadata"]
    if s.get("options"):
        load["options"] = s["options"]
    _scheduling(s, load)
    return load


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _ref(value: Any) -> tuple[str, str]:
    ref = _mapping(value)
    return str(ref.get("kind")), str(ref.get("name"))


def _migrate(scenario: Scenario, op: Obj, out: Mapped) -> dict[str, Any]:
    s = op.spec
    migrate: dict[str, Any] = {}
    for side, key in (("from", "from"), ("to", "to")):
        end = _mapping(s.get(side))
        if isinstance(end.get("dataset"), dict):
            migrate[key] = end["dataset"].get("path") or "/"
        elif isinstance(end.get("externalStorage"), dict):
            ext = end["externalStorage"]
            migrate[key] = ext.get("uri")
            if ext.get("encryptOptions"):
                creds = _existing(list(ext["encryptOptions"]), f"{op.kind} {op.name} {side}", out)
                if creds is not None:
                    migrate["credentials"] = creds
    for key in ("image", "imageTag", "parallelism", "options"):
        if key in s:
            migrate[key] = s[key]
    ssh = (s.get("parallelOptions") or {}).get("sshSecretName") if isinstance(s.get("parallelOptions"), dict) else None
    if ssh:
        migrate["sshSecretName"] = ssh
    _scheduling(s, migrate)
    return migrate


def _process(s: dict[str, Any]) -> dict[str, Any]:
    ds = _mapping(s.get("dataset"))
    processor = _mapping(s.get("processor"))
    process: dict[str, Any] = {"mountPath": ds.get("mountPath")}
    if ds.get("subPath"):
        process["subPath"] = ds["subPath"]
    if processor.get("serviceAccountName"):
        process["serviceAccount"] = processor["serviceAccountName"]
    job = processor.get("job")
    script = processor.get("script")
    if isinstance(job, dict) and isinstance(job.get("podSpec"), dict):
        process["job"] = job["podSpec"]
    elif isinstance(script, dict):
        process["script"] = script.get("source", "")
        for key in ("image", "imageTag", "restartPolicy"):
            if key in script:
                process[key] = script[key]
        process["command"] = script.get("command", [])
        env = script.get("env")
        if isinstance(env, list) and all(isinstance(e, dict) and set(e) == {"name", "value"} for e in env):
            process["env"] = {e["name"]: e["value"] for e in env}
    _scheduling(s, process)
    return process


def is_reference(scenario: Scenario) -> bool:
    """Only dataset:// mounts: served by the referenced Dataset's runtime, no runtime written."""
    from ..lower.mounts import REFERENCE, scheme_of

    given = [m for m in scenario.dataset.spec.get("mounts") or [] if isinstance(m, dict)]
    return bool(given) and all(scheme_of(str(m.get("mountPoint", ""))) == REFERENCE for m in given)


def engine_of(scenario: Scenario) -> Engine | None:
    if scenario.runtime is None:
        return next((e for e in ENGINES.values() if e.references), None) if is_reference(scenario) else None
    return next((e for e in ENGINES.values() if e.kind == scenario.runtime.kind), None)


def first_class(scenario: Scenario, version: str) -> Mapped:
    engine = engine_of(scenario)
    out = Mapped({"apiVersion": "fluidgen.io/v1alpha1", "kind": "CachedDataset",
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
    runtime(scenario, engine, out, version)
    dataflow(scenario, out)
    return out
