"""Rules about storage, names, tiers and placement: what Fluid's controllers reject or
silently mis-handle, for any engine (engine-specific rules live in the engine modules)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from ..base.diagnostics import PathT
from ..base.fluidsource import source, sources_of_function
from ..base.manifest import Tree, is_reference_dataset, levels_of, mapping, mounts_of, names_given, walk_strings
from ..base.manifest_index import Entry, ManifestIndex
from ..base.names import dns1035_label, dns1123_subdomain
from ..base.quantity import QUANTITY_RE, quantity_hint, to_bytes
from ..base.rules import Example, Finding, Rule
from ..base.uri import is_reference, scheme_of
from ..catalog.kinds import table
from ..engines.contract import Engine
from ..engines.engine_table import INDEX, KindsWhere
from ..fluid.fluidbase import encrypt_options_set_twice, fastest_level, is_native, unmounted_at_root
from .binding import engine_of
from .docs import runtime_head

SECRET_OPTION = re.compile(r"(access[._-]?key[._-]?secret|secret[._-]?key|password|token|metaurl)$",
                           re.IGNORECASE)
PLACEHOLDER = re.compile(r"<[A-Za-z_][A-Za-z0-9_ -]*>")

SINGLE_TIER = KindsWhere(lambda e: e.lowering.single_tier)


def plain_credentials(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    runtime = index.bound_runtime(entry)
    engine = engine_of(runtime.obj) if runtime is not None else None
    for i, mount in enumerate(mounts_of(entry.obj)):
        options = mount.get("options")
        read_as_secret = _read_as_secret(engine, mount)
        for key in options if isinstance(options, dict) else {}:
            if SECRET_OPTION.search(str(key)) or key in read_as_secret:
                yield Finding(("spec", "mounts", i, "options", key),
                              f"credential {key} is in plain options; move it to encryptOptions backed "
                              "by a Secret (fluidgen: credentials.fromEnv/fromFile)")
    shared = entry.spec.get("sharedOptions")
    for key in shared if isinstance(shared, dict) else {}:
        if SECRET_OPTION.search(str(key)):
            yield Finding(("spec", "sharedOptions", key), f"credential {key} is in plain sharedOptions; "
                                                          "use sharedEncryptOptions")


def encrypt_option_set_twice(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """FG123: an encryptOption whose name an option or an earlier encryptOption of the same mount
    already set (fluidbase.encrypt_options_set_twice), for an engine whose default config storage
    overwrites it silently (Mounts.encrypt_config_storage). Each one is said once, at its name."""
    runtime = index.bound_runtime(entry)
    engine = engine_of(runtime.obj) if runtime is not None else None
    if engine is None or not engine.mounts.encrypt_config_storage or is_reference_dataset(entry.obj):
        return
    variable = engine.mounts.encrypt_config_storage
    shared_options = {str(k): "spec.sharedOptions" for k in mapping(entry.spec.get("sharedOptions"))}
    shared = [(("spec", "sharedEncryptOptions", j, "name"), name)
              for j, name in names_given(entry.spec.get("sharedEncryptOptions"))]
    said: set[PathT] = set()
    for i, mount in enumerate(mounts_of(entry.obj)):
        if is_native(mount.get("mountPoint")) and not engine.mounts.native_mount_options:
            continue  # a volume: Fluid reads none of its options
        options = {**shared_options, **{str(k): f"spec.mounts[{i}].options" for k in mapping(mount.get("options"))}}
        given = shared + [(("spec", "mounts", i, "encryptOptions", j, "name"), name)
                          for j, name in names_given(mount.get("encryptOptions"))]
        for k in encrypt_options_set_twice(options, [name for _, name in given]):
            at, name = given[k]
            if at in said:
                continue
            said.add(at)
            yield _set_twice(at, name, i, options, given[:k], variable)


def _set_twice(at: PathT, name: str, mount: int, options: dict[str, str], earlier: Sequence[tuple[PathT, str]],
               variable: str) -> Finding:
    """FG123's finding for the encryptOption at `at`, whose name an option or an earlier one set."""
    first = options.get(name) or next(_dotted(where[:-1]) for where, n in earlier if n == name)
    advice = f"Drop it from {first}; the Secret keeps it out of the Dataset" if name in options \
        else "Keep one of the two"
    whose = "every mount" if at[1] == "sharedEncryptOptions" and first.startswith("spec.shared") else f"mount {mount}"
    return Finding(at, f"{name} is set twice for {whose}: by {first} and by this encryptOption. With Fluid's "
                       "default config storage (configmap) this encryptOption's Secret file wins silently; a Fluid "
                       f"whose {variable} reads the Secrets' values fails on it ('set more than one times'). {advice}")


