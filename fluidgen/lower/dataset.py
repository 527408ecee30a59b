"""The Dataset, and the Secrets its mounts and data operations read."""

from __future__ import annotations

import base64

from ..base.diagnostics import PathT
from ..base.manifest import Tree
from ..catalog.kinds import table
from ..model.context import Context
from ..model.specparts import Credentials, ExternalSecretRef
from . import overrides
from .credentials import SecretPlan, key_path


def merge_secrets(ctx: Context, plans: list[SecretPlan]) -> list[SecretPlan]:
    """One Secret per name; the same key with two different values is an error."""
    merged: dict[str, SecretPlan] = {}
    for plan in plans:
        if plan.name in merged and merged[plan.name].external != plan.external:
            ctx.report(plan.at, f'two credentials blocks make Secret "{plan.name}" in different ways; give them '
                                "different secretName values")
            continue
        into = merged.setdefault(plan.name, SecretPlan(plan.name, at=plan.at, external=plan.external))
        for key, value in plan.data.items():
            # Every source of a key is recorded: the cache re-reads them all and misses when
            # they no longer agree, so it never serves what this check would now refuse.
            ctx.reader.inputs.secret(ctx.namespace, plan.name, key, plan.recipes.get(key, ("inline",)))
            if key in into.data and into.data[key] != value:
                ctx.report(plan.at, f'Secret "{plan.name}" would get two different values for key {key}; '
                                    "give the mounts different secretName values")
            into.data[key] = value
            into.recipes[key] = plan.recipes.get(key, ("inline",))
    return [merged[n] for n in sorted(merged)]


def secret(ctx: Context, plan: SecretPlan) -> Tree:
    """The Secret, or the ExternalSecret that makes it in the cluster."""
    if plan.external is not None:
        return external_secret(ctx, plan.name, plan.external, plan.at)
    data = {k: base64.b64encode(v.encode("utf-8")).decode("ascii") for k, v in sorted(plan.data.items())}
    obj = {"apiVersion": "v1", "kind": "Secret", "metadata": ctx.metadata(plan.name), "type": "Opaque", "data": data}
    ctx.trace(obj, (), plan.at)
    return obj


def external_secret(ctx: Context, name: str, ref: ExternalSecretRef, at: PathT) -> Tree:
    """An External Secrets Operator ExternalSecret whose target is the Secret `name`; each key
    is one property of the remote secret (ESO api/v1 ExternalSecretData.remoteRef)."""
    data = [{"secretKey": option, "remoteRef": {"key": ref.remoteKey, "property": prop}}
            for option, prop in sorted(ref.properties.items())]
    obj = {"apiVersion": table()["ExternalSecret"].api_version, "kind": "ExternalSecret",
           "metadata": ctx.metadata(name),
           "spec": {"refreshInterval": ref.refreshInterval,
                    "secretStoreRef": {"name": ref.store, "kind": ref.kind},
                    "target": {"name": name, "creationPolicy": "Owner"},
                    "data": data}}
    ctx.trace(obj, (), at)
    ctx.trace(obj, ("spec", "secretStoreRef"), (*at, "externalSecret", "store"))
    return obj


def node_affinity(ctx: Context) -> Tree | None:
    p = ctx.spec.placement
    exprs: list[Tree] = []
    if p.gpu:
        exprs.append({"key": p.gpuLabel, "operator": "In", "values": list(p.gpu)})
    for key in sorted(p.nodeSelector):
        exprs.append({"key": key, "operator": "In", "values": [p.nodeSelector[key]]})
    if not exprs:
        return None
    return {"required": {"nodeSelectorTerms": [{"matchExpressions": exprs}]}}


# Dataset fields the spec computes, and the spec key to use instead of overrides.
_COMPUTED = {"mounts": "source", "sharedOptions": "sharedOptions", "sharedEncryptOptions": "sharedCredentials",
             "owner": "dataset.owner", "dataRestoreLocation": "dataset.dataRestoreLocation"}


