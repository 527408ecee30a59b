"""One spec being compiled: the spec, where it came from, the target, and what lowering
found. Also records, for every generated value, the spec value it came from, so a problem
found in the output is reported where the user can fix it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..base.diagnostics import Diagnostic, PathT, Severity
from ..base.manifest import Tree
from ..base.options import FromEnv
from ..base.structural.validate import Validator
from ..fluid.common import GROUP_VERSION
from ..io.inputs import Reader
from ..io.yamlreader import Document

if TYPE_CHECKING:
    from .specview import Labelled, SpecView

Where = tuple[str, int, int, PathT]  # file, line, column, and the spec key path (empty in profile files)


class Origins:
    """Output object + path -> the spec (or profile) location that produced it."""

    def __init__(self) -> None:
        self._by_object: dict[int, dict[PathT, Where]] = {}
        # Paths traced together to one place, added before any single path of the object
        # (a bundled profile's settings, all from runtime.profile): a single path wins.
        self._layers: dict[int, list[tuple[frozenset[PathT], Where]]] = {}
        self._waived: dict[int, list[tuple[PathT, frozenset[str]]]] = {}

    def add(self, obj: Tree, path: PathT, where: Where) -> None:
        self._by_object.setdefault(id(obj), {})[path] = where

    def add_all(self, obj: Tree, paths: frozenset[PathT], where: Where) -> None:
        """Every path of `paths` comes from `where`; later layers win over earlier ones."""
        self._layers.setdefault(id(obj), []).append((paths, where))

    def waive(self, obj: Tree, path: PathT, rules: frozenset[str]) -> None:
        """Rules a profile breaks on purpose at `path` (and below), with its reason given there."""
        self._waived.setdefault(id(obj), []).append((path, rules))

    def waivers(self, obj: Tree) -> list[tuple[str, PathT]]:
        """(rule, path) of every waiver recorded on `obj`, in the order recorded."""
        return [(rule, at) for at, rules in self._waived.get(id(obj), ()) for rule in sorted(rules)]

    def waived(self, obj: Tree, path: PathT, rule: str) -> bool:
        return any(rule in rules and path[:len(at)] == at for at, rules in self._waived.get(id(obj), ()))

    def locate(self, obj: Tree, path: PathT) -> Where | None:
        known = self._by_object.get(id(obj), {})
        layers = self._layers.get(id(obj), [])
        for end in range(len(path), -1, -1):
            where = known.get(path[:end]) or next((w for paths, w in reversed(layers) if path[:end] in paths), None)
            if where is not None:
                return where
        return None


@dataclass(frozen=True)
class BuiltDataset:
    """A Dataset built in the same run, as a dataset:// reference to it sees it: its engine's
    data layout (Engine.workloads.data_layout) and the (name, path) of each of its mounts."""

    layout: str
    mounts: tuple[tuple[str | None, str | None], ...]


@dataclass
class Context:
    spec: SpecView  # what lowering and the engines read of the spec (not the Spec model above them)
    doc: Document
    version: str
    namespace: str
    env: Mapping[str, str]
    reader: Reader
    read_credentials: bool = True
    keys_compared: bool = False  # Options.keys_compared: an envFile whose keys are unknown is an error
    from_env: FromEnv = field(default_factory=FromEnv)  # which variables credentials.fromEnv may read
    gitops: bool = False  # Argo CD or Flux: data operations are never deleted by Fluid
    gitops_mode: str = "none"  # "argocd", "flux" or "none": the spec's gitops:, else the setting
    hash_names: bool = False  # data operation names end in a hash of their spec: an edit runs it again
    # (version, kind) -> the validator of that kind's spec: the Fluid API model, handed in from
    # above the engine table (catalog/schemas.py spec_validator) so engine hooks can check objects.
    spec_validators: Callable[[str, str], Validator] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    origins: Origins = field(default_factory=Origins)
    # spec key path -> its file position: a profile traces sixty settings to one key
    located: dict[PathT, tuple[str, int, int]] = field(default_factory=dict, repr=False)
    # the access modes of the Dataset as built (lower/dataset.py sets them, overrides included)
    built_access_modes: list[str] | None = None
    # (namespace, name) -> the Datasets the run built before this spec (a reference's target)
    datasets: Mapping[tuple[str, str], BuiltDataset] = field(default_factory=dict)

    def access_modes(self) -> list[str]:
        """The Dataset's access modes as finally built: the spec's accessModes, or what
        dataset.overrides made of them. Every fact that reads them (FUSE ro/rw, the jobs'
        volumes) reads these; before the Dataset is built, the spec's."""
        return list(self.spec.accessModes if self.built_access_modes is None else self.built_access_modes)

    @property
    def name(self) -> str:
        return self.spec.metadata.name

    def spec_validator(self, version: str, kind: str) -> Validator:
        if self.spec_validators is None:
            raise RuntimeError("this Context was made without the Fluid API model (spec_validators)")
        return self.spec_validators(version, kind)

    def report(self, at: PathT, message: str, severity: Severity = "error", stage: str = "lower",
               code: str = "") -> None:
        self.diagnostics.append(self.doc.diag(at, message, severity, stage=stage, code=code))

    def metadata(self, name: str, namespaced: bool = True, own: Labelled | None = None) -> Tree:
        """Name, namespace, and the labels and annotations of every object, then the object's `own`."""
        meta: Tree = {"name": name}
        if namespaced:
            meta["namespace"] = self.namespace
        for key in ("labels", "annotations"):
            values = {**getattr(self.spec.metadata, key), **(getattr(own, key) if own is not None else {})}
            if values:
                meta[key] = values
        return meta

    def fluid_object(self, kind: str, name: str, spec: Tree, at: PathT = (),
                     namespaced: bool = True, top_level: bool = False,
                     own: Labelled | None = None) -> Tree:
        """A Fluid object; a top-level kind (a cache runtime class) has its fields beside metadata."""
        head = {"apiVersion": GROUP_VERSION, "kind": kind, "metadata": self.metadata(name, namespaced, own)}
        obj = {**head, **spec} if top_level else {**head, "spec": spec}
        self.trace(obj, (), at)
        return obj

    def trace(self, obj: Tree, path: PathT, at: PathT) -> None:
        """The value at `path` in `obj` comes from the spec key path `at`."""
        where = self.located.get(at)
        if where is None:
            where = self.located[at] = self.doc.locate(at)
        self.origins.add(obj, path, (*where, at))

    def trace_all(self, obj: Tree, paths: frozenset[PathT], at: PathT) -> None:
        """The values at every one of `paths` in `obj` come from the spec key path `at`."""
        file, line, col = self.doc.locate(at)
        self.origins.add_all(obj, paths, (file, line, col, at))

    def trace_copy(self, obj: Tree, path: PathT, at: PathT, value: Any) -> None:
        """`value`, copied from spec path `at` to `path` in `obj`: trace it and everything in it."""
        self.trace(obj, path, at)
        if isinstance(value, dict):
            for key, item in value.items():
                self.trace_copy(obj, (*path, key), (*at, key), item)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.trace_copy(obj, (*path, i), (*at, i), item)

    def trace_file(self, obj: Tree, path: PathT, file: str, line: int, col: int) -> None:
        self.origins.add(obj, path, (file, line, col, ()))
