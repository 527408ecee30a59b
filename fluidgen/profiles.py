"""Tuning profiles: bundled or user files, with `extends:` chains and a reason per setting."""

from __future__ import annotations

import copy
import functools
import hashlib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from pydantic import Field, ValidationError

from . import api
from .diagnostics import Diagnostic, FluidgenError, Severity, did_you_mean
from .merge import deep_merge, set_path
from .source import Document, decode, load_text, read_bytes, resolve_relative
from .spec import Engine, Model

NONE = "none"  # `profile: none` means built-in defaults only
RUNTIME_KIND = {
    "alluxio": "AlluxioRuntime", "jindo": "JindoRuntime", "juicefs": "JuiceFSRuntime",
    "efc": "EFCRuntime", "thin": "ThinRuntime", "vineyard": "VineyardRuntime",
    "goosefs": "GooseFSRuntime",
}


class Setting(Model):
    why: str = Field(min_length=10, description="Why these values: the evidence or the trade-off.")
    set: dict[str, Any] = Field(min_length=1, description="Runtime spec path (a/b/c) -> value.")


class ProfileFile(Model):
    apiVersion: str = Field(pattern=r"^fluidgen\.io/v1alpha1$")
    kind: str = Field(pattern=r"^Profile$")
    name: str
    engine: Engine
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


@dataclass(frozen=True)
class Profile:
    name: str
    engine: str
    description: str
    file: str
    extends: str | None
    entries: tuple[Entry, ...]
    digest: str = ""  # of the file's text: identifies this exact profile in memo keys


@functools.cache
def _bundled() -> tuple[str, ...]:
    folder = resources.files("fluidgen") / "profiles"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml")))


def bundled_names() -> list[str]:
    return list(_bundled())


def _locate(ref: str, relative_to: str) -> tuple[str, str]:
    """(display name, text) of a profile reference: a bundled name or a path."""
    if "/" in ref or ref.endswith((".yaml", ".yml")):
        path = str(resolve_relative(relative_to, ref))
        return path, decode(path, read_bytes(path))
    if ref not in bundled_names():
        hint = did_you_mean(ref, [*bundled_names(), NONE])
        raise KeyError(f'no bundled profile "{ref}"{hint} (see `fluidgen profiles list`)')
    return f"<bundled>/{ref}.yaml", _bundled_text(ref)


@functools.cache
def _bundled_text(name: str) -> str:
    return (resources.files("fluidgen") / "profiles" / f"{name}.yaml").read_text("utf-8")


def load_profile(ref: str, relative_to: str = ".") -> Profile:
    return _parse_profile(*_locate(ref, relative_to))


@functools.lru_cache(maxsize=256)
def _parse_profile(name: str, text: str) -> Profile:
    """Parsed once per (file, content): a batch of specs sharing a profile parses it once."""
    docs = load_text(name, text)
    if len(docs) != 1:
        raise FluidgenError([Diagnostic(name, 1, 1, "error", "a profile file holds exactly one document")])
    doc = docs[0]
    try:
        model = ProfileFile.model_validate(doc.data)
    except ValidationError as exc:
        from .spec_errors import translate

        raise FluidgenError(translate(exc, doc, ProfileFile)) from None
    entries = tuple(_entries(model, doc))
    return Profile(model.name, model.engine, model.description, name, model.extends, entries,
                   hashlib.sha256(text.encode()).hexdigest())


def _entries(model: ProfileFile, doc: Document) -> list[Entry]:
    out: list[Entry] = []
    for i, setting in enumerate(model.settings):
        for key, value in setting.set.items():
            line, col = doc.where(("settings", i, "set", key))
            path = tuple(p for p in key.split("/") if p)
            out.append(Entry(model.name, path, value, setting.why, doc.file, line, col))
    return out


def chain(ref: str, engine: str, relative_to: str = ".") -> list[Profile]:
    """The profile and its ancestors, base first. Detects cycles and engine mismatches."""
    seen: list[str] = []
    profiles: list[Profile] = []
    current: str | None = ref
    base_dir = relative_to
    while current is not None:
        profile = load_profile(current, base_dir)
        if profile.name in seen:
            loop = " -> ".join([*seen, profile.name])
            raise FluidgenError([Diagnostic(profile.file, 1, 1, "error", f"profiles extend in a cycle: {loop}")])
        if profile.engine != engine:
            raise FluidgenError([Diagnostic(
                profile.file, 1, 1, "error",
                f'profile "{profile.name}" is for engine {profile.engine}, not {engine}')])
        seen.append(profile.name)
        profiles.append(profile)
        current = profile.extends
        base_dir = profile.file if not profile.file.startswith("<bundled>") else "."
    return list(reversed(profiles))


def apply(profiles: list[Profile], version: str, base: dict[str, Any]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Fold a chain's settings onto `base`; fields the target API lacks become warnings."""
    key = (tuple((p.file, p.digest) for p in profiles), version, repr(base))
    if key not in _APPLIED:
        _APPLIED[key] = _fold(tuple(profiles), version, base)
    tree, diags = _APPLIED[key]
    return copy.deepcopy(tree), list(diags)


# Folding a chain is pure: memoised per (profile files and contents, target, base).
_APPLIED: dict[tuple[Any, ...], tuple[dict[str, Any], tuple[Diagnostic, ...]]] = {}


def _fold(profiles: tuple[Profile, ...], version: str,
          base: dict[str, Any]) -> tuple[dict[str, Any], tuple[Diagnostic, ...]]:
    tree = base
    warnings: list[Diagnostic] = []
    for profile in profiles:
        model = api.spec_model(version, RUNTIME_KIND[profile.engine])
        assert model is not None
        for entry in profile.entries:
            fragment = set_path({}, entry.path, entry.value)
            problems = [] if entry.value is None else list(api.check(model, fragment))
            for p in problems:
                severity: Severity = "warning" if p.unknown_field else "error"
                warnings.append(Diagnostic(entry.file, entry.line, entry.col, severity,
                                           _problem_text(p, version), stage="profile"))
            if any(p.unknown_field for p in problems):
                tree = deep_merge(tree, api.prune(model, fragment))
            else:
                tree = set_path(tree, entry.path, entry.value)
    return tree, tuple(warnings)


def _problem_text(p: api.Problem, version: str) -> str:
    if p.unknown_field:
        hint = did_you_mean(str(p.path[-1]), p.choices)
        field = ".".join(map(str, p.path))
        return f"Fluid {version} has no field {field}; it is not emitted{hint}"
    return p.message