def dataset(ctx: Context, mounts: list[Tree], shared: list[Tree] | None = None
            ) -> Tree:
    """The Dataset; `shared` is the sharedEncryptOptions delivered from sharedCredentials."""
    s = ctx.spec
    spec = overrides.apply(ctx, "Dataset", _spec(ctx, mounts, shared), s.dataset.overrides, ("dataset", "overrides"),
                           _COMPUTED)
    modes = spec.get("accessModes")
    ctx.built_access_modes = [m for m in modes if isinstance(m, str)] if isinstance(modes, list) else []
    obj = ctx.fluid_object("Dataset", ctx.name, spec, at=("metadata", "name"), own=s.dataset)
    overrides.trace(ctx, obj, s.dataset.overrides, ("dataset", "overrides"))
    ctx.trace(obj, ("spec", "sharedEncryptOptions"), ("sharedCredentials",))
    ctx.trace(obj, ("spec", "owner"), ("dataset", "owner"))
    ctx.trace(obj, ("spec", "dataRestoreLocation"), ("dataset", "dataRestoreLocation"))
    _trace_mounts(ctx, obj)
    ctx.trace(obj, ("spec", "nodeAffinity"), ("placement",))
    ctx.trace(obj, ("spec", "tolerations"), ("placement", "tolerations"))
    ctx.trace(obj, ("spec", "accessModes"), ("accessModes",))
    ctx.trace_copy(obj, ("spec", "sharedOptions"), ("sharedOptions",), s.sharedOptions)
    return obj


def _spec(ctx: Context, mounts: list[Tree], shared: list[Tree] | None) -> Tree:
    """The Dataset's spec before overrides: the fields the spec sets (empty ones left out)."""
    s = ctx.spec
    spec: Tree = {key: value for key, value in (
        ("mounts", mounts), ("sharedOptions", dict(s.sharedOptions)), ("sharedEncryptOptions", shared),
        ("accessModes", list(s.accessModes)), ("nodeAffinity", node_affinity(ctx)),
        ("tolerations", [t.model_dump(exclude_none=True) for t in s.placement.tolerations])) if value}
    if s.placement.exclusive is not None:
        spec["placement"] = "Exclusive" if s.placement.exclusive else "Shared"
    if s.dataset.owner is not None:
        spec["owner"] = s.dataset.owner.model_dump()
    if s.dataset.dataRestoreLocation is not None:
        spec["dataRestoreLocation"] = s.dataset.dataRestoreLocation.model_dump(exclude_none=True)
    return spec


def _trace_mounts(ctx: Context, obj: Tree) -> None:
    """Each Dataset mount, and each field of it the spec gives, traced to its source entry."""
    for i, m in enumerate(ctx.spec.source):
        ctx.trace(obj, ("spec", "mounts", i), ("source", i))
        for key in ("name", "path", "credentials"):
            if getattr(m, key) is not None:
                ctx.trace(obj, ("spec", "mounts", i, "encryptOptions" if key == "credentials" else key),
                          ("source", i, key))
        ctx.trace_copy(obj, ("spec", "mounts", i, "options"), ("source", i, "options"), m.options)
        if m.uri is not None:
            ctx.trace(obj, ("spec", "mounts", i, "mountPoint"), ("source", i, "uri"))
        if m.credentials is not None:
            _trace_credential_names(ctx, obj, ("spec", "mounts", i, "encryptOptions"), m.credentials,
                                    ("source", i, "credentials"))
    if ctx.spec.sharedCredentials is not None:
        _trace_credential_names(ctx, obj, ("spec", "sharedEncryptOptions"), ctx.spec.sharedCredentials,
                                ("sharedCredentials",))


def _trace_credential_names(ctx: Context, obj: Tree, options: PathT, creds: Credentials, at: PathT) -> None:
    """Each encryptOption's name, traced to the key that gives it (a misspelt name is reported there)."""
    given: object = obj
    for key in options:
        if isinstance(given, dict):
            given = given.get(key)
        elif isinstance(given, list) and isinstance(key, int) and key < len(given):
            given = given[key]
    for j, item in enumerate(given if isinstance(given, list) else []):
        name = item.get("name") if isinstance(item, dict) else None
        found = key_path(ctx, creds, at, name) if isinstance(name, str) else None
        if found is not None:
            ctx.trace(obj, (*options, j), found)
