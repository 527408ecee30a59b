"""The parsed Spec as lowering and the engines read it (model/specview.py): built once per spec,
before its context. The parts are the Spec's own objects, already validated by it."""

from __future__ import annotations

from ..engines.engine_table import INDEX
from ..model.specview import RuntimeView, SpecView
from ..spec.spec import Spec


def spec_view(spec: Spec) -> SpecView:
    r = spec.runtime
    key = INDEX[r.engine].section  # the engine's own section of runtime:, read without importing the engine
    sections = {key: r.section(key)} if key is not None else {}
    runtime = RuntimeView(engine=r.engine, replicas=r.replicas, replicas_written="replicas" in r.model_fields_set,
                          cache=r.cache, runAs=r.runAs, masters=r.masters, networkMode=r.networkMode,
                          metadataSync=r.metadataSync, fuse=r.fuse, profile=r.profile, overrides=r.overrides,
                          labels=r.labels, annotations=r.annotations, sections=sections)
    return SpecView(metadata=spec.metadata, source=spec.source, sharedOptions=spec.sharedOptions,
                    sharedCredentials=spec.sharedCredentials, dataset=spec.dataset, accessModes=spec.accessModes,
                    placement=spec.placement, runtime=runtime, dataflow=spec.dataflow, workloads=spec.workloads)
