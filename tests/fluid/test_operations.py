"""The data operations' field matrix (fluid/operations.py CELLS, issue 37) against Fluid's code.

Every verdict is derived again here from Fluid's Go code and Helm charts in the source trees
(tests/harness/fluid_src.py), read at test time, and compared with the row: `problems(cells)` lists
each disagreement. test_every_cell_is_checked flips each row's verdict in turn and requires
`problems` to notice, so a cell no check reads fails too."""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from fluidgen.base.versions import NAMES, has
from fluidgen.catalog.operations_page import engines_running, expanded, page
from fluidgen.catalog.schemas import spec_validator
from fluidgen.fluid import operations as ops
from fluidgen.fluid.operations import CELLS, EVERY_ENGINE, KINDS, LOAD_OPTION_KEYS, RELATIVE, Cell
from tests.conftest import ROOT, run_cli
from tests.harness.fluid_src import missing_reason, tree

PAGE = ROOT / "docs" / "data-operations.md"
Cells = tuple[Cell, ...]
When = tuple[tuple[str, str], ...]


@cache
def _read(version: str, path: str) -> str:
    root = tree(version)
    file = root / path if root is not None else None
    return file.read_text() if file is not None and file.is_file() else ""


@cache
def _func(version: str, path: str, name: str) -> str:
    """The body of Go function (or method) `name` in `path`, to the next top-level func."""
    text = _read(version, path)
    found = (re.search(rf"\nfunc (\([^)]*\) )?{re.escape(name)}\(", text)
             or re.search(rf"\nfunc {re.escape(name)}\(", text))  # a name with its receiver
    if found is None:
        return ""
    end = text.find("\nfunc ", found.end())
    return text[found.start():end if end >= 0 else len(text)]


@cache
def _go_mentions(version: str, needle: str) -> bool:
    root = tree(version)
    assert root is not None
    return any(needle in p.read_text(errors="replace") for p in (root / "pkg").rglob("*.go")
               if not p.name.endswith("_test.go"))


def _versions() -> list[str]:
    return [v for v in NAMES if tree(v) is not None]


def _expect(cells: Cells, kind: str, field: str, engine: str, version: str, verdict: str | None,
            when: When = ()) -> list[str]:
    """One row of `field` with this `when` holds for engine and version, with `verdict` (None: no such row)."""
    rows = [c for c in cells if c.kind == kind and c.field == field and c.when == when and version in c.versions
            and (engine in c.engines or EVERY_ENGINE in c.engines)]
    got = [c.verdict for c in rows]
    want = [] if verdict is None else [verdict]
    if got != want:
        return [f"{kind} {field} {engine} {version} when={when}: Fluid's code says {want or 'no row'}, rows say {got}"]
    return []


def _loaders() -> Iterator[tuple[str, str, str, str, str, str, str]]:
    """(engine, version, genDataLoadValue, job.yaml, cronjob.yaml, configmap.yaml, chart dir)."""
    for engine, (impl, go_file, versions) in ops.LOADERS.items():
        for version in versions:
            if tree(version) is None:
                continue
            chart = f"charts/fluid-dataloader/{impl}/templates"
            yield (engine, version, _func(version, go_file, "genDataLoadValue"), _read(version, f"{chart}/job.yaml"),
                   _read(version, f"{chart}/cronjob.yaml"), _read(version, f"{chart}/configmap.yaml"), chart)


def _load_fields(cells: Cells) -> list[str]:
    """Top-level DataLoad fields: read when genDataLoadValue copies spec.<Field> and job.yaml renders its value."""
    out: list[str] = []
    for engine, version, body, job, _, script, _ in _loaders():
        assert body and job, f"{engine} {version}: genDataLoadValue or job.yaml not found"
        metadata = ".Values.dataloader.loadMetadata" in job and ("$NEED_LOAD_METADATA" in script
                                                                 or "FLUID_DATALOAD_METADATA" in job)
        chart = {"loadMetadata": metadata, "options": ".Values.dataloader.options" in job,
                 "podMetadata": ".Values.dataloader.labels" in job, "resources": ".Values.dataloader.resources" in job,
                 "target": ".Values.dataloader.targetPaths" in job,
                 "dataset": ".Values.dataloader.targetDataset" in job,
                 **{f: f".Values.dataloader.{f}" in job for f in ("affinity", "tolerations", "nodeSelector",
                                                                  "schedulerName")}}
        for field, rendered in chart.items():
            go = f"dataload.Spec.{field[0].upper()}{field[1:]}" in body
            out += _expect(cells, "DataLoad", field, engine, version, "read" if go and rendered else "ignored")
        replicas = "target.Replicas" in body and ("$PATH_REPLICAS" in script or "FLUID_DATALOAD_PATH_REPLICAS" in job)
        out += _expect(cells, "DataLoad", "target[].replicas", engine, version, "read" if replicas else "ignored")
        out += _expect(cells, "DataLoad", "target[].path", engine, version, "read" if "target.Path" in body else None)
    return out


