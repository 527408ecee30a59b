"""`build -o DIR`: one file per object plus a kustomization, written so that nothing of the
user's is ever lost.

- fluidgen owns only what it wrote. A directory it writes holds a marker (.fluidgen-output)
  listing its files; an existing directory without that marker must be empty, or it is
  refused. Symbolic links are never followed or replaced: a DIR that is one is refused, and
  so is a file fluidgen would write over that it did not write before.
- No window where DIR is missing: each file is replaced atomically (temp file + rename),
  kustomization.yaml last, and files of the previous run that are no longer wanted are
  removed after it. A reader sees the old base or the new one, never a half one.
- File names never collide: kind-name.yaml, with the namespace added where two objects
  share one; a collision left after that is an error.
- Secrets with values (generated from credentials) are written only when asked: encrypted
  with SOPS into secrets.sops.yaml (--sops-age or a .sops.yaml; safe to commit), or in plain
  text (--write-secrets) into secrets.yaml, mode 0600, with a .gitignore beside it. Neither
  file is listed in kustomization.yaml: kustomize cannot decrypt, and a plain one must not
  travel with the base. For Flux (`flux=True`), which decrypts SOPS files itself during its
  build, secrets.sops.yaml is listed in the base.
- For Flux, training jobs go to DIR/workloads/ with a kustomization of their own, so a second
  Flux Kustomization can apply them once the data is ready (fluidgen/commands/flux.py). That one
  sub-directory is fluidgen's like the files: never a link, never a directory it did not make.
- kustomizeconfig.yaml teaches kustomize the references inside the objects it does not know:
  its namespace transformer the namespace fields inside Fluid objects, and its name references
  (nameReference: kustomize api/filters/nameref) every name one object of the build gives another
  (the Dataset of each data operation and of each job's claim, runAfter, Secrets, ExternalSecrets,
  ServiceAccounts, a runtime's profile or class), so a `namespace:`, `namePrefix:` or `nameSuffix:`
  overlay, or a Flux Kustomization's targetNamespace, namePrefix or nameSuffix (written into this
  kustomization.yaml by fluxcd/pkg kustomize Generator.GenerateManifest), moves every reference
  with its object. Flux's DIR/workloads is built on its own, without the Dataset, so its
  kustomizeconfig.yaml gives the jobs' claimName the same prefix and suffix as the objects
  instead (give both Flux Kustomizations the same namePrefix and nameSuffix). A `pvc://NAME` or
  `dataset://` mount point is a string no transformer rewrites (README, "kustomize").
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..base import emit
from ..base.diagnostics import Diagnostic, FluidgenError
from ..base.manifest import Manifest, Tree
from ..catalog.kinds import RANK_WORKLOAD, rank, table
from ..engines import engine_table
from ..fluid.common import GROUP
from ..fluid.dataset import SECRET_REFS
from ..fluid.jobkinds import WORKLOADS as JOB_KINDS
from ..fluid.operations import OPERATIONS, RUN_AFTER_REF

MARKER = ".fluidgen-output"
KUSTOMIZATION = "kustomization.yaml"
KUSTOMIZE_CONFIG = "kustomizeconfig.yaml"
SECRETS = "secrets.yaml"
WORKLOADS = "workloads"  # the sub-directory of the training jobs in Flux's layout
SOPS_FILE = "secrets.sops.yaml"
GITIGNORE = ".gitignore"
PRIVATE, PUBLIC = 0o600, 0o644


def has_values(obj: Tree) -> bool:
    """A Secret carrying credential values (rather than one fluidgen only refers to)."""
    return obj.get("kind") == "Secret" and bool(obj.get("data") or obj.get("stringData"))


def namespace_field_specs() -> list[Tree]:
    """Where Fluid objects name a namespace besides their own metadata (fluid/operations.py)."""
    specs = []
    for op in OPERATIONS.values():
        paths = [f"{RUN_AFTER_REF.value}/namespace"]
        if op.namespaced_dataset:
            paths += [f"{ref}/namespace" for ref in op.dataset_refs]
        specs += [{"group": GROUP, "kind": op.kind, "path": p, "create": False} for p in sorted(paths)]
    return specs


def _field(kind: str, path: str) -> Tree:
    group = table()[kind].api_version.rpartition("/")[0]
    return {"group": group, "kind": kind, "path": path} if group else {"version": "v1", "kind": kind, "path": path}


def _referral(kind: str, fields: list[Tree]) -> Tree:
    return {**{k: v for k, v in _field(kind, "").items() if k != "path"}, "fieldSpecs": fields}


def claim_paths() -> list[Tree]:
    """Each job kind's claimName fields (the claim Fluid creates is named like the Dataset)."""
    return [_field(kind, f"{pod}/volumes/persistentVolumeClaim/claimName")
            for kind, w in JOB_KINDS.items() for pod in w.pod_paths]