def _dotted(path: PathT) -> str:
    """("spec", "mounts", 0, "options") as spec.mounts[0].options."""
    return str(path[0]) + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[1:])


def root_path_not_mounted(entry: Entry, index: ManifestIndex) -> Iterator[Finding]:
    """FG124: an object-store mount at path "/" beside other mounts, for an engine whose namespace
    root is Alluxio's (Mounts.alluxio_root; the fact: fluidbase.unmounted_at_root)."""
    runtime = index.bound_runtime(entry)
    engine = engine_of(runtime.obj) if runtime is not None else None
    if engine is None or not engine.mounts.alluxio_root:
        return
    mounts = mounts_of(entry.obj)
    given = [(_text(m.get("name")), str(m.get("mountPoint", "")), _text(m.get("path"))) for m in mounts]
    for i in unmounted_at_root(given):
        yield Finding(("spec", "mounts", i, "path"),
                      f'path "/" on one mount of {len(mounts)} is never mounted: {engine.kind} keeps its local '
                      "/underFSStorage at the root and skips a mount at a path already mounted, which the root "
                      "always is. Drop path (the mount appears at /<name>) or the other mounts")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _read_as_secret(engine: Engine | None, mount: Tree) -> frozenset[str]:
    """The engine's own credential names for a mount's storage (fs.oss.accessKeyId beside the
    secret); flagged in plain options as well as every name that looks like a secret."""
    facts = engine.mounts.storage.get(scheme_of(str(mount.get("mountPoint", "")))) if engine is not None else None
    return facts.secret_options if facts is not None else frozenset()


def placeholders(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    if entry.kind == "Secret":  # never look into, or quote, Secret values
        return
    if not _may_hold_placeholder(entry.obj):
        return
    for path, text in walk_strings(entry.obj):
        match = PLACEHOLDER.search(SHELL_DEFAULT.sub("", text) if _shell_text(path) else text)
        if match:
            yield Finding(path, f"placeholder {match.group(0)} was never filled in")


# A shell parameter expansion with a word to use when the variable is unset or empty: ${v:-word},
# ${v-word}, ${v:=word}, ${v:?word}, ${v:+word} and the forms without ':' (POSIX Shell Command
# Language 2.6.2). The word is the script's own text ("<empty>" in `echo "${v:-<empty>}"`, as in
# Fluid's test/gha-e2e/jindo/multi-oss-job.yaml at master), never a value left to fill in.
SHELL_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=?+][^}]*\}")
_CONTAINERS = frozenset({"containers", "initContainers", "ephemeralContainers"})


def _shell_text(path: PathT) -> bool:
    """Whether the string at `path` is a container's command or args (what a shell may run: a
    pod template of any kind), an exec action's command (a probe's or a lifecycle hook's, run in
    the container as a command is: core/v1 ExecAction) or a DataProcess script (spec.processor.script
    command, args or source), where shell expansions are the program's text."""
    strings = [p for p in path if isinstance(p, str)]
    in_container = len(strings) >= 2 and strings[-2] in _CONTAINERS and strings[-1] in ("command", "args")
    return (in_container or strings[-2:] == ["exec", "command"]
            or (strings[-2:-1] == ["script"] and strings[-1] in ("command", "args", "source")))


def _may_hold_placeholder(obj: object) -> bool:
    """False only when no string in `obj` holds a placeholder: JSON writes the characters a
    placeholder is made of as they are, and the quotes between strings break any match that
    would span two of them. One pass in C instead of a walk in Python (lint runs on every
    object of every build); a key that matches, or data JSON cannot write, means a walk."""
    try:
        return PLACEHOLDER.search(json.dumps(obj, ensure_ascii=False)) is not None
    except (TypeError, ValueError):
        return True