def _overwritten(script: str, env: str) -> bool:
    """The script copies $env into a variable and then sets that variable itself (true and false)."""
    var = re.search(rf"(\w+)=\"?\${re.escape(env)}\b", script)
    return var is not None and f"{var.group(1)}=true" in script and f"{var.group(1)}=false" in script


def _load_options(cells: Cells) -> list[str]:
    """options keys: a chart that picks keys (`eq $key "k"`) reads those and drops the rest; JuiceFS
    makes every key a warmup flag; an engine that copies no spec.options reads none."""
    out: list[str] = []
    for engine, version, body, job, _, script, _ in _loaders():
        keys = sorted(set(re.findall(r'eq \$key "(\w+)"', job)))
        flags = '"--%s=%s"' in body and "dataload.Spec.Options" in body
        if flags:  # JuiceFS: the chart's keys are those genDataLoadValue sets itself; the user's become "option"
            out += _expect(cells, "DataLoad", "options.*", engine, version, "read" if "OPTION" in job else "ignored")
            out += _expect(cells, "DataLoad", "options.timeout", engine, version,
                           "read" if 'Options["timeout"]' in body else None)
        elif keys:
            out += _expect(cells, "DataLoad", "options.*", engine, version, "ignored")
            for key in keys:
                env = re.search(rf'eq \$key "{key}" }}}}\s*- name: (\w+)', job)
                dropped = env is not None and _overwritten(script, env.group(1))
                out += _expect(cells, "DataLoad", f"options.{key}", engine, version, "ignored" if dropped else "read")
            listed = sorted(k for k in LOAD_OPTION_KEYS.get(engine, ()))
            if listed != sorted(k for k in keys if not _overwritten(script, _env_of(job, k))):
                out.append(f"{engine} {version}: LOAD_OPTION_KEYS {listed} is not the chart's keys {keys}")
        else:
            out += _expect(cells, "DataLoad", "options.*", engine, version, None)
    return out


def _env_of(job: str, key: str) -> str:
    env = re.search(rf'eq \$key "{key}" }}}}\s*- name: (\w+)', job)
    return env.group(1) if env else ""


def _load_paths(cells: Cells) -> list[str]:
    """How the loader passes the paths: joined with ':' after nospace and split on ':' (or with
    spaces, split on spaces), and whether a path is glued to a prefix without a '/'."""
    out: list[str] = []
    for engine, version, _, job, _, script, _ in _loaders():
        colon = '$targetPaths = $targetPaths | nospace | trimSuffix ":"' in job
        spaces = "$targetPaths | trim" in job and "${paths// / }" in script
        glued = "$MOUNTPATH${paths" in script or ('default="jindo://"' in script and "$default$path" in script)
        out += _expect(cells, "DataLoad", "target[].path", engine, version, "broken" if colon else None,
                       (("", r".*[:\s].*"),))
        out += _expect(cells, "DataLoad", "target[].path", engine, version, "broken" if spaces else None,
                       (("", r".*\s.*"),))
        out += _expect(cells, "DataLoad", "target[].path", engine, version, "broken" if glued else None,
                       (("", RELATIVE),))
    return out


def _policies() -> Iterator[tuple[str, str, str, str, str]]:
    """(kind, engine, version, chart templates dir, values key) of every operation chart."""
    for engine, (impl, _, versions) in ops.LOADERS.items():
        for version in versions:
            yield "DataLoad", engine, version, f"charts/fluid-dataloader/{impl}/templates", "dataloader"
    for version in NAMES:
        yield "DataMigrate", "juicefs", version, ops.MIGRATE_CHART, "datamigrate"
        yield "DataProcess", EVERY_ENGINE, version, ops.PROCESS_CHART, "dataProcess"


