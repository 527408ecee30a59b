"""Data operations (DataLoad, DataMigrate, DataProcess, DataBackup): schemas and facts.

Sources (fluid-cloudnative/fluid, every version versions.py lists unless noted):
- api/v1alpha1/data*_types.go and common.go (OperationRef, runAfter): fields.
- pkg/common/types.go: operation phases Pending, Executing, Complete, Failed.
- pkg/utils/dataload.go, datamigrate.go, dataprocess.go, databackup.go: the Helm release and
  Job/Pod names Fluid creates for each operation.
- pkg/controllers/v1alpha1/*: an operation runs once; editing a finished one runs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..base.fluidsource import FluidSource, fact, source
from ..base.structural.dsl import BOOL, STR, STR_LIST, STR_MAP, Schema, array, fields, int32, k8s, obj, string
from .common import (
    AFFINITY,
    ENCRYPT_OPTIONS,
    ENV_VARS,
    POD_METADATA,
    RESOURCES,
    RUN_AS,
    TOLERATIONS,
    VOLUME_MOUNTS,
    VOLUMES,
)

POLICY = string(enum=("Once", "Cron", "OnEvent"))
# The policies an operation runs with on Fluid: the operation charts render a Job for "" and
# Once (job.yaml) and a CronJob for Cron (cronjob.yaml); for OnEvent they render nothing, so the
# operation never runs (the older OnEventStatusHandler is a stub returning nothing; newer Fluid
# finds no Job, deletes the release and tries again, forever). Every version versions.py lists.
POLICIES_THAT_RUN = fact(("Once", "Cron"),
                         source("charts/fluid-dataloader/alluxio/templates/job.yaml", "once"),
                         source("charts/fluid-dataloader/alluxio/templates/cronjob.yaml", "cron"),
                         source("pkg/controllers/v1alpha1/dataload/status_handler.go", "OnEventStatusHandler"))
# runAfter.affinityStrategy is carried out by fluidapp's DataOpJob controller, which runs only with
# the Alpha feature gate DataflowAffinity, off by default (the chart passes DataflowAffinity=false);
# without it the preceding operation's status has no nodeAffinity and nothing is injected.
DATAFLOW_AFFINITY_GATE = fact("DataflowAffinity", source("pkg/dataflow/features.go", "DataflowAffinity"),
                              source("cmd/fluidapp/app/fluidapp.go", "DataflowAffinity"),
                              source("pkg/dataflow/helper.go", "GenerateNodeAffinity"),
                              source("charts/fluid/fluid/values.yaml", "featureGates"))
PHASES = ("", "Pending", "Executing", "Complete", "Failed")


@dataclass(frozen=True)
class Operation:
    kind: str
    step: str  # the key of a `dataflow:` step that makes one
    spec: Schema
    job_name: str  # the Job (or Pod) Fluid runs for it; {name} is the operation's name
    release: str = ""  # the Helm release Fluid installs for it; {name} is the operation's name
    namespaced_dataset: bool = True  # spec.dataset is {name, namespace} (DataBackup: a bare name)
    # Where the operation names other objects, as kustomize field paths (output.py's kustomizeconfig):
    # the Dataset it works on, the Secrets of its encryptOptions, the ServiceAccount it runs as.
    dataset_refs: tuple[str, ...] = ("spec/dataset",)
    secret_refs: tuple[str, ...] = ()
    account_refs: tuple[str, ...] = ()
    sources: Mapping[str, FluidSource] = field(default_factory=dict)  # where each field above is read

    def release_name(self, name: str) -> str:
        return self.release.format(name=name)


# The StatefulSet (and headless Service) of a DataMigrate with parallelism > 1: {release}-workers.
PARALLEL_WORKERS = "{release}-workers"
PARALLEL_WORKERS_SOURCE = source("pkg/utils/dataoperation.go", "GetParallelOperationWorkersName")


KINDS = ("DataLoad", "DataBackup", "DataMigrate", "DataProcess")
_KIND = string(enum=KINDS)
OBJECT_REF = obj(apiVersion=STR, kind=_KIND, name=STR, namespace=STR, required=("kind", "name"))
RUN_AFTER = obj(
    apiVersion=STR, kind=_KIND, name=STR, namespace=STR, required=("kind", "name"),
    affinityStrategy=obj(
        policy=STR, dependOn=OBJECT_REF,
        prefers=array(obj(name=STR, weight=int32(), required=("name", "weight"))),
        requires=array(obj(name=STR, required=("name",)))))
COMMON = {"runAfter": RUN_AFTER, "ttlSecondsAfterFinished": int32()}
# Every operation names the one it runs after (kind, name, namespace): a kustomize field path.
RUN_AFTER_REF = "spec/runAfter"
RUN_AFTER_SOURCE = source("api/v1alpha1/common.go", "OperationRef")
PLACEMENT = {"affinity": AFFINITY, "tolerations": TOLERATIONS, "nodeSelector": STR_MAP, "schedulerName": STR,
             "podMetadata": POD_METADATA, "resources": RESOURCES}
MIGRATE_END = obj(
    dataset=obj(name=STR, namespace=STR, path=STR, required=("name", "namespace")),
    externalStorage=obj(uri=STR, encryptOptions=ENCRYPT_OPTIONS, required=("uri",)))

OPERATIONS: dict[str, Operation] = {op.kind: op for op in (
    Operation("DataMigrate", "migrate", fields(
        {**COMMON, **PLACEMENT, "from": MIGRATE_END, "to": MIGRATE_END, "image": STR, "imageTag": STR,
         "imagePullPolicy": STR, "block": BOOL, "runtimeType": STR, "options": STR_MAP, "policy": POLICY,
         "schedule": STR, "parallelism": int32(minimum=1), "parallelOptions": STR_MAP},
        required=("from", "to")), "{name}-migrate-migrate", "{name}-migrate",
        dataset_refs=("spec/from/dataset", "spec/to/dataset"),
        secret_refs=("spec/from/externalStorage/encryptOptions/valueFrom/secretKeyRef/name",
                     "spec/to/externalStorage/encryptOptions/valueFrom/secretKeyRef/name"), sources={
            "release": source("pkg/utils/datamigrate.go", "GetDataMigrateReleaseName"),
            "job_name": source("pkg/utils/datamigrate.go", "GetDataMigrateJobName"),
            "dataset_refs": source("api/v1alpha1/datamigrate_types.go", "DatasetToMigrate"),
            "secret_refs": source("api/v1alpha1/datamigrate_types.go", "ExternalStorage")}),
    Operation("DataProcess", "process", fields(
        {**COMMON, "policy": POLICY, "schedule": STR,
         "dataset": obj(name=STR, namespace=STR, mountPath=STR, subPath=STR, required=("name", "mountPath")),
         "processor": obj(
             serviceAccountName=STR, podMetadata=POD_METADATA, job=obj(podSpec=k8s("core.v1.PodSpec")),
             script=obj(image=STR, imageTag=STR, imagePullPolicy=STR, command=STR_LIST, source=STR, env=ENV_VARS,
                        volumes=VOLUMES, volumeMounts=VOLUME_MOUNTS, resources=RESOURCES,
                        restartPolicy=string(enum=("Never", "OnFailure")), required=("source",)))},
        required=("dataset", "processor")), "{name}-processor-job", "{name}-processor",
        account_refs=("spec/processor/serviceAccountName",), sources={
            "release": source("pkg/utils/dataprocess.go", "GetDataProcessReleaseName"),
            "job_name": source("pkg/utils/dataprocess.go", "GetDataProcessJobName"),
            "dataset_refs": source("api/v1alpha1/dataprocess_types.go", "TargetDatasetWithMountPath"),
            "account_refs": source("api/v1alpha1/dataprocess_types.go", "ServiceAccountName")}),
    Operation("DataLoad", "load", fields(
        {**COMMON, **PLACEMENT, "dataset": obj(name=STR, namespace=STR, required=("name",)), "loadMetadata": BOOL,
         "target": array(obj(path=STR, replicas=int32(), required=("path",))), "options": STR_MAP,
         "policy": POLICY, "schedule": STR}), "{name}-loader-job", "{name}-loader", sources={
            "release": source("pkg/utils/dataload.go", "GetDataLoadReleaseName"),
            "job_name": source("pkg/utils/dataload.go", "GetDataLoadJobName"),
            "dataset_refs": source("api/v1alpha1/dataload_types.go", "TargetDataset")}),
    Operation("DataBackup", "backup", fields(
        {**COMMON, "dataset": STR, "backupPath": STR, "runAs": RUN_AS}), "{name}-pod", "{name}-charts",
        namespaced_dataset=False, sources={
            "release": source("pkg/utils/databackup.go", "GetDataBackupReleaseName"),
            "job_name": source("pkg/utils/databackup.go", "GetDataBackupPodName"),
            "dataset_refs": source("api/v1alpha1/databackup_types.go", "DataBackupSpec")}),
)}

BY_STEP: dict[str, Operation] = {op.step: op for op in OPERATIONS.values()}
