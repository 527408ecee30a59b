"""Build the first-class spec, compare with the input, move what is left into overrides.

For each bundled profile of the engine (and none) the spec is built and the runtime's
remaining differences counted; the profile that leaves the fewest wins. What differs in a
key the spec computes (mounts, tiers, runAfter, ...) cannot be overridden: the import
reports it as a failure, naming the key path.
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Manifest, Tree
from ..base.merge import deep_merge
from ..base.names import metadata_problems
from ..base.options import Options
from ..catalog.kinds import table
from ..catalog.schemas import kinds, prune_spec, validator
from ..compile.pipeline import compile_document
from ..engines.contract import Engine
from ..fluid.operations import OPERATIONS
from ..io.inputs import Reader
from ..io.yamlreader import load_text
from ..lint import IGNORE_ANNOTATION, waiver_entries, without_waivers
from ..spec import profiles
from . import compact, roundtrip
from .credentials import credential_values
from .files import spec_file
from .mapping import engine_of, first_class
from .objects import Obj, Scenario

DATASET_COMPUTED = ("mounts", "sharedOptions", "sharedEncryptOptions")
OPERATION_COMPUTED = ("runAfter", "dataset", "ttlSecondsAfterFinished", "target")


@dataclass
class Imported:
    scenario: Scenario
    spec: Tree
    text: str = ""
    env: dict[str, str] = field(default_factory=dict)  # credential values: in memory only, never written
    notes: list[str] = field(default_factory=list)
    overrides: list[str] = field(default_factory=list)  # "Kind/name: key" moved to overrides
    dropped: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    invalid: bool = False  # the input itself breaks the Fluid API (the failures say where)
    profile_file: str = ""  # a generated tuning profile beside the spec (with -o), and its text
    profile_text: str = ""
    incomplete: bool = False  # the input lacks the Dataset's runtime

    @property
    def outcome(self) -> str:
        if self.incomplete:
            return "incomplete"
        if self.invalid:
            return "invalid"
        return "failed" if self.failures else "overrides" if self.overrides else "exact"


def patch(given: Any, built: Any) -> Any:
    """What to merge onto `built` (null deletes) to get `given`; None when they are equal."""
    if isinstance(given, dict) and isinstance(built, dict):
        out: Tree = {key: sub for key, value in given.items() if (sub := _key_patch(value, built, key)) is not _SAME}
        out.update({key: None for key in built if key not in given})
        return out if out else _SAME
    return _SAME if roundtrip._text(given) == roundtrip._text(built) else given


def _key_patch(value: Any, built: Tree, key: str) -> Any:
    """The patch at one key of the input's mapping: the input's value where the build lacks the
    key (an empty mapping is no setting)."""
    if key in built:
        return patch(value, built[key])
    return value if value != {} else _SAME


_SAME: Any = object()


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values()) or 1
    return 1


def prune(version: str, obj: Obj, dropped: list[str]) -> Manifest:
    """The object without the spec fields `version` lacks (the API server would prune them)."""
    data = copy.deepcopy(obj.data)
    if obj.kind not in kinds(version) or not isinstance(data.get("spec"), dict):
        return data
    pruned = prune_spec(version, obj.kind, data["spec"])
    for path in _removed(data["spec"], pruned, ("spec",)):
        dropped.append(f"{obj.kind}/{obj.name}: {'.'.join(map(str, path))} is not in Fluid {version}'s {obj.kind} "
                       "(the API server would prune it); left out")
    data["spec"] = pruned
    return data


def _removed(before: Any, after: Any, path: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key, value in before.items():
            out += [(*path, key)] if key not in after else _removed(value, after[key], (*path, key))
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [p for i, (x, y) in enumerate(zip(before, after, strict=True)) for p in _removed(x, y, (*path, i))]
    return []


def build(text: str, name: str, env: dict[str, str], version: str, reader: Reader | None = None
          ) -> tuple[list[Manifest], list[Diagnostic]]:
    doc = load_text(name, text)[0]
    options = Options(fluid_version=version, env=env, lint=False)
    try:
        return compile_document(doc, options, reader)
    except FluidgenError as exc:
        return [], exc.diagnostics


def _by_key(objects: list[Manifest]) -> dict[tuple[str, str], Manifest]:
    return {(str(o.get("kind")), str(o.get("metadata", {}).get("name"))): o for o in objects}


def _residuals(imported: Imported, given: dict[tuple[str, str], Manifest],
               built: dict[tuple[str, str], Manifest], engine: Engine) -> dict[tuple[str, str], Any]:
    """Per input Fluid object: the spec patch still needed (computed keys excluded)."""
    out = {}
    for key, obj in given.items():
        kind = key[0]
        if kind not in ("Dataset", engine.kind, *OPERATIONS) or key not in built:
            continue
        diff = patch(obj.get("spec", {}), built[key].get("spec", {}))
        if diff is _SAME:
            continue
        computed: tuple[str, ...] = DATASET_COMPUTED if kind == "Dataset" else \
            tuple(engine.lowering.computed) if kind == engine.kind else OPERATION_COMPUTED
        out[key] = {k: v for k, v in diff.items() if k not in computed}
    return out


def _runtime_cost(spec: Tree, profile: str | None, imported: Imported, given: dict[Any, Any],
                  engine: Engine, version: str) -> int | None:
    trial = copy.deepcopy(spec)
    if profile is not None:
        trial["runtime"] = _with_profile(trial["runtime"], profile)
    objects, _ = build(_trial_text(trial), "<import>", imported.env, version)
    if not objects:
        return None
    residual = _residuals(imported, given, _by_key(objects), engine)
    runtime_key = (engine.kind, imported.scenario.name)
    return _leaves(residual.get(runtime_key, {})) if runtime_key in residual else 0


def _trial_text(spec: Tree) -> str:
    """A trial spec as YAML nobody reads: JSON (a YAML subset), ten times faster to write than
    compact.dump's styled YAML, which only the written spec needs."""
    return json.dumps(spec)


