"""A content-addressed cache for `fluidgen build`, checked before anything heavy is imported.

Argo CD re-renders the same application on every refresh; with deterministic output the
second build of the same inputs can be read back instead of recompiled.

- Key: the tool's own files (the package and its bundled profiles, each by size, inode and
  modification and change times: _fingerprint), the command line and every setting that reaches
  the build (FLUIDGEN_*, ARGOCD_ENV_FLUIDGEN_*, PARAM_*); never the working directory, so
  a fresh copy of the same content hits (Argo CD's cmp-server unpacks every request into a
  new /tmp/_cmp_server/<uuid>/).
- Never stale: an entry lists everything the build read (buildinputs.py): files by digest,
  directory listings, env-file key sets. It is served only if all of them are unchanged.
  Inputs inside the build root (the working directory, where the spec arguments are
  resolved) are recorded relative to it and checked in the current one, and must still
  resolve inside it (a directory since replaced by a link that leads out is a miss);
  inputs outside it keep their absolute paths, and an entry holding one serves only the root
  that wrote it (from elsewhere the same relative references lead to other files). Secret
  value sources likewise.
- No secret material on disk: the stored output is cut around each Secret value. On a hit
  the values are read again from their environment variables and files; if a value is now
  missing or empty, or two sources of one Secret key now disagree, it is a miss and the
  build runs (and reports the problem). Nothing a spec says can be taken for a slot: the
  cut points are found with a random marker when the entry is written.
- Private: the directory must belong to the user and be writable by nobody else, and so
  must each entry; otherwise the cache is bypassed. Entries are written with `marshal`
  (built into the interpreter: reading one imports nothing) behind a header with the
  payload's digest, so a damaged entry is never unmarshalled (a list header claiming 2**31
  items would allocate for seconds); the entry is checked for shape before use, and any
  exception while serving is a miss.
- Inputs are checked without trusting them: each recorded file is lstat'ed first, read only
  when it is a regular file, at most the input limit (buildinputs.read_regular): an input
  now replaced by a FIFO, a link to /dev/zero or a huge file is a miss, never a hang.
- Entries are written atomically (temp file + rename).
- Start-up: this module and what it imports stay off `typing`, `json`, `hashlib` and
  `contextlib`, which would cost more than the rest of a hit together.
- Only plain `build` runs that write YAML to stdout from regular files and directories
  are cached; stdin, FIFOs, -o and --format json are always compiled.

Off with FLUIDGEN_NO_CACHE=1; location FLUIDGEN_CACHE_DIR (default: $XDG_CACHE_HOME/fluidgen).
"""

from __future__ import annotations

import marshal
import os
import stat
import sys

from . import buildinputs

TYPE_CHECKING = False  # typing itself costs milliseconds at start-up; mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

SETTINGS_PREFIXES = ("FLUIDGEN_", "ARGOCD_ENV_FLUIDGEN_", "PARAM_")
NOT_SETTINGS = {"FLUIDGEN_NO_CACHE", "FLUIDGEN_CACHE_DIR", "FLUIDGEN_TRACEBACK"}
MAX_ENTRIES = 2000
MAX_CANDIDATES = 256  # entries of one command line tried on a lookup (one per application content)
MAX_ENTRY_BYTES = 64 * 1024 * 1024
FORMAT = 6  # bump when the entry layout changes
FINGERPRINTED = (".py", ".yaml", ".typed", ".json", ".lua")  # the files of the package a build can read
_FLAGS = {"-q", "--quiet", "--strict", "--confine-from-env"}
_VALUED = {"-n", "--namespace", "--fluid-version", "--format", "--target", "-f", "--file", "--ignore",
           "--allow-read", "--gitops", "--operation-names", "--env", "--from-env-allow"}


def enabled() -> bool:
    return not os.environ.get("FLUIDGEN_NO_CACHE")


def directory() -> str:
    configured = os.environ.get("FLUIDGEN_CACHE_DIR")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fluidgen")