def name_reference_specs() -> list[Tree]:
    """kustomize nameReference entries: for each kind of the build another object names, the
    fields that name it (fluid/operations.py, fluid/dataset.py, jobkinds.py, each engine's
    extra kinds). kustomize rewrites such a field only when the build holds an object of that
    kind with that (original) name (api/filters/nameref selectReferral), so a name of an object
    made elsewhere (an existingSecret) is left alone."""
    ops = list(OPERATIONS.values())
    secret_fields = [_field("Dataset", p) for p in SECRET_REFS.value] + \
        [_field(op.kind, p) for op in ops for p in op.secret_refs]
    accounts = [_field(op.kind, p) for op in ops for p in op.account_refs] + \
        [_field(kind, f"{pod}/serviceAccountName") for kind, w in JOB_KINDS.items() for pod in w.pod_paths]
    entries = [
        _referral("Dataset", [*(_field(op.kind, p) for op in ops for p in op.dataset_refs), *claim_paths()]),
        *(_referral(after.kind, [_field(op.kind, RUN_AFTER_REF.value) for op in ops]) for after in ops),
        _referral("Secret", secret_fields),
        # an ExternalSecret makes the Secret named in its target: the two names move together
        _referral("ExternalSecret", [*secret_fields, _field("ExternalSecret", "spec/target/name")]),
        _referral("ServiceAccount", accounts),
    ]
    for engine in engine_table.all_engines().values():
        entries += [_referral(x.kind, [_field(engine.kind, x.named_by)]) for x in engine.extra_kinds if x.named_by]
    return entries


def kustomize_config() -> Tree:
    return {"namespace": namespace_field_specs(), "nameReference": name_reference_specs()}


def workloads_kustomize_config(objects: list[Manifest]) -> Tree:
    """Flux's DIR/workloads is built without the Dataset, so no name reference can find it: the
    jobs' claimName gets the prefix and suffix the objects get (the Flux Kustomizations of the
    data and of the workloads carry the same namePrefix and nameSuffix), and so does the
    serviceAccountName of a job kind whose jobs run as a ServiceAccount of the build. A kind with
    jobs of both sorts cannot be written so (kustomize's fields are per kind): refused."""
    accounts = {str(o["metadata"]["name"]) for o in objects if o.get("kind") == "ServiceAccount"}
    fields = claim_paths()
    for kind, w in JOB_KINDS.items():
        named = {n for o in objects if o.get("kind") == kind and (n := _account(o, w.pod_paths)) is not None}
        ours = named & accounts
        if ours and named - accounts:
            raise FluidgenError([Diagnostic(f"{WORKLOADS}/{KUSTOMIZE_CONFIG}", 0, 0, "error", (
                f"the {kind} jobs run as ServiceAccounts of this build ({', '.join(sorted(ours))}) and of another "
                f"({', '.join(sorted(named - accounts))}); a Flux namePrefix or nameSuffix would "
                "reach one sort only: give them one sort"))])
        if ours:
            fields += [_field(kind, f"{pod}/serviceAccountName") for pod in w.pod_paths]
    return {"namePrefix": fields, "nameSuffix": fields}


def _account(obj: Manifest, pod_paths: tuple[str, ...]) -> str | None:
    for pod in pod_paths:
        node: object = obj
        for part in pod.split("/"):
            node = node[0] if isinstance(node, list) and node else node
            node = node.get(part) if isinstance(node, dict) else None
        node = node[0] if isinstance(node, list) and node else node
        if isinstance(node, dict) and isinstance(node.get("serviceAccountName"), str):
            return str(node["serviceAccountName"])
    return None


def file_names(objects: list[Manifest]) -> list[str]:
    """One file name per object: kind-name, or kind-namespace-name where two share a name."""
    def base(o: Tree, qualified: bool) -> str:
        meta = o["metadata"]
        middle = f"{meta.get('namespace', 'cluster')}-" if qualified else ""
        return f"{str(o['kind']).lower()}-{middle}{meta['name']}.yaml"

    plain = [base(o, False) for o in objects]
    names = [base(o, True) if plain.count(n) > 1 else n for o, n in zip(objects, plain, strict=True)]
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if "/" in name:  # a passed-through manifest's: built names are checked, these are not
            meta = objects[i]["metadata"]
            ns = f"{meta['namespace']}/" if meta.get("namespace") else ""
            raise FluidgenError([Diagnostic(name, 0, 0, "error", f"{objects[i]['kind']} {ns}{meta['name']} cannot "
                                                                   "be written to a file of its own: its name or "
                                                                   "namespace holds a '/'")])
        if name in seen or name in (KUSTOMIZATION, KUSTOMIZE_CONFIG, SECRETS, SOPS_FILE):
            first = objects[seen[name]] if name in seen else None
            what = f"{first['kind']} {first['metadata'].get('namespace', '')}/{first['metadata']['name']}" \
                if first else "a file fluidgen writes"
            this = f"{objects[i]['kind']} {objects[i]['metadata']['name']}"
            raise FluidgenError([Diagnostic(name, 0, 0, "error", f"{this} and {what} would be written to the same "
                                                                   "file; rename one of them")])
        seen[name] = i
    return names