def import_scenario(scenario: Scenario, version: str, name: str = "<import>", profile_dir: str | None = None
                    ) -> Imported:
    """One Dataset's spec, in stages: the input checked, first-class keys mapped, the bundled
    profile chosen, the residual moved to overrides, the spec proven by a round trip. With
    `profile_dir` (import -o DIR), what the runtime still needs beyond the bundled profile goes
    to a profile file there instead of runtime.overrides."""
    imported = _mapped(scenario, version)
    engine = engine_of(scenario)
    imported.incomplete = not imported.invalid and engine is None
    if engine is None or imported.failures:
        imported.text = compact.dump(imported.spec) if not imported.invalid else ""
        return imported
    given_objects = [prune(version, o, imported.dropped) for o in scenario.objects()]
    given = _by_key(_with_engine_defaults(given_objects, engine))
    _choose_profile(imported, given, engine, version)
    objects = _first_build(imported, name, version)
    if not objects:
        return imported
    reader = Reader()
    _move_residuals(imported, _residuals(imported, given, _by_key(objects), engine), engine, profile_dir, reader)
    imported.text = compact.dump(imported.spec)
    _prove(imported, given_objects, engine, name, version, reader)
    return imported


def _mapped(scenario: Scenario, version: str) -> Imported:
    """The input checked against the Fluid API first (mapping reads only objects of the right
    shape), then its first-class spec keys."""
    dropped: list[str] = []
    problems = _invalid(version, [prune(version, o, dropped) for o in scenario.objects()])
    if problems:
        return Imported(scenario, {}, dropped=dropped, failures=problems, invalid=True)
    try:
        mapped = first_class(scenario, version)
    except (AttributeError, TypeError, KeyError, ValueError) as exc:
        # only the core objects beside the Dataset (Secret, volume, claim) can get here unchecked
        return Imported(scenario, {}, failures=[f"the input is not valid: an object beside Dataset {scenario.name} "
                                                f"has a field of the wrong type ({type(exc).__name__})"], invalid=True)
    return Imported(scenario, mapped.spec, env=mapped.env, notes=mapped.notes, failures=list(mapped.failures))


def _choose_profile(imported: Imported, given: dict[Any, Any], engine: Engine, version: str) -> None:
    """The bundled profile that leaves the least for overrides, written into the spec."""
    spec = imported.spec
    candidates = [None, *[p for p in profiles.bundled_names() if _engine_of_profile(p) == engine.name]]
    costs = [(c, _runtime_cost(spec, c, imported, given, engine, version)) for c in candidates]
    usable = [(cost, i, c) for i, (c, cost) in enumerate(costs) if cost is not None]
    if not usable:
        return
    _, _, best = min(usable)
    if best is not None:
        spec["runtime"] = _with_profile(spec["runtime"], best)
        imported.notes.append(f"{engine.kind} {imported.scenario.name}: tuning matches profile {best}; only the "
                              "differences are written")
        _leave_waivers_to(spec["runtime"], best, engine, imported)


