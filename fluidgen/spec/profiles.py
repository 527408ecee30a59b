"""Tuning profiles: bundled or user files, with `extends:` chains and a reason per setting.

Bundled profiles live in the repository's top-level profiles/ and ship inside the wheel as
fluidgen/bundled_profiles/ (pyproject.toml force-includes them); a source checkout or an
editable install reads profiles/ directly.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError

from ..base.diagnostics import Diagnostic, FluidgenError, did_you_mean
from ..base.manifest import Tree
from ..base.merge import copy_tree, deep_merge, set_path
from ..base.spectypes import Model
from ..catalog.schemas import describe_problem, prune_spec, spec_validator
from ..io.buildinputs import WHEEL_PROFILES, profiles_folder
from ..io.inputs import Reader
from ..io.yamlreader import Document, load_text
from ..lint import is_rule_id, rule_ids
from ..model.spec_errors import translate
from .spec import EngineName

if TYPE_CHECKING:
    from ..io.inputs import Reader

NONE = "none"  # `profile: none` means built-in defaults only


def _waived_rule(value: object) -> object:
    if isinstance(value, str) and not is_rule_id(value):
        raise ValueError(f"unknown lint rule {value}{did_you_mean(value, rule_ids())}")
    return value


def _waiver_reason(value: object) -> object:
    if isinstance(value, str) and len(value.split()) < 4:
        raise ValueError("say why the rule does not apply here, in a sentence")
    return value


class Setting(Model):
    why: str = Field(min_length=10, description="Why these values: the evidence or the trade-off.")
    set: Tree = Field(min_length=1, description="Runtime spec path (a/b/c) -> value.")
    waive: dict[Annotated[str, BeforeValidator(_waived_rule)], Annotated[str, BeforeValidator(_waiver_reason)]] = Field(
        default_factory=dict, description="Lint rules these values break on purpose: rule ID -> why.")


class ProfileFile(Model):
    apiVersion: Literal["fluidgen.io/v1alpha1"]
    kind: Literal["Profile"]
    name: str
    engine: EngineName
    description: str
    extends: str | None = None
    settings: list[Setting] = Field(default_factory=list)


@dataclass(frozen=True)
class Entry:
    """One setting as it ends up in the chain: where it came from and why."""

    profile: str
    path: tuple[str, ...]
    value: Any
    why: str
    file: str
    line: int
    col: int
    waive: tuple[tuple[str, str], ...] = ()  # (rule ID, why) the value breaks on purpose


@dataclass(frozen=True)
class Profile:
    name: str
    engine: str
    description: str
    file: str
    extends: str | None
    entries: tuple[Entry, ...]
    digest: str = ""  # of the file's text: identifies this exact profile in memo keys
    bundled: bool = False


@functools.cache
def bundled_folder() -> Any:
    """Where the bundled profiles are: inside the installed wheel, else the checkout's profiles/.
    importlib.resources only for a package that is not a directory (zipimport): its readers
    import zipfile, 10-18 ms of every uncached build otherwise."""
    here = Path(__file__).resolve().parent.parent  # fluidgen/, above spec/
    if (here / "__init__.py").is_file():
        return Path(profiles_folder())
    from importlib import resources

    packaged = resources.files("fluidgen") / WHEEL_PROFILES
    return packaged if packaged.is_dir() else here.parent / "profiles"


@functools.cache
def _bundled() -> tuple[str, ...]:
    folder = bundled_folder()
    if not folder.is_dir():
        return ()
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml")))


def bundled_names() -> list[str]:
    return list(_bundled())


@functools.cache
def bundled_text(name: str) -> str:
    text: str = (bundled_folder() / f"{name}.yaml").read_text("utf-8")
    return text


def bundled_path(name: str) -> str:
    return str(bundled_folder() / f"{name}.yaml")


def is_path(ref: str) -> bool:
    return "/" in ref or ref.endswith((".yaml", ".yml"))


def _locate(ref: str, doc: Document | None, reader: Reader | None,
            relative_to: str | None = None) -> tuple[str, str, bool]:
    """(display name, text, bundled) of a profile reference: a bundled name or a path."""
    if is_path(ref):
        reader = reader or Reader()
        if doc is not None:
            path = str(reader.referenced(doc, ("runtime", "profile"), ref, relative_to))
        else:
            path = str(Path(relative_to).parent / ref) if relative_to and not Path(ref).is_absolute() else ref
        return path, reader.text(path), False
    if ref not in bundled_names():
        hint = did_you_mean(ref, [*bundled_names(), NONE])
        raise KeyError(f'no bundled profile "{ref}"{hint} (see `fluidgen profiles list`)')
    return f"<bundled>/{ref}.yaml", bundled_text(ref), True


def load_profile(ref: str, doc: Document | None = None, reader: Reader | None = None,
                 relative_to: str | None = None) -> Profile:
    return _parse_profile(*_locate(ref, doc, reader, relative_to))


@functools.lru_cache(maxsize=256)
def _parse_profile(name: str, text: str, bundled: bool) -> Profile:
    """Parsed once per (file, content): a batch of specs sharing a profile parses it once."""
    docs = load_text(name, text)
    if len(docs) != 1:
        raise FluidgenError([Diagnostic(name, 1, 1, "error", "a profile file holds exactly one document")])
    doc = docs[0]
    try:
        model = ProfileFile.model_validate(doc.data)
    except ValidationError as exc:
        raise FluidgenError(translate(exc, doc, ProfileFile)) from None
    entries = tuple(_entries(model, doc))
    return Profile(model.name, model.engine, model.description, name, model.extends, entries,
                   hashlib.sha256(text.encode()).hexdigest(), bundled)


def _entries(model: ProfileFile, doc: Document) -> list[Entry]:
    out: list[Entry] = []
    for i, setting in enumerate(model.settings):
        for key, value in setting.set.items():
            line, col = doc.where(("settings", i, "set", key))
            path = tuple(p for p in key.split("/") if p)
            out.append(Entry(model.name, path, value, setting.why, doc.file, line, col,
                             tuple(sorted(setting.waive.items()))))
    return out


def _other_engine(profile: Profile, engine: str, doc: Document | None) -> Diagnostic:
    """A profile for another engine, reported at the spec's runtime.profile (where the user chose
    it) when the spec chose it, with the bundled profiles that are for the spec's engine."""
    own = [n for n in bundled_names() if load_profile(n).engine == engine]
    hint = f"; profiles for {engine}: {', '.join(own)}" if own else f"; no bundled profile is for {engine}"
    message = f'profile "{profile.name}" is for engine {profile.engine}, not {engine}{hint}'
    if doc is not None:
        return doc.diag(("runtime", "profile"), message, stage="spec")
    return Diagnostic(profile.file, 1, 1, "error", message)


