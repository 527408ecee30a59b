"""The failure families: what each reads in the dump, the cause it names, and the spec place it
points at. Every text matched is a `Said` of facts.py, with where Fluid or Kubernetes writes it.
"Ready" is health()'s judgement (fluidgen/catalog/healthcheck.py), called, never copied."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..base.diagnostics import format_path
from ..base.manifest import Manifest, Tree
from ..base.quantity import java_size_to_bytes, to_bytes
from ..catalog.healthcheck import health
from ..engines.engine_table import BY_KIND
from ..fluid.operations import OPERATIONS
from . import facts
from .cluster import Cluster, Key, Owner, key_of, label, runtime_spec_key
from .dump import FLUID_SYSTEM, Redactor
from .findings import OUTSIDE, Finding

PathT = tuple[str | int, ...]


@dataclass
class Run:
    cluster: Cluster
    logs: dict[str, str]
    redact: Redactor

    def finding(self, family: str, objects: list[Key], evidence: str, cause: str, fix: str,
                at: tuple[Manifest, PathT] | None = None, outside: str | None = None,
                key: PathT = ()) -> Finding:
        """`at`: the generated object and field that caused it, reported where the spec set that
        field; `key`: a spec key path below it that names the value itself (placement.gpu)."""
        place: dict[str, Any] = {}
        if at is not None:
            where = self.cluster.result.locate(*at)
            doc = self.cluster.result.spec_of(at[0])
            if where is not None and key and doc is not None and (where[3] == key[:len(where[3])] or not at[1]):
                where = (*doc.locate(key), key)
            if where is not None:
                file, line, col, path = where
                if path == ("runtime", "profile"):
                    fix += ("; the value comes from the profile named here (`fluidgen profiles show` lists it): "
                            "change it with runtime.overrides or a profile of your own")
                place = {"file": file, "line": line or None, "column": col or None,
                         "path": format_path(path) if path else None}
        if not place:
            outside = outside or OUTSIDE
        return Finding(family, tuple(self.redact.text(label(k)) for k in objects), self.redact.text(evidence),
                       self.redact.text(cause, 800), self.redact.text(fix, 800), outside=outside, **place)


def _get(obj: Any, *path: str | int) -> Any:
    for part in path:
        if isinstance(part, int):
            obj = obj[part] if isinstance(obj, list) and -len(obj) <= part < len(obj) else None
        else:
            obj = obj.get(part) if isinstance(obj, Mapping) else None
    return obj


def _list(obj: Any, *path: str | int) -> list[Any]:
    found = _get(obj, *path)
    return found if isinstance(found, list) else []


def _dataset_of(run: Run, obj: Manifest) -> Manifest | None:
    _, ns, name = key_of(obj)
    return run.cluster.generated.get(("Dataset", ns, name))


def _runtime_of(run: Run, dataset: Manifest) -> Manifest | None:
    _, ns, name = key_of(dataset)
    return next((o for k, o in run.cluster.generated.items() if k[0] in BY_KIND and k[1:] == (ns, name)), None)


# Scheduling ------------------------------------------------------------------------------


def _unschedulable(run: Run, pod: Tree) -> str:
    """The scheduler's message for a Pending pod: its PodScheduled condition, else the newest
    FailedScheduling event."""
    if _get(pod, "status", "phase") not in ("Pending", None):
        return ""
    # Bound since (the scheduler's binding sets spec.nodeName and PodScheduled=True): an older
    # FailedScheduling event is stale, and the pod waits on something else (its image, a volume).
    if _get(pod, "spec", "nodeName") or any(isinstance(c, Mapping) and c.get("type") == "PodScheduled"
                                            and c.get("status") == "True" for c in _list(pod, "status", "conditions")):
        return ""
    for cond in _list(pod, "status", "conditions"):
        if isinstance(cond, Mapping) and cond.get("type") == "PodScheduled" and cond.get("status") == "False" \
                and cond.get("reason") == facts.UNSCHEDULABLE.text:
            return str(cond.get("message") or "")
    event = next((e for e in run.cluster.events_of(key_of(pod)) if e.reason == facts.FAILED_SCHEDULING.text), None)
    return event.message if event is not None else ""


def _placement_at(run: Run, owner: Owner, field: str) -> tuple[Manifest, PathT] | None:
    """Where a pod's placement comes from: a runtime's master and workers take the Dataset's
    nodeAffinity and tolerations (pkg/ctrl/affinity.go, transformTolerations); FUSE its runtime's
    fuse.nodeSelector; an operation's job and a training job their own."""
    if (owner.component in ("master", "worker", "runtime", "fuse") and field == "tolerations") or \
            (owner.component in ("master", "worker", "runtime") and field == "nodeAffinity"):
        dataset = _dataset_of(run, owner.obj)
        return (dataset, ("spec", field)) if dataset is not None else None
    if owner.component == "fuse":
        return owner.obj, ("spec", runtime_spec_key(owner.obj, "fuse"), "nodeSelector")
    if owner.component == "job":
        return owner.obj, ("spec", "affinity" if field == "nodeAffinity" else field)
    return owner.obj, ("spec",)


