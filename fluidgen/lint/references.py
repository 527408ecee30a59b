"""Rules across objects: bindings, references, credentials per engine, and the names
Fluid's controllers create (fluid/dataset.py, fluid/operations.py, the engine modules)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from ..contract import Storage
from ..diagnostics import did_you_mean
from ..engine_table import REFERENCE_ENGINE
from ..fluid.dataset import created_volume_names
from ..fluid.operations import OPERATIONS
from ..manifest import is_reference_dataset, kind_of, meta, mounts_of, names_given, same_place, spec_of
from ..rules import Finding, Object
from ..structural.validate import PathT
from ..uri import scheme_of
from .binding import bound_dataset, bound_runtime, engine_of, find, is_runtime


def _scheme(uri: object) -> str:
    return scheme_of(str(uri))


def runtime_binding(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    if not is_runtime(obj) or bound_dataset(obj, objects) is not None:
        return
    ns, name = meta(obj).get("namespace"), meta(obj).get("name")
    yield Finding(("metadata", "name"), f"no Dataset named {name} in namespace {ns or '(default)'} among the files "
                                        "given; Fluid binds a runtime to the Dataset with the same namespace and "
                                        f"name. {_elsewhere('Dataset', ns, name)}")


# -- credentials --------------------------------------------------------------------------

def _storage_findings(kind: str, scheme: str, facts: Storage, uri: object, secret: Sequence[tuple[PathT, str]],
                      plain: set[str], at: PathT, uri_at: PathT) -> Iterator[Finding]:
    given = {name for _, name in secret} | plain
    for path, name in secret:
        if name not in facts.secret_options and not facts.other_names_read:
            reads = ", ".join(sorted(facts.secret_options)) or "no credentials at all"

            yield Finding(path, f"{kind} does not read {name} for {scheme}:// (it reads {reads})"
                                f"{did_you_mean(name, facts.secret_options - given)}")  # not one already given
    missing = sorted(facts.required - given)
    if missing:
        yield Finding(at, f"{kind} needs {' and '.join(sorted(facts.required))} for {scheme}:// "
                          f"(missing {', '.join(missing)})")
    for pair in facts.pairs:
        present = pair & given
        if present and present != pair and not (facts.required & pair):
            yield Finding(at, f"{', '.join(sorted(present))} without {', '.join(sorted(pair - present))}: {kind} "
                              f"needs both {' and '.join(sorted(pair))} for {scheme}://")
    if facts.needs_one_of and not facts.needs_one_of & given:
        yield Finding(at, f"{kind} needs one of {', '.join(sorted(facts.needs_one_of))} for {scheme}://")
    for option in facts.options:
        if option not in plain:
            yield Finding(at, f'{kind} needs option "{option}" for {scheme}:// mounts')
    text = str(uri)
    if facts.endpoint_in_uri and "." not in text.partition("://")[2].split("/", 1)[0]:
        yield Finding(uri_at, f"{kind} hands {scheme}:// to `juicefs sync`, which needs the endpoint in the URI: "
                              f"{scheme}://<BUCKET>.<ENDPOINT>/<PATH>")
    if facts.uri_pattern and not re.match(facts.uri_pattern, text):
        yield Finding(uri_at, f"{kind} cannot parse {text!r}; write {facts.uri_example}")


def credential_facts(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    if kind_of(obj) == "Dataset":
        yield from _dataset_credentials(obj, objects)
    elif kind_of(obj) == "DataMigrate":
        yield from _migrate_credentials(obj, objects)


def _keys(value: Any) -> set[str]:
    return {str(k) for k in value} if isinstance(value, dict) else set()


def _dataset_credentials(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    runtime = bound_runtime(obj, objects)
    engine = engine_of(runtime) if runtime is not None else None
    if engine is None or runtime is None:
        return
    spec = spec_of(obj)
    shared: list[tuple[PathT, str]] = [(("spec", "sharedEncryptOptions", j, "name"), n)
                                       for j, n in names_given(spec.get("sharedEncryptOptions"))]
    runtime_props = _keys(spec_of(runtime).get("properties"))  # Alluxio reads UFS keys from properties too
    for i, mount in enumerate(mounts_of(obj)):
        facts = engine.mounts.storage.get(_scheme(mount.get("mountPoint")))
        if facts is None:
            continue
        secret = shared + [(("spec", "mounts", i, "encryptOptions", j, "name"), n)
                           for j, n in names_given(mount.get("encryptOptions"))]
        plain = _keys(spec.get("sharedOptions")) | _keys(mount.get("options")) | runtime_props
        yield from _storage_findings(engine.kind, _scheme(mount.get("mountPoint")), facts, mount.get("mountPoint"),
                                     secret, plain, ("spec", "mounts", i), ("spec", "mounts", i, "mountPoint"))


def _migrate_credentials(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    spec = spec_of(obj)
    ends: dict[str, dict[str, Any]] = {side: spec[side] for side in ("from", "to") if isinstance(spec.get(side), dict)}
    ours: dict[str, Any] | None = next((e["dataset"] for e in ends.values() if isinstance(e.get("dataset"), dict)),
                                       None)
    dataset = find(objects, "Dataset", ours.get("name"), ours.get("namespace")) if ours else None
    runtime = bound_runtime(dataset, objects) if dataset is not None else None
    engine = engine_of(runtime) if runtime is not None else None
    if engine is None:
        return
    for side, end in ends.items():
        storage = end.get("externalStorage")
        if not isinstance(storage, dict):
            continue
        scheme = _scheme(storage.get("uri"))
        if scheme in ("pvc", "local"):
            continue
        facts = engine.mounts.migrate_storage.get(scheme) or engine.mounts.migrate_storage.get("*")
        if facts is None:
            continue
        base: PathT = ("spec", side, "externalStorage")
        secret: list[tuple[PathT, str]] = [((*base, "encryptOptions", j, "name"), n)
                                           for j, n in names_given(storage.get("encryptOptions"))]
        yield from _storage_findings(engine.kind, scheme, facts, storage.get("uri"), secret, set(),
                                     (*base, "encryptOptions"), (*base, "uri"))


# -- data operations ----------------------------------------------------------------------

def _dataset_ref(obj: Object) -> tuple[PathT, Any, Any] | None:
    """(path, name, namespace) of the Dataset an operation works on."""
    spec, ns = spec_of(obj), meta(obj).get("namespace")
    kind = kind_of(obj)
    if kind == "DataBackup":
        return ("spec", "dataset"), spec.get("dataset"), ns
    if kind == "DataMigrate":
        for side in ("from", "to"):
            end = spec.get(side)
            if isinstance(end, dict) and isinstance(end.get("dataset"), dict):
                return ("spec", side, "dataset"), end["dataset"].get("name"), end["dataset"].get("namespace")
        return None
    ref = spec.get("dataset")
    if isinstance(ref, dict):
        return ("spec", "dataset"), ref.get("name"), ref.get("namespace", None)
    return None


# What Fluid's controllers do with an operation that names no Dataset: they look it up by that
# empty name and fail (pkg/controllers/v1alpha1/{dataload,dataprocess,databackup}/implement.go
# GetTargetDataset; DataMigrate: pkg/utils/datamigrate.go GetTargetDatasetNamespacedNameOfMigrate,
# "either spec.to.dataset or spec.from.dataset must be set"), in every version versions.py lists.
_NO_DATASET = {
    "DataMigrate": "neither spec.from.dataset nor spec.to.dataset names a Dataset; Fluid refuses the DataMigrate "
                   "(one side must be a Dataset)",
    "DataBackup": "the DataBackup names no Dataset (spec.dataset); Fluid's controller cannot find what to back up",
    "": "the operation names no Dataset (spec.dataset.name); Fluid's controller cannot find what to work on",
}


def operation_references(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    if kind_of(obj) not in OPERATIONS:
        return
    ns = meta(obj).get("namespace")
    found = _dataset_ref(obj)
    if found is None or not found[1]:
        yield Finding(found[0] if found else ("spec",), _NO_DATASET.get(kind_of(obj), _NO_DATASET[""]))
    else:
        path, name, namespace = found
        if namespace is None and kind_of(obj) == "DataLoad":
            yield Finding(path, "set dataset.namespace: Fluid fails a DataLoad whose dataset namespace is empty or "
                                "differs from its own (pkg/controllers/v1alpha1/dataload)")
        elif namespace is not None and ns is not None and namespace != ns:
            yield Finding((*path, "namespace"), f"the Dataset is in namespace {namespace} but this {kind_of(obj)} "
                                                f"is in {ns}; Fluid runs an operation only in its Dataset's namespace")
        where = namespace or ns
        if name is not None and find(objects, "Dataset", name, where) is None:
            yield Finding(path, f"no Dataset named {name} in namespace {where or '(default)'} among the files "
                                f"given; the operation would fail. {_elsewhere('Dataset', where, name)}")
    after = spec_of(obj).get("runAfter")
    if isinstance(after, dict):
        kind, name, namespace = str(after.get("kind")), after.get("name"), after.get("namespace") or ns
        if find(objects, kind, name, namespace) is None:
            yield Finding(("spec", "runAfter"), f"no {kind} named {name} in namespace {namespace or '(default)'} "
                                                "among the files given; the operation would wait for it forever. "
                                                f"{_elsewhere(kind, namespace, name)}")


def _elsewhere(kind: str, namespace: object, name: object) -> str:
    return f"If it is applied from elsewhere, say so: --external {kind}/{namespace or 'default'}/{name}"


def operation_ttl(obj: Object, _: list[Object]) -> Iterator[Finding]:
    """Fluid deletes a finished operation after ttlSecondsAfterFinished, except one that runs on a
    Cron or OnEvent policy (GetTTL in pkg/controllers/v1alpha1/<operation>/implement.go)."""
    ttl = spec_of(obj).get("ttlSecondsAfterFinished")
    if kind_of(obj) not in OPERATIONS or ttl is None or spec_of(obj).get("policy") in ("Cron", "OnEvent"):
        return
    yield Finding(("spec", "ttlSecondsAfterFinished"),
                  f"Fluid deletes this {kind_of(obj)} {ttl} s after it finishes; an auto-syncing Argo CD or Flux "
                  "app then creates it again and it runs again, forever. Under GitOps leave the TTL out "
                  "(fluidgen build --gitops argocd does)")


# -- names Fluid creates ------------------------------------------------------------------

def created_by_fluid(objects: list[Object]) -> dict[tuple[str, str, str], str]:
    """(kind, namespace, name) -> what creates it, for every object Fluid's controllers make."""
    out: dict[tuple[str, str, str], str] = {}
    for o in objects:
        name, ns = meta(o).get("name"), str(meta(o).get("namespace") or "")
        if not isinstance(name, str):
            continue
        if kind_of(o) == "Dataset":
            volumes = created_volume_names(name, ns)
            out[("PersistentVolume", "", volumes["PersistentVolume"])] = f"Dataset {ns}/{name}"
            out[("PersistentVolumeClaim", ns, volumes["PersistentVolumeClaim"])] = f"Dataset {ns}/{name}"
        engine = engine_of(o)
        if engine is not None:
            for kind, made in engine.created.names(name):
                out[(kind, ns, made)] = f"{engine.kind} {ns}/{name}"
        op = OPERATIONS.get(kind_of(o))
        if op is not None:
            out[("Job" if op.kind != "DataBackup" else "Pod", ns, op.job_name.format(name=name))] = \
                f"{op.kind} {ns}/{name}"
    return out


def collides_with_fluid(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    name = meta(obj).get("name")
    ns = "" if kind_of(obj) == "PersistentVolume" else str(meta(obj).get("namespace") or "")
    maker = created_by_fluid(objects).get((kind_of(obj), ns, str(name)))
    if maker is not None:
        yield Finding(("metadata", "name"), f"{kind_of(obj)} {name} is the name Fluid gives an object it creates for "
                                            f"{maker}; rename this one")


def _serves_reference(runtime: Object, objects: list[Object]) -> bool:
    """Is `runtime` bound to a reference Dataset (only dataset:// mounts)?"""
    return any(same_place(d, runtime) and is_reference_dataset(d) for d in objects)


def reference_engine(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    """Fluid serves a reference Dataset through the engine marked `references` (thin:
    pkg/ddc/thin/referencedataset); a runtime of another engine cannot mount it."""
    serving = REFERENCE_ENGINE.kind
    if is_runtime(obj) and kind_of(obj) != serving and _serves_reference(obj, objects):
        yield Finding(("kind",), "its Dataset is a dataset:// reference, which Fluid serves through a "
                                 f"{serving}; {kind_of(obj)} cannot mount it")