def _policy(cells: Cells) -> list[str]:
    """job.yaml renders for "" and once, cronjob.yaml for cron (it alone reads schedule), nothing
    for OnEvent; a chart without cronjob.yaml has no policy (DataProcess before v1.1.0-dev)."""
    out: list[str] = []
    for kind, engine, version, chart, key in _policies():
        root = tree(version)
        if root is None:
            continue
        job, cron = _read(version, f"{chart}/job.yaml"), _read(version, f"{chart}/cronjob.yaml")
        once = f'(eq (lower .Values.{key}.policy) "once")' in job
        runs_cron = f'eq (lower .Values.{key}.policy) "cron"' in cron
        on_event = any("onevent" in p.read_text().lower() for p in (root / chart).glob("*.yaml"))
        has_policy = once and runs_cron
        out += _expect(cells, kind, "policy", engine, version, "read" if has_policy else None)
        out += _expect(cells, kind, "policy", engine, version, "broken" if has_policy and not on_event else None,
                       (("", "OnEvent"),))
        schedule_in_job = re.search(rf"\.Values\.{key}\.schedule\b", job) is not None
        out += _expect(cells, kind, "schedule", engine, version,
                       "read" if has_policy and re.search(rf"\.Values\.{key}\.schedule\b", cron) else None)
        out += _expect(cells, kind, "schedule", engine, version,
                       "ignored" if has_policy and not schedule_in_job else None, (("policy", "|Once"),))
    return out


_CONTROLLERS = {"DataLoad": "dataload", "DataMigrate": "datamigrate", "DataProcess": "dataprocess",
                "DataBackup": "databackup"}


def _engines(kind: str, version: str) -> list[str]:
    if kind == "DataProcess":
        return [EVERY_ENGINE]
    table = {"DataLoad": ops.LOADERS, "DataBackup": ops.BACKUPS, "DataMigrate": {"juicefs": ()}}[kind]
    return [e for e in table if has(version, e)]


def _controllers(cells: Cells) -> list[str]:
    """GetTTL reads the TTL (none for Cron and OnEvent where it says so); base waits for runAfter;
    runAfter.affinityStrategy follows the DataflowAffinity gate's default."""
    out: list[str] = []
    for version in _versions():
        gate = re.search(r"DataflowAffinity: *\{Default: *(\w+)", _read(version, "pkg/dataflow/features.go"))
        assert gate is not None
        waits = "operation.HasPrecedingOperation()" in _read(version, "pkg/ddc/base/operation.go")
        for kind, controller in _CONTROLLERS.items():
            ttl = _func(version, f"pkg/controllers/v1alpha1/{controller}/implement.go", "GetTTL")
            not_once = "case datav1alpha1.Cron, datav1alpha1.OnEvent:" in ttl
            for engine in _engines(kind, version):
                out += _expect(cells, kind, "ttlSecondsAfterFinished", engine, version,
                               "read" if "TTLSecondsAfterFinished" in ttl else "ignored")
                out += _expect(cells, kind, "ttlSecondsAfterFinished", engine, version,
                               "ignored" if not_once else None, (("policy", "Cron|OnEvent"),))
                out += _expect(cells, kind, "runAfter", engine, version, "read" if waits else "ignored")
                out += _expect(cells, kind, "runAfter.affinityStrategy", engine, version,
                               "gated" if gate.group(1) == "false" else "read")
    return out


