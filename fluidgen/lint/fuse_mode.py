"""FG131: a runtime's FUSE mounts ro exactly when Fluid's own defaults would, from the Dataset's
access modes (Alluxio, GooseFS, JindoCache: Lowering.fuse_mode_source). fuse.args replace Fluid's whole
default set, the mode included, so hand-written args decide it alone."""

from __future__ import annotations

from collections.abc import Iterator

from ..base.fluidsource import source
from ..base.manifest import fuse_options, fuse_spec
from ..base.manifest_index import Entry, ManifestIndex
from ..base.rules import Example, Finding, Rule
from ..engines.engine_table import INDEX, KindsWhere
from ..fluid.fluidbase import read_only_dataset
from .binding import engine_of

# The runtimes whose FUSE mode Fluid sets from the Dataset's access modes.
FUSE_MODE_KINDS = KindsWhere(lambda e: e.lowering.fuse_mode_source is not None)


def fuse_mode_follows_access_modes(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    engine = engine_of(entry.obj)
    if engine is None or engine.lowering.fuse_mode_source is None or not fuse_spec(entry.obj).get("args"):
        return
    dataset = index.bound_dataset(entry)
    if dataset is None:
        return
    ro = next((i for i, o in fuse_options(entry.obj) if o == "ro"), None)
    name, cite = dataset.name, engine.lowering.fuse_mode_source.cite()
    read_only = _read_only(dataset)
    if read_only and ro is None:
        yield Finding(("spec", "fuse", "args"),
                      f"Dataset {name} is read-only, and Fluid's own FUSE args for it would mount ro ({cite}), "
                      "but fuse.args replace them and have no ro, so the FUSE mount is writable; add ro")
    elif not read_only and ro is not None:
        yield Finding(("spec", "fuse", "args", ro),
                      f"Dataset {name} is writable (no ReadOnlyMany among its access modes), but these fuse.args "
                      f"mount it ro, so every write fails (Fluid's own args would not: {cite}); drop ro")


def _read_only(dataset: Entry) -> bool:
    """Whether Fluid's own FUSE args would mount the Dataset ro, by its access modes (strings only)."""
    modes = dataset.spec.get("accessModes")
    return read_only_dataset([m for m in modes if isinstance(m, str)] if isinstance(modes, list) else [])


RULES = (
    Rule("FG131", "warning", "FUSE ro/rw follows the Dataset's access modes, as in Fluid's own FUSE args",
         fuse_mode_follows_access_modes,
         description="Fluid mounts the FUSE of Alluxio, GooseFS and JindoCache ro when the Dataset names "
                     "ReadOnlyMany (or no access mode), with any other mode beside it, and rw otherwise "
                     "(ReadWriteMany or ReadWriteOnce alone), but only in the default args that a runtime's "
                     "fuse.args replace. Args without ro make a read-only Dataset writable through FUSE; args "
                     "with ro make every write to a writable Dataset fail.",
         sources=(source("pkg/utils/dataset.go", "GetAccessModesOfDataset"),
                  source("pkg/ddc/alluxio/transform_optimization.go", "optimizeDefaultFuse"),
                  source("pkg/ddc/jindocache/transform.go", "transformFuseArg")),
         example=Example(manifest=(
             "apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {name: d}\n"
             "spec: {mounts: [{mountPoint: 'oss://b/p', name: d}]}\n---\n"
             f"apiVersion: data.fluid.io/v1alpha1\nkind: {INDEX['alluxio'].kind}\nmetadata: {{name: d}}\n"
             "spec: {fuse: {args: [fuse, '--fuse-opts=kernel_cache,attr_timeout=7200']}}\n"),
             why="the Dataset is read-only (no accessModes), but the args leave out ro"),
         kinds=FUSE_MODE_KINDS),
)