def _required_terms(pod: Tree) -> list[tuple[str, str, list[str]]]:
    terms = _list(pod, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                  "nodeSelectorTerms")
    out = [(str(e.get("key")), str(e.get("operator")), [str(v) for v in _list(e, "values")])
           for t in terms for e in _list(t, "matchExpressions") if isinstance(e, Mapping)]
    selector = _get(pod, "spec", "nodeSelector")
    if isinstance(selector, Mapping):
        out += [(str(k), "In", [str(v)]) for k, v in selector.items()]
    return out


def _node_labels(run: Run, key: str) -> dict[str, int]:
    seen: dict[str, int] = {}
    for node in run.cluster.of_kind("Node"):
        value = _get(node, "metadata", "labels", key)
        if isinstance(value, str):
            seen[value] = seen.get(value, 0) + 1
    return seen


def scheduling(run: Run) -> Iterator[Finding]:
    for pod, owner in run.cluster.pods():
        message = _unschedulable(run, pod)
        if not message:
            continue
        key = key_of(pod)
        if facts.NODE_AFFINITY.text in message:
            yield _affinity(run, pod, key, owner, message)
        if facts.UNTOLERATED_TAINT.text in message:
            taints = sorted(set(re.findall(r"untolerated taint \{([^}]*)\}", message)))
            yield run.finding(
                "scheduling", [key], f"Pending: {message}",
                f"nodes carry taints {', '.join('{' + t + '}' for t in taints)} that the pod does not tolerate",
                "add a toleration for each taint (placement.tolerations: key, operator, effect); Fluid gives the "
                "Dataset's tolerations to the runtime's pods", _placement_at(run, owner, "tolerations"))
        if facts.INSUFFICIENT.text in message:
            short = sorted({s.rstrip(".") for s in re.findall(r"Insufficient ([\w./-]+)", message)})
            asked = _requests(pod, short)
            spot = (owner.obj, ("spec", runtime_spec_key(owner.obj, owner.component), "resources")) \
                if owner.component in ("master", "worker", "fuse") else (owner.obj, ("spec",))
            yield run.finding(
                "scheduling", [key], f"Pending: {message}",
                f"no node has {', '.join(short)} free for what the pod asks ({asked})",
                "lower the requests (the profile's or runtime.overrides' resources, or the workload's cpu, memory, "
                "gpus), or add capacity", spot)


def _requests(pod: Tree, names: list[str]) -> str:
    asked = []
    for container in _list(pod, "spec", "containers"):
        for name in names:
            value = _get(container, "resources", "requests", name) or _get(container, "resources", "limits", name)
            if value is not None:
                asked.append(f"{_get(container, 'name')}: {name} {value}")
    return ", ".join(asked) or "see its containers' requests"


def _affinity(run: Run, pod: Tree, key: Key, owner: Owner, message: str) -> Finding:
    nodes = run.cluster.of_kind("Node")
    missing, keys = [], []
    for label_key, operator, values in _required_terms(pod):
        if operator != "In":
            continue
        have = _node_labels(run, label_key)
        if not set(values) & set(have):
            keys.append(label_key)
            carried = ", ".join(f"{v} ({n})" for v, n in sorted(have.items())[:5]) or "none"
            missing.append(f"no node has {label_key} in [{', '.join(values)}]; nodes carry: {carried}")
    said = "; ".join(missing) if missing else (
        "the dump holds no nodes to compare with" if not nodes else "the nodes' labels match no required term")
    at = _placement_at(run, owner, "nodeAffinity")
    return run.finding(
        "scheduling", [key], f"Pending: {message}",
        f"its node affinity matches no node: {said}",
        "write the label value the GPU nodes carry (placement.gpu, placement.gpuLabel, placement.nodeSelector), or "
        "label the nodes", at, key=_placement_key(run, at, keys))