def _migrate(cells: Cells) -> list[str]:
    """pkg/ddc/juicefs/data_migrate.go and charts/fluid-datamigrate/juicefs."""
    out: list[str] = []
    k, e = "DataMigrate", "juicefs"
    for version in _versions():
        body = _func(version, ops.MIGRATE_GO, "generateDataMigrateValueFile")
        url = _func(version, ops.MIGRATE_GO, "genDataUrl")
        parallel = _func(version, ops.MIGRATE_GO, "setParallelMigrateOptions")
        job = _read(version, f"{ops.MIGRATE_CHART}/job.yaml")
        target = _func(version, "pkg/utils/datamigrate.go", "GetTargetDatasetNamespacedNameOfMigrate")
        assert body and url and job and target

        def says(field: str, reads: bool, out: list[str] = out, version: str = version) -> None:
            out.extend(_expect(cells, k, field, e, version, "read" if reads else "ignored"))

        says("image", "Spec.Image" in body)
        says("imageTag", "Spec.ImageTag" in body)
        says("imagePullPolicy", "ImagePullPolicy" in body or "imagePullPolicy: IfNotPresent" not in job)
        says("block", _go_mentions(version, "Spec.Block"))
        says("runtimeType", "Spec.RuntimeType" in target)
        out += _expect(cells, k, "runtimeType", e, version,
                       "refused" if "the specified runtime type in dataMigrate" in target else None,
                       (("", "(?!juicefs$).+"),))
        says("options", "dataMigrate.Spec.Options" in body)
        says("options.*", '"--%s=%s"' in body)
        says("options.timeout", 'Options["timeout"]' in body)
        says("podMetadata", "Spec.PodMetadata" in body and ".Values.datamigrate.labels" in job)
        says("resources", "Spec.Resources" in body and ".Values.datamigrate.resources" in job)
        for f in ("affinity", "tolerations", "nodeSelector", "schedulerName"):
            says(f, f"dataMigrate.Spec.{f[0].upper()}{f[1:]}" in body and f".Values.datamigrate.{f}" in job)
        says("parallelism", "Spec.Parallelism" in body)
        says("parallelOptions", "Spec.ParallelOptions" in parallel)
        keys = re.findall(r'SSH\w+ += "(\w+)"', _read(version, "pkg/datamigrate/constants.go"))
        assert sorted(keys) == sorted(ops.MIGRATE_PARALLEL_KEYS), keys
        for key in keys:
            const = re.search(rf'(SSH\w+) += "{key}"', _read(version, "pkg/datamigrate/constants.go"))
            says(f"parallelOptions.{key}", const is not None and f"cdatamigrate.{const.group(1)}]" in parallel)
        says("parallelOptions.*", "range dataMigrate.Spec.ParallelOptions" in parallel)
        for side in ("from", "to"):
            says(side, f"dataMigrate.Spec.{side.title()}" in body)
            says(f"{side}.dataset", "data.DataSet != nil" in url)
            says(f"{side}.dataset.path", "data.DataSet.Path" in url)
            says(f"{side}.externalStorage", "data.ExternalStorage != nil" in url)
            says(f"{side}.externalStorage.uri", "data.ExternalStorage.URI" in url)
            says(f"{side}.externalStorage.encryptOptions", "data.ExternalStorage.EncryptOptions" in url)
            local_dropped = "IsFluidNativeScheme" in url and "common.VolumeScheme" in url and "PathScheme" not in url
            out += _expect(cells, k, f"{side}.externalStorage.uri", e, version, "broken" if local_dropped else None,
                           (("", "local://.*"),))
    return out


def _backup(cells: Cells) -> list[str]:
    out: list[str] = []
    for engine, (go_file, versions) in ops.BACKUPS.items():
        for version in versions:
            if tree(version) is None:
                continue
            value = _func(version, go_file, "generateDataBackupValueFile")
            validate = _func(version, "pkg/controllers/v1alpha1/databackup/implement.go", "Validate")
            parse = _func(version, "pkg/utils/databackup.go", "ParseBackupRestorePath")
            assert value and validate and parse
            for field in ("dataset", "runAs"):
                reads = f"databackup.Spec.{field[0].upper()}{field[1:]}" in value
                out += _expect(cells, "DataBackup", field, engine, version, "read" if reads else "ignored")
            out += _expect(cells, "DataBackup", "backupPath", engine, version,
                           "read" if "Spec.BackupPath" in validate else "ignored")
            only_two = "PathScheme.String())" in validate and "VolumeScheme.String())" in validate
            out += _expect(cells, "DataBackup", "backupPath", engine, version, "refused" if only_two else None,
                           (("", "(?!pvc://|local://).*"),))
            empty_claim = "pvcName = split[0]" in parse and 'pvcName == ""' not in parse
            out += _expect(cells, "DataBackup", "backupPath", engine, version, "broken" if empty_claim else None,
                           (("", "pvc://(/.*)?"),))
    return out


