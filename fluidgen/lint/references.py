"""Rules across objects: bindings, references, credentials per engine, and the names
Fluid's controllers create (fluid/dataset.py, fluid/operations.py, the engine modules)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ..base.diagnostics import PathT, did_you_mean
from ..base.fluidsource import source
from ..base.manifest import Manifest, Tree, is_reference_dataset, kind_of, meta, mounts_of, names_given, spec_of
from ..base.manifest_index import MIGRATE_ENDS, DatasetRef, Entry, ManifestIndex, dataset_ref, landing_namespace
from ..base.rules import Example, Finding, Rule
from ..base.uri import scheme_of
from ..engines.contract import Engine, Storage
from ..engines.engine_table import INDEX, REFERENCE_KIND, RUNTIME_KINDS
from ..fluid.dataset import created_volume_names
from ..fluid.operations import OPERATIONS, PARALLEL_WORKERS, Operation
from .binding import engine_of
from .docs import runtime_head


def _scheme(uri: object) -> str:
    return scheme_of(str(uri))


def runtime_binding(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    if index.bound_dataset(entry) is not None:
        return
    ns, name = entry.namespace, entry.name
    yield Finding(("metadata", "name"), f"no Dataset named {name} in namespace {ns or '(default)'} among the files "
                                        "given; Fluid binds a runtime to the Dataset with the same namespace and "
                                        f"name. {_elsewhere('Dataset', ns, name)}")


def reference_engine(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """Fluid serves a reference Dataset through the engine marked `references` (thin:
    pkg/ddc/thin/referencedataset); a runtime of another engine cannot mount it."""
    if any(is_reference_dataset(d.obj) for d in index.bound_datasets(entry)):
        yield Finding(("kind",), "its Dataset is a dataset:// reference, which Fluid serves through a "
                                 f"{REFERENCE_KIND}; {entry.kind} cannot mount it")


# -- credentials --------------------------------------------------------------------------

def _storage_findings(kind: str, scheme: str, facts: Storage, uri: object, secret: Sequence[tuple[PathT, str]],
                      plain: set[str], at: PathT, uri_at: PathT) -> Iterator[Finding]:
    given = {name for _, name in secret} | plain
    yield from _unread_names(kind, scheme, facts, secret, given)
    yield from _incomplete_sets(kind, scheme, facts, secret, plain, given, at)
    yield from _uri_form(kind, scheme, facts, str(uri), uri_at)


def _unread_names(kind: str, scheme: str, facts: Storage, secret: Sequence[tuple[PathT, str]],
                  given: set[str]) -> Iterator[Finding]:
    """Secret option names the engine does not read for this storage."""
    for path, name in secret:
        if name not in facts.secret_options and not facts.other_names_read:
            reads = ", ".join(sorted(facts.secret_options)) or "no credentials at all"
            yield Finding(path, f"{kind} does not read {name} for {scheme}:// (it reads {reads})"
                                f"{did_you_mean(name, facts.secret_options - given)}")  # not one already given


def _incomplete_sets(kind: str, scheme: str, facts: Storage, secret: Sequence[tuple[PathT, str]], plain: set[str],
                     given: set[str], at: PathT) -> Iterator[Finding]:
    """Required names, key pairs, one-of sets and plain options the storage needs."""
    yield from _missing_required(kind, scheme, facts, secret, given, at)
    yield from _half_pairs(kind, scheme, facts, given, at)
    if facts.needs_one_of and not facts.needs_one_of & given:
        yield Finding(at, f"{kind} needs one of {', '.join(sorted(facts.needs_one_of))} for {scheme}://")
    for option in facts.options:
        if option not in plain:
            yield Finding(at, f'{kind} needs option "{option}" for {scheme}:// mounts')


def _missing_required(kind: str, scheme: str, facts: Storage, secret: Sequence[tuple[PathT, str]],
                      given: set[str], at: PathT) -> Iterator[Finding]:
    missing = sorted(facts.required - given)
    if missing:
        needs = f"{kind} needs {' and '.join(sorted(facts.required))} for {scheme}://"
        # a name the engine passes on (and so accepts) may still be a misspelling of a missing one:
        # reported at that name's own key, the missing name it stands for in the suggestion
        hinted = set()
        for path, name in secret:
            hint = did_you_mean(name, missing)
            if name not in facts.secret_options and hint:
                hinted.add(hint.split('"')[1])
                yield Finding(path, f"{name} is not a name {needs} (missing {', '.join(missing)}){hint}")
        if set(missing) - hinted:
            yield Finding(at, f"{needs} (missing {', '.join(missing)})")


def _half_pairs(kind: str, scheme: str, facts: Storage, given: set[str], at: PathT) -> Iterator[Finding]:
    """One name of a key pair without the other (unless the pair is required: reported as missing)."""
    for pair in facts.pairs:
        present = pair & given
        if present and present != pair and not (facts.required & pair):
            yield Finding(at, f"{', '.join(sorted(present))} without {', '.join(sorted(pair - present))}: {kind} "
                              f"needs both {' and '.join(sorted(pair))} for {scheme}://")


def _uri_form(kind: str, scheme: str, facts: Storage, text: str, uri_at: PathT) -> Iterator[Finding]:
    """The shape of the URI the engine can parse."""
    if facts.endpoint_in_uri and "." not in text.partition("://")[2].split("/", 1)[0]:
        yield Finding(uri_at, f"{kind} hands {scheme}:// to `juicefs sync`, which needs the endpoint in the URI: "
                              f"{scheme}://<BUCKET>.<ENDPOINT>/<PATH>")
    if facts.uri_pattern and not re.match(facts.uri_pattern, text):
        yield Finding(uri_at, f"{kind} cannot parse {text!r}; write {facts.uri_example}")


def credential_facts(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    if entry.kind == "Dataset":
        yield from _dataset_credentials(entry, index)
    else:
        yield from _migrate_credentials(entry, index)


def _keys(value: object) -> set[str]:
    return {str(k) for k in value} if isinstance(value, dict) else set()


def _dataset_credentials(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    runtime = index.bound_runtime(entry)
    engine = engine_of(runtime.obj) if runtime is not None else None
    if engine is None or runtime is None:
        return
    spec = entry.spec
    shared: list[tuple[PathT, str]] = [(("spec", "sharedEncryptOptions", j, "name"), n)
                                       for j, n in names_given(spec.get("sharedEncryptOptions"))]
    # Alluxio reads UFS keys from its site properties too; Jindo only from the mount's options and
    # sharedOptions (jindocache/transform.go transformMaster: "oss endpoint can not be null").
    runtime_props = _keys(runtime.spec.get("properties")) if engine.mounts.options_in_properties else set()
    for i, mount in enumerate(mounts_of(entry.obj)):
        facts = engine.mounts.storage.get(_scheme(mount.get("mountPoint")))
        if facts is None:
            continue
        secret = shared + [(("spec", "mounts", i, "encryptOptions", j, "name"), n)
                           for j, n in names_given(mount.get("encryptOptions"))]
        plain = _keys(spec.get("sharedOptions")) | _keys(mount.get("options")) | runtime_props
        yield from _storage_findings(engine.kind, _scheme(mount.get("mountPoint")), facts, mount.get("mountPoint"),
                                     secret, plain, ("spec", "mounts", i), ("spec", "mounts", i, "mountPoint"))


def _migrate_credentials(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    engine = _migrated_engine(entry, index)
    if engine is None:
        return
    for side in MIGRATE_ENDS:
        end = entry.spec.get(side)
        storage = end.get("externalStorage") if isinstance(end, dict) else None
        if isinstance(storage, dict):
            yield from _external_storage(engine, side, storage)


def _migrated_engine(entry: Entry, index: ManifestIndex) -> Engine | None:
    """The engine of the runtime bound to the Dataset a DataMigrate migrates, as the end names it
    (Fluid's CRD requires its namespace)."""
    ref = dataset_ref(entry)
    dataset = index.find("Dataset", ref.name, ref.namespace) if ref is not None else None
    runtime = index.bound_runtime(dataset) if dataset is not None else None
    return engine_of(runtime.obj) if runtime is not None else None


def _external_storage(engine: Engine, side: str, storage: dict[str, object]) -> Iterator[Finding]:
    """A DataMigrate end's external storage, against what the engine's migration reads for its scheme."""
    scheme = _scheme(storage.get("uri"))
    if scheme in ("pvc", "local"):
        return
    facts = engine.mounts.migrate_storage.get(scheme) or engine.mounts.migrate_storage.get("*")
    if facts is None:
        return
    base: PathT = ("spec", side, "externalStorage")
    secret: list[tuple[PathT, str]] = [((*base, "encryptOptions", j, "name"), n)
                                       for j, n in names_given(storage.get("encryptOptions"))]
    yield from _storage_findings(engine.kind, scheme, facts, storage.get("uri"), secret, set(),
                                 (*base, "encryptOptions"), (*base, "uri"))


# -- data operations ----------------------------------------------------------------------

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


def operation_references(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    ref = dataset_ref(entry)
    if ref is None or not ref.name:
        yield Finding(ref.path if ref else ("spec",), _NO_DATASET.get(entry.kind, _NO_DATASET[""]))
    else:
        yield from _dataset_namespace(entry, ref)
        where = ref.namespace or entry.namespace
        if index.operation_dataset(entry) is None:
            yield Finding(ref.path, f"no Dataset named {ref.name} in namespace {where or '(default)'} among the files "
                                    f"given; the operation would fail. {_elsewhere('Dataset', where, ref.name)}")
    yield from _run_after(entry, index)


# The operations whose controller looks their Dataset up in spec.dataset.namespace and fails one that
# differs from their own, an empty one included (pkg/controllers/v1alpha1/{dataload,dataprocess}/
# implement.go GetTargetDataset, Validate, at both commits fluidgen targets).
_NAMES_DATASET_NAMESPACE = ("DataLoad", "DataProcess")


def _dataset_namespace(entry: Entry, ref: DatasetRef) -> Iterator[Finding]:
    """An operation runs only in its Dataset's namespace; a DataLoad or DataProcess must name it."""
    ns = entry.namespace
    if ref.namespace is None and entry.kind in _NAMES_DATASET_NAMESPACE:
        yield Finding(ref.path, f"set dataset.namespace: Fluid fails a {entry.kind} whose dataset namespace is empty "
                                f"or differs from its own (pkg/controllers/v1alpha1/{entry.kind.lower()})")
    elif ref.namespace is not None and ns is not None and ref.namespace != ns:
        yield Finding((*ref.path, "namespace"), f"the Dataset is in namespace {ref.namespace} but this "
                                                f"{entry.kind} is in {ns}; Fluid runs an operation only in its "
                                                "Dataset's namespace")


def _run_after(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """The operation `runAfter` names must be among the files (or declared external)."""
    after = entry.spec.get("runAfter")
    if not isinstance(after, dict):
        return
    kind, name, namespace = str(after.get("kind")), after.get("name"), after.get("namespace") or entry.namespace
    if index.find(kind, name, namespace) is None:
        yield Finding(("spec", "runAfter"), f"no {kind} named {name} in namespace {namespace or '(default)'} "
                                            "among the files given; the operation would wait for it forever. "
                                            f"{_elsewhere(kind, namespace, name)}")


def _elsewhere(kind: str, namespace: object, name: object) -> str:
    return f"If it is applied from elsewhere, say so: --external {kind}/{namespace or 'default'}/{name}"


def operation_ttl(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    """Fluid deletes a finished operation after ttlSecondsAfterFinished, except one that runs on a
    Cron or OnEvent policy (GetTTL in pkg/controllers/v1alpha1/<operation>/implement.go)."""
    ttl = entry.spec.get("ttlSecondsAfterFinished")
    if ttl is None or entry.spec.get("policy") in ("Cron", "OnEvent"):
        return
    yield Finding(("spec", "ttlSecondsAfterFinished"),
                  f"Fluid deletes this {entry.kind} {ttl} s after it finishes; an auto-syncing Argo CD or Flux "
                  "app then creates it again and it runs again, forever. Under GitOps leave the TTL out "
                  "(fluidgen build --gitops argocd does)")


# -- names Fluid creates ------------------------------------------------------------------

def created_by_fluid(index: ManifestIndex) -> dict[tuple[str, str, str], str]:
    """(kind, namespace, name) -> what creates it, for every object Fluid's controllers make."""
    out: dict[tuple[str, str, str], str] = {}
    for entry in index.entries:
        name, ns = entry.name, str(landing_namespace(entry.namespace))
        if not isinstance(name, str):
            continue
        if entry.kind == "Dataset":
            volumes = created_volume_names(name, ns)
            out[("PersistentVolume", "", volumes["PersistentVolume"])] = f"Dataset {ns}/{name}"
            out[("PersistentVolumeClaim", ns, volumes["PersistentVolumeClaim"])] = f"Dataset {ns}/{name}"
        for kind, made in derived_names(entry.obj, index):
            out[(kind, ns, made)] = f"{entry.kind} {ns}/{name}"
    return out


def derived_names(obj: Manifest, index: ManifestIndex | None = None) -> list[tuple[str, str]]:
    """(kind, name) of what Fluid creates for a runtime or data operation, by its own name; for a
    runtime whose objects its related object decides, as the run's copy of that object (in `index`)
    says, and nothing of them without it."""
    name = meta(obj).get("name")
    if not isinstance(name, str):
        return []
    engine = engine_of(obj)
    if engine is not None:
        return engine.created.names(name, spec_of(obj), _related(engine, obj, index) if index else None)
    op = OPERATIONS.get(kind_of(obj))
    return _operation_names(op, name, spec_of(obj)) if op is not None else []


def _related(engine: Engine, obj: Manifest, index: ManifestIndex) -> Manifest | None:
    """The object the runtime names through an extra kind's field (the cache engine's class), when
    the run holds it."""
    for extra in engine.extra_kinds:
        named = spec_of(obj).get(extra.named_by.removeprefix("spec/"))  # a runtime's names sit in its spec
        if not isinstance(named, str):
            continue
        # both kinds a runtime names (thin's profile, the cache engine's class) are cluster-scoped
        found = index.cluster_scoped(extra.kind, named)
        if found is not None:
            return found.obj
    return None


def _operation_names(op: Operation, name: str, spec: Tree) -> list[tuple[str, str]]:
    job = op.job_name.format(name=name)
    if op.kind == "DataBackup":
        return [("Pod", job)]
    # A Cron policy: the chart's CronJob instead of the Job (charts/fluid-dataloader/*/templates/cronjob.yaml)
    out = [("CronJob" if spec.get("policy") == "Cron" else "Job", job)]
    parallelism = spec.get("parallelism")
    if op.kind == "DataMigrate" and isinstance(parallelism, int) and parallelism > 1:
        workers = PARALLEL_WORKERS.value.format(release=op.release_name(name))  # GetParallelOperationWorkersName
        out += [("StatefulSet", workers), ("Service", workers)]
    return out


# Limits on the names Fluid derives: Helm refuses release names over 53 characters; a StatefulSet's
# pods carry the label controller-revision-hash=<name>-<hash of up to 10>, so over 52 its pods are
# never created (kubernetes/kubernetes#64023); a CronJob appends 11 characters to name its Jobs
# (the API server refuses over 52); a Job's pods carry its name as a label value (63); a Service
# name is a DNS-1035 label (63).
NAME_LIMITS = {"HelmRelease": 53, "StatefulSet": 52, "AdvancedStatefulSet": 52, "CronJob": 52, "Job": 63,
               "Service": 63}


def derived_names_fit(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    name = entry.name
    if not isinstance(name, str):
        return
    made = _with_release(entry, name, derived_names(entry.obj, index))
    too_long = [(kind, n, NAME_LIMITS[kind]) for kind, n in made if kind in NAME_LIMITS and len(n) > NAME_LIMITS[kind]]
    if not too_long:
        return
    room = min(limit - (len(n) - len(name)) for _, n, limit in too_long)
    listed = "; ".join(f"{kind} {n} ({len(n)} > {limit})" for kind, n, limit in too_long)
    yield Finding(("metadata", "name"), f"Fluid derives names from {name} that Kubernetes or Helm refuse: {listed}; "
                                        f"use a name of at most {room} characters")


def _with_release(entry: Entry, name: str, made: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The derived names, after the Helm release Fluid installs for an operation or a Helm engine's runtime."""
    op = OPERATIONS.get(entry.kind)
    if op is not None:
        return [("HelmRelease", op.release_name(name)), *made]
    engine = engine_of(entry.obj)
    if engine is not None and engine.created.helm_release:
        return [("HelmRelease", name), *made]
    return made


def collides_with_fluid(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    ns = "" if entry.kind == "PersistentVolume" else str(landing_namespace(entry.namespace))
    maker = index.view(created_by_fluid).get((entry.kind, ns, str(entry.name)))
    if maker is not None:
        yield Finding(("metadata", "name"), f"{entry.kind} {entry.name} is the name Fluid gives an object it "
                                            f"creates for {maker}; rename this one")


RULES = (
    Rule(
        "FG104", "error", "a runtime binds to the Dataset with its namespace and name", runtime_binding,
        kinds=RUNTIME_KINDS,
        description="Fluid has no field that links a runtime to its Dataset: the runtime controller looks up "
                    "the Dataset with the runtime's own namespace and name, and a runtime without one waits "
                    "and serves nothing. Objects applied from elsewhere can be declared with "
                    "`--external Dataset/<namespace>/<name>`.",
        sources=(source("pkg/controllers/runtime_controller.go", "ReconcileInternal"),
                 source("pkg/utils/dataset.go", "GetDataset")),
        example=Example(runtime_head("alluxio", "imagenet-cache") + """\
  replicas: 1
""", "No Dataset is named imagenet-cache, so this runtime binds to nothing.")),
    Rule(
        "FG118", "error", "the credential names a runtime reads per storage, and the complete sets it needs",
        credential_facts, kinds=frozenset({"Dataset", "DataMigrate"}),
        description="Each engine reads its credentials from encryptOptions with names of its own, per "
                    "storage scheme (for example JindoCache: fs.oss.accessKeyId and fs.oss.accessKeySecret, "
                    "together; Alluxio is handed every name), and some need plain options such "
                    "as an endpoint (read from the runtime's properties too only where the engine's UFS reads "
                    "them: Alluxio). A Dataset is checked against "
                    "the engine of the runtime it binds to, a DataMigrate's external storage against the "
                    "engine of its Dataset: names the engine does not read, halves of a key pair, and "
                    "missing required names or options are reported. The facts per engine and scheme are "
                    "the engine modules' storage tables, each with its source.",
        sources=(source("pkg/ddc/alluxio/ufs_internal.go", "genUFSMountOptions"),
                 source("pkg/ddc/jindocache/transform.go", "transformMaster"),
                 source("pkg/ddc/juicefs/transform_fuse.go", "genValue"),
                 source("pkg/ddc/juicefs/data_migrate.go", "genDataUrl"),
                 source("pkg/ddc/efc/utils.go", "getMountInfo")),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - mountPoint: oss://imagenet-bucket/train/
      name: train
      options: {fs.oss.endpoint: oss-cn-shanghai-internal.aliyuncs.com}
      encryptOptions:
        - name: fs.oss.accessKeyId
          valueFrom: {secretKeyRef: {name: imagenet-oss, key: fs.oss.accessKeyId}}
---
""" + runtime_head("jindo") + """\
  replicas: 1
""", "JindoCache needs the key id and the key secret together; the secret half is missing.")),
    Rule(
        "FG120", "error", f"a dataset:// reference is served by a {REFERENCE_KIND}, not another engine",
        reference_engine, kinds=RUNTIME_KINDS - {REFERENCE_KIND},
        description="A Dataset whose mounts are all dataset:// references reads another Dataset's cache. "
                    f"Fluid's runtime controller refuses any runtime but a {REFERENCE_KIND} for such a Dataset "
                    '("dataset mounting another dataset can only use thin runtime").',
        sources=(source("pkg/controllers/runtime_controller.go", "CheckIfReferenceDatasetIsSupported"),),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: shared-imagenet, namespace: team-a}
spec:
  mounts:
    - {mountPoint: "dataset://default/imagenet", name: imagenet}
---
""" + runtime_head("alluxio", "shared-imagenet", "team-a") + """\
  replicas: 1
""", f"An {INDEX['alluxio'].kind} cannot serve a reference dataset; use a {REFERENCE_KIND}.")),
    Rule(
        "FG125", "error", "a data operation runs in its Dataset's namespace, after an operation that exists",
        operation_references, kinds=frozenset(OPERATIONS),
        description="A data operation names its Dataset (and may name an operation to run after, "
                    "`runAfter`). Fluid fails a DataLoad or DataProcess whose dataset namespace is empty or "
                    "differs from its own, and runs an operation only in its Dataset's namespace. An operation "
                    "whose Dataset does not exist never starts (the controller retries every 20 s), nor does one "
                    "whose preceding operation does not exist.",
        sources=(source("pkg/controllers/v1alpha1/dataload/implement.go", "Validate"),
                 source("pkg/controllers/v1alpha1/dataprocess/implement.go", "Validate"),
                 source("pkg/controllers/operation_controller.go", "ReconcileInternal"),
                 source("pkg/controllers/v1alpha1/dataflow/operations.go", "reconcileOperationDataFlow")),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warmup, namespace: default}
spec:
  dataset: {name: imagenet, namespace: default}
""", "No Dataset imagenet is among the files (declare it with --external if it is applied elsewhere).")),
    Rule(
        "FG134", "error", "names Fluid derives for a runtime or operation must fit Helm and Kubernetes limits",
        derived_names_fit,
        description="Fluid installs each runtime as a Helm release named after it and each data operation as "
                    "one named <name>-loader, -migrate, -processor or -charts; Helm refuses release names over "
                    "53 characters. The StatefulSets, CronJobs, Jobs and Services it creates carry derived names "
                    "too, and a StatefulSet over 52 characters never gets its pods. DNS-1035's 63 is not enough.",
        sources=(source("pkg/ddc/alluxio/master_internal.go", "setupMasterInternal"),
                 source("pkg/ddc/base/operation_helm.go", "InstallDataOperationHelmIfNotExist"),
                 source("pkg/utils/dataload.go", "GetDataLoadReleaseName"),
                 source("pkg/utils/datamigrate.go", "GetDataMigrateReleaseName"),
                 source("pkg/utils/dataprocess.go", "GetDataProcessReleaseName"),
                 source("pkg/utils/databackup.go", "GetDataBackupReleaseName"),
                 source("pkg/utils/dataoperation.go", "GetParallelOperationWorkersName")),
        elsewhere=("Helm: release names at most 53 characters", "Kubernetes: StatefulSet names over 52 "
                   "(controller-revision-hash label, kubernetes/kubernetes#64023); CronJob names at most 52"),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: imagenet-warmup-every-night-for-the-resnet50-team, namespace: default}
spec:
  dataset: {name: imagenet, namespace: default}
""", "The Helm release imagenet-warmup-every-night-for-the-resnet50-team-loader has 55 characters.")),
    Rule(
        "FG126", "error", "names Fluid's controllers create for a Dataset, runtime or operation are taken",
        collides_with_fluid,
        description="For a bound Dataset Fluid creates a PersistentVolume and a PersistentVolumeClaim, for a "
                    "runtime the StatefulSets, DaemonSet, Services and ConfigMaps of its chart, and for a "
                    "data operation a Job (a Pod for DataBackup), all with names derived from the owner's. "
                    "An object of your own with one of those names collides with what Fluid creates.",
        sources=(source("pkg/ddc/base/pv.go", "GetPersistentVolumeName"),
                 source("pkg/utils/dataload.go", "GetDataLoadJobName"),
                 source("pkg/utils/datamigrate.go", "GetDataMigrateJobName"),
                 source("pkg/utils/dataprocess.go", "GetDataProcessJobName"),
                 source("pkg/utils/databackup.go", "GetDataBackupPodName")),
        elsewhere=("each engine module's created names, with the chart templates (charts/<engine>/templates) "
                   "they are read from",),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - {mountPoint: "oss://imagenet-bucket/train/", name: train}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: imagenet, namespace: default}
spec:
  accessModes: [ReadOnlyMany]
  resources: {requests: {storage: 1Ti}}
""", "Fluid creates the claim imagenet for the Dataset; this one takes its name.")),
    Rule(
        "FG130", "warning",
        "Fluid deletes an operation after its TTL, and a GitOps app re-creates and re-runs it", operation_ttl,
        kinds=frozenset(OPERATIONS),
        description="With `ttlSecondsAfterFinished` Fluid deletes a finished data operation (except one on a "
                    "Cron or OnEvent policy). Under Argo CD or Flux with auto-sync the deleted object is "
                    "missing from the cluster, so the app creates it again, and it runs again, without end.",
        sources=tuple(source(f"pkg/controllers/v1alpha1/{op.lower()}/implement.go", "GetTTL")
                      for op in sorted(OPERATIONS)),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warmup, namespace: default}
spec:
  dataset: {name: imagenet, namespace: default}
  ttlSecondsAfterFinished: 300
""", "Five minutes after it finishes the DataLoad is deleted, then re-created by the GitOps app.")),
)