def _placement_key(run: Run, at: tuple[Manifest, PathT] | None, labels: list[str]) -> PathT:
    """The spec key that wrote the label that matches no node: placement.nodeSelector.<label>, or
    placement.gpu (whose label is placement.gpuLabel)."""
    doc = run.cluster.result.spec_of(at[0]) if at is not None else None
    placement = _get(doc.data, "placement") if doc is not None else None
    if not isinstance(placement, Mapping):
        return ()
    selector = placement.get("nodeSelector")
    for name in labels:
        if isinstance(selector, Mapping) and name in selector:
            return "placement", "nodeSelector", name
    if placement.get("gpu") is not None and (not labels or _get(placement, "gpuLabel") in (None, *labels)):
        return "placement", "gpu"
    return ()


# Crashes ---------------------------------------------------------------------------------


def _statuses(pod: Tree) -> list[Mapping[str, Any]]:
    return [s for s in (*_list(pod, "status", "initContainerStatuses"), *_list(pod, "status", "containerStatuses"))
            if isinstance(s, Mapping)]


def _container(pod: Tree, name: str) -> Mapping[str, Any]:
    for c in (*_list(pod, "spec", "initContainers"), *_list(pod, "spec", "containers")):
        if isinstance(c, Mapping) and c.get("name") == name:
            return c
    return {}