def _leave_waivers_to(runtime: Tree, profile: str, engine: Engine, imported: Imported) -> None:
    """Drop from the runtime's own annotation the lint waivers `profile` writes on every build of
    it (and says so); a waiver the profile does not write stays: it is the input's own."""
    annotations = runtime.get("annotations")
    if not isinstance(annotations, dict):
        return
    writes = waiver_entries((rule, path) for path, rules in profiles.waived(profiles.chain(profile, engine.name))
                            for rule in sorted(rules))
    kept = without_waivers(annotations, writes)
    if kept == annotations:
        return
    given = str(annotations.get(IGNORE_ANNOTATION, "")).split(",")
    left = sorted({e.strip() for e in given} & set(writes))
    imported.notes.append(f"{engine.kind} {imported.scenario.name}: lint waivers {', '.join(left)} are written "
                          f"by profile {profile} on every build; the spec does not repeat them")
    if kept:
        runtime["annotations"] = kept
    else:
        del runtime["annotations"]


def _with_profile(runtime: Tree, profile: str) -> Tree:
    """The runtime section naming `profile`, right after its engine."""
    return {"engine": runtime["engine"], "profile": profile, **{k: v for k, v in runtime.items() if k != "engine"}}


def _build_errors(diags: list[Diagnostic]) -> list[str]:
    """A failed build's errors as failures (at least one)."""
    return [f"the spec does not build: {d.message}" for d in diags if d.severity == "error"] or \
        ["the spec does not build"]


def _first_build(imported: Imported, name: str, version: str) -> list[Manifest]:
    """The first-class spec built; empty (with the failures said) when it does not build or would not work."""
    objects, diags = build(compact.dump(imported.spec), name, imported.env, version)
    unworkable = [d.message for d in diags if d.severity == "error" and d.stage == "check"]
    if unworkable or not objects:
        imported.invalid = bool(unworkable)  # what the spec alone shows: the input has it too
        imported.failures += [f"the input would not work on Fluid: {m}" for m in unworkable] or _build_errors(diags)
        imported.text = compact.dump(imported.spec)
        return []
    return objects


def _move_residuals(imported: Imported, residuals: dict[tuple[str, str], Any], engine: Engine,
                    profile_dir: str | None, reader: Reader) -> None:
    """What the built spec still misses: into overrides, or the runtime's into a profile file."""
    for (kind, obj_name), residual in residuals.items():
        if not residual:
            continue
        if kind == engine.kind and profile_dir is not None:
            _tuning_profile(imported, engine, residual, profile_dir, reader)
            continue
        where = _overrides_home(imported.spec, kind, obj_name, engine)
        where.setdefault("overrides", {}).update(residual)
        imported.overrides += [f"{kind}/{obj_name}: {k}" for k in sorted(residual)]


def _prove(imported: Imported, given_objects: list[Manifest], engine: Engine, name: str, version: str,
           reader: Reader) -> None:
    """The written spec builds, holds no credential value, and gives the input's objects."""
    objects, diags = build(imported.text, name, imported.env, version, reader)
    if not objects or any(d.severity == "error" for d in diags):
        imported.failures += _build_errors(diags)
        return
    leaks = _leaks(imported)
    if leaks:
        imported.failures += leaks
        return
    scenario = imported.scenario
    imported.failures += _round_trip(scenario, given_objects, objects, engine)
    for secret in scenario.secrets.values():
        imported.notes.append(f"Secret {secret.name}: read through existingSecret; its values are not imported "
                              "(create it outside git: kubectl, External Secrets or SOPS)")


def _leaks(imported: Imported) -> list[str]:
    """Where the spec, or the profile generated beside it, holds what looks like a credential value."""
    written = credential_values(imported.spec) + (credential_values(compact_load(imported.profile_text))
                                                  if imported.profile_text else [])
    return [f"{where}: looks like a credential value; an import never writes one. Move it to a Secret read through "
            "encryptOptions in the input (or drop it) and import again" for where in written]


def _round_trip(scenario: Scenario, given_objects: list[Manifest], objects: list[Manifest],
                 engine: Engine) -> list[str]:
    """What the build gives that differs from the input's objects."""
    if scenario.runtime is None:  # a dataset:// reference: the build writes the runtime Fluid ignores
        objects = [o for o in objects if o.get("kind") != engine.kind]
    return roundtrip.compare(given_objects, objects, scenario.namespace or "default",
                             roundtrip.engine_defaults(engine))