def _process(cells: Cells) -> list[str]:
    out: list[str] = []
    k, e = "DataProcess", EVERY_ENGINE
    for version in _versions():
        kinds = _read(version, "pkg/dataprocess/processor_types.go")
        script = _func(version, "pkg/dataprocess/processor_types.go",
                       "(p *ScriptProcessorImpl) TransformDataProcessValues")
        gen = _func(version, "pkg/dataprocess/generate_values.go", "GenDataProcessValue")
        common = _func(version, "pkg/dataprocess/generate_values.go", "transformCommonPart")
        validate = _func(version, "pkg/controllers/v1alpha1/dataprocess/implement.go", "Validate")
        job = _read(version, f"{ops.PROCESS_CHART}/job.yaml")
        assert kinds and script and gen and job

        def says(field: str, reads: bool, out: list[str] = out, version: str = version) -> None:
            out.extend(_expect(cells, k, field, e, version, "read" if reads else "ignored"))

        says("dataset", "dataProcess.Spec.Dataset.Name" in gen and "Spec.Dataset.Namespace" in validate)
        says("dataset.mountPath", "Spec.Dataset.MountPath" in gen)
        says("dataset.subPath", "Spec.Dataset.SubPath" in gen)
        says("processor", "Spec.Processor.Job == nil && dataProcess.Spec.Processor.Script == nil" in validate)
        says("processor.serviceAccountName", "ServiceAccountName" in common and ".serviceAccountName" in job)
        says("processor.podMetadata", "PodMetadata.Labels" in common and ".Values.dataProcess.labels" in job)
        says("processor.job", "p.JobProcessor.PodSpec" in kinds)
        says("processor.job.podSpec", "toYaml .Values.dataProcess.jobProcessor.podSpec" in job)
        says("processor.script", "ScriptProcessor: p.ScriptProcessor" in kinds or "&ScriptProcessor{" in kinds)
        glued = 'fmt.Sprintf("%s:%s", p.ScriptProcessor.Image, p.ScriptProcessor.ImageTag)' in kinds
        says("processor.script.image", glued)
        says("processor.script.imageTag", glued)
        out += _expect(cells, k, "processor.script.image", e, version, "broken" if glued else None,
                       (("processor.script.imageTag", ""),))
        script_branch = job.find("else if .Values.dataProcess.scriptProcessor")
        restart_only_in_script = 0 <= script_branch < job.find("restartPolicy")
        out += _expect(cells, k, "processor.job.podSpec", e, version,
                       "broken" if "kind: Job" in job and restart_only_in_script else None,
                       (("processor.job.podSpec.restartPolicy", "|Always"),))
        for field, go in (("imagePullPolicy", "ImagePullPolicy"), ("command", "Command"), ("source", "Source"),
                          ("env", "Env"), ("volumes", "Volumes"), ("volumeMounts", "VolumeMounts"),
                          ("resources", "Resources"), ("restartPolicy", "RestartPolicy")):
            says(f"processor.script.{field}", f"p.ScriptProcessor.{go}" in script)
    return out


CHECKS: tuple[Callable[[Cells], list[str]], ...] = (
    _load_fields, _load_options, _load_paths, _policy, _controllers, _migrate, _backup, _process)


def problems(cells: Cells) -> list[str]:
    return [p for check in CHECKS for p in check(cells)]


def _needs_source() -> None:
    if not _versions():
        pytest.skip(missing_reason())


def test_every_cell_agrees_with_fluids_code() -> None:
    _needs_source()
    found = problems(CELLS)
    assert not found, "\n".join(found)


def _flipped(cell: Cell) -> Cell:
    return dataclasses.replace(cell, verdict="ignored" if cell.verdict == "read" else "read")


def test_every_cell_is_checked() -> None:
    """Flip any one row's verdict and a check reading Fluid's code fails."""
    _needs_source()
    unchecked = []
    for i, cell in enumerate(CELLS):
        if not problems((*CELLS[:i], _flipped(cell), *CELLS[i + 1:])):
            unchecked.append(f"{cell.kind} {cell.field} {cell.engines} when={cell.when} {cell.verdict}")
    assert not unchecked, "rows no check reads:\n" + "\n".join(unchecked)


def _schema_has(version: str, kind: str, field: str) -> bool:
    """The field is in the kind's schema at `version` (a[] steps into a list's items, a.* any map key)."""
    v = spec_validator(version, kind)
    node = v.resolve(v.schema)
    for part in field.split("."):
        items = part.endswith("[]")
        name = part.removesuffix("[]")
        if "properties" in node and name in node["properties"]:
            node = v.resolve(node["properties"][name])
        elif isinstance(node.get("additionalProperties"), dict):
            node = v.resolve(node["additionalProperties"])
        else:
            return False
        if items:
            node = v.resolve(node.get("items", {}))
    return True