def cacheable_argv(argv: list[str]) -> bool:
    """Only plain `build` invocations writing YAML to stdout from regular files and directories."""
    if not argv or argv[0] != "build":
        return False
    paths: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if arg in _FLAGS:
            i += 1
        elif name in _VALUED and name.startswith("--") and eq:
            if name == "--format" and value != "yaml":
                return False
            paths += [value] if name == "--file" else []
            i += 1
        elif arg in _VALUED:
            if i + 1 >= len(argv) or (arg == "--format" and argv[i + 1] != "yaml"):
                return False
            paths += [argv[i + 1]] if arg in ("-f", "--file") else []
            i += 2
        elif arg.startswith("-"):  # -o, --help, -, unknown options: not cached
            return False
        else:
            paths.append(arg)
            i += 1
    return all(_plain_path(p) for p in paths)


def _plain_path(path: str) -> bool:
    """A regular file or a directory: something a later run can read again and compare."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True  # a missing file: the build reports it, and a miss costs nothing
    return stat.S_ISREG(mode) or stat.S_ISDIR(mode)


def _private(path: str, directory: bool) -> bool:
    """Owned by this user and writable by nobody else (and a directory or a regular file)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    kind_ok = stat.S_ISDIR(st.st_mode) if directory else stat.S_ISREG(st.st_mode)
    owner_ok = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return kind_ok and owner_ok and not st.st_mode & 0o022


def _fingerprint() -> list[Any]:
    """The tool itself: every file of the installed package (and of the bundled profiles,
    which a checkout keeps beside it) by name, size, inode, and
    modification and change times. Any write to a file moves its change time (ctime), which
    no user call can set back (os.utime sets only the access and modification times), so an
    edit of the same size with the old mtime restored still changes the fingerprint; a stat
    per file instead of reading and hashing the whole package on every hit."""
    files: list[list[Any]] = []
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # fluidgen/, above io/
    _stat_tree(package, "", files)
    profiles = buildinputs.profiles_folder()
    if os.path.dirname(profiles) != package:  # a checkout: the bundled profiles beside the package
        _stat_tree(profiles, "../profiles/", files)
    return [sys.version_info[:2], files]


def _stat_tree(folder: str, prefix: str, files: list[list[Any]]) -> None:
    """[relative path, size, inode, mtime, ctime] of the package's files below `folder`, each
    folder's files (by name) before its subfolders (by name), as os.walk lists them; paths are
    joined as strings, a scandir entry per file (os.walk with os.path.join and relpath took
    two thirds of a cache hit's own time)."""
    entries = sorted(os.scandir(folder), key=lambda e: e.name)
    for entry in entries:
        if entry.name.endswith(FINGERPRINTED) and not entry.is_dir():
            st = entry.stat()
            files.append([prefix + entry.name, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns])
    for entry in entries:
        if entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
            _stat_tree(entry.path, f"{prefix}{entry.name}/", files)


def _key(argv: list[str]) -> str:
    settings = sorted((k, v) for k, v in os.environ.items()
                      if k.startswith(SETTINGS_PREFIXES) and k not in NOT_SETTINGS)
    # repr of lists, tuples, strings and ints is stable across runs and hash seeds.
    material = repr([FORMAT, _fingerprint(), argv, settings])
    return buildinputs.digest(material.encode("utf-8", "surrogateescape"))


def serve(argv: list[str], write: Callable[[str], Any], write_err: Callable[[str], Any]) -> bool:
    """Write a cached build's output if every recorded input is unchanged; False on a miss.
    Anything unexpected while serving (a damaged entry, an input that is now a FIFO, a
    device or too large, an error of any kind) is a miss: the build then runs and reports."""
    if not enabled() or not cacheable_argv(argv):
        return False
    try:
        found = _lookup(argv)
    except Exception:  # the hit path never fails a build; the compile that follows reports
        return False
    if found is None:
        return False
    stderr, text = found
    write_err(stderr)
    write(text)
    return True


