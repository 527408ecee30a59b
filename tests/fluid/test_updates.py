"""The immutability harness: build, edit the spec, build again; every object of both builds that
keeps its kind, namespace and name is an update, and an update may change only what the consumer's
API accepts. Otherwise the object must carry its GitOps engine's recreate marker (Flux), or `plan`
must say the edit is refused (it fails, as the apply will). A new name is a new object: the old one
is pruned, nothing is updated.

The rules are the consumers', read from their source, and kept here apart from fluidgen's table
(fluidgen/fluid/updates.py), which `test_fluidgens_table_agrees_with_the_consumers` holds to them:
- batch/v1 Job: kubernetes pkg/apis/batch/validation/validation.go ValidateJobSpecUpdate,
  validatePodTemplateUpdate (template, selector, completions, completionMode, podFailurePolicy,
  backoffLimitPerIndex, managedBy, successPolicy; >= v1.30 text, the template rule since v1.2).
- PersistentVolume: pkg/apis/core/validation ValidatePersistentVolumeUpdate (the volume source,
  volumeMode, nodeAffinity once set); PersistentVolumeClaim: ValidatePersistentVolumeClaimUpdate
  (spec, but for growing resources.requests and volumeAttributesClassName); Secret:
  ValidateSecretUpdate (type); RoleBinding: pkg/apis/rbac/validation ValidateRoleBindingUpdate (roleRef).
- TrainJob and PyTorchJob: every `self == oldSelf` transition rule of their CRDs (shared/kubeflow-crds:
  Trainer v2.3.0, Training Operator v1.9.4), read from the CRD files; TrainJob's runtimePatches only
  while suspended (kubeflow/trainer v2.3.0 pkg/runtime/framework/plugins/jobset/jobset.go
  checkRuntimePatchesImmutability).
- MPIJob (MPI Operator v0.8.2: no webhook, no transition rule), ExternalSecret (ValidateUpdate ignores
  the old object), ServiceAccount, Role and Fluid's kinds (no transition rule in Fluid's CRDs; Fluid's
  only webhook mutates Pods): every edit accepted.
Flux's marker: kustomize-controller v1.9.4 sets ForceSelector kustomize.toolkit.fluxcd.io/force: enabled;
fluxcd/pkg ssa/v0.76.1 shouldForceApply deletes and re-creates on an immutable error.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from fluidgen.base.quantity import to_bytes
from fluidgen.fluid.updates import TRAINJOB_PATCH_PATHS, UPDATE_RULES, fixed_when_written, refused
from tests.conftest import EXAMPLES, SHARED, run_cli

CRDS = SHARED / "kubeflow-crds"
CORE_RULES = {
    "Job": ({"spec.template", "spec.selector", "spec.completions", "spec.completionMode", "spec.podFailurePolicy",
             "spec.backoffLimitPerIndex", "spec.managedBy", "spec.successPolicy"}, set()),
    "PersistentVolume": ({"spec.nfs", "spec.csi", "spec.hostPath", "spec.local", "spec.volumeMode",
                          "spec.nodeAffinity"}, set()),
    "PersistentVolumeClaim": ({"spec"}, {"spec.resources.requests", "spec.volumeAttributesClassName"}),
    "Secret": ({"type"}, set()),
    "RoleBinding": ({"roleRef"}, set()),
}
WEBHOOK_RULES = {"TrainJob": {"spec.runtimePatches"}}
FORCE = "kustomize.toolkit.fluxcd.io/force"


def _crd_rules(path: Path) -> set[str]:
    """The dotted paths (items and map values as *) of every `self == oldSelf` rule of a CRD."""
    found: set[str] = set()

    def walk(schema: object, at: tuple[str, ...]) -> None:
        if not isinstance(schema, dict):
            return
        for rule in schema.get("x-kubernetes-validations") or []:
            if "oldSelf" in rule.get("rule", ""):
                assert rule["rule"].replace(" ", "") == "self==oldSelf", rule  # the only shape these CRDs use
                found.add(".".join(at))
        for key, sub in (schema.get("properties") or {}).items():
            walk(sub, (*at, key))
        walk(schema.get("items"), (*at, "*"))
        walk(schema.get("additionalProperties"), (*at, "*"))

    for doc in yaml.safe_load_all(path.read_text()):
        for version in doc["spec"]["versions"]:
            walk(version["schema"]["openAPIV3Schema"], ())
    return found


def consumer_rules() -> dict[str, tuple[set[str], set[str]]]:
    if not CRDS.is_dir():
        pytest.skip(f"{CRDS} is missing")
    return _crd_and_core_rules()


@functools.cache
def _crd_and_core_rules() -> dict[str, tuple[set[str], set[str]]]:
    trainjob = _crd_rules(CRDS / "trainer-v2.3.0" / "trainer.kubeflow.org_trainjobs.yaml") | WEBHOOK_RULES["TrainJob"]
    pytorch = _crd_rules(CRDS / "training-operator-v1.9.4" / "kubeflow.org_pytorchjobs.yaml")
    mpi = _crd_rules(CRDS / "mpi-operator-v0.8.2" / "kubeflow.org_mpijobs.yaml")
    assert not mpi  # none: every MPIJob edit is accepted
    return {**CORE_RULES, "TrainJob": (trainjob, set()), "PyTorchJob": (pytorch, set())}


def _leaves(node: object, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(node, dict) and node:
        for k, v in node.items():
            yield from _leaves(v, (*path, str(k)))
    elif isinstance(node, list) and node:
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, str(i)))
    else:
        yield path, json.dumps(node, sort_keys=True)


def _under(path: tuple[str, ...], rule: str) -> bool:
    parts = rule.split(".")
    return len(path) >= len(parts) and all(r in ("*", p) for r, p in zip(parts, path, strict=False))


def refused_by_consumer(rules: dict[str, tuple[set[str], set[str]]], old: dict, new: dict) -> list[str]:
    immutable, mutable = rules.get(new["kind"], (set(), set()))
    body = {k: v for k, v in new.items() if k not in ("apiVersion", "kind", "metadata", "status")}
    was = dict(_leaves({k: v for k, v in old.items() if k not in ("apiVersion", "kind", "metadata", "status")}))
    now = dict(_leaves(body))
    out = []
    for path in sorted(was.keys() | now.keys()):
        if was.get(path) == now.get(path) or not any(_under(path, r) for r in immutable):
            continue
        # a claim's storage request may grow, never shrink (ValidatePersistentVolumeClaimUpdate), nor go:
        # ValidatePersistentVolumeClaimSpec requires resources.requests[storage] ("Required value")
        shrunk = path == ("spec", "resources", "requests", "storage") and path in was and (
            path not in now or to_bytes(json.loads(now[path])) < to_bytes(json.loads(was[path])))
        if any(_under(path, m) for m in mutable) and not shrunk:
            continue
        out.append(".".join(path))
    return out


def _key(obj: dict) -> tuple[str, str, str]:
    return obj["kind"], obj["metadata"].get("namespace", ""), obj["metadata"]["name"]


def violations(rules: dict[str, tuple[set[str], set[str]]], mode: str, old: list[dict], new: list[dict],
               plan: str) -> list[str]:
    """Updates the consumer refuses that neither carry Flux's marker nor show in plan as refused."""
    before = {_key(o): o for o in old}
    out = []
    for obj in new:
        was = before.get(_key(obj))
        if was is None:
            continue  # a new name: created, the old object pruned
        bad = refused_by_consumer(rules, was, obj)
        marked = (obj["metadata"].get("annotations") or {}).get(FORCE) == "enabled"
        kind, ns, name = _key(obj)
        where = f"{kind} {ns}/{name} " if ns else f"{kind} {name} "
        told = any(line.startswith(where) and "refused by the API server" in line for line in plan.splitlines())
        if bad and not (mode == "flux" and marked) and not told:
            out.append(f"{mode}: {kind} {name}: {bad}")
    return out