def test_every_field_has_one_plain_row_per_engine_and_version() -> None:
    """Each top-level field of each operation, at each version that has it, for each engine that
    runs the operation (the engine table), has exactly one row without `when`; every row names a
    field the version's API has."""
    missing = []
    for kind in KINDS:
        v = spec_validator(NAMES[-1], kind)
        top = sorted(v.resolve(v.schema).get("properties") or {})
        for version in NAMES:
            for engine in engines_running(kind, version):
                for field in top:
                    if not has(version, kind, field) or not _schema_has(version, kind, field):
                        continue
                    plain = [c for c in ops.cells_for(kind, field, engine, version) if not c.when]
                    if len(plain) != 1:
                        missing.append(f"{kind}.{field} {engine} {version}: {len(plain)} plain rows")
    assert not missing, "\n".join(missing)
    for cell in CELLS:
        for version in cell.versions:
            assert _schema_has(version, cell.kind, cell.field), f"{cell.kind} has no {cell.field} at {version}"


def test_the_rows_name_the_engines_that_run_each_operation() -> None:
    """The engines a kind's rows name are those the engine table says run it (operations)."""
    for kind in KINDS:
        for version in NAMES:
            named = {e for c in CELLS if c.kind == kind and version in c.versions for e in c.engines}
            running = set(engines_running(kind, version))
            if EVERY_ENGINE in named:
                continue
            assert running <= named, f"{kind} {version}: no rows for {sorted(running - named)}"


def test_a_when_row_wins_only_when_it_matches() -> None:
    spec = {"target": [{"path": "/a:b"}, {"path": "/c"}], "policy": "Once", "schedule": "* * * * *"}
    assert ops.cell_of("DataLoad", ("target", 0, "path"), "alluxio", "v1.0.8", spec).verdict == "broken"
    assert ops.cell_of("DataLoad", ("target", 1, "path"), "alluxio", "v1.0.8", spec).verdict == "read"
    assert ops.cell_of("DataLoad", ("target", 0, "path"), "juicefs", "v1.0.8", spec).verdict == "read"
    assert ops.cell_of("DataLoad", ("schedule",), "juicefs", "v1.0.8", spec).verdict == "ignored"
    assert ops.cell_of("DataLoad", ("schedule",), "juicefs", "v1.0.8", {**spec, "policy": "Cron"}).verdict == "read"
    found = ops.decide("DataLoad", {"options": {"atomicCache": "true", "nope": "1"}}, "jindo", "v1.0.8")
    assert [(p, c.verdict) for p, c in found] == [(("options", "nope"), "ignored")]
    assert ops.cell_of("DataLoad", ("nowhere",), "jindo", "v1.0.8", {}) is None


def test_a_relative_load_path_is_broken_where_the_loader_glues_it_to_a_prefix() -> None:
    """Issue 41: a DataLoad path without its leading / is decided by a `broken` row on the loaders
    that glue the path to a prefix (jindo://, $MOUNTPATH), and read as written elsewhere."""
    def verdict(path: str, engine: str, version: str) -> str | None:
        cell = ops.cell_of("DataLoad", ("target", 0, "path"), engine, version, {"target": [{"path": path}]})
        return cell.verdict if cell is not None else None

    loaders = [(e, v) for e, (_, _, versions) in ops.LOADERS.items() for v in versions]
    broken = {(e, v) for e, v in loaders if verdict("train", e, v) == "broken"}
    assert broken == {("jindo", "v1.0.8"), ("jindo", "v1.1.0-dev"), ("juicefs", "v1.0.8"), ("juicefs", "v1.1.0-dev")}
    assert {verdict(p, e, v) for e, v in loaders for p in ("train", "/train") if (e, v) not in broken or
            p == "/train"} == {"read"}


def test_page_is_fresh(update_golden: bool) -> None:
    text = page()
    if update_golden:
        PAGE.write_text(text)
    committed = PAGE.read_text() if PAGE.exists() else ""
    if committed != text:
        diff = "".join(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                            "docs/data-operations.md", "generated"))
        pytest.fail(f"docs/data-operations.md is stale (run pytest tests/fluid/test_operations.py --update-golden):"
                    f"\n{diff}")