def chain(ref: str, engine: str, doc: Document | None = None, reader: Reader | None = None) -> list[Profile]:
    """The profile and its ancestors, base first. Detects cycles and engine mismatches.

    A path in `extends:` is relative to the profile that says it, and, like the spec's own
    profile path, must lie inside the spec's directory tree.
    """
    seen: list[str] = []
    profiles: list[Profile] = []
    current: str | None = ref
    relative_to: str | None = None
    while current is not None:
        profile = load_profile(current, doc, reader, relative_to)
        if profile.name in seen:
            loop = " -> ".join([*seen, profile.name])
            raise FluidgenError([Diagnostic(profile.file, 1, 1, "error", f"profiles extend in a cycle: {loop}")])
        if profile.engine != engine:
            raise FluidgenError([_other_engine(profile, engine, doc if not seen else None)])
        seen.append(profile.name)
        profiles.append(profile)
        current = profile.extends
        relative_to = None if profile.bundled else profile.file
    return list(reversed(profiles))


def spec_paths(profile: Profile) -> frozenset[tuple[str, ...]]:
    """The runtime spec paths the profile sets ("spec", ...), once per profile file and content."""
    key = (profile.file, profile.digest)
    if key not in _SPEC_PATHS:
        _SPEC_PATHS[key] = frozenset(("spec", *entry.path) for entry in profile.entries)
    return _SPEC_PATHS[key]


_SPEC_PATHS: dict[tuple[str, str], frozenset[tuple[str, ...]]] = {}


def waived(chain: list[Profile]) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """(runtime object path, rule IDs) each setting of the chain breaks on purpose, base first:
    what a build writes on the runtime as lint waivers (lint.IGNORE_ANNOTATION)."""
    return [(("spec", *entry.path), frozenset(rule for rule, _ in entry.waive))
            for profile in chain for entry in profile.entries if entry.waive]


def apply(profiles: list[Profile], version: str, kind: str,
          base: Tree) -> tuple[Tree, list[Diagnostic]]:
    """Fold a chain's settings onto `base`; fields the target API lacks become warnings."""
    tree, diags = _applied(_Fold(tuple(profiles), version, kind, base))
    return copy_tree(tree), list(diags)


@dataclass(frozen=True, eq=False)
class _Fold:
    """One fold of a chain, identified by its profile files and contents, target and base."""

    profiles: tuple[Profile, ...]
    version: str
    kind: str
    base: Tree
    key: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", (tuple((p.file, p.digest) for p in self.profiles), self.version,
                                         self.kind, repr(self.base)))

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Fold) and self.key == other.key


# Folding a chain is pure: memoised, bounded (a batch of many specs with many bases stays small).
@functools.lru_cache(maxsize=256)
def _applied(fold: _Fold) -> tuple[Tree, tuple[Diagnostic, ...]]:
    return _fold(fold.profiles, fold.version, fold.kind, fold.base)


def _fold(profiles: tuple[Profile, ...], version: str, kind: str,
          base: Tree) -> tuple[Tree, tuple[Diagnostic, ...]]:
    tree = base
    found: list[Diagnostic] = []
    validator = spec_validator(version, kind)
    for profile in profiles:
        for entry in profile.entries:
            fragment = set_path({}, entry.path, entry.value)
            # A setting is a fragment: required fields may come from other settings or the spec,
            # and the self-check of the finished object reports any still missing.
            problems = [] if entry.value is None else [p for p in validator.problems(fragment)
                                                       if p.keyword != "required"]
            for p in problems:
                severity, message = describe_problem(version, kind, p, f"in profile {profile.name}")
                found.append(Diagnostic(entry.file, entry.line, entry.col, severity, message, stage="profile",
                                        code="FG001" if severity == "warning" else ""))
            if any(p.unknown_field for p in problems):
                tree = deep_merge(tree, prune_spec(version, kind, fragment))
            else:
                tree = set_path(tree, entry.path, entry.value)
    return tree, tuple(found)
