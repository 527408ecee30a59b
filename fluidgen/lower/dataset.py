"""Runtime-independent objects: Secrets, NFS PersistentVolume + claim, and the Dataset."""

from __future__ import annotations

import base64
import re
from typing import Any

from .. import deps
from ..credentials import SecretPlan, deliver
from ..spec import Mount
from .base import Context, fluid_object, metadata


def mount_name(ctx: Context, index: int, mount: Mount) -> str:
    """The mount's name: given, the dataset's for a single mount, else from the URI."""
    if mount.name:
        return mount.name
    if mount.nfs is not None:
        return mount.nfs.volumeName or (ctx.name if len(ctx.spec.source) == 1 else f"nfs-{index}")
    if len(ctx.spec.source) == 1:
        return ctx.name
    assert mount.uri is not None
    tail = [p for p in re.split(r"[/:]+", mount.uri.partition("://")[2]) if p]
    candidate = re.sub(r"[^a-z0-9-]+", "-", (tail[-1] if tail else "").lower()).strip("-")
    return candidate or f"mount-{index}"


def claim_name(ctx: Context, index: int, mount: Mount) -> str:
    assert mount.nfs is not None
    return mount.nfs.volumeName or mount_name(ctx, index, mount)


def secret_name(ctx: Context, mount: str) -> str:
    return f"{ctx.name}-credentials" if mount == ctx.name else f"{ctx.name}-{mount}-credentials"


def lower_mounts(ctx: Context) -> tuple[list[dict[str, Any]], list[SecretPlan]]:
    mounts: list[dict[str, Any]] = []
    secrets: list[SecretPlan] = []
    for i, m in enumerate(ctx.spec.source):
        name = mount_name(ctx, i, m)
        uri = f"pvc://{claim_name(ctx, i, m)}" if m.nfs is not None else m.uri
        out: dict[str, Any] = {"mountPoint": uri, "name": name}
        for key in ("path", "readOnly", "shared"):
            if getattr(m, key) is not None:
                out[key] = getattr(m, key)
        if m.options:
            out["options"] = dict(m.options)
        if m.credentials is not None:
            got = deliver(m.credentials, secret_name(ctx, name), ctx.doc,
                          ("source", i, "credentials"), ctx.env, ctx.read_credentials)
            ctx.diagnostics.extend(got.diagnostics)
            out["encryptOptions"] = got.encrypt_options
            if got.secret is not None:
                secrets.append(got.secret)
        mounts.append(out)
    return mounts, secrets


def merge_secrets(ctx: Context, plans: list[SecretPlan]) -> list[SecretPlan]:
    """One Secret per name; the same key with two different values is an error."""
    merged: dict[str, SecretPlan] = {}
    for plan in plans:
        into = merged.setdefault(plan.name, SecretPlan(plan.name))
        for key, value in plan.data.items():
            if key in into.data and into.data[key] != value:
                ctx.diagnostics.append(ctx.doc.diag(
                    (), f'Secret "{plan.name}" would get two different values for key {key}; '
                        "give the mounts different secretName values", stage="lower"))
            into.data[key] = value
            into.recipes[key] = plan.recipes.get(key, ("inline",))
    return [merged[n] for n in sorted(merged)]


def secret(ctx: Context, plan: SecretPlan) -> dict[str, Any]:
    for key in plan.data:
        deps.RECORDER.secret(ctx.namespace, plan.name, key, plan.recipes.get(key, ("inline",)))
    data = {k: base64.b64encode(v.encode("utf-8")).decode("ascii") for k, v in plan.data.items()}
    return {"apiVersion": "v1", "kind": "Secret", "metadata": metadata(ctx, plan.name),
            "type": "Opaque", "data": data}


def nfs_objects(ctx: Context) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, m in enumerate(ctx.spec.source):
        if m.nfs is None:
            continue
        name, nfs = claim_name(ctx, i, m), m.nfs
        pv_spec: dict[str, Any] = {
            "capacity": {"storage": nfs.capacity},
            "volumeMode": "Filesystem",
            "accessModes": list(nfs.accessModes),
            "persistentVolumeReclaimPolicy": "Retain",
            "storageClassName": nfs.storageClass,
            "nfs": {"server": nfs.server, "path": nfs.path},
        }
        if nfs.mountOptions:
            pv_spec["mountOptions"] = list(nfs.mountOptions)
        out.append({"apiVersion": "v1", "kind": "PersistentVolume",
                    "metadata": metadata(ctx, name, namespaced=False), "spec": pv_spec})
        out.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                    "metadata": metadata(ctx, name), "spec": {
                        "accessModes": list(nfs.accessModes),
                        "resources": {"requests": {"storage": nfs.capacity}},
                        "storageClassName": nfs.storageClass,
                        "volumeName": name}})
    return out


def node_affinity(ctx: Context) -> dict[str, Any] | None:
    p = ctx.spec.placement
    exprs: list[dict[str, Any]] = []
    if p.gpu:
        exprs.append({"key": p.gpuLabel, "operator": "In", "values": list(p.gpu)})
    for key in sorted(p.nodeSelector):
        exprs.append({"key": key, "operator": "In", "values": [p.nodeSelector[key]]})
    if not exprs:
        return None
    return {"required": {"nodeSelectorTerms": [{"matchExpressions": exprs}]}}


def dataset(ctx: Context, mounts: list[dict[str, Any]]) -> dict[str, Any]:
    s = ctx.spec
    spec: dict[str, Any] = {}
    if mounts:
        spec["mounts"] = mounts
    if s.sharedOptions:
        spec["sharedOptions"] = dict(s.sharedOptions)
    if s.accessModes:
        spec["accessModes"] = list(s.accessModes)
    affinity = node_affinity(ctx)
    if affinity:
        spec["nodeAffinity"] = affinity
    if s.placement.tolerations:
        spec["tolerations"] = [t.model_dump(exclude_none=True) for t in s.placement.tolerations]
    if s.placement.exclusive is not None:
        spec["placement"] = "Exclusive" if s.placement.exclusive else "Shared"
    return fluid_object(ctx, "Dataset", ctx.name, spec)
