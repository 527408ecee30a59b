"""What the API server refuses when an object fluidgen emits is updated in place, per kind, with
the source that decides it (`fluidgen plan` and the Flux recreate marker read it).

An apply of an edited object whose name stays is an update. Kubernetes' own validation, a CRD's
x-kubernetes-validations transition rules (`self == oldSelf`) and an operator's validating webhook
each refuse some changes; the sync then fails on every try (Argo CD) or the Kustomization stays not
Ready (Flux) until the object is deleted. Paths are dotted; `*` stands for any list item or key.
Kinds without a row take every spec edit (Fluid's kinds: Fluid's CRDs have no transition rules and
its webhook mutates Pods only, charts/fluid/fluid/templates/webhook/webhookconfiguration.yaml and
pkg/webhook/handler/register.go, at both target Fluid versions; MPIJob: the MPI Operator v0.8.2 has neither;
ExternalSecret: apis/externalsecrets/v1/externalsecret_validator.go ValidateUpdate ignores the old
object; ServiceAccount and Role: no immutable field).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from ..base.manifest import Tree
from ..base.quantity import to_bytes

PathT = tuple[str | int, ...]


@dataclass(frozen=True)
class Cited:
    """Where a consumer's behaviour is decided: project, version read, file, function."""

    project: str
    version: str
    path: str
    function: str

    def cite(self) -> str:
        return f"{self.project} {self.version} {self.path} {self.function}"


@dataclass(frozen=True)
class UpdateRule:
    kind: str
    immutable: tuple[str, ...]  # paths whose change the update refuses
    mutable: tuple[str, ...] = ()  # paths below an immutable one that may change
    sources: tuple[Cited, ...] = ()


_K8S = "kubernetes/kubernetes"
_BATCH = "pkg/apis/batch/validation/validation.go"
_CORE = "pkg/apis/core/validation/validation.go"
_TRAINER_CRD = "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml"
_RUNTIME_PATCH = "spec.runtimePatches.*.trainingRuntimeSpec.template.spec.replicatedJobs.*.template.spec.template.spec"

UPDATE_RULES: dict[str, UpdateRule] = {r.kind: r for r in (
    # The pod template may change only while the Job is suspended and has not started
    # (validatePodTemplateUpdate's AllowMutableSchedulingDirectives); fluidgen's jobs run at once.
    UpdateRule("Job", ("spec.template", "spec.selector", "spec.completions", "spec.completionMode",
                       "spec.podFailurePolicy", "spec.backoffLimitPerIndex", "spec.managedBy", "spec.successPolicy"),
               sources=(Cited(_K8S, ">= v1.30", _BATCH, "ValidateJobSpecUpdate"),
                        Cited(_K8S, ">= v1.30", _BATCH, "validatePodTemplateUpdate"))),
    UpdateRule("PersistentVolume", ("spec.nfs", "spec.csi", "spec.hostPath", "spec.local", "spec.volumeMode",
                                    "spec.nodeAffinity"),
               sources=(Cited(_K8S, "every version", _CORE, "ValidatePersistentVolumeUpdate"),)),
    # A bound claim may grow its storage request (and change volumeAttributesClassName); volumeName
    # may be set once, which fluidgen does at creation.
    UpdateRule("PersistentVolumeClaim", ("spec",), ("spec.resources.requests", "spec.volumeAttributesClassName"),
               sources=(Cited(_K8S, "every version", _CORE, "ValidatePersistentVolumeClaimUpdate"),)),
    UpdateRule("Secret", ("type",), sources=(Cited(_K8S, "every version", _CORE, "ValidateSecretUpdate"),)),
    UpdateRule("RoleBinding", ("roleRef",), sources=(
        Cited(_K8S, "every version", "pkg/apis/rbac/validation/validation.go", "ValidateRoleBindingUpdate"),)),
    UpdateRule("TrainJob", ("spec.trainer", "spec.runtimeRef", "spec.initializer", "spec.managedBy",
                            "spec.activeDeadlineSeconds", "spec.runtimePatches"), sources=(
        Cited("kubeflow/trainer", "v2.3.0", _TRAINER_CRD, "x-kubernetes-validations self == oldSelf"),
        # runtimePatches change only while the TrainJob is suspended before or after the update
        Cited("kubeflow/trainer", "v2.3.0", "pkg/runtime/framework/plugins/jobset/jobset.go",
              "checkRuntimePatchesImmutability"))),
    UpdateRule("PyTorchJob", ("spec.runPolicy.schedulingPolicy.queue",), sources=(
        Cited("kubeflow/trainer", "v1.9.4", "manifests/base/crds/kubeflow.org_pytorchjobs.yaml",
              "x-kubernetes-validations self == oldSelf"),)),
)}
# Paths under TrainJob's runtimePatches that the CRD makes immutable by itself (the webhook refuses
# the whole list while the job runs): kept to check the table against the CRD.
TRAINJOB_PATCH_PATHS = (*(f"{_RUNTIME_PATCH}.{f}" for f in (
    "containers", "imagePullSecrets", "initContainers", "securityContext", "serviceAccountName",
    "terminationGracePeriodSeconds", "volumes")), "spec.runtimePatches.*.manager")


def _under(path: PathT, prefix: str) -> bool:
    parts = prefix.split(".")
    return len(path) >= len(parts) and all(p == "*" or str(q) == p for p, q in zip(parts, path, strict=False))


def _leaves(node: object, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    if isinstance(node, dict) and node:
        for k, v in node.items():
            yield from _leaves(v, (*path, str(k)))
    elif isinstance(node, list) and node:
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))
    else:
        yield path, json.dumps(node, sort_keys=True)


def _body(obj: Tree) -> Tree:
    return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata", "status")}


def _shrinks(path: PathT, old: Tree, new: Tree) -> bool:
    """A claim's storage request made smaller: refused (ValidatePersistentVolumeClaimUpdate)."""
    if path != ("spec", "resources", "requests", "storage"):
        return False
    try:
        was, now = (to_bytes(str(_at(o, path))) for o in (old, new))
    except (KeyError, TypeError, IndexError, ValueError):
        return True  # removed or unreadable: not a growth
    return now < was


def _at(node: object, path: PathT) -> object:
    for part in path:
        node = node[part]  # type: ignore[index]
    return node


def refused(old: Tree, new: Tree) -> list[PathT]:
    """The paths (of the whole object) for which an update from `old` to `new` is refused."""
    rule = UPDATE_RULES.get(str(new.get("kind")))
    if rule is None:
        return []
    before, after = dict(_leaves(_body(old))), dict(_leaves(_body(new)))
    changed = sorted({p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}, key=str)
    return [p for p in changed if any(_under(p, i) for i in rule.immutable)
            and (not any(_under(p, m) for m in rule.mutable) or _shrinks(p, old, new))]


def fixed_when_written(obj: Tree) -> bool:
    """Whether an update of `obj` is refused for an edit of some field it sets: then only a new
    object carries the edit (a new name, or Flux's recreate marker)."""
    rule = UPDATE_RULES.get(str(obj.get("kind")))
    return rule is not None and any(any(_under(p, i) for i in rule.immutable) and
                                    not any(_under(p, m) for m in rule.mutable) for p, _ in _leaves(_body(obj)))
