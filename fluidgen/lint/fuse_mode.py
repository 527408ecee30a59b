"""FG131: a runtime's FUSE mounts ro exactly when Fluid's own defaults would, from the Dataset's
access modes (Alluxio, JindoCache: Lowering.fuse_mode_source). fuse.args replace Fluid's whole
default set, the mode included, so hand-written args decide it alone."""

from __future__ import annotations

from collections.abc import Iterator

from ..fluidbase import fuse_read_only
from ..manifest import fuse_options, fuse_spec, kind_of, meta, same_place, spec_of
from ..rules import Finding, Object
from .binding import engine_of


def fuse_mode_follows_access_modes(obj: Object, objects: list[Object]) -> Iterator[Finding]:
    engine = engine_of(obj)
    if engine is None or engine.lowering.fuse_mode_source is None or not fuse_spec(obj).get("args"):
        return
    dataset = next((d for d in objects if kind_of(d) == "Dataset" and same_place(d, obj)), None)
    if dataset is None:
        return
    modes = spec_of(dataset).get("accessModes")
    modes = [m for m in modes if isinstance(m, str)] if isinstance(modes, list) else []
    options = fuse_options(obj)
    ro = next((i for i, o in options if o == "ro"), None)
    name, cite = meta(dataset).get("name"), engine.lowering.fuse_mode_source.cite()
    if fuse_read_only(modes) and ro is None:
        yield Finding(("spec", "fuse", "args"),
                      f"Dataset {name} is read-only, and Fluid's own FUSE args for it would mount ro ({cite}), "
                      "but fuse.args replace them and have no ro, so the FUSE mount is writable; add ro")
    elif not fuse_read_only(modes) and ro is not None:
        yield Finding(("spec", "fuse", "args", ro),
                      f"Dataset {name} is ReadWriteMany, but these fuse.args mount it ro, so every write fails "
                      f"(Fluid's own args would not: {cite}); drop ro")