def kustomization(resources: list[str]) -> Tree:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
            "configurations": [KUSTOMIZE_CONFIG], "resources": resources}


@dataclass(frozen=True)
class Planned:
    text: str
    mode: int


def directory_files(objects: list[Manifest], sealed: str | None = None, flux: bool = False) -> dict[str, Planned]:
    """Every file a directory build holds, by name; `sealed` is the Secrets encrypted by sops."""
    kept = [o for o in objects if not has_values(o)]
    secrets = [o for o in objects if has_values(o)]
    names = file_names(kept)
    jobs = _flux_jobs(names, kept) if flux else []
    files = {f"{WORKLOADS}/{name}" if name in jobs else name: Planned(emit.dump(o), PUBLIC)
             for name, o in zip(names, kept, strict=True)}
    files[KUSTOMIZE_CONFIG] = Planned(emit.dump(kustomize_config()), PUBLIC)
    secret_files, listed = _secret_files(secrets, sealed, flux)
    files[KUSTOMIZATION] = Planned(emit.dump(kustomization([*(n for n in names if n not in jobs), *listed])), PUBLIC)
    if jobs:
        files[f"{WORKLOADS}/{KUSTOMIZATION}"] = Planned(emit.dump(
            {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
             "configurations": [KUSTOMIZE_CONFIG], "resources": jobs}), PUBLIC)
        files[f"{WORKLOADS}/{KUSTOMIZE_CONFIG}"] = Planned(emit.dump(workloads_kustomize_config(kept)), PUBLIC)
    files.update(secret_files)
    return files


def _flux_jobs(names: list[str], objects: list[Manifest]) -> list[str]:
    """The files of Flux's DIR/workloads: the training jobs, applied once the data is ready."""
    return [n for n, o in zip(names, objects, strict=True) if rank(str(o["kind"])) >= RANK_WORKLOAD]


def _secret_files(secrets: list[Manifest], sealed: str | None, flux: bool) -> tuple[dict[str, Planned], list[str]]:
    """Where the Secrets with values go (sealed by sops, or plain and git-ignored), and the
    names the base lists of them (Flux decrypts a SOPS file itself, kustomize cannot)."""
    if not secrets:
        return {}, []
    if sealed is not None:
        return {SOPS_FILE: Planned(sealed, PUBLIC)}, [SOPS_FILE] if flux else []
    return {SECRETS: Planned(emit.dump_all(secrets), PRIVATE),
            GITIGNORE: Planned(f"# Written by fluidgen: credential values never go into git.\n{SECRETS}\n", PUBLIC)}, []


def _refuse(path: Path, why: str) -> FluidgenError:
    return FluidgenError([Diagnostic(str(path), 0, 0, "error", why)])


def _owned(target: Path, marker: str = MARKER, nested: bool = False) -> set[str]:
    """The files a previous fluidgen run wrote into `target` (relative paths with `nested`);
    refuses a directory that is not ours."""
    if target.is_symlink():
        raise _refuse(target, "is a symbolic link; fluidgen does not write through links it did not make. Give the "
                              "real directory")
    if not target.exists():
        return set()
    if not target.is_dir():
        raise _refuse(target, "exists and is not a directory")
    entries = set(os.listdir(target))
    if not entries:
        return set()
    if marker not in entries:
        raise _refuse(target, "is not empty and was not written by fluidgen; fluidgen -o writes only into a new or "
                              "empty directory, or one it wrote before. Give another directory")
    return _listed(target / marker, nested)


