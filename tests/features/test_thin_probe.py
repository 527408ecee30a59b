"""The thin-default liveness probe is a shell program: run it against mount tables."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from fluidgen.spec import profiles

SHELLS = [s for s in ("sh", "dash", "bash", "busybox") if shutil.which(s)]
TARGET = "/runtime-mnt/thin/default/minio-data/thin-fuse"


def probe_script() -> str:
    chain = profiles.chain("thin-default", "thin")
    tree, diags = profiles.apply(chain, "v1.0.8", "ThinRuntime", {})
    assert diags == []
    probe = tree["fuse"]["livenessProbe"]
    command = probe["exec"]["command"]
    assert command[:2] == ["sh", "-c"] and len(command) == 3
    assert "/proc/mounts" in command[2]
    return str(command[2])


def run(shell: str, tmp_path: Path, mounts: list[str], existing: list[str],
        mount_point: str | None = TARGET) -> int:
    """Exit code of the probe: `mounts` are /proc/mounts targets, `existing` the ones stat finds."""
    root = tmp_path / "root"
    table = tmp_path / "mounts"
    lines = []
    for target in mounts:
        lines.append(f"fuse {root}{target} fuse rw,nosuid,nodev 0 0")
    table.write_text("\n".join(lines) + "\n")
    for target in existing:
        (Path(f"{root}{target}")).mkdir(parents=True, exist_ok=True)
    script = probe_script().replace("/proc/mounts", str(table))
    env = {"PATH": "/usr/bin:/bin"}
    if mount_point is not None:
        env["MOUNT_POINT"] = f"{root}{mount_point}"
    argv = [shell, "sh", "-c", script] if shell == "busybox" else [shell, "-c", script]
    return subprocess.run(argv, env=env, check=False, timeout=30).returncode


@pytest.mark.parametrize("shell", SHELLS)
def test_probe_passes_before_anything_is_mounted(shell: str, tmp_path: Path) -> None:
    assert run(shell, tmp_path, ["/runtime-mnt/thin/default/minio-data"], []) == 0


@pytest.mark.parametrize("shell", SHELLS)
def test_probe_passes_on_a_live_mount(shell: str, tmp_path: Path) -> None:
    assert run(shell, tmp_path, [TARGET], [TARGET]) == 0


@pytest.mark.parametrize("shell", SHELLS)
def test_probe_fails_on_a_stale_mount(shell: str, tmp_path: Path) -> None:
    # A stale FUSE mount fails stat ("Transport endpoint is not connected"); a missing path
    # fails it the same way.
    assert run(shell, tmp_path, [TARGET], []) == 1


@pytest.mark.parametrize("shell", SHELLS)
def test_probe_checks_mounts_below_the_target(shell: str, tmp_path: Path) -> None:
    # Programs that mount one directory per dataset mount (Fluid's JuiceFS and dynamic-mount
    # addons) put them under MOUNT_POINT.
    sub = f"{TARGET}/bucket-a"
    assert run(shell, tmp_path, [sub], [sub]) == 0
    assert run(shell, tmp_path, [sub, f"{TARGET}/bucket-b"], [sub]) == 1


@pytest.mark.parametrize("shell", SHELLS)
def test_probe_ignores_other_mounts(shell: str, tmp_path: Path) -> None:
    # A sibling whose name merely starts with the target, and escaped paths (\040 for a space)
    # that stat could not find as written, are not the FUSE program's mounts.
    assert run(shell, tmp_path, [f"{TARGET}-old", f"{TARGET}/a\\040b"], []) == 0


@pytest.mark.parametrize("shell", SHELLS)
def test_probe_without_mount_point_passes(shell: str, tmp_path: Path) -> None:
    assert run(shell, tmp_path, ["/anything"], [], mount_point=None) == 0
