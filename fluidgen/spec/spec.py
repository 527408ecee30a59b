"""The fluidgen input spec (fluidgen.io/v1alpha1, kind CachedDataset).

Pydantic models that reject unknown keys and wrong types. `parse_spec` turns a loaded
Document into a Spec or raises FluidgenError with every problem located. The parts that know
no engine are in specparts.py; this module adds what the engine table decides (the engine
names, each engine's own section of `runtime:`) and the lint rule IDs.

The model a spec is validated with is built (once per process) for the engines the spec names:
its `runtime.engine` and any engine section it writes; only those engine modules are imported.
Every model has every section key (an unknown key gets the same suggestions); a section of an
engine the spec does not name is absent, so it is declared as null there. spec_model() with
every engine is the published JSON Schema's model (specschema.py).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError, ValidationInfo, create_model, field_validator

from ..base.diagnostics import FluidgenError, did_you_mean
from ..base.manifest import Tree
from ..base.spectypes import (
    Model,
    Replicas,
    StrMap,
    choice,
)
from ..engines import engine_table
from ..engines.engine_table import INDEX, NAMES, SECTIONS
from ..io.yamlreader import Document
from ..lint import is_rule_id, rule_ids
from ..model.spec_errors import describe_type, translate
from ..model.specparts import (
    CacheTier,
    Credentials,
    DatasetSection,
    FluidVersion,
    FuseSettings,
    Metadata,
    Mount,
    NetworkMode,
    ObjectMeta,
    Placement,
    RunAs,
    Step,
    Workload,
)

KIND = "CachedDataset"
GROUP = "fluidgen.io"

if TYPE_CHECKING:
    EngineName = str
else:
    EngineName = choice(NAMES)  # the engine table owns the list


class RuntimeBase(ObjectMeta):
    engine: EngineName = Field(description="The cache engine (the runtime kind).")
    replicas: Replicas | None = Field(None, description="Cache workers (default: the engine's, 1 for all but "
                                                         "JuiceFS; null leaves it to Fluid).")
    cache: list[CacheTier] = Field(default_factory=list, description="Cache tiers, fastest first.")
    runAs: RunAs | None = Field(None, description="The user and group of the cache processes (the runtime's runAs), "
                                "where the engine's Fluid reads it: `fluidgen explain runtime.runAs`.")
    masters: Replicas | None = Field(None, description="Master replicas: 3 (an odd number) for high availability "
                                                        "(master.replicas).")
    networkMode: NetworkMode | None = Field(None, description="Master and worker pods on the host network (default) "
                                                              "or the container network.")
    metadataSync: bool | None = Field(None, description="Sync the storage's metadata when the runtime starts "
                                                        "(management.metadataSyncPolicy.autoSync; Fluid's default: "
                                                        "true).")
    fuse: FuseSettings | None = Field(None, description="The FUSE client's placement and clean-up (its tuning is "
                                                        "the profile's).")
    profile: str | None = Field(None, description="Tuning profile: a bundled name or a path to a file.")
    overrides: Tree = Field(default_factory=dict, description="Runtime spec fields that beat the profile.")

    def section(self, key: str) -> Any:
        """An engine's own section (thin:, ...), or None."""
        return getattr(self, key, None)

    @field_validator("*", mode="after")
    @classmethod
    def _section_of_the_engine(cls, value: Any, info: ValidationInfo) -> Any:
        """An engine's own section (declared after engine, so engine is read first) is reported at
        its key when the spec names another engine."""
        name = SECTIONS.get(info.field_name or "")
        engine = info.data.get("engine")
        if name is not None and value is not None and engine is not None and name != engine:
            raise ValueError(f"only applies to engine {name}, not {engine}")
        return value


@cache
def runtime_model(names: tuple[str, ...]) -> type[RuntimeBase]:
    """`runtime:` with the sections of the engines `names` typed by their engines (engines/*.py:
    section=...), and every other section key declared as null (imports only those engines)."""
    sections: dict[str, Any] = {}
    for key, name in SECTIONS.items():
        section = engine_table.engine(name).section if name in names else None
        sections[key] = (section.model | None, Field(None, description=section.doc)) if section is not None else \
            (None, None)
    return create_model("Runtime", __base__=RuntimeBase, **sections)


def _rule_id(value: object) -> object:
    """One item of lint.ignore: checked on its own, so the error names the item (lint.ignore[1])."""
    if isinstance(value, str) and not is_rule_id(value):
        raise ValueError(f"unknown lint rule {value}{did_you_mean(value, rule_ids())}; `fluidgen lint --rules` "
                         "lists them")
    return value


class LintSettings(Model):
    ignore: list[Annotated[str, BeforeValidator(_rule_id)]] = Field(
        default_factory=list, description="Lint rule IDs to silence for this spec.")


RUNTIME_DOC = "The cache engine and its size, tiers and tuning profile."