def _lookup(argv: list[str]) -> tuple[str, str] | None:
    """(stderr, stdout) of the first entry for this command line and settings whose inputs
    all match the current ones. Entries of one key differ by content (one per application
    directory that shares a command line); each input is digested once per lookup."""
    folder = directory()
    if not _private(folder, directory=True):
        return None
    prefix = f"{_key(argv)}-"
    names = sorted(n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".entry"))
    digests: dict[str, str] = {}
    for name in names[:MAX_CANDIDATES]:
        entry = _load_entry(os.path.join(folder, name))
        text = _fresh_output(entry, digests) if entry is not None else None
        if entry is not None and text is not None:
            return entry["stderr"], text
    return None


def _load_entry(path: str) -> Any:
    """The entry at `path` when it is private, intact (its digest matches, so a damaged file
    is never unmarshalled) and well formed; else None."""
    if not _private(path, directory=False):
        return None
    raw = buildinputs.read_regular(path, MAX_ENTRY_BYTES)
    if raw is None or not raw.startswith(_MAGIC):
        return None
    want, _, payload = raw[len(_MAGIC):].partition(b"\n")
    if want.decode("ascii", "replace") != buildinputs.digest(payload):
        return None
    entry: Any = marshal.loads(payload)
    return entry if _well_formed(entry) else None


_MAGIC = f"fluidgen-cache {FORMAT}\n".encode()
_RECIPE_LENGTHS = {"env": 2, "file": 2, "envfile": 3}


def _well_formed(entry: Any) -> bool:
    """The shape store() writes: a damaged or foreign entry is a miss, never a crash."""
    return (isinstance(entry, dict) and entry.get("format") == FORMAT and isinstance(entry.get("root"), str)
            and all(_string_map(entry.get(k)) for k in ("files", "dirs", "envfiles")) and _output_well_formed(entry))


def _output_well_formed(entry: dict[str, Any]) -> bool:
    """The output cut around its Secret values: one more part than slots, each slot's recipes."""
    parts, slots = entry.get("parts"), entry.get("slots")
    if not (isinstance(parts, list) and isinstance(slots, list) and len(parts) == len(slots) + 1):
        return False
    return (all(isinstance(p, str) for p in parts) and isinstance(entry.get("stderr"), str)
            and all(isinstance(s, list) and s and all(_recipe(r) for r in s) for s in slots))


def _string_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _recipe(recipe: Any) -> bool:
    return (isinstance(recipe, list) and bool(recipe) and all(isinstance(x, str) for x in recipe)
            and _RECIPE_LENGTHS.get(recipe[0]) == len(recipe))


def _fresh_output(entry: dict[str, Any], digests: dict[str, str]) -> str | None:
    """The entry's output with today's Secret values, if everything it read is unchanged here."""
    root = _Root.here()
    if entry["root"] and entry["root"] != root.real:
        return None  # it read inputs outside its root: only that root may use it (see store)
    if not (_files_unchanged(entry["files"], root, digests) and _dirs_unchanged(entry["dirs"], root)
            and _env_keys_unchanged(entry["envfiles"], root)):
        return None
    slots: list[list[list[str]]] = []
    for recipes in entry["slots"]:
        local = [root.local_recipe(r) for r in recipes]
        if any(r is None for r in local):
            return None
        slots.append([r for r in local if r is not None])
    return _fill(entry["parts"], slots)


def _files_unchanged(files: dict[str, str], root: _Root, digests: dict[str, str]) -> bool:
    """Each file read has the digest recorded (digests: each file digested once per lookup)."""
    for recorded, want in files.items():
        path = root.local(recorded)
        if path is None:
            return False
        if path not in digests:
            digests[path] = _file_digest(path)
        if digests[path] != want:
            return False
    return True


def _dirs_unchanged(dirs: dict[str, str], root: _Root) -> bool:
    """Each directory walked lists what it listed."""
    for recorded, want in dirs.items():
        path = root.local(recorded)
        if path is None or buildinputs.listing_digest(buildinputs.folder_listing(path)) != want:
            return False
    return True


def _env_keys_unchanged(envfiles: dict[str, str], root: _Root) -> bool:
    """Each env file holds the same keys (its values are secrets: read again on every hit)."""
    from .secretsource import parse_env_file, read_value_file

    for recorded, want in envfiles.items():
        path = root.local(recorded)
        if path is None:
            return False
        keys = sorted(parse_env_file(read_value_file(path))[0])
        if buildinputs.digest("\n".join(keys).encode()) != want:
            return False
    return True


