"""Write build output: to stdout, or atomically as a kustomize base in a directory."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from . import emit


def file_names(objects: list[dict[str, Any]]) -> list[str]:
    names: list[str] = []
    for o in objects:
        meta = o["metadata"]
        base = f"{o['kind'].lower()}-{meta['name']}"
        if base + ".yaml" in names:
            base = f"{o['kind'].lower()}-{meta.get('namespace', 'cluster')}-{meta['name']}"
        names.append(base + ".yaml")
    return names


def kustomization(resources: list[str]) -> dict[str, Any]:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": resources}


def write_dir(directory: str, objects: list[dict[str, Any]]) -> None:
    """Replace `directory` with one file per object plus kustomization.yaml, all or nothing."""
    target = Path(directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        names = file_names(objects)
        for name, obj in zip(names, objects, strict=True):
            (staging / name).write_text(emit.dump(obj), "utf-8")
        (staging / "kustomization.yaml").write_text(emit.dump(kustomization(names)), "utf-8")
        os.chmod(staging, 0o755)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            old.rmdir()
            target.rename(old)
            staging.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
