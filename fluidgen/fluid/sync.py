"""What Fluid does with an edit of a running runtime or of its bound Dataset: the words
`fluidgen plan` uses, and the records an engine module states its sync facts in.

A runtime's controller calls SyncReplicas, SyncRuntime and (for the Dataset's mounts)
ShouldUpdateUFS/UpdateOnUFSChange on every reconcile (pkg/ddc/base/syncs.go Sync). Most
engines' SyncRuntime is empty; those that sync copy a few fields into the workloads Fluid
created, whose update strategy decides when pods take them up. Each engine lists what its
sync carries out as EditFacts (a spec path prefix, the effect, the Fluid source and the
versions it holds for) and how it takes up Dataset mount edits as a MountSync.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from ..base.fluidsource import FluidSource, source

# The effect of an edit.
APPLIED = "applied"  # carried out in place (the controller scales or remounts)
ROLLING = "rolling"  # written to a workload whose pods restart with it (RollingUpdate)
ON_RESTART = "on-restart"  # written to an OnDelete workload: taken up as its pods are recreated
FUSE_CONFIG = "fuse-config"  # written to the FUSE program's config file in the running FUSE pods
RECREATE = "recreate"  # ignored until the runtime is deleted and created again
SAME_PATH = "same-path"  # a mount edit at an unchanged namespace path: never remounted
# a Dataset edit the FUSE mount command follows as the FUSE pods are recreated, while the
# PersistentVolume and claim Fluid created keep what they were made with (access modes)
FUSE_ONLY = "fuse-only"
# a Dataset edit written to the FUSE config file in the running FUSE pods, while the FUSE options
# Fluid hands the program (an environment variable of the FUSE DaemonSet, rendered once) and the
# PersistentVolume and claim keep what they were made with (Thin's access modes)
CONFIG_ONLY = "config-only"

EFFECTS = (APPLIED, ROLLING, ON_RESTART, FUSE_CONFIG, RECREATE, SAME_PATH, FUSE_ONLY, CONFIG_ONLY)

SYNC_SOURCE = source("pkg/ddc/base/syncs.go", "Sync")

Workload = Literal["master", "worker", "fuse", ""]


def _one_of(what: str, value: object, allowed: tuple[object, ...]) -> None:
    """A record's word is checked when the record is made: the readers compare with one word each,
    so a misspelt one would read as none of them, silently."""
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


@dataclass(frozen=True)
class EditFact:
    """An edit of the runtime spec at `prefix` (or below it) has `effect`, per `source`'s versions."""

    prefix: str
    effect: str
    source: FluidSource
    workload: Workload = ""  # the workload it is written to (ROLLING, ON_RESTART)

    def __post_init__(self) -> None:
        _one_of("an edit's effect", self.effect, EFFECTS)
        _one_of("an edit's workload", self.workload, get_args(Workload))

    def holds_for(self, version: str) -> bool:
        return self.source.holds_for(version)


def edits(prefixes: tuple[str, ...], effect: str, src: FluidSource, workload: Workload = "") -> tuple[EditFact, ...]:
    return tuple(EditFact(p, effect, src, workload) for p in prefixes)


def scales(engine_dir: str, versions: tuple[str, ...] | None = None) -> tuple[EditFact, ...]:
    """Workers follow spec.replicas (pkg/ddc/<engine>/replicas.go SyncReplicas)."""
    src = source(f"pkg/ddc/{engine_dir}/replicas.go", "SyncReplicas", *(() if versions is None else (versions,)))
    return (EditFact("replicas", APPLIED, src, "worker"),)


MountMode = Literal["paths", "command", "config", "none"]


@dataclass(frozen=True)
class MountSync:
    """How a running runtime takes up edits of its Dataset's spec.mounts (and sharedOptions,
    sharedEncryptOptions).

    paths: remounts the mounts whose namespace path appears or disappears (fluidbase.mount_delta);
      other edits of a mount at the same path, and pvc:// or local:// mounts, wait for a
      re-created runtime.
    command: re-renders the FUSE mount command from the first mount: `fields` says what each
      mount field does; option names in `unsynced_options` feed commands Fluid runs once.
    config: rewrites the FUSE config file in the running FUSE pods (`default` for every field;
      an encryptOption naming a Secret the FUSE pods do not mount yet waits for new pods).
    none: nothing reaches running pods.
    """

    mode: MountMode
    source: FluidSource | None = None
    default: str = RECREATE  # modes command, config: the effect of a mount field `fields` does not name
    fields: Mapping[str, str] = field(default_factory=dict)  # modes command, config: mount field -> effect
    unsynced_options: frozenset[str] = frozenset()  # mode "command": options that stay as created
    workload: Workload = ""  # where mode "command" writes
    remount_also: str = ""  # what else makes the runtime remount (a master restart)
    remount_sources: tuple[FluidSource, ...] = ()  # the Fluid code remount_also rests on (a test: both or neither)
    needs_class_mount: bool = False  # only with a runtime class that has topology.master and a mountUFS entry

    def __post_init__(self) -> None:
        _one_of("a mount sync's mode", self.mode, get_args(MountMode))
        _one_of("a mount sync's workload", self.workload, get_args(Workload))
        for effect in (self.default, *self.fields.values()):
            _one_of("a mount edit's effect", effect, EFFECTS)


NO_MOUNT_SYNC = MountSync("none")