def _workload(tmp_path: Path, name: str, kind: str, image: str, workers: int, name_hash: bool = False) -> Path:
    path = tmp_path / name
    path.write_text(f"workloads:\n  - {{name: train, kind: {kind}, image: {image}, command: [sleep, '1'], "
                    f"workers: {workers}, nameHash: {str(name_hash).lower()}}}\n")
    return path


def _edit(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text()
    assert old in text
    path = tmp_path / f"edited-{len(list(tmp_path.glob('edited-*')))}-{source.name}"
    path.write_text(text.replace(old, new))
    return path


PIPELINE = EXAMPLES / "juicefs-mnist-pipeline.yaml"
NFS = EXAMPLES / "nfs-imagenet-alluxio.yaml"


def cases(tmp_path: Path) -> dict[str, tuple[list[str], list[str]]]:
    """name -> (args of the old build, args of the edited build)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for folder in ("scripts", "credentials"):  # what the examples read, beside the edited copies
        if not (tmp_path / folder).exists():
            (tmp_path / folder).symlink_to(EXAMPLES / folder)
    for kind in ("Job", "MPIJob", "PyTorchJob", "TrainJob"):
        workers = 1 if kind == "Job" else 2
        a = _workload(tmp_path, f"{kind}-a.yaml", kind, "busybox", workers)
        b = _workload(tmp_path, f"{kind}-b.yaml", kind, "busybox:1.36", workers)
        out[f"{kind} image"] = (["-f", str(PIPELINE), "-f", str(a)], ["-f", str(PIPELINE), "-f", str(b)])
        if kind != "Job":
            c = _workload(tmp_path, f"{kind}-c.yaml", kind, "busybox", 3)
            out[f"{kind} workers"] = (["-f", str(PIPELINE), "-f", str(a)], ["-f", str(PIPELINE), "-f", str(c)])
        ha = _workload(tmp_path, f"{kind}-ha.yaml", kind, "busybox", workers, name_hash=True)
        hb = _workload(tmp_path, f"{kind}-hb.yaml", kind, "busybox:1.36", workers, name_hash=True)
        out[f"{kind} image, nameHash"] = (["-f", str(PIPELINE), "-f", str(ha)], ["-f", str(PIPELINE), "-f", str(hb)])
    out["nfs server"] = ([str(NFS)], [str(_edit(tmp_path, NFS, "server: 38037492dc", "server: 99037492dc"))])
    out["nfs capacity grows"] = ([str(NFS)], [str(_edit(tmp_path, NFS, "capacity: 150Gi", "capacity: 300Gi"))])
    out["nfs capacity shrinks"] = ([str(NFS)], [str(_edit(tmp_path, NFS, "capacity: 150Gi", "capacity: 100Gi"))])
    out["runtime replicas"] = ([str(PIPELINE)], [str(_edit(tmp_path, PIPELINE, "replicas: 2", "replicas: 3"))])
    out["load paths"] = ([str(PIPELINE)], [str(_edit(tmp_path, PIPELINE, "paths: [/MNIST/raw]", "paths: [/MNIST]"))])
    out["submitted kinds"] = ([str(PIPELINE)], [str(_edit(tmp_path, PIPELINE, "kinds: [PyTorchJob]",
                                                          "kinds: [PyTorchJob, MPIJob]"))])
    return out


def _run(tmp_path: Path, mode: str, old_args: list[str], new_args: list[str]) -> tuple[list[dict], list[dict], str]:
    flags = ["--gitops", mode] if mode != "none" else []
    allow = ["--allow-read", str(EXAMPLES)]
    old = run_cli("build", *flags, *allow, *old_args)
    new = run_cli("build", *flags, *allow, *new_args)
    assert old.code == 0 and new.code == 0, old.err + new.err
    rendered = tmp_path / f"old-{mode}.yaml"
    rendered.write_text(old.out)
    plan = run_cli("plan", *flags, *allow, *new_args, "--against", str(rendered))
    assert plan.code in (0, 1), plan.err
    return list(yaml.safe_load_all(old.out)), list(yaml.safe_load_all(new.out)), plan.out


@pytest.mark.parametrize("mode", ["none", "argocd", "flux"])
def test_every_update_is_accepted_recreated_or_refused_in_plan(mode: str, tmp_path: Path) -> None:
    rules = consumer_rules()
    problems: list[str] = []
    seen_kinds: set[str] = set()
    refused_somewhere: set[str] = set()
    for name, (old_args, new_args) in cases(tmp_path).items():
        old, new, plan = _run(tmp_path, mode, old_args, new_args)
        seen_kinds |= {o["kind"] for o in new}
        before = {_key(o): o for o in old}
        refused_somewhere |= {o["kind"] for o in new if _key(o) in before
                              and refused_by_consumer(rules, before[_key(o)], o)}
        problems += [f"{name}: {v}" for v in violations(rules, mode, old, new, plan)]
    assert problems == []
    # the harness exercised every kind with a rule, and saw refusals where fluidgen must act
    assert {"Job", "MPIJob", "PyTorchJob", "TrainJob", "PersistentVolume", "PersistentVolumeClaim", "Secret",
            "ServiceAccount", "Role", "RoleBinding", "Dataset", "DataLoad"} <= seen_kinds | {"Secret"}
    assert {"Job", "TrainJob", "PersistentVolume", "PersistentVolumeClaim"} <= refused_somewhere


def test_flux_marks_the_jobs_an_update_cannot_change_and_plan_says_so(tmp_path: Path) -> None:
    for kind, marked in (("Job", True), ("TrainJob", True), ("MPIJob", False), ("PyTorchJob", False)):
        args = ["-f", str(PIPELINE), "-f", str(_workload(tmp_path, f"{kind}.yaml", kind, "busybox",
                                                           1 if kind == "Job" else 2))]
        built = {o["kind"]: o for o in yaml.safe_load_all(run_cli("build", "--gitops", "flux", *args).out)}
        assert ((built[kind]["metadata"].get("annotations") or {}).get(FORCE) == "enabled") is marked, kind
        argocd = {o["kind"]: o for o in yaml.safe_load_all(run_cli("build", "--gitops", "argocd", *args).out)}
        assert FORCE not in (argocd[kind]["metadata"].get("annotations") or {})
        assert not any("argocd.argoproj.io/sync-options" in (o["metadata"].get("annotations") or {})
                       for o in argocd.values())  # Replace=true,Force=true would rerun it on every sync
    *_, plan = _run(tmp_path, "argocd", *cases(tmp_path)["Job image"])
    assert "Job default/train spec.template.spec.containers[0].image: refused by the API server" in plan
    assert "(pkg/apis/batch/validation/validation.go ValidateJobSpecUpdate)" in plan  # the rule's first source
    *_, plan = _run(tmp_path, "flux", *cases(tmp_path)["Job image"])
    assert "Job default/train spec.template.spec.containers[0].image: refused in place; Flux deletes" in plan


def test_the_harness_catches_an_update_nobody_handles(tmp_path: Path) -> None:
    """Negative control: the edited Job as fluidgen wrote it before (no marker) and a plan that calls
    the edit applied (what plan said before) are a violation in every mode."""
    rules = consumer_rules()
    old, new, _ = _run(tmp_path, "flux", *cases(tmp_path)["Job image"])
    for obj in new:
        (obj["metadata"].get("annotations") or {}).pop(FORCE, None)
    said = "Job default/train spec.template: applied by Kubernetes\n"
    for mode in ("none", "argocd", "flux"):
        assert violations(rules, mode, old, new, said) == [
            f"{mode}: Job train: ['spec.template.spec.containers.0.image']"]
    # and a rule taken away is missed: the harness's verdict rests on the consumer's rule
    assert violations({**rules, "Job": (set(), set())}, "none", old, new, said) == []


def test_fluidgens_table_agrees_with_the_consumers() -> None:
    rules = consumer_rules()
    for kind, (immutable, mutable) in rules.items():
        row = UPDATE_RULES[kind]
        if kind == "TrainJob":  # the table keeps the webhook's whole runtimePatches, which covers the CRD's
            covered = set(row.immutable) | set(TRAINJOB_PATCH_PATHS)
            assert immutable <= covered and set(row.immutable) <= immutable | {"spec.runtimePatches"}, kind
            continue
        assert (set(row.immutable), set(row.mutable)) == (immutable, mutable), kind
    assert set(UPDATE_RULES) == set(rules)


def test_plan_says_an_operator_keeps_the_pods_it_made(tmp_path: Path) -> None:
    """An MPIJob or PyTorchJob edit is accepted, but the MPI Operator (v0.8.2 mpi_job_controller.go) and
    the Training Operator (v1.9.4 common/pod.go ReconcilePods) make pods from the template once."""
    all_cases = cases(tmp_path)
    *_, image = _run(tmp_path, "argocd", *all_cases["MPIJob image"])
    line = next(x for x in image.splitlines() if x.startswith("MPIJob default/train spec.mpiReplicaSpecs.Worker"))
    assert "applied by Kubernetes (the operator keeps the pods it made from the old template" in line
    *_, workers = _run(tmp_path, "argocd", *all_cases["PyTorchJob workers"])
    assert "PyTorchJob default/train spec.pytorchReplicaSpecs.Worker.replicas: applied by Kubernetes\n" in workers


def _obj(kind: str, body: dict) -> dict:
    return {"apiVersion": "v1", "kind": kind, "metadata": {"name": "x", "namespace": "ns"}, **body}


_POD = {"spec": {"containers": [{"name": "main", "image": "busybox"}], "restartPolicy": "Never"}}
_CLAIM = {"accessModes": ["ReadOnlyMany"], "storageClassName": "fluid", "resources": {"requests": {"storage": "2Gi"}}}
_TRAINJOB = {"runtimeRef": {"name": "torch-distributed"}, "trainer": {"image": "busybox", "numNodes": 2},
             "runtimePatches": [{"manager": "fluidgen.io/workloads"}]}
# (kind, old body, new body, the paths the consumer refuses): edits of each kind fluidgen emits, each
# refused or accepted by the source the module docstring above names for the kind.
UPDATES: list[tuple[str, dict, dict, list[str]]] = [
    ("Job", {"spec": {"template": _POD, "parallelism": 1}},
     {"spec": {"template": {"spec": {**_POD["spec"], "containers": [{"name": "main", "image": "busybox:1.36"}]}},
               "parallelism": 2}}, ["spec.template.spec.containers.0.image"]),
    ("Job", {"spec": {"completions": 1, "backoffLimit": 0, "ttlSecondsAfterFinished": 60}},
     {"spec": {"completions": 2, "backoffLimit": 3, "ttlSecondsAfterFinished": 30}}, ["spec.completions"]),
    ("Job", {"metadata": {"labels": {"a": "1"}}, "spec": {"suspend": False}, "status": {"active": 1}},
     {"metadata": {"labels": {"a": "2"}}, "spec": {"suspend": True}, "status": {"active": 0}}, []),
    ("PersistentVolumeClaim", {"spec": _CLAIM},
     {"spec": {**_CLAIM, "resources": {"requests": {"storage": "3Gi"}}, "volumeAttributesClassName": "fast"}}, []),
    ("PersistentVolumeClaim", {"spec": _CLAIM},
     {"spec": {**_CLAIM, "resources": {"requests": {"storage": "1Gi"}}}}, ["spec.resources.requests.storage"]),
    ("PersistentVolumeClaim", {"spec": _CLAIM}, {"spec": {**_CLAIM, "resources": {"requests": {"storage": "2048Mi"}}}},
     []),
    ("PersistentVolumeClaim", {"spec": _CLAIM}, {"spec": {**_CLAIM, "resources": {"requests": {"cpu": "1"}}}},
     ["spec.resources.requests.storage"]),
    ("PersistentVolumeClaim", {"spec": _CLAIM},
     {"spec": {**_CLAIM, "accessModes": ["ReadOnlyMany", "ReadWriteMany"], "storageClassName": "other"}},
     ["spec.accessModes.1", "spec.storageClassName"]),
    ("PersistentVolume", {"spec": {"nfs": {"server": "a", "path": "/"}, "capacity": {"storage": "1Gi"},
                                   "mountOptions": ["vers=3"]}},
     {"spec": {"nfs": {"server": "b", "path": "/"}, "capacity": {"storage": "2Gi"}, "mountOptions": ["vers=4"]}},
     ["spec.nfs.server"]),
    ("PersistentVolume", {"spec": {"csi": {"driver": "fuse.csi.fluid.io", "volumeHandle": "h"}}},
     {"spec": {"csi": {"driver": "fuse.csi.fluid.io", "volumeHandle": "h2"}}}, ["spec.csi.volumeHandle"]),
    ("Secret", {"type": "Opaque", "data": {"k": "YQ=="}}, {"type": "kubernetes.io/basic-auth", "data": {"k": "Yg=="}},
     ["type"]),
    ("RoleBinding", {"roleRef": {"kind": "Role", "name": "a"}, "subjects": [{"kind": "ServiceAccount", "name": "s"}]},
     {"roleRef": {"kind": "Role", "name": "b"}, "subjects": [{"kind": "ServiceAccount", "name": "t"}]},
     ["roleRef.name"]),
    ("TrainJob", {"spec": {**_TRAINJOB, "suspend": False}},
     {"spec": {**_TRAINJOB, "suspend": True, "trainer": {"image": "busybox:1.36", "numNodes": 2},
               "runtimePatches": [{"manager": "other"}]}},
     ["spec.runtimePatches.0.manager", "spec.trainer.image"]),
    ("PyTorchJob", {"spec": {"runPolicy": {"schedulingPolicy": {"queue": "a", "minAvailable": 1}},
                             "pytorchReplicaSpecs": {"Worker": {"replicas": 1}}}},
     {"spec": {"runPolicy": {"schedulingPolicy": {"queue": "b", "minAvailable": 2}},
               "pytorchReplicaSpecs": {"Worker": {"replicas": 2}}}}, ["spec.runPolicy.schedulingPolicy.queue"]),
    ("MPIJob", {"spec": {"slotsPerWorker": 1}}, {"spec": {"slotsPerWorker": 2}}, []),
    ("ConfigMap", {"data": {"a": "1"}}, {"data": {"a": "2"}}, []),
]


@pytest.mark.parametrize(("kind", "old", "new", "expected"), UPDATES,
                         ids=[f"{u[0]}-{i}" for i, u in enumerate(UPDATES)])
def test_fluidgens_refused_paths_are_the_consumers(kind: str, old: dict, new: dict, expected: list[str]) -> None:
    """fluidgen.fluid.updates.refused, the function plan reads, driven with single edits of each kind:
    it refuses exactly the paths the consumer's rule (this harness, refused_by_consumer) refuses."""
    got = sorted(".".join(str(p) for p in path) for path in refused(_obj(kind, old), _obj(kind, new)))
    assert got == sorted(refused_by_consumer(consumer_rules(), _obj(kind, old), _obj(kind, new))) == expected


@pytest.mark.parametrize(("kind", "body", "fixed"), [
    ("Job", {"spec": {"template": _POD}}, True), ("Job", {"spec": {"parallelism": 1, "suspend": False}}, False),
    ("PersistentVolumeClaim", {"spec": _CLAIM}, True),
    ("PersistentVolumeClaim", {"spec": {"resources": {"requests": {"storage": "1Gi"}}}}, False),
    ("Secret", {"type": "Opaque", "data": {"k": "YQ=="}}, True), ("Secret", {"data": {"k": "YQ=="}}, False),
    ("TrainJob", {"spec": {"suspend": True}}, False), ("TrainJob", {"spec": _TRAINJOB}, True),
    ("MPIJob", {"spec": {"slotsPerWorker": 1}}, False), ("ConfigMap", {"data": {"a": "1"}}, False)])
def test_an_object_is_fixed_when_it_sets_a_field_the_consumer_refuses_to_change(kind: str, body: dict,
                                                                                 fixed: bool) -> None:
    """fluidgen.fluid.updates.fixed_when_written (what marks a Job for Flux's recreate): an object
    setting a field under a rule's immutable path, not under its mutable one."""
    rules = consumer_rules()
    immutable, mutable = rules.get(kind, (set(), set()))
    obj = _obj(kind, body)
    leaves = [p for p, _ in _leaves({k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata")})]
    consumer = any(any(_under(p, r) for r in immutable) and not any(_under(p, m) for m in mutable) for p in leaves)
    assert fixed_when_written(obj) is consumer is fixed


def test_the_kubeflow_citations_name_the_shared_crds_they_rest_on() -> None:
    """A rule cited to a Kubeflow CRD names the repository, tag and file ../shared/kubeflow-crds/SOURCE.md
    says its copy comes from, and that copy has the immutability rule the citation names. (Kubernetes'
    own validation.go and Trainer's Go code are not in the test data: those citations are read by people.)"""
    source_md = (SHARED / "kubeflow-crds" / "SOURCE.md").read_text()
    checked = 0
    for rule in UPDATE_RULES.values():
        for cited in rule.sources:
            if not cited.path.startswith("manifests/"):
                continue
            entry = next((e for e in source_md.split("\n- ") if f"Repository {cited.project}," in e
                          and f"tag {cited.version} " in e), None)
            assert entry is not None, f"{rule.kind}: SOURCE.md has no copy of {cited.project} {cited.version}"
            folder, _, name = cited.path.rpartition("/")
            assert f"`{cited.path}`" in entry or f"`{folder}/`" in entry, (rule.kind, cited.path)
            copies = list((SHARED / "kubeflow-crds").glob(f"*-{cited.version}/{name}"))
            assert len(copies) == 1, (rule.kind, name)
            assert cited.function == "x-kubernetes-validations self == oldSelf"
            assert "self == oldSelf" in copies[0].read_text(), (rule.kind, name)
            checked += 1
    assert checked == 2  # TrainJob's and PyTorchJob's