def test_page_shows_every_row_and_the_counts() -> None:
    text = page()
    for cell in CELLS:
        assert f"| `{cell.field}` |" in text
    for r in ops.RENDERED:
        assert f"| {r.kind} | {'every engine' if EVERY_ENGINE in r.engines else ', '.join(r.engines)} |" in text
    for version in NAMES:
        total = len(expanded(version))
        summary = text.split("## What each operation renders")[0]
        listed = sum(int(line.split("|")[4]) for line in summary.splitlines()
                     if line.startswith("| Data") and f"| {version} |" in line)
        assert listed == total



def test_explain_shows_the_rows_of_each_step_key() -> None:
    """`fluidgen explain dataflow.<op>.<key>` prints every row of the operation fields that key
    writes (the same cells the build checks)."""
    from fluidgen.commands.explain import explain
    from fluidgen.lower.dataflow import step_keys

    for kind in KINDS:
        for field, key in step_keys(kind).items():
            if not _schema_has(NAMES[-1], kind, field):
                continue  # a step key other kinds have (DataBackup has no nodeSelector)
            text = explain("dataflow." + ".".join(key))
            rows = [c for c in CELLS if c.kind == kind and (c.field == field or c.field.startswith(f"{field}."))]
            assert rows, (kind, field)
            for cell in rows:
                assert f"{cell.field} (" in text and f": {cell.verdict}: {cell.what} [" in text, (kind, field, cell)
    assert "FLUID" not in explain("runtime.cache")
    assert "ignored: genDataLoadValue never copies spec.options" in run_cli("explain", "dataflow[0].load.options").out


def _rendered_problems(rows: tuple[ops.Rendered, ...]) -> list[str]:
    """Each row against its chart's templates: the kinds they make, the pod's restartPolicy, the
    Job's backoffLimit, and no hostNetwork."""
    out = []
    for r in rows:
        for version in r.versions:
            root = tree(version)
            if root is None:
                continue
            texts = [p.read_text() for p in sorted((root / r.chart).glob("*.yaml"))]
            kinds = tuple(sorted({k for t in texts for k in re.findall(r"^kind: (\w+)", t, re.M)}))
            main = _read(version, f"{r.chart}/{'databackup' if r.kind == 'DataBackup' else 'job'}.yaml")
            limit = re.search(r'backoffLimit: (?:\{\{[^}]*default "(\d+)" \}\}|(\d+))', main)
            backoff = int(limit.group(1) or limit.group(2)) if limit else None
            restart = re.search(r'restartPolicy: (?:\{\{[^}]*default "(\w+)"[^}]*\}\}|(\w+))', main)
            restart_word = (restart.group(1) or restart.group(2)) if restart else ""
            host = any("hostNetwork" in t for t in texts)
            got = (kinds, backoff, host, restart_word in r.restart_policy)
            if got != (r.objects, r.backoff_limit, r.host_network, True):
                out.append(f"{r.kind} {r.engines} {version}: chart says {got}, row says "
                           f"{(r.objects, r.backoff_limit, r.host_network, r.restart_policy)}")
    return out


def test_what_each_operation_renders() -> None:
    """RENDERED against the charts, and each field of each row flipped is noticed."""
    _needs_source()
    assert not _rendered_problems(ops.RENDERED), _rendered_problems(ops.RENDERED)
    flips = {"objects": lambda r: (*r.objects, "Deployment"), "backoff_limit": lambda r: (r.backoff_limit or 0) + 1,
             "host_network": lambda r: not r.host_network, "restart_policy": lambda r: "Always"}
    for i, row in enumerate(ops.RENDERED):
        for name, flip in flips.items():
            changed = dataclasses.replace(row, **{name: flip(row)})
            assert _rendered_problems((*ops.RENDERED[:i], changed, *ops.RENDERED[i + 1:])), (row.kind, name)
    engines = {(e, v) for r in ops.RENDERED if r.kind == "DataLoad" for e in r.engines for v in r.versions}
    assert engines == {(e, v) for e, (_, _, vs) in ops.LOADERS.items() for v in vs}