class Spec(Model):
    """A spec; the model a spec is validated with is spec_model(...), which types `runtime:`."""

    apiVersion: Literal["fluidgen.io/v1alpha1"] = Field(description="The spec's version: fluidgen.io/v1alpha1.")
    kind: Literal["CachedDataset"] = Field(description="Always CachedDataset.")
    metadata: Metadata = Field(description="Name (shared by the Dataset and its runtime) and namespace.")
    fluid: FluidVersion | None = Field(None, description="Target Fluid version.")
    gitops: Literal["argocd", "flux", "none"] | None = Field(None, description="argocd: Argo CD sync waves on every "
        "object, and data operations that Fluid never deletes (no ttlSecondsAfterFinished), named by a hash of "
        "their spec; flux: the same operations, no Argo CD annotations, Flux's ${VAR} substitution disabled on "
        "objects that hold ${. Default: --gitops, "
        "FLUIDGEN_GITOPS, else none.")
    source: list[Mount] = Field(default_factory=list, description="One entry per mount.")
    sharedOptions: StrMap = Field(default_factory=dict, description="Non-secret options every mount gets.")
    sharedCredentials: Credentials | None = Field(None, description="Secret options every mount gets "
                                                                    "(sharedEncryptOptions).")
    dataset: DatasetSection = Field(default_factory=lambda: DatasetSection.model_validate({}),
                                    description="What only the Dataset object carries.")
    accessModes: list[Literal["ReadOnlyMany", "ReadWriteMany"]] = Field(default_factory=list, description=
        "How pods may mount the data. With ReadOnlyMany among them, or none given (Fluid's default, "
        "ReadOnlyMany: pkg/utils/dataset.go GetAccessModesOfDatasetWithContext), Fluid serves the data "
        "read-only (its FUSE mounts ro) and workloads mount the claim readOnly; ReadWriteMany alone makes it "
        "writable.")
    placement: Placement = Field(default_factory=lambda: Placement.model_validate({}),
                                 description="Which nodes hold the cache (GPU model, labels, tolerations).")
    runtime: RuntimeBase = Field(description=RUNTIME_DOC)
    dataflow: list[Step] = Field(default_factory=list, description="Data operations, run in order.")
    workloads: list[Workload] = Field(default_factory=list, description="Training jobs that read the dataset.")
    lint: LintSettings = Field(default_factory=LintSettings, description="Lint rules to silence for this spec.")



@cache
def spec_model(names: tuple[str, ...] = NAMES) -> type[Spec]:
    """The spec with the `runtime:` of runtime_model(names); every engine: the published schema's."""
    return create_model("Spec", __base__=Spec, runtime=(runtime_model(names), Field(description=RUNTIME_DOC)))


def named_engines(data: dict[Any, Any]) -> tuple[str, ...]:
    """The engines a spec names (its runtime.engine and the engines whose sections it writes), in the
    table's order; every engine when runtime.engine is not an engine's name (the error lists them)."""
    runtime = data.get("runtime")
    if not isinstance(runtime, dict) or not isinstance(runtime.get("engine"), str) or runtime["engine"] not in INDEX:
        return NAMES
    engine = runtime["engine"]
    named = {engine, *(SECTIONS[k] for k in runtime if isinstance(k, str) and k in SECTIONS)}
    return tuple(n for n in NAMES if n in named)


API_VERSIONS = ("fluidgen.io/v1alpha1",)


def is_spec(data: object) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND and \
        str(data.get("apiVersion", "")).startswith(GROUP + "/")


def is_fragment(data: object) -> bool:
    """An overlay fragment: spec keys only, no apiVersion or kind (merged into a spec with -f)."""
    return isinstance(data, dict) and bool(data) and "apiVersion" not in data and "kind" not in data and \
        all(isinstance(k, str) and k in Spec.model_fields for k in data)


def near_miss(data: object) -> tuple[str, str] | None:
    """Why a document that is not quite a spec looks like a mistyped one, and the key that is
    mistyped (apiVersion or kind, where the error is reported), or None."""
    if not isinstance(data, dict) or is_spec(data) or _manifest_group(data.get("apiVersion")):
        return None
    kind, api_version = data.get("kind"), data.get("apiVersion")
    api_hint = did_you_mean(api_version, API_VERSIONS) if isinstance(api_version, str) else ""
    if kind == KIND:
        return "apiVersion", f"apiVersion {api_version!r} is not fluidgen's{api_hint or f'; write {API_VERSIONS[0]}'}"
    miss = _kind_miss(kind, api_version, api_hint)
    return ("kind", miss) if miss is not None else None


def _manifest_group(api_version: object) -> bool:
    """Whether apiVersion has no group, or a core, Fluid or other Kubernetes one: a manifest,
    not a mistyped spec. A slash-less apiVersion is a core version ("v1"): one with a dot
    ("fluidgen.io") is a group missing its version, so it is read as the group."""
    group = str(api_version).split("/")[0]
    return not group or group.endswith((".k8s.io", ".fluid.io", "fluid.io")) or "." not in group


def _kind_miss(kind: object, api_version: object, api_hint: str) -> str | None:
    kind_hint = did_you_mean(kind, (KIND,)) if isinstance(kind, str) else ""
    if kind_hint and (api_version in API_VERSIONS or api_hint):
        return f"kind {kind!r} is not a fluidgen kind{kind_hint}"
    if isinstance(api_version, str) and api_version.startswith(GROUP + "/"):
        return f"kind {kind!r} is not a fluidgen kind; write {KIND}"
    return None


def parse_spec(doc: Document) -> Spec:
    if not isinstance(doc.data, dict):
        raise FluidgenError([doc.diag((), f"expected a mapping (a {KIND} spec), found {describe_type(doc.data)}")])
    model = spec_model(named_engines(doc.data))
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        raise FluidgenError(translate(exc, doc, model)) from None
