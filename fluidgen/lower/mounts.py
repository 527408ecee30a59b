"""Sources: Dataset mounts, their NFS PersistentVolume + claim, and the checks that only
a spec can be judged by (what the engine mounts at all, and names derived from the spec)."""

from __future__ import annotations

import re

from ..base import names
from ..base.manifest import Manifest, Tree
from ..base.uri import PVC, REFERENCE, scheme_of
from ..engines.contract import Engine
from ..model.context import Context
from ..model.specparts import Mount
from .credentials import Delivered, SecretPlan, deliver

# RFC 3986 section 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), lower-cased by scheme_of
URI_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")


def mount_name_for(ctx: Context, index: int, mount: Mount) -> str:
    """The mount's name: given, the dataset's for a single mount, else from the URI."""
    if mount.name:
        return mount.name
    if mount.nfs is not None:
        return ctx.name if len(ctx.spec.source) == 1 else f"nfs-{index}"
    if len(ctx.spec.source) == 1:
        return ctx.name
    assert mount.uri is not None
    tail = [p for p in re.split(r"[/:]+", mount.uri.partition("://")[2]) if p]
    candidate = re.sub(r"[^a-z0-9-]+", "-", (tail[-1] if tail else "").lower()).strip("-")
    return candidate or f"mount-{index}"


def claim_name(ctx: Context, index: int, mount: Mount) -> str:
    """The NFS PersistentVolume and claim: volumeName, else the mount's own name, else one
    derived from the Dataset. Never the Dataset's name: Fluid creates that claim itself
    (pkg/ddc/base/pv.go), and the runtime could not bind."""
    assert mount.nfs is not None
    if mount.nfs.volumeName:
        return mount.nfs.volumeName
    if mount.name and mount.name != ctx.name:
        return mount.name
    return f"{ctx.name}-nfs" if len(ctx.spec.source) == 1 else f"{ctx.name}-nfs-{index}"


def secret_name(ctx: Context, mount: str) -> str:
    return f"{ctx.name}-credentials" if mount == ctx.name else f"{ctx.name}-{mount}-credentials"


def check(ctx: Context, engine: Engine) -> None:
    """What an engine can mount at all, judged on the spec (the output would not show it)."""
    source = ctx.spec.source
    if engine.mounts.needs_mounts and not source:
        # Fluid refuses no mounts for some engines (juicefs, efc) and runs others with an empty
        # namespace (alluxio, jindo, goosefs, cache): the sources of Mounts.needs_mounts say which.
        ctx.report(("source",), f"a Dataset without mounts serves no storage through {engine.kind}: "
                                "give at least one source", stage="check")
    if not engine.mounts.takes_mounts and source:
        ctx.report(("source",), f"{engine.kind} takes no mounts", stage="check")
    if engine.mounts.single_mount and len(source) > 1:
        ctx.report(("source", 1), f"{engine.kind} uses only the first mount; split the data into several datasets",
                   stage="check")
    for i, m in enumerate(source):
        if m.name is not None and (problem := names.mount_name(m.name)) is not None:
            ctx.report(("source", i, "name"), problem, stage="check")
        _check_scheme(ctx, engine, i, m)


def _check_scheme(ctx: Context, engine: Engine, i: int, m: Mount) -> None:
    """Whether the engine mounts this mount's scheme at all."""
    scheme = PVC if m.nfs is not None else scheme_of(m.uri or "")
    at = ("source", i, "nfs" if m.nfs is not None else "uri")
    if (problem := _scheme_problem(engine, scheme)) is None:
        return
    if engine.mounts.documented_schemes and URI_SCHEME.fullmatch(scheme):
        ctx.report(at, f"{scheme}:// is not one of the storage schemes fluidgen knows {engine.kind} mounts "
                       f"({_listed(engine)}); Fluid hands it to the engine as written, so it mounts if the "
                       "engine's image supports that storage", severity="warning", stage="check")
        return
    ctx.report(at, problem, stage="check")


