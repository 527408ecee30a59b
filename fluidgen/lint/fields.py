"""FG140, FG141: a runtime or Dataset field the engine's Fluid does not apply as written, read from the
runtime-fields matrix (fluid/fields.py; each engine's `fields`; docs/runtime-fields.md): a field no code
of the engine reads, one read under another name, or one applied only on a condition the object does
not meet. Each finding says what Fluid does instead, the field that works, and the code that decides it."""

from __future__ import annotations

from collections.abc import Iterator

from ..base.fluidsource import source
from ..base.manifest import spec_of
from ..base.manifest_index import Entry, ManifestIndex
from ..base.rules import Example, Finding, Rule
from ..engines.engine_table import RUNTIME_KINDS
from ..fluid.fields import DATASET, RUNTIME
from .binding import engine_of
from .docs import runtime_head


def runtime_fields(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    engine = engine_of(entry.obj)
    if engine is None:
        return
    for cell in engine.fields.unapplied(RUNTIME, spec_of(entry.obj), index.version):
        yield Finding(("spec", *cell.field.split(".")), cell.message(engine.kind))


def dataset_fields(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    runtime = index.bound_runtime(entry)
    engine = engine_of(runtime.obj) if runtime is not None else None
    if engine is None:
        return
    for cell in engine.fields.unapplied(DATASET, spec_of(entry.obj), index.version):
        yield Finding(("spec", *cell.field.split(".")), cell.message(engine.kind, "the Dataset's "))


RULES = (
    Rule("FG140", "warning", "a runtime field the engine's Fluid does not apply as written", runtime_fields,
         kinds=RUNTIME_KINDS,
         description="The runtime CRDs share their shapes across engines, so the API server accepts fields an "
                     "engine never reads, reads under another name, or applies only on a condition (Alluxio "
                     "and GooseFS apply fuse.resources only with a memory limit; JuiceFS reads no master "
                     "field; the Jindo engine ignores runAs and spec.properties; Vineyard's FUSE gets "
                     "master.resources). The rule reports each such field set on a runtime, with what Fluid does "
                     "instead and the field that works, from the engine's runtime-fields matrix "
                     "(docs/runtime-fields.md).",
         sources=(source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForFuse"),
                  source("pkg/ddc/jindocache/transform.go", "transformRunAsUser"),
                  source("pkg/ddc/juicefs/transform.go", "transform")),
         example=Example(runtime_head("alluxio") + """\
  fuse:
    resources: {limits: {cpu: 16}}
""", "Without a memory limit Fluid gives the FUSE container no resources at all: the CPU limit never applies.")),
    Rule("FG141", "warning", "a Dataset field the bound runtime's engine does not read", dataset_fields,
         kinds=frozenset({"Dataset"}),
         description="Some Dataset fields are read by the engine of the runtime bound to it, and not every "
                     "engine reads them: only Alluxio and GooseFS read the owner, Vineyard reads neither "
                     "tolerations nor (its workers always having an affinity) nodeAffinity, EFC ignores "
                     "sharedOptions. The rule reports each such field of a Dataset bound to a runtime in the "
                     "same files, from the engine's runtime-fields matrix (docs/runtime-fields.md).",
         sources=(source("pkg/ctrl/affinity.go", "BuildWorkersAffinity"),
                  source("pkg/ddc/alluxio/transform_fuse.go", "transformFuse"),
                  source("pkg/ddc/juicefs/transform.go", "transform")),
         example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  owner: {uid: 1000, gid: 1000}
  mounts: [{mountPoint: "juicefs:///", name: imagenet}]
---
""" + runtime_head("juicefs") + "  replicas: 1\n",
             "JuiceFS never reads the Dataset's owner: files are not owned by uid 1000.")),
)