def _listed(marker: Path, nested: bool) -> set[str]:
    """The names a marker file lists; refuses a damaged one (or a link in its place)."""
    try:
        if marker.is_symlink():
            raise ValueError(marker)
        listed = json.loads(marker.read_text("utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        raise _refuse(marker, "is damaged; remove the directory and build again") from None
    if not isinstance(listed, list) or not all(isinstance(n, str) and (_relative(n) if nested else _own_name(n))
                                               for n in listed):
        raise _refuse(marker, "is damaged; remove the directory and build again")
    return set(listed)


def _own_name(name: str) -> bool:
    """A name fluidgen writes: a file in DIR, or one in DIR/workloads."""
    head, _, tail = name.partition("/")
    return bool(head) and head not in (".", "..") and (not tail or (head == WORKLOADS and "/" not in tail
                                                                     and tail not in (".", "..")))


def _relative(name: str) -> bool:
    return all(p not in ("", ".", "..") for p in name.split("/"))


def write_tree(directory: str, files: dict[str, Planned], marker: str) -> list[str]:
    """`write_dir`'s rules for a tree of files (relative paths): only into a new or empty
    directory or one this writer filled before (listed in `marker`), never through or over
    a symbolic link, never over a file it did not write, each file atomically; files of the
    previous run no longer wanted are removed. Everything is checked before anything is written."""
    target = Path(directory)
    previous = _owned(target, marker, nested=True)
    for rel in sorted(files):
        _refuse_unsafe_path(target, rel, previous)
    for rel in sorted(files):
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if any(p.is_symlink() for p in [path.parent, *path.parent.parents] if target in [p, *p.parents]):
            raise _refuse(path.parent, "became a symbolic link while fluidgen was writing; nothing more is written")
        _atomic(path, files[rel].text, files[rel].mode)
    _atomic(target / marker, json.dumps({"files": sorted(files)}, indent=2) + "\n", PUBLIC)
    _remove(target, previous - set(files))
    return sorted(files)


def _refuse_unsafe_path(target: Path, rel: str, previous: set[str]) -> None:
    """Raise unless `rel` can be written below `target`: a relative path whose folders are
    real directories (or missing), and no link, nor a file fluidgen did not write, in its place."""
    if not _relative(rel):
        raise _refuse(target / rel, "is not a relative path")
    path = target
    for part in rel.split("/")[:-1]:
        path = path / part
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            raise _refuse(path, "is a symbolic link or a file where fluidgen writes a directory; fluidgen "
                                "does not write through it")
    path = target / rel
    if path.is_symlink():
        raise _refuse(path, "is a symbolic link; fluidgen does not write through or over it")
    if path.exists() and (rel not in previous or not path.is_file()):
        raise _refuse(path, "exists and was not written by fluidgen; fluidgen does not overwrite it")


def write_dir(directory: str, objects: list[Manifest], sealed: str | None = None,
              flux: bool = False) -> list[str]:
    """Write the build into `directory` (see the module docstring); returns the file names."""
    target = Path(directory)
    previous = _owned(target)
    files = directory_files(objects, sealed, flux)
    sub = target / WORKLOADS
    nested = any("/" in n for n in files)
    _refuse_foreign(target, files, previous)
    target.mkdir(parents=True, exist_ok=True)
    if nested:
        sub.mkdir(exist_ok=True)
    order = [*sorted(n for n in files if n != KUSTOMIZATION), KUSTOMIZATION]
    for name in order:
        _atomic(target / name, files[name].text, files[name].mode)
    _atomic(target / MARKER, json.dumps({"files": sorted(files)}, indent=2) + "\n", PUBLIC)
    _remove(target, previous - set(files))
    if not nested and any("/" in n for n in previous) and not sub.is_symlink():
        with contextlib.suppress(OSError):
            sub.rmdir()  # only when empty: a file the user put there stays
    return sorted(files)


def _refuse_foreign(target: Path, files: Mapping[str, Planned], previous: set[str]) -> None:
    """Raise when a file (or the workloads folder) the build would write exists and fluidgen did
    not write it last time: a link, a FIFO or the user's own file is never written through."""
    _refuse_foreign_workloads(target / WORKLOADS, files, previous)
    for name in files:
        path = target / name
        if (path.is_symlink() or path.exists()) and name not in previous:
            raise _refuse(path, "exists and was not written by fluidgen; fluidgen does not overwrite it")


def _refuse_foreign_workloads(sub: Path, files: Mapping[str, Planned], previous: set[str]) -> None:
    """Raise when the workloads folder is a link, or the build writes into it and it exists
    but is not the folder fluidgen made last time."""
    if not any("/" in n for n in files) and not sub.is_symlink():
        return
    made_before = any("/" in n for n in previous)
    if sub.is_symlink() or (sub.exists() and (not sub.is_dir() or not made_before)):
        raise _refuse(sub, "exists and was not written by fluidgen; fluidgen does not write into it")


def _atomic(path: Path, text: str, mode: int) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _remove(target: Path, names: Iterable[str]) -> None:
    for name in sorted(names):
        path = target / name
        if any((target / "/".join(name.split("/")[:i])).is_symlink() for i in range(1, name.count("/") + 1)):
            continue  # a folder on the way is now a link: never remove through it
        with contextlib.suppress(FileNotFoundError):
            if path.is_symlink() or not stat.S_ISREG(path.lstat().st_mode):
                continue  # not a file fluidgen wrote: leave it alone
            path.unlink()