def _jvm(runtime: Manifest, component: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for option in _list(runtime, "spec", runtime_spec_key(runtime, component), "jvmOptions"):
        for flag, name in (("-Xmx", "heap"), ("-XX:MaxDirectMemorySize=", "direct")):
            if isinstance(option, str) and option.startswith(flag):
                size = java_size_to_bytes(option[len(flag):])
                if size is not None:
                    out[name] = size
    return out


def _gi(size: int) -> str:
    return f"{size / 2**30:.1f}Gi"


def crashes(run: Run) -> Iterator[Finding]:
    for pod, owner in run.cluster.pods():
        key = key_of(pod)
        for status in _statuses(pod):
            name = str(status.get("name"))
            last = _get(status, "lastState", "terminated") or _get(status, "state", "terminated") or {}
            if isinstance(last, Mapping) and last.get("reason") == facts.OOM_KILLED.text:
                yield _oom(run, pod, key, owner, name)
            elif _get(status, "state", "waiting", "reason") == facts.CRASH_LOOP.text and \
                    _log_cause(run, pod) is None:
                code = last.get("exitCode") if isinstance(last, Mapping) else None
                log = run.logs.get(key[2])
                tail = next((ln for ln in reversed(log.splitlines()) if ln.strip()), "") if log else ""
                yield run.finding(
                    "crash", [key], f"container {name}: CrashLoopBackOff, last exit code {code}"
                                    + (f"; last log line: {tail}" if tail else " (no log given: --logs DIR)"),
                    "the container exits soon after it starts" + (f"; its log ends: {tail}" if tail else ""),
                    f"read `kubectl logs --previous {key[2]}` (or give it with --logs); the spec sets this "
                    "component here", _component_at(owner))


def _component_at(owner: Owner) -> tuple[Manifest, PathT]:
    if owner.component in ("master", "worker", "fuse"):
        return owner.obj, ("spec", runtime_spec_key(owner.obj, owner.component))
    return owner.obj, ("spec",)


def _bytes(text: Any) -> int | None:
    if not isinstance(text, str | int) or isinstance(text, bool):
        return None
    try:
        return int(to_bytes(text))
    except ValueError:
        return None


def _oom(run: Run, pod: Tree, key: Key, owner: Owner, name: str) -> Finding:
    limit_text = _get(_container(pod, name), "resources", "limits", "memory")
    limit = _bytes(limit_text)
    evidence = f"container {name}: lastState.terminated.reason OOMKilled (memory limit {limit_text or 'none'})"
    if owner.component not in ("master", "worker", "fuse"):
        return run.finding("crash", [key], evidence, "the container used more memory than its limit",
                           "raise the memory (a workload's memory:, an operation's resources) or use less",
                           (owner.obj, ("spec",)))
    comp = runtime_spec_key(owner.obj, owner.component)
    jvm = _jvm(owner.obj, owner.component)
    if jvm and limit:
        total = jvm.get("heap", 0) + jvm.get("direct", 0)
        parts = " + ".join(f"{n} {_gi(jvm[n])}" for n in ("heap", "direct") if n in jvm)
        cause = (f"the JVM may take {parts} = {_gi(total)}, more than the {_gi(limit)} memory limit"
                 if total >= limit else
                 f"the JVM may take {parts} = {_gi(total)} of the {_gi(limit)} limit, leaving {_gi(limit - total)} "
                 "for the rest (metaspace, threads, native buffers, a ramdisk's page cache)")
        return run.finding("crash", [key], evidence, cause,
                           f"raise {comp}.resources.limits.memory or lower -Xmx/-XX:MaxDirectMemorySize in "
                           f"{comp}.jvmOptions so that heap + direct + about 1Gi fits the limit",
                           (owner.obj, ("spec", comp, "jvmOptions")))
    return run.finding("crash", [key], evidence, f"the {owner.component} used more memory than its limit",
                       f"raise {comp}.resources.limits.memory (profile or runtime.overrides)",
                       (owner.obj, ("spec", comp, "resources")))


# Mount failures (logs) ------------------------------------------------------------------

_CREDENTIAL = re.compile(facts.CREDENTIAL_ERRORS.text)
_ENDPOINT = re.compile(facts.ENDPOINT_ERRORS.text)


def _log_cause(run: Run, pod: Tree) -> tuple[str, str] | None:
    """(kind, line) of the first log line that names a mount problem, for the pod's log."""
    log = run.logs.get(key_of(pod)[2])
    if not log:
        return None
    for line in log.splitlines():
        if facts.FUSE_UNKNOWN_OPTION.text in line:
            return "fuse", line
        if _CREDENTIAL.search(line):
            return "credentials", line
        if _ENDPOINT.search(line):
            return "endpoint", line
    return None


def _mount_index(dataset: Manifest, line: str) -> int:
    mounts = _list(dataset, "spec", "mounts")
    for i, m in enumerate(mounts):
        point = str(_get(m, "mountPoint") or "")
        host = re.sub(r"^[a-z0-9+.-]+://", "", point).split("/")[0]
        if host and host in line:
            return i
    return 0


def mounts(run: Run) -> Iterator[Finding]:
    for pod, owner in run.cluster.pods():
        found = _log_cause(run, pod)
        if found is None:
            continue
        kind, line = found
        key = key_of(pod)
        state = next((str(_get(s, "state", "waiting", "reason")) for s in _statuses(pod)
                      if _get(s, "state", "waiting", "reason")), "")
        evidence = f"log: {line}" + (f" (container {state})" if state else "")
        if kind == "fuse":
            runtime = owner.obj if owner.component in ("master", "worker", "fuse") else None
            at = (runtime, ("spec", runtime_spec_key(runtime, "fuse"), "args")) if runtime is not None else None
            yield run.finding("mount", [key], evidence,
                              "the FUSE program refused a mount option: libfuse 3 has no `nonempty` (libfuse 2 "
                              "does), and each libfuse takes only its own options",
                              "drop the option from the FUSE options, or run libfuse 2 "
                              "(alluxio.fuse.jnifuse.libfuse.version: \"2\" with Alluxio)", at)
            continue
        dataset = owner.obj if owner.obj.get("kind") == "Dataset" else _dataset_of(run, owner.obj)
        if owner.component == "job":
            dataset = run.cluster.generated.get(("Dataset", key[1], str(_get(owner.obj, "spec", "dataset", "name"))))
        if dataset is None:
            continue
        i = _mount_index(dataset, line)
        if kind == "credentials":
            yield run.finding("mount", [key], evidence,
                              "the storage refused the credentials: the key names are right, their values are not "
                              "(a wrong or revoked key, or a secret of another account)",
                              "put the right values behind this mount's credentials (the Secret or the source they "
                              "are read from), then restart the pods",
                              (dataset, ("spec", "mounts", i, "encryptOptions")))
        else:
            options = _get(dataset, "spec", "mounts", i, "options") or {}
            endpoint = next((k for k in options if "endpoint" in k.lower()), None) if isinstance(options, Mapping) \
                else None
            path: PathT = ("spec", "mounts", i, "options", endpoint) if endpoint else ("spec", "mounts", i)
            yield run.finding("mount", [key], evidence,
                              "the storage endpoint cannot be reached from the pod: the host name does not resolve "
                              "or refuses connections",
                              "write the endpoint the cluster reaches (an internal endpoint only works inside its "
                              "region/VPC)", (dataset, path))


# CSI and kubelet -------------------------------------------------------------------------


def csi(run: Run) -> Iterator[Finding]:
    plugins = [p for p in run.cluster.of_kind("Pod", FLUID_SYSTEM)
               if str(_get(p, "metadata", "name")).startswith(facts.CSI_PLUGIN_POD.text)]
    seen: set[Key] = set()
    for key, events in sorted(run.cluster.events.items()):
        if key[0] != "Pod" or key[1] not in run.cluster.namespaces or key in seen:
            continue
        event = next((e for e in events if e.reason == facts.FAILED_MOUNT.text
                      and facts.CSI_NOT_REGISTERED.text in e.message and facts.CSI_DRIVER.text in e.message), None)
        if event is None:
            continue
        seen.add(key)
        pod = run.cluster.get(key)
        node = str(_get(pod, "spec", "nodeName") or "") if pod else ""
        yield run.finding("csi", [key], f"{event.reason} ({event.count}x): {event.message}",
                          "the kubelet on " + (node or "the pod's node") + " has no registration of Fluid's CSI "
                          "driver fuse.csi.fluid.io: " + _plugin_state(plugins, node),
                          "make the CSI plugin run on that node and register where the kubelet looks: Fluid's "
                          "chart value csi.kubelet.rootDir must be the kubelet's --root-dir (default "
                          "/var/lib/kubelet; k3s, microk8s and some distributions use another)",
                          outside=f"{OUTSIDE} (Fluid's CSI plugin in {FLUID_SYSTEM} on node {node or '?'}; "
                                  "`kubectl get pods -n fluid-system -o wide`)")


def _plugin_state(plugins: list[Tree], node: str) -> str:
    if not plugins:
        return "the dump holds no csi-nodeplugin-fluid pod of fluid-system (include that namespace's pods)"
    here = [p for p in plugins if _get(p, "spec", "nodeName") == node]
    if not here:
        return f"no csi-nodeplugin-fluid pod runs on this node ({len(plugins)} on others: check its nodeSelector " \
               "and tolerations)"
    ready = all(_get(s, "ready") is True for s in _statuses(here[0]))
    name = _get(here[0], "metadata", "name")
    return f"its plugin pod {name} is {'running' if ready else 'not ready'}" + (
        ", so the kubelet looks for the registration in another root directory" if ready else "")


# Dataset binding -------------------------------------------------------------------------


def binding(run: Run) -> Iterator[Finding]:
    for key, dataset in sorted(run.cluster.generated.items()):
        live = run.cluster.get(key) if key[0] == "Dataset" else None
        runtime = _runtime_of(run, dataset) if live is not None else None
        if live is None or runtime is None or health(live).status == "Healthy":
            continue
        evidence = f"Dataset phase {_get(live, 'status', 'phase') or '(no status)'}: {health(live).message}"
        live_runtime = run.cluster.get(key_of(runtime))
        if live_runtime is None:
            yield _missing_runtime(run, key, dataset, runtime, evidence)
        else:
            yield _runtime_not_ready(run, key, dataset, runtime, live_runtime, evidence)
    yield from _lonely_runtimes(run)


def _missing_runtime(run: Run, key: Key, dataset: Manifest, runtime: Manifest, evidence: str) -> Finding:
    runtime_key = key_of(runtime)
    others = [k for k in run.cluster.live if k[0] in BY_KIND and k[1] == key[1]]
    if others:
        names = ", ".join(label(k) for k in others)
        return run.finding("binding", [key, *others], evidence,
                           f"the namespace has {names} but no {label(runtime_key)}: Fluid binds a runtime only to "
                           "the Dataset of its own name and namespace (and kind of engine)",
                           "apply the runtime this spec builds (same name as the Dataset), or name the spec after "
                           "the runtime that runs", (dataset, ("metadata", "name")))
    return run.finding("binding", [key], evidence,
                       f"no {label(runtime_key)} in the dump: the runtime was not applied (or the dump lacks "
                       "runtimes)", "apply the whole output of `fluidgen build`; collect the runtime kinds too",
                       (runtime, ("kind",)))


def _runtime_not_ready(run: Run, key: Key, dataset: Manifest, runtime: Manifest, live_runtime: Tree,
                       evidence: str) -> Finding:
    runtime_key = key_of(runtime)
    judged = health(live_runtime)
    if judged.status == "Healthy":
        return run.finding("binding", [key, runtime_key], evidence + f"; runtime: {judged.message}",
                           "the runtime is ready but the Dataset is not bound", "see the Dataset's conditions and "
                           "the runtime's events", (dataset, ("metadata", "name")))
    events = [e for e in run.cluster.events_of(runtime_key) if e.type == "Warning"][:1]
    extra = f"; newest runtime event {events[0].reason}: {events[0].message}" if events else ""
    return run.finding("binding", [key, runtime_key], evidence + f"; runtime {judged.status}: {judged.message}"
                       + extra, "the runtime is not ready, so Fluid does not bind the Dataset (the other findings "
                                "say why its pods do not run)",
                       "fix what keeps the runtime's pods from running (see the findings on its pods)",
                       (runtime, ("spec",)))


def _lonely_runtimes(run: Run) -> Iterator[Finding]:
    """A runtime of these specs whose Dataset is not in the cluster: Fluid says so in an event."""
    for key, runtime in sorted(run.cluster.generated.items()):
        if key[0] not in BY_KIND or run.cluster.get(("Dataset", key[1], key[2])) is not None:
            continue
        event = next((e for e in run.cluster.events_of(key) if facts.NO_DATASET.text in e.message), None)
        if event is not None:
            yield run.finding("binding", [key], f"{event.reason}: {event.message}",
                              "the runtime finds no Dataset of its name and namespace",
                              "apply the Dataset this spec builds, in the same namespace",
                              (_dataset_of(run, runtime) or runtime, ("metadata", "name")))


# Claims and volumes ----------------------------------------------------------------------


def volumes(run: Run) -> Iterator[Finding]:
    for key, live in sorted(run.cluster.live.items()):
        if key[0] not in ("PersistentVolumeClaim", "PersistentVolume"):
            continue
        owner = run.cluster.owner(live)
        if owner is None:
            continue
        phase = _get(live, "status", "phase")
        bad = (key[0] == "PersistentVolumeClaim" and phase == facts.PVC_PENDING.text) or \
            (key[0] == "PersistentVolume" and phase == facts.PV_FAILED.text)
        if not bad:
            continue
        event = next((e for e in run.cluster.events_of(key) if e.reason in (
            facts.FAILED_BINDING.text, facts.PROVISIONING_FAILED.text)), None)
        said = f"; {event.reason}: {event.message}" if event else ""
        message = _get(live, "status", "message")
        evidence = f"{key[0]} phase {phase}" + (f": {message}" if message else "") + said
        if owner.component == "claim":
            yield run.finding("volume", [key], evidence,
                              "the claim Fluid made for the Dataset does not bind to its volume",
                              "delete the claim and let Fluid make it again; check that no other volume claims "
                              "the name", (owner.obj, ("metadata", "name")))
        else:
            yield run.finding("volume", [key], evidence,
                              "the volume and claim fluidgen built for this source do not bind (the NFS server, "
                              "path, capacity or access modes differ from what is there)",
                              "check the server and path of this source and that the volume is free",
                              (owner.obj, ("spec",)))


# Data operations ---------------------------------------------------------------------------


def operations(run: Run) -> Iterator[Finding]:
    for key, op in sorted(run.cluster.generated.items()):
        if key[0] not in OPERATIONS:
            continue
        live = run.cluster.get(key)
        if live is None:
            continue
        judged = health(live)
        if judged.status == "Healthy":
            continue
        events = run.cluster.events_of(key)
        reasons = {e.reason: e for e in reversed(events)}  # newest of each reason wins
        newest = events[0] if events else None
        if facts.TARGET_NOT_FOUND.text in reasons and _newest_is(newest, facts.TARGET_NOT_FOUND):
            e = reasons[facts.TARGET_NOT_FOUND.text]
            yield run.finding("operation", [key], f"{e.reason}: {e.message}",
                              "the Dataset it names is not in the cluster (not applied yet, or in another namespace)",
                              "apply the Dataset first (fluidgen's output orders it before the operation)",
                              (op, ("spec", "dataset")))
            continue
        if judged.status == "Degraded":
            yield _failed(run, key, op, judged.message, reasons)
            continue
        if facts.RUNTIME_NOT_READY.text in reasons and _newest_is(newest, facts.RUNTIME_NOT_READY):
            e = reasons[facts.RUNTIME_NOT_READY.text]
            yield run.finding("operation", [key], f"{e.reason}: {e.message}; {judged.message}",
                              "the operation waits for its Dataset's runtime, which is not bound and ready",
                              "see the Dataset and runtime findings; the operation starts by itself once they are "
                              "ready", (op, ("spec", "dataset")))


def _newest_is(event: Any, said: facts.Said) -> bool:
    return event is not None and event.reason == said.text


def _failed(run: Run, key: Key, op: Manifest, message: str, reasons: dict[str, Any]) -> Finding:
    job = OPERATIONS[key[0]].job_name.format(name=key[2])
    pods = [p for p, owner in run.cluster.pods() if owner.obj is op]
    log_line = next((ln for p in pods for ln in run.logs.get(key_of(p)[2], "").splitlines()
                     if facts.PATHS_NOT_EXIST.text in ln), None)
    failed = reasons.get(facts.OPERATION_FAILED.text)
    evidence = f"phase Failed: {message}" + (f"; {failed.reason}: {failed.message}" if failed else "")
    if log_line is not None:
        return run.finding("operation", [key, *(key_of(p) for p in pods)], evidence + f"; log: {log_line}",
                           "a path it loads does not exist in the Dataset",
                           "load paths that exist under the Dataset's mounts (/<mount name>/... for engines that "
                           "put each mount under its name)", (op, ("spec", "target")))
    return run.finding("operation", [key], evidence + f"; job {job}",
                       "the operation's job failed", f"read the job's log (`kubectl logs job/{job}`) or give it with "
                                                     "--logs", (op, ("spec",)))


# Image pulls -----------------------------------------------------------------------------


def images(run: Run) -> Iterator[Finding]:
    reasons = {s.text for s in facts.IMAGE_REASONS}
    for pod, owner in run.cluster.pods():
        key = key_of(pod)
        for status in _statuses(pod):
            waiting = _get(status, "state", "waiting") or {}
            if not isinstance(waiting, Mapping) or str(waiting.get("reason")) not in reasons:
                continue
            image = str(status.get("image") or _get(_container(pod, str(status.get("name"))), "image") or "")
            from_spec = _holds(owner.obj, image.rpartition(":")[2] if ":" in image else image)
            evidence = f"container {status.get('name')}: {waiting.get('reason')}: {waiting.get('message') or ''}"
            cause = f"the node cannot pull {image}: a wrong name or tag, a private registry without pull " \
                    "credentials, or no route to the registry"
            if from_spec:
                yield run.finding("image", [key], evidence, cause, "write an image and tag that exist (and "
                                  "imagePullSecrets for a private registry)", _component_at(owner))
            else:
                yield run.finding("image", [key], evidence, cause + " (the image is Fluid's default, not the "
                                  "spec's)", "let the nodes reach the registry, or set the runtime's image to a "
                                             "mirror", outside=f"{OUTSIDE} (image {image} from Fluid's chart "
                                                               "defaults; the node's registry access)")


def _holds(tree: Any, text: str) -> bool:
    if not text:
        return False
    if isinstance(tree, Mapping):
        return any(_holds(v, text) for v in tree.values())
    if isinstance(tree, list):
        return any(_holds(v, text) for v in tree)
    return isinstance(tree, str) and text in tree


# Names too long for Helm ------------------------------------------------------------------


def names(run: Run) -> Iterator[Finding]:
    for key, obj in sorted(run.cluster.generated.items()):
        op = OPERATIONS.get(key[0])
        if key[0] not in BY_KIND and op is None:
            continue
        event = next((e for e in run.cluster.events_of(key) if facts.HELM_NAME.text in e.message), None)
        if event is None:
            continue
        release = op.release_name(key[2]) if op is not None else key[2]
        named = obj if op is not None else (_dataset_of(run, obj) or obj)  # a runtime is named as its Dataset
        yield run.finding("name", [key], f"{event.reason}: {event.message}",
                          f"Fluid installs it as the Helm release {release} ({len(release)} characters); Helm "
                          "refuses release names over 53",
                          f"shorten the name to at most {53 - (len(release) - len(key[2]))} characters "
                          "(FG134 says so at build time)", (named, ("metadata", "name")))


# Cache path and quota ---------------------------------------------------------------------


def _level_at(runtime: Manifest, text: str, want_emptydir: bool) -> PathT:
    levels = _list(runtime, "spec", "tieredstore", "levels")
    for i, level in enumerate(levels):
        path = str(_get(level, "path") or "")
        if want_emptydir and _get(level, "volumeType") == "emptyDir":
            return "spec", "tieredstore", "levels", i
        if path and any(p and p in text for p in path.split(",")):
            return "spec", "tieredstore", "levels", i
    return ("spec", "tieredstore", "levels", 0) if levels else ("spec",)


def caches(run: Run) -> Iterator[Finding]:
    for pod, owner in run.cluster.pods():
        if owner.component not in ("worker", "fuse", "master"):
            continue
        key = key_of(pod)
        message = str(_get(pod, "status", "message") or "")
        if _get(pod, "status", "reason") == facts.EVICTED.text and facts.EMPTYDIR_OVER.text in message:
            yield run.finding("cache", [key], f"Evicted: {message}",
                              "the cache filled its emptyDir past the quota (the sizeLimit Fluid gives it), and "
                              "the kubelet evicted the pod",
                              "raise this tier's quota, or lower high/low so Alluxio evicts before the limit, or "
                              "use a hostPath tier", (owner.obj, _level_at(owner.obj, message, True)))
            continue
        event = next((e for e in run.cluster.events_of(key) if e.reason == facts.FAILED_MOUNT.text
                      and facts.HOSTPATH_TYPE.text in e.message), None)
        if event is not None:
            yield run.finding("cache", [key], f"{event.reason}: {event.message}",
                              "the cache directory on the node is not what the pod mounts (missing, or a file)",
                              "write a cache path that exists as a directory on every cache node (or create it)",
                              (owner.obj, _level_at(owner.obj, event.message, False)))
            continue
        log = run.logs.get(key[2], "")
        line = next((ln for ln in log.splitlines() if facts.NO_SPACE.text in ln), None)
        if line is not None:
            yield run.finding("cache", [key], f"log: {line}",
                              "the disk under the cache path is full: the quota is larger than the free space",
                              "lower this tier's quota to what the disk holds, or point it at a larger disk",
                              (owner.obj, _level_at(owner.obj, line, False)))


# Fluid's version in the cluster ------------------------------------------------------------


def cluster_fluid(run: Run) -> tuple[str, str] | None:
    """(pod, image tag) of fluid-system's dataset-controller, whose tag is Fluid's version."""
    name = facts.FLUID_VERSION_TAG.text
    for pod in run.cluster.of_kind("Pod", FLUID_SYSTEM):
        for container in _list(pod, "spec", "containers"):
            repository, _, tag = str(_get(container, "image") or "").partition("@")[0].rpartition(":")
            if repository.rpartition("/")[2] == name and tag:
                return str(_get(pod, "metadata", "name")), tag
    return None


def versions(run: Run) -> Iterator[Finding]:
    found = cluster_fluid(run)
    if found is None:
        return
    pod, tag = found
    running = re.match(r"v?(\d+\.\d+\.\d+)", tag)
    if running is None:
        return
    for target in sorted(run.cluster.result.fluid_versions):
        if target.lstrip("v").split("-")[0] == running.group(1):
            continue
        obj = next((o for o in run.cluster.generated.values() if o.get("kind") == "Dataset"), None)
        yield run.finding("version", [("Pod", FLUID_SYSTEM, pod)],
                          f"{pod} runs image tag {tag}",
                          f"the build targets Fluid {target}, the cluster runs Fluid {running.group(1)}: fields and "
                          "kinds differ between versions (fluidgen emits only what the target has)",
                          "build for the Fluid the cluster runs: `fluid:` in the spec or --fluid-version",
                          (obj, ()) if obj is not None else None, key=("fluid",))


FAMILY_RULES: tuple[Callable[[Run], Iterator[Finding]], ...] = (
    scheduling, crashes, mounts, csi, binding, volumes, operations, images, names, caches, versions)