def test_every_name_and_reference_of_an_operation_has_its_source() -> None:
    """Operation.sources is keyed by the record's own fields: each name Fluid gives (release, job)
    and each reference to another object the operation holds names the Fluid code it comes from,
    and no source hangs on a field that does not exist."""
    names = {f.name for f in dataclasses.fields(ops.Operation)}
    for op in ops.OPERATIONS.values():
        assert set(op.sources) <= names, (op.kind, set(op.sources) - names)
        given = {f for f in ("release", "job_name", "dataset_refs", "secret_refs", "account_refs") if getattr(op, f)}
        assert given <= set(op.sources), (op.kind, given - set(op.sources))


def _field_at(schema: Any, path: str) -> Any:
    """The CRD schema node at a kustomize field path (a/b/c), through arrays; None if absent."""
    node = schema
    for key in path.split("/"):
        while node.get("type") == "array":
            node = node.get("items", {})
        node = node.get("properties", {}).get(key)
        if node is None:
            return None
    return node


def test_every_reference_an_operation_names_is_a_field_of_its_crd(crds: dict[str, Any]) -> None:
    """The kustomize field paths of each operation (output.py's kustomizeconfig) exist in the real
    CRD at every version: a Dataset reference is {name, namespace} exactly when the operation says
    it is namespaced (DataBackup's spec.dataset is a bare name: api/v1alpha1/databackup_types.go),
    a Secret or ServiceAccount reference is a string, and runAfter is an OperationRef
    (api/v1alpha1/common.go). A misspelt path would leave kustomize's renames silently undone."""
    for version, crdset in crds.items():
        for op in ops.OPERATIONS.values():
            schema = crdset.schemas[("data.fluid.io/v1alpha1", op.kind)]
            for path in op.dataset_refs:
                node = _field_at(schema, path)
                assert node is not None, (version, op.kind, path)
                if op.namespaced_dataset:
                    assert {"name", "namespace"} <= set(node.get("properties", {})), (version, op.kind, path)
                else:
                    assert node.get("type") == "string", (version, op.kind, path)
            for path in (*op.secret_refs, *op.account_refs):
                node = _field_at(schema, path)
                assert node is not None and node.get("type") == "string", (version, op.kind, path)
            after = _field_at(schema, ops.RUN_AFTER_REF.value)
            assert after is not None and {"kind", "name", "namespace"} <= set(after["properties"]), (version, op.kind)
    assert _field_at(crds["v1.0.8"].schemas[("data.fluid.io/v1alpha1", "DataLoad")], "spec/datasett") is None


def _sprintf(root: Any, path: str, function: str) -> tuple[str, str]:
    """(parameter name, format) of a one-line `return fmt.Sprintf("%s-...", param)` Go helper."""
    text = (root / path).read_text()
    m = re.search(rf"func {function}\((\w+) string\) string {{\s*return fmt\.Sprintf\(\"([^\"]*)\", (\w+)\)", text)
    assert m is not None and m[1] == m[3], (path, function)
    return m[1], m[2]


@pytest.mark.parametrize("version", NAMES)
def test_the_release_and_job_names_are_fluids_helpers(version: str) -> None:
    """Each operation's Helm release and Job (or Pod) name is what the pkg/utils helper its sources
    cite formats (GetData*ReleaseName, GetData*JobName from the release name, GetDataBackupPodName
    from the operation's name), read from Fluid's code at each version: fluidgen names the objects
    Fluid creates (lint's FG126 name clashes, diagnose) from these."""
    root = tree(version)
    if root is None:
        pytest.skip(missing_reason())
    for op in ops.OPERATIONS.values():
        rel = op.sources["release"]
        param, fmt = _sprintf(root, rel.path, rel.function)
        release = fmt.replace("%s", "demo")
        assert param == "name" and op.release_name("demo") == release, op.kind
        job = op.sources["job_name"]
        param, fmt = _sprintf(root, job.path, job.function)
        expected = fmt.replace("%s", release if param == "releaseName" else "demo")
        assert op.job_name.format(name="demo") == expected, op.kind


def test_a_cell_without_a_fluid_source_is_refused_by_name() -> None:
    """Every row of the table carries the Fluid code it comes from: a row written without one
    fails at import, naming the operation and field."""
    with pytest.raises(ValueError, match=r"^DataLoad target\[\]\.path: a cell needs its Fluid source$"):
        ops._row("DataLoad", "target[].path", EVERY_ENGINE, "read", "read")