class _Root:
    """The build root (the working directory): recorded inputs inside it are kept relative to
    it, so an entry written in one directory serves a copy of the same content elsewhere."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.real = os.path.realpath(path)

    @classmethod
    def here(cls) -> _Root:
        return cls(os.getcwd())

    def _inside(self, real: str) -> bool:
        return real == self.real or real.startswith(self.real.rstrip(os.sep) + os.sep)

    def portable(self, path: str) -> str:
        """How an entry records an input read at `path` (absolute)."""
        if not self._inside(os.path.realpath(path)):
            return path
        rel = os.path.relpath(path, self.path)
        return path if rel.split(os.sep)[0] == ".." else rel

    def local(self, recorded: str) -> str | None:
        """Where a recorded input is now; None when a relative one no longer resolves inside."""
        if os.path.isabs(recorded):
            return recorded
        path = os.path.join(self.path, recorded)
        return path if self._inside(os.path.realpath(path)) else None

    def portable_recipe(self, recipe: tuple[str, ...]) -> list[str]:
        return [recipe[0], self.portable(recipe[1]), *recipe[2:]] if recipe[0] in ("file", "envfile") \
            else list(recipe)

    def local_recipe(self, recipe: list[str]) -> list[str] | None:
        if recipe[0] not in ("file", "envfile"):
            return recipe
        path = self.local(recipe[1])
        return None if path is None else [recipe[0], path, *recipe[2:]]


def _file_digest(path: str) -> str:
    """The digest of a recorded input now: "" when it is missing, "!" (never a digest) when
    it is no longer a regular file within the input limit (a FIFO, /dev/zero, a huge file)."""
    try:
        data = buildinputs.read_regular(path)
    except FileNotFoundError:
        return ""
    return "!" if data is None else buildinputs.digest(data)


def _fill(parts: list[str], slots: list[list[list[str]]]) -> str | None:
    """The output with each Secret value read again; None when any would now be refused."""
    import binascii

    from .secretsource import resolve

    out = [parts[0]]
    for recipes, after in zip(slots, parts[1:], strict=True):
        values = {resolve(tuple(r)) for r in recipes}
        if len(values) != 1:
            return None  # now two sources disagree: a fresh build reports it
        value = values.pop()
        if not value:
            return None  # unset or empty now: a fresh build reports it
        out.append(b64_scalar(binascii.b2a_base64(value.encode("utf-8"), newline=False).decode()))
        out.append(after)
    return "".join(out)


_YAML_WORDS = frozenset({
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL"})


def b64_scalar(text: str) -> str:
    """How the emitter writes a base64 string, without importing it in the common case.

    Base64 has no '.', ':', '-' or spaces, so a value starting with a letter or '/' can only
    be re-typed by YAML if it is one of the bool/null words. Anything else goes to emit.scalar.
    """
    if (text[:1].isalpha() or text[:1] == "/") and text not in _YAML_WORDS:
        return text
    from ..base.emit import scalar

    return scalar(text)


def store(argv: list[str], objects: list[dict[str, Any]], stderr: str, inputs: buildinputs.BuildInputs) -> None:
    """Remember a successful build. Best effort: a cache that cannot be written is skipped."""
    if not enabled() or not cacheable_argv(argv) or not inputs.cacheable:
        return
    cut = _cut(objects, inputs)
    if cut is None:
        return
    parts, slots = cut
    root = _Root.here()

    def portable(found: dict[str, str]) -> dict[str, str]:
        return {root.portable(path): value for path, value in found.items()}

    entry: dict[str, Any] = {
        "format": FORMAT, "files": portable(inputs.files), "dirs": portable(inputs.dirs),
        "envfiles": portable(inputs.envfiles), "parts": parts, "stderr": stderr,
        "slots": [[root.portable_recipe(tuple(r)) for r in recipes] for recipes in slots]}
    # An input outside the root was reached from this root (`build ../specs`, an envFile under
    # `--allow-read ..`, `../shared/creds.env` under an absolute allow list): the same command
    # line and content in another directory reaches that directory's own files there, so the
    # entry is bound to this root. Otherwise another checkout would be served this one's build
    # and this one's Secret values. Entries that read only inside the root stay portable.
    recorded = [*entry["files"], *entry["dirs"], *entry["envfiles"],
                *(r[1] for recipes in entry["slots"] for r in recipes if r[0] in ("file", "envfile"))]
    entry["root"] = root.real if any(os.path.isabs(p) for p in recorded) else ""
    try:
        payload = marshal.dumps(entry)
        # One entry per content: the digest of what the build read, where (relative to the root)
        content = buildinputs.digest(repr([entry["files"], entry["dirs"], entry["envfiles"], entry["root"]]).encode(
            "utf-8", "surrogateescape"))
        _write(directory(), f"{_key(argv)}-{content[:32]}.entry",
               _MAGIC + buildinputs.digest(payload).encode() + b"\n" + payload)
    except OSError:  # a cache that cannot be written is no cache (contextlib costs start-up time)
        return


def _cut(objects: list[dict[str, Any]], inputs: buildinputs.BuildInputs) -> tuple[list[str], list[Any]] | None:
    """The output split around every generated Secret value, and where each value comes from."""
    import secrets as random

    from ..base.emit import dump_all

    marker = f"fluidgen-slot-{random.token_hex(16)}"
    slots: list[Any] = []
    marked = []
    for obj in objects:
        if obj.get("kind") == "Secret" and obj.get("apiVersion") == "v1" and obj.get("data") and \
                not obj.get("stringData"):
            found = _slotted(obj, inputs, marker)
            if found is None:
                return None
            obj, recipes = found
            slots += recipes
        elif _holds_secret(obj):
            return None  # a plain manifest's Secret (passed through, maybe inside a List): values with no source
        marked.append(obj)
    parts = dump_all(marked).split(marker)
    if len(parts) != len(slots) + 1:
        return None
    return parts, slots


def _slotted(obj: dict[str, Any], inputs: buildinputs.BuildInputs, marker: str
             ) -> tuple[dict[str, Any], list[list[list[str]]]] | None:
    """A generated Secret with each value replaced by `marker`, and the sources of the values;
    None when any value has no source the cache could read again (or the Secret is not of the
    shape fluidgen writes: a plain manifest's)."""
    meta, values = obj.get("metadata"), obj["data"]
    if not (isinstance(meta, dict) and isinstance(values, dict) and isinstance(meta.get("name"), str)
            and isinstance(meta.get("namespace", ""), str) and all(isinstance(k, str) for k in values)):
        return None
    slots = []
    for key in sorted(values):
        recipes = inputs.secrets.get((meta.get("namespace", ""), meta["name"], key))
        if not recipes or any(r[0] == "inline" for r in recipes):
            return None  # a value the cache could not read back: do not cache
        slots.append([list(r) for r in recipes])
    return {**obj, "data": dict.fromkeys(values, marker)}, slots


def _holds_secret(node: Any) -> bool:
    """A Secret anywhere in an object (a kubectl List's items, or the object itself)."""
    if isinstance(node, dict):
        return node.get("kind") == "Secret" or any(_holds_secret(v) for v in node.values())
    return isinstance(node, list) and any(_holds_secret(v) for v in node)


def _write(folder: str, name: str, data: bytes) -> None:
    import tempfile

    os.makedirs(folder, mode=0o700, exist_ok=True)
    if not _private(folder, directory=True):
        return  # someone else can write here: never trust, never feed it
    fd, tmp = tempfile.mkstemp(prefix=".entry-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, os.path.join(folder, name))
    except BaseException:
        import contextlib

        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _prune(folder)


def _prune(folder: str) -> None:
    import contextlib
    from pathlib import Path

    for stale in Path(folder).glob("*.json"):  # entries of an older format
        with contextlib.suppress(OSError):
            stale.unlink()
    entries = list(Path(folder).glob("*.entry"))
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) - MAX_ENTRIES * 9 // 10]:
        with contextlib.suppress(OSError):
            old.unlink()
