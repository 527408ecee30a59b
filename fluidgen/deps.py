"""What a build read: files, directory listings, environment variables, and where each
generated Secret value came from. The build cache (cache.py) checks these before reuse.

Only hashes of non-secret inputs are kept. Credential sources are recorded by presence
and recipe (which variable, which file, which key), never by value.
"""

from __future__ import annotations

import hashlib
import os

Recipe = tuple[str, ...]  # ("env", NAME) | ("file", PATH) | ("envfile", PATH, KEY) | ("inline",)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Recorder:
    # A plain class, not a dataclass: this module is on the cache-hit path, where every
    # millisecond of import time counts (dataclasses pulls in inspect and re).
    def __init__(self) -> None:
        self.files: dict[str, str] = {}  # absolute path -> sha256, or "" when missing
        self.dirs: dict[str, str] = {}  # absolute path -> sha256 of the sorted listing
        self.envfiles: dict[str, str] = {}  # absolute path -> sha256 of its sorted keys
        self.secrets: dict[tuple[str, str, str], Recipe] = {}  # (namespace, Secret, key) -> recipe

    def file(self, path: str, data: bytes | None) -> None:
        self.files[os.path.abspath(path)] = "" if data is None else digest(data)

    def listing(self, path: str, names: list[str]) -> None:
        self.dirs[os.path.abspath(path)] = digest("\n".join(sorted(names)).encode())

    def envfile(self, path: str, keys: list[str]) -> None:
        """An env file's key set (its values are secrets and are not recorded)."""
        self.envfiles[os.path.abspath(path)] = digest("\n".join(keys).encode())

    def secret(self, namespace: str, name: str, key: str, recipe: Recipe) -> None:
        self.secrets[(namespace, name, key)] = recipe


RECORDER = Recorder()


def yaml_files(directory: str) -> list[str]:
    """The YAML files a directory argument stands for: sorted, hidden paths skipped."""
    from pathlib import Path

    root = Path(directory)
    return [str(f) for f in sorted(root.rglob("*")) if f.suffix in (".yaml", ".yml") and f.is_file()
            and not any(part.startswith(".") for part in f.relative_to(root).parts)]


def reset() -> Recorder:
    global RECORDER
    RECORDER = Recorder()
    return RECORDER