def _settings(residual: Tree, path: tuple[str, ...] = ()) -> Tree:
    """A residual as profile settings: a/b/c -> value, split where a null deletes something."""
    out: Tree = {}
    for key, value in residual.items():
        where = (*path, key)
        if isinstance(value, dict) and _has_null(value):
            out.update(_settings(value, where))
        else:
            out["/".join(where)] = value
    return out


def _has_null(value: Any) -> bool:
    return value is None or (isinstance(value, dict) and any(_has_null(v) for v in value.values()))


def _tuning_profile(imported: Imported, engine: Engine, residual: Tree, directory: str,
                    reader: Reader) -> None:
    """The runtime's remaining tuning as a profile file beside the spec, extending the bundled one."""
    name = imported.scenario.name
    stem = spec_file(name, imported.scenario.namespace).removesuffix(".yaml")  # unique per namespace too
    runtime = imported.spec["runtime"]
    base = runtime.get("profile")
    where = os.path.basename(imported.scenario.runtime.where()) if imported.scenario.runtime else "the input"
    profile: Tree = {
        "apiVersion": "fluidgen.io/v1alpha1", "kind": "Profile", "name": f"{stem}-imported", "engine": engine.name,
        "description": f"The tuning of {engine.kind} {name} as written in {where}, brought in by fluidgen import.",
        **({"extends": base} if base else {}),
        "settings": [{"why": f"As written in {where} (fluidgen import); say here why, for the next reader.",
                      "set": _settings(residual)}]}
    imported.profile_file = f"{stem}.profile.yaml"
    imported.profile_text = compact.dump(profile)
    reader.provide(os.path.join(directory, imported.profile_file), imported.profile_text.encode())
    runtime["profile"] = imported.profile_file
    imported.notes.append(f"{engine.kind} {name}: tuning beyond {base or 'the built-in defaults'} "
                          f"({', '.join(sorted(residual))}) -> profile file {imported.profile_file}")


def compact_load(text: str) -> Any:
    docs = load_text("<profile>", text)
    return docs[0].data if docs else None


def _invalid(version: str, objects: list[Manifest]) -> list[str]:
    """Where the input (its unknown fields already left out) breaks the target's Fluid API."""
    out = []
    for o in objects:
        kind = str(o.get("kind"))
        out += _name_problems(o, kind) + _schema_problems(o, kind, version)
    return out


def _name_problems(o: Manifest, kind: str) -> list[str]:
    """Where the object's metadata breaks the naming rules of its kind."""
    rules = table()
    if kind not in rules or not isinstance(o.get("metadata"), dict):
        return []
    return [f"the input is not valid: {kind} {'.'.join(path)}: {problem}"
            for path, problem in metadata_problems(o["metadata"], rules[kind].name_rule)]


def _schema_problems(o: Manifest, kind: str, version: str) -> list[str]:
    """Where the object breaks the schema of its kind in Fluid `version` (unknown fields aside)."""
    if kind not in kinds(version):
        return []
    return [f"the input is not valid Fluid {version}: {kind}/{o.get('metadata', {}).get('name')} "
            f"{'.'.join(map(str, p.path))}: {p.message}"
            for p in validator(version, kind).problems(o) if p.severity == "error" and not p.unknown_field]


def _with_engine_defaults(objects: list[Manifest], engine: Engine) -> list[Manifest]:
    """Runtimes with the engine's built-in defaults filled in where absent: each equals what
    Fluid does without the field (engines/*.py `defaults`), so no override is needed for it."""
    out = []
    for o in objects:
        if o.get("kind") == engine.kind and engine.lowering.defaults:
            o = {**o, "spec": deep_merge(dict(engine.lowering.defaults), o.get("spec") or {})}
        out.append(o)
    return out


def _engine_of_profile(name: str) -> str:
    try:
        return profiles.load_profile(name).engine
    except (KeyError, FluidgenError):
        return ""


def _overrides_home(spec: Tree, kind: str, name: str, engine: Engine) -> Tree:
    if kind == "Dataset":
        home: Tree = spec.setdefault("dataset", {})
        return home
    if kind == engine.kind:
        runtime: Tree = spec["runtime"]
        return runtime
    step: Tree = next(s for s in spec.get("dataflow", []) if s.get("name") == name)
    return step