def nfs_version_conflict(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    options = entry.spec.get("mountOptions")
    options = options if isinstance(options, list) else []
    versions = [(i, o.split("=", 1)[1]) for i, o in enumerate(options)
                if isinstance(o, str) and o.split("=", 1)[0] in ("vers", "nfsvers") and "=" in o]
    if len({v for _, v in versions}) > 1:
        said = ", ".join(options[i] for i, _ in versions)
        yield Finding(("spec", "mountOptions", versions[-1][0]),
                      f"conflicting NFS versions ({said}); the last one wins, keep only the one you mean")


def dns_names(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    """The name rule of the kind table: DNS-1035 labels for Datasets and runtimes (Fluid), a
    DNS-1123 subdomain for everything else (the API server)."""
    name = entry.name
    if not isinstance(name, str):
        return
    info = table().get(entry.kind)
    problem = dns1035_label(name) if info is not None and info.name_rule == "dns1035" else dns1123_subdomain(name)
    if problem is not None:
        yield Finding(("metadata", "name"), problem)


def watermarks(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    for i, level in enumerate(levels_of(entry.obj)):
        if not isinstance(level, dict):
            continue
        try:
            high, low = float(level.get("high", "nan")), float(level.get("low", "nan"))
        except (TypeError, ValueError):
            continue
        if high <= low:
            yield Finding(("spec", "tieredstore", "levels", i, "low"),
                          f"low watermark {level['low']} must be below high watermark {level['high']}")


def _quota_problems(level: dict[str, object], separator: str) -> Iterator[tuple[str, str]]:
    quota, quota_list = level.get("quota"), level.get("quotaList")
    if quota is None and quota_list is None:
        yield "quota", "set quota or quotaList; Fluid refuses a level with neither"
    if (problem := _quota_problem(quota)) is not None:
        yield "quota", problem
    if isinstance(quota_list, str):
        paths = [p for p in str(level.get("path", "")).split(separator) if p]
        if problem := _quota_list_problem(quota_list, paths):
            yield "quotaList", problem


def _quota_problem(quota: object) -> str | None:
    """A single quota: a quantity, and above zero."""
    if isinstance(quota, str) and not QUANTITY_RE.match(quota):
        return quantity_hint(quota)
    if isinstance(quota, str | int) and not isinstance(quota, bool) and _not_positive(quota):
        return f"quota {quota} leaves no room to cache anything; give a positive size such as 10Gi"
    return None


def _quota_list_problem(quota_list: str, paths: list[str]) -> str | None:
    """convertToTieredstoreInfo splits quotaList on "," and wants one quantity per path."""
    items = [q.strip() for q in quota_list.split(",")]
    if len(items) < 2:
        return f'quotaList "{quota_list}" holds one value; use quota for a single size'
    if quota_list != ",".join(items) or not all(QUANTITY_RE.match(q) for q in items):
        return f'quotaList "{quota_list}" must be sizes joined by "," with no spaces'
    if any(_not_positive(q) for q in items):
        return f'quotaList "{quota_list}" has a size that is zero or negative'
    if paths and len(items) != len(paths):
        counted = f"{len(paths)} path{'' if len(paths) == 1 else 's'}"
        return (f"{len(items)} quotas for {counted} (Fluid splits path on \",\" to match them; the "
                "runtime never sets up); give one quota per path, or one quota")
    return None


def _not_positive(quantity: str | int) -> bool:
    try:
        return to_bytes(quantity) <= 0
    except ValueError:
        return False


def quota_forms(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    # Every runtime's info splits a level's path on "," to match it with quotaList, whatever the
    # engine itself splits on (JuiceFS: ":"), and fails on a mismatch (pkg/ddc/base/runtime.go
    # convertToTieredstoreInfo, fluidbase.tier_paths).
    for i, level in enumerate(levels_of(entry.obj)):
        if isinstance(level, dict):
            for key, message in _quota_problems(level, ","):
                yield Finding(("spec", "tieredstore", "levels", i, key), message)


def single_tier(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    levels = levels_of(entry.obj)
    if len(levels) < 2:
        return
    engine = engine_of(entry.obj)
    if engine is not None and engine.lowering.fastest_tier:
        kept = fastest_level([lv.get("mediumtype") if isinstance(lv, dict) else None for lv in levels])
        if kept is not None:
            yield Finding(("spec", "tieredstore", "levels", 1 if kept == 0 else 0),
                          f"{entry.kind} only uses the level of its fastest medium (levels[{kept}], "
                          f"{levels[kept]['mediumtype']}); the others are ignored")
            return
    yield Finding(("spec", "tieredstore", "levels", 1),
                  f"{entry.kind} only uses the first tieredstore level; the others are ignored")


def distinct_media(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    seen: dict[str, int] = {}
    for i, level in enumerate(levels_of(entry.obj)):
        medium = level.get("mediumtype") if isinstance(level, dict) else None
        if isinstance(medium, str):
            if medium in seen:
                yield Finding(("spec", "tieredstore", "levels", i, "mediumtype"),
                              f"levels[{seen[medium]}] already uses {medium}; each medium may appear once (put "
                              "several directories in that level's path)")
            seen.setdefault(medium, i)


def mount_uniqueness(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    seen: dict[tuple[str, str], int] = {}
    for i, mount in enumerate(mounts_of(entry.obj)):
        name = str(mount.get("name", ""))
        for label, value in (("name", name), ("path", str(mount.get("path") or f"/{name}"))):
            if value and (label, value) in seen:
                yield Finding(("spec", "mounts", i, label if label in mount else "mountPoint"),
                              f'mount {label} "{value}" is also used by mounts[{seen[(label, value)]}]')
            seen.setdefault((label, value), i)


def negative_resources(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    """Requests and limits below zero (the API server refuses them in every pod Fluid makes)."""
    for path, value in _resource_quantities(entry.obj.get("spec"), ("spec",)):
        try:
            if to_bytes(value) < 0:
                yield Finding(path, f"{value} is negative; resource requests and limits cannot be")
        except ValueError:
            continue


def _resource_quantities(value: object, path: PathT) -> Iterator[tuple[PathT, str | int]]:
    """Every request and limit below `value` (scalars are not descended into: lint runs on
    every object of every build)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("requests", "limits") and isinstance(item, dict) and path and path[-1] == "resources":
                yield from _amounts(item, (*path, key))
            elif isinstance(item, dict | list):
                yield from _resource_quantities(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict | list):
                yield from _resource_quantities(item, (*path, i))


def _amounts(resources: Tree, path: PathT) -> Iterator[tuple[PathT, str | int]]:
    """The quantities of a requests or limits mapping (numbers or strings)."""
    for name, amount in resources.items():
        if isinstance(amount, str | int) and not isinstance(amount, bool):
            yield (*path, name), amount


def reference_dataset_alone(entry: Entry, _: ManifestIndex) -> Iterator[Finding]:
    mounts = mounts_of(entry.obj)
    for i, mount in enumerate(mounts):
        if is_reference(mount.get("mountPoint", "")) and len(mounts) > 1:
            yield Finding(("spec", "mounts", i, "mountPoint"), "a dataset:// mount must be the only mount of its "
                                                               "Dataset")


RULES = (
    Rule(
        "FG123", "warning", "a name set twice among a mount's options and encryptOptions: the last one wins, "
                            "or the mount fails",
        encrypt_option_set_twice, kinds=frozenset({"Dataset"}),
        description="Fluid merges a mount's options over the Dataset's sharedOptions, then adds "
                    "sharedEncryptOptions and the mount's encryptOptions. For the Alluxio and thin engines, "
                    "Fluid's default config storage (configmap) mounts each encryptOption's Secret as a file "
                    "whose path replaces a value of the same name, silently; a Fluid whose controller reads "
                    "the Secrets' values instead (ALLUXIO_MOUNT_CONFIG_STORAGE, THIN_FUSE_CONFIG_STORAGE) "
                    "fails on it (the mount, or for the thin engine and an Alluxio root mount the whole runtime). A "
                    "name given twice is one of them left unused.",
        sources=(source("pkg/ddc/alluxio/ufs_internal.go", "genEncryptOptions"),
                 source("pkg/ddc/thin/ufs_internal.go", "genEncryptOptions"),
                 source("pkg/ddc/alluxio/ufs_internal.go", "genUFSMountOptions"),
                 source("pkg/ddc/thin/transform_config.go", "extractMountOptions"),
                 source("pkg/ddc/alluxio/ufs.go", "IsMountWithConfigMap"),
                 source("pkg/ddc/thin/transform_config.go", "getFuseConfigStorage")),
        example=Example(f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: imagenet, namespace: default}}
spec:
  mounts:
    - mountPoint: oss://imagenet-bucket/train/
      name: train
      options: {{fs.oss.accessKeyId: LTAI-EXAMPLE}}
      encryptOptions:
        - name: fs.oss.accessKeyId
          valueFrom: {{secretKeyRef: {{name: imagenet-oss, key: fs.oss.accessKeyId}}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: {INDEX['alluxio'].kind}
metadata: {{name: imagenet, namespace: default}}
spec:
  replicas: 1
""", "fs.oss.accessKeyId is both an option and an encryptOption: which value is mounted depends on how "
     "the Fluid install stores mount options.")),
    Rule(
        "FG101", "error", "credentials in plain options are stored unencrypted and shown by kubectl",
        plain_credentials, kinds=frozenset({"Dataset"}),
        description="A mount's `options` (and the Dataset's `sharedOptions`) are plain fields of the Dataset "
                    "object: anyone who may read Datasets sees them, and `kubectl get -o yaml` prints them. "
                    "Fluid reads secret values from `encryptOptions`, each naming a key of a Secret. The rule "
                    "flags option names that look like credentials (access key secrets, secret keys, "
                    "passwords, tokens, JuiceFS metaurl) and the names the bound runtime's engine reads as "
                    "credentials for that storage (such as fs.oss.accessKeyId).",
        sources=(source("api/v1alpha1/dataset_types.go", "EncryptOptions"),
                 source("api/v1alpha1/dataset_types.go", "SharedOptions"),
                 source("api/v1alpha1/dataset_types.go", "EncryptOption")),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - mountPoint: oss://imagenet-bucket/train/
      name: train
      options:
        fs.oss.accessKeySecret: s3cr3t
""", "The key secret sits in the Dataset in plain text; put it in a Secret and name it in encryptOptions.")),
    Rule(
        "FG124", "error", 'path "/" on one object-store mount of several is never mounted (Alluxio, GooseFS)',
        root_path_not_mounted, kinds=frozenset({"Dataset"}),
        description="An Alluxio or GooseFS runtime mounts a Dataset's storage at the root of its namespace only "
                    "when it is the Dataset's single mount; with several mounts the root is the master's local "
                    '/underFSStorage, and an object-store mount at `path: /` is skipped as already mounted, so its '
                    "data never appears. A `pvc://` or `local://` mount at `/` is honoured, alone or beside others: "
                    "Fluid puts its volume at /underFSStorage itself, the root.",
        # GooseFS's own sources (the versions that have it) are on its engine record's Mounts.alluxio_root
        sources=sources_of_function(unmounted_at_root),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - {mountPoint: "oss://imagenet-bucket/train/", name: train, path: /}
    - {mountPoint: "oss://imagenet-bucket/val/", name: val}
---
""" + runtime_head("alluxio") + "  replicas: 1\n",
            'train at path "/" is never mounted: the root is /underFSStorage, mounted already.')),
    Rule(
        "FG102", "error", "a <placeholder> from documentation is not a real value", placeholders,
        description="Fluid's samples write values to fill in as `<bucket-name>` or `<s3-bucket-region>`. A "
                    "manifest copied without filling them in is accepted by the API server and fails only when "
                    "the engine mounts the storage. Every string of every object except Secrets is checked "
                    "(Secret values are never read or quoted), except the word of a shell expansion such as "
                    "`${v:-<empty>}` in a container's command or args, a probe's or hook's exec command or a "
                    "DataProcess script: that is the script's own text.",
        sources=(source("docs/en/samples/s3_configuration.md", "bucket-name"),),
        elsewhere=("POSIX Shell Command Language 2.6.2 Parameter Expansion: the word of ${parameter:-word}",),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: demo, namespace: default}
spec:
  mounts:
    - mountPoint: s3://<bucket-name>/<path-to-data>/
      name: data
""", "`<bucket-name>` was copied from the sample and never replaced.")),
    Rule(
        "FG103", "warning", "vers= and nfsvers= disagree; mount.nfs silently keeps the last one",
        nfs_version_conflict, kinds=frozenset({"PersistentVolume"}),
        description="`vers=` and `nfsvers=` are two spellings of one NFS mount option (nfs(5)). Given with "
                    "different versions in a PersistentVolume's `mountOptions`, the mount uses one of them "
                    "without a word; keep only the version you mean. Fluid mounts such a volume through the "
                    "pvc:// scheme as it is.",
        sources=(),
        elsewhere=("nfs(5) (nfs-utils): the vers=n and nfsvers=n mount options",),
        example=Example("""\
apiVersion: v1
kind: PersistentVolume
metadata: {name: imagenet-nfs}
spec:
  capacity: {storage: 1Ti}
  accessModes: [ReadOnlyMany]
  mountOptions: [vers=3, nfsvers=4.1]
  nfs: {server: nfs.example.com, path: /export/imagenet}
""", "Two NFS versions are asked for; only one of them takes effect.")),
    Rule(
        "FG105", "error", "names the API server accepts; DNS-1035 labels for Datasets and runtimes (Fluid)",
        dns_names,
        description="Every object name must be a DNS-1123 subdomain (the API server refuses others). Fluid "
                    "asks more of Datasets and runtimes: their names become Service, StatefulSet and Helm "
                    "release names, so Fluid's controllers accept only DNS-1035 labels (lower case letters, "
                    "digits and '-', starting with a letter, at most 63 characters) and report the others "
                    "as a failed reconcile.",
        sources=(source("pkg/controllers/v1alpha1/dataset/dataset_controller.go", "reconcileDataset"),
                 source("pkg/controllers/runtime_controller.go", "ReconcileInternal")),
        elsewhere=("Kubernetes: k8s.io/apimachinery/pkg/util/validation (IsDNS1123Subdomain, IsDNS1035Label)",),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: 2024-imagenet, namespace: default}
spec:
  mounts:
    - {mountPoint: "oss://imagenet-bucket/train/", name: train}
""", "A Dataset name must start with a letter; Fluid refuses 2024-imagenet.")),
    Rule(
        "FG106", "error", "the low watermark must be below the high one", watermarks,
        description="A cache tier's `high` and `low` ratios are handed to the engine as its eviction "
                    "watermarks (Alluxio's and GooseFS's tier properties, JindoCache's storage.watermark "
                    "ratios): eviction starts at the high one and frees space down to the low one, so the "
                    "low ratio must be smaller.",
        sources=(source("pkg/ddc/alluxio/transform.go", "transformCommonPart"),
                 source("pkg/ddc/jindocache/transform.go", "transformWorker")),
        example=Example(runtime_head("alluxio") + """\
  tieredstore:
    levels:
      - {mediumtype: SSD, path: /mnt/ssd, quota: 100Gi, high: "0.8", low: "0.9"}
""", "low 0.9 is above high 0.8: the engine has no room to evict into.")),
    Rule(
        "FG112", "error", "quota/quotaList must be positive sizes, one per cache path", quota_forms,
        description="Fluid turns each tier into cache paths with quotas: with `quotaList` it splits the list "
                    "on ',' and parses each part as a Kubernetes quantity, and fails the runtime when the "
                    "count differs from the number of paths; with neither `quota` nor `quotaList` it fails "
                    "too. A size of zero or below caches nothing.",
        sources=(source("pkg/ddc/base/runtime.go", "convertToTieredstoreInfo"),),
        example=Example(runtime_head("alluxio") + """\
  tieredstore:
    levels:
      - {mediumtype: SSD, path: "/mnt/a,/mnt/b", quotaList: "100Gi,100Gi,50Gi"}
""", "Three quotas for two paths: Fluid refuses the runtime.")),
    Rule(
        "FG113", "error", "Jindo, JuiceFS, EFC and Thin use only one cache tier", single_tier,
        kinds=SINGLE_TIER,
        description="These runtimes build their cache from one tieredstore level only: `levels[0]`, except "
                    "EFC, which keeps the level of its fastest medium (MEM, then SSD, then HDD, whatever "
                    "the order written). Further levels are accepted by the API and ignored, so the cache is "
                    "smaller than the manifest says.",
        sources=(source("pkg/ddc/jindocache/transform.go", "transformWorker"),
                 source("pkg/ddc/juicefs/transform.go", "transformWorkers"),
                 source("pkg/ddc/efc/transform_tieredstore.go", "transformWorkerTieredStore"),
                 source("pkg/utils/tieredstore/tiered_store.go", "GetTieredLevel")),
        example=Example(runtime_head("jindo") + """\
  tieredstore:
    levels:
      - {mediumtype: MEM, path: /dev/shm, quota: 20Gi}
      - {mediumtype: SSD, path: /mnt/ssd, quota: 200Gi}
""", "The SSD level is never used by JindoCache.")),
    Rule(
        "FG114", "error", "mount names and paths must be unique within a Dataset", mount_uniqueness,
        kinds=frozenset({"Dataset"}),
        description="Each mount appears in the Dataset's namespace at its `path`, or at /<name> without one; "
                    "two mounts with one name or one path land on the same place, and the engine mounts one "
                    "over the other or refuses the second.",
        sources=(source("pkg/utils/ufs_path_builder.go", "GenUFSPathInUnifiedNamespace"),),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: default}
spec:
  mounts:
    - {mountPoint: "oss://bucket-a/train/", name: train}
    - {mountPoint: "oss://bucket-b/train/", name: train}
""", "Both mounts would appear at /train.")),
    Rule(
        "FG115", "error", "a dataset:// reference must be the Dataset's only mount", reference_dataset_alone,
        kinds=frozenset({"Dataset"}),
        description="A Dataset that mounts another one (`dataset://<namespace>/<name>`) is a reference "
                    "dataset: Fluid accepts exactly one dataset:// mount and no other mount beside it, and "
                    "fails the Dataset otherwise.",
        sources=(source("pkg/ddc/base/dataset.go", "CheckReferenceDataset"),),
        example=Example("""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: shared, namespace: team-a}
spec:
  mounts:
    - {mountPoint: "dataset://default/imagenet", name: imagenet}
    - {mountPoint: "oss://bucket/extra/", name: extra}
""", "A reference dataset may not mix a dataset:// mount with another mount.")),
    Rule(
        "FG127", "error", "each cache medium appears in one tieredstore level", distinct_media,
        description="Fluid numbers the levels by medium (MEM, SSD, HDD): two levels with the same "
                    "`mediumtype` get the same level number, and the engine sees one tier configured twice. "
                    "Several directories of one medium belong in one level's `path`, joined with ','.",
        sources=(source("pkg/utils/tieredstore/tiered_store.go", "GetTieredLevel"),
                 source("pkg/utils/tieredstore/tiered_store.go", "makeMediumTypeSorted")),
        example=Example(runtime_head("alluxio") + """\
  tieredstore:
    levels:
      - {mediumtype: SSD, path: /mnt/ssd0, quota: 100Gi}
      - {mediumtype: SSD, path: /mnt/ssd1, quota: 100Gi}
""", "Write one SSD level with path /mnt/ssd0,/mnt/ssd1 and quotaList 100Gi,100Gi.")),
    Rule(
        "FG129", "error", "resource requests and limits cannot be negative", negative_resources,
        description="Fluid copies a runtime's or operation's `resources` into the pods it creates; the API "
                    "server refuses a pod with a negative request or limit, so the runtime never starts.",
        sources=(source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForMaster"),
                 source("pkg/ddc/alluxio/transform_resources.go", "transformResourcesForWorker")),
        elsewhere=("Kubernetes: pkg/apis/core/validation (ValidateResourceRequirements) refuses negative "
                   "quantities",),
        example=Example(runtime_head("alluxio") + """\
  worker:
    resources: {requests: {memory: -4Gi}}
""", "A negative memory request is refused for the worker pods Fluid creates.")),
)
