"""What a build read: files, directory listings, env-file key sets, and where each
generated Secret value came from. The build cache (cache.py) re-checks all of it before
reusing an output. It travels through a compile as an explicit object.

Only digests of non-secret inputs are kept. Credential sources are recorded by recipe
(which variable, which file, which key) and env files by their key set, never by value or
by a digest of their content (a short password would fall to a dictionary).
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # typing costs milliseconds at start-up; mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

Recipe = tuple[str, ...]  # ("env", NAME) | ("file", PATH) | ("envfile", PATH, KEY) | ("inline",)


def digest(data: bytes) -> str:
    text: str = _sha256(data).hexdigest()
    return text


def _hasher() -> Any:
    """SHA-256 from the interpreter's own module (_sha2 from CPython 3.12, _sha256 before):
    hashlib would load OpenSSL at start-up."""
    for name in ("_sha2", "_sha256"):
        try:
            return __import__(name).sha256
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256

    return sha256


_sha256 = _hasher()


class BuildInputs:
    # A plain class, not a dataclass: this module is on the cache-hit path, where every
    # millisecond of import time counts (dataclasses pulls in inspect).
    def __init__(self) -> None:
        self.files: dict[str, str] = {}  # absolute path -> sha256, or "" when missing
        self.dirs: dict[str, str] = {}  # absolute path -> sha256 of the sorted listing
        self.envfiles: dict[str, str] = {}  # absolute path -> sha256 of its sorted keys
        self.secrets: dict[tuple[str, str, str], list[Recipe]] = {}  # (namespace, Secret, key) -> sources
        self.cacheable = True  # False once the build read something that cannot be re-checked

    def file(self, path: str, data: bytes | None) -> None:
        self.files[os.path.abspath(path)] = "" if data is None else digest(data)

    def listing(self, path: str) -> None:
        """A directory the build walked, by what it lists (see folder_listing)."""
        self.dirs[os.path.abspath(path)] = listing_digest(folder_listing(path))

    def envfile(self, path: str, keys: list[str]) -> None:
        """An env file's key set (its values are secrets and are not recorded)."""
        self.envfiles[os.path.abspath(path)] = digest("\n".join(sorted(keys)).encode())

    def secret(self, namespace: str, name: str, key: str, recipe: Recipe) -> None:
        sources = self.secrets.setdefault((namespace, name, key), [])
        if recipe not in sources:
            sources.append(recipe)

    def uncacheable(self) -> None:
        self.cacheable = False


def listing_digest(names: list[str]) -> str:
    return digest("\n".join(sorted(names)).encode("utf-8", "surrogateescape"))


YAML_SUFFIXES = (".yaml", ".yml")
WHEEL_PROFILES = "bundled_profiles"  # pyproject.toml: the wheel carries profiles/ here, inside the package
WHEEL_SCHEMAS = "bundled_schemas"  # and schemas/ (the spec's JSON Schema) here


def _bundled(wheel: str, checkout: str) -> str:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # fluidgen/, above io/
    inside = os.path.join(here, wheel)
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(here), checkout)


def profiles_folder() -> str:
    """Where the bundled profiles are when the package is a directory: inside an installed
    wheel, else the checkout's profiles/ beside the package. They are part of the tool: the
    build cache fingerprints them with the package (cache.py), and a build never records them
    as its inputs."""
    return _bundled(WHEEL_PROFILES, "profiles")


def schemas_folder() -> str:
    """Where the spec's JSON Schema (schemas/, generated from the spec model and held to it by
    tests/spec/test_specschema.py) is: inside an installed wheel, else the checkout's schemas/."""
    return _bundled(WHEEL_SCHEMAS, "schemas")
MAX_INPUT_BYTES = 4 * 1024 * 1024  # no input file larger than this is ever read (source.MAX_BYTES)


def read_regular(path: str, limit: int = MAX_INPUT_BYTES) -> bytes | None:
    """A regular file's bytes; None when it is not one (FIFO, device, directory) or is over
    `limit`. Never blocks on a FIFO, never reads more than `limit` + 1 bytes; raises
    FileNotFoundError for a missing file and OSError when it cannot be read."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        st = os.stat(path)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        return None
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                 | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the lstat
            return None
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    return None if size > limit else b"".join(chunks)


def folder_listing(path: str) -> list[str]:
    """What a directory argument depends on in one folder: its YAML files and its
    subdirectories (a trailing "/"), hidden ones left out. A new spec or folder changes it."""
    try:
        entries = os.listdir(path)
    except OSError:
        return []
    out = []
    for name in entries:
        if name.startswith("."):
            continue
        if name.endswith(YAML_SUFFIXES):
            out.append(name)
        elif os.path.isdir(os.path.join(path, name)):
            out.append(name + "/")
    return sorted(out)