def _scheme_problem(engine: Engine, scheme: str) -> str | None:
    """Why the engine cannot mount `scheme` ('': the mount has none); None when it can, or a rule judges it."""
    accepted = engine.mounts.schemes
    if scheme == REFERENCE:
        return None  # the rules FG115 (its only mount) and FG120 (the engine that serves it) judge it
    if not scheme:  # without a list, a FUSE program of the user's reads mountPoint as it is (server:/export)
        return None if accepted is None else "expected a URI with a scheme, such as oss://bucket/dir/ or pvc://claim"
    if accepted is not None and not URI_SCHEME.fullmatch(scheme):  # never echoed: it may hold a credential
        return ("expected a URI whose scheme (the text before ://) is a letter followed by letters, digits, +, - "
                "or ., such as oss://bucket/dir/")
    if accepted is not None and scheme not in accepted:
        return f"{engine.kind} cannot mount {scheme}:// (it accepts {_listed(engine)})"
    return None


def _listed(engine: Engine) -> str:
    return ", ".join(f"{s}://" for s in sorted(engine.mounts.schemes or ())) or "no mounts"


def lower_mounts(ctx: Context) -> tuple[list[Tree], list[SecretPlan]]:
    secrets: list[SecretPlan] = []
    return [_mount(ctx, i, m, secrets) for i, m in enumerate(ctx.spec.source)], secrets


def _mount(ctx: Context, i: int, m: Mount, secrets: list[SecretPlan]) -> Tree:
    """One Dataset mount; the Secret its credentials need joins `secrets`."""
    name = mount_name_for(ctx, i, m)
    uri = f"pvc://{claim_name(ctx, i, m)}" if m.nfs is not None else m.uri
    out: Tree = {"mountPoint": uri, "name": name}
    if m.name is None and "name" in m.model_fields_set:
        del out["name"]  # `name: null`: unnamed; Mount.name is optional (api/v1alpha1/dataset_types.go)
    for key in ("path", "readOnly", "shared"):
        if getattr(m, key) is not None:
            out[key] = getattr(m, key)
    if m.options:
        out["options"] = dict(m.options)
    if m.credentials is not None:
        got = deliver(ctx, m.credentials, secret_name(ctx, name), ("source", i, "credentials"))
        out["encryptOptions"] = got.encrypt_options
        if got.secret is not None:
            secrets.append(got.secret)
    return out


def shared_credentials(ctx: Context) -> Delivered | None:
    """sharedEncryptOptions: secret options every mount gets, in the Secret <dataset>-shared-credentials."""
    if ctx.spec.sharedCredentials is None:
        return None
    return deliver(ctx, ctx.spec.sharedCredentials, f"{ctx.name}-shared-credentials", ("sharedCredentials",))


def nfs_objects(ctx: Context) -> list[Manifest]:
    out: list[Manifest] = []
    for i, m in enumerate(ctx.spec.source):
        if m.nfs is None:
            continue
        name, nfs = claim_name(ctx, i, m), m.nfs
        pv_spec: Tree = {
            "capacity": {"storage": nfs.capacity},
            "volumeMode": "Filesystem",
            "accessModes": list(nfs.accessModes),
            "persistentVolumeReclaimPolicy": "Retain",
            "storageClassName": nfs.storageClass,
            "nfs": {"server": nfs.server, "path": nfs.path},
        }
        if nfs.mountOptions:
            pv_spec["mountOptions"] = list(nfs.mountOptions)
        pv = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": ctx.metadata(name, namespaced=False),
              "spec": pv_spec}
        pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": ctx.metadata(name), "spec": {
            "accessModes": list(nfs.accessModes), "resources": {"requests": {"storage": nfs.capacity}},
            "storageClassName": nfs.storageClass, "volumeName": name}}
        for obj in (pv, pvc):
            ctx.trace(obj, (), ("source", i, "nfs"))
        ctx.trace_copy(pv, ("spec", "mountOptions"), ("source", i, "nfs", "mountOptions"), nfs.mountOptions)
        out += [pv, pvc]
    return out
