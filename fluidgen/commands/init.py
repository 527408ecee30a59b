"""`fluidgen init`: a commented starter spec for an engine and a source.

Every value the user must supply is a <PLACEHOLDER>; lint rule FG102 refuses to build
until each one is filled in. The arguments record click fills and `execute(args) -> exit
code`.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

import click

from ..base import names, versions
from ..base.emit import scalar
from ..base.uri import scheme_of
from ..engines.contract import Storage
from ..engines.engine_table import ENGINES
from ..spec.profiles import bundled_names
from ..spec.specschema import SCHEMA_FILE
from .usage import EXIT_OK


@dataclass(frozen=True)
class InitArgs:
    engine: str = "alluxio"
    source: str | None = None  # where the data is; None: the engine's placeholder
    name: str = "my-dataset"
    output: str | None = None  # a file to create instead of stdout


def execute(args: InitArgs) -> int:
    if (problem := names.dns1035_label(args.name)) is not None:
        raise click.UsageError(f"--name: {problem}")
    if args.source is not None and not ENGINES[args.engine].mounts.takes_mounts:
        raise click.UsageError(f"--source: engine {args.engine} takes no mounts, so its spec has no source; "
                               "leave --source out")
    text = starter(args.engine, args.source, args.name)
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        with open(args.output, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise click.UsageError(f"{args.output} exists; not overwriting it") from None
    except OSError as exc:
        raise click.UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    click.echo(f"wrote {args.output}", err=True)
    return EXIT_OK


def env_name(option: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", option.upper()).strip("_")


def _quote(value: str) -> str:
    return scalar(value)


def starter(engine_name: str, source: str | None, name: str) -> str:
    engine = ENGINES[engine_name]
    uri = engine.starter.source if source is None else source
    scheme = scheme_of(uri)
    out = [
        f"# yaml-language-server: $schema={SCHEMA_FILE}",
        f"# (editor completion: write that file beside this spec with `fluidgen schema -o {SCHEMA_FILE}`)",
        f"# Starter spec from `fluidgen init --engine {engine_name}`. Replace every <PLACEHOLDER>, then:",
        "#   fluidgen build THIS_FILE | kubectl apply -f -",
        "# `fluidgen explain <field>` describes any field, e.g. `fluidgen explain runtime.cache`.",
        "apiVersion: fluidgen.io/v1alpha1",
        "kind: CachedDataset",
        "metadata:",
        f"  name: {name}  # Dataset and runtime share it: lower-case letters, digits, '-'",
        "  namespace: default",
        f"fluid: {_version(engine_name)}  # target Fluid version: {' or '.join(versions.NAMES)}",
    ]
    if engine.mounts.takes_mounts:
        out += _source(engine_name, uri, scheme)
    if scheme == "dataset":
        # A reference to another dataset: its own runtime serves the data, Fluid ignores ours.
        out.append("runtime: {engine: thin}  # a dataset:// reference is always served by engine thin, unset")
        return "\n".join(out) + "\n"
    out += [
        "placement:",
        "  gpu: <GPU_MODEL>  # e.g. Tesla-V100-SXM2-16GB: cache on the GPU nodes; delete to cache anywhere",
        "runtime:",
        f"  engine: {engine_name}",
        "  replicas: 2  # cache workers; usually the number of training nodes",
        "  cache:",
        "    - medium: MEM  # MEM (default path /dev/shm), SSD or HDD with a path",
        "      quota: 8Gi",
    ]
    out += [f"  {line}" for line in engine.starter.lines]
    if engine.lowering.default_profile in bundled_names():
        out.append(f"  profile: {engine.lowering.default_profile}  # tuning; see `fluidgen profiles show "
                   f"{engine.lowering.default_profile}`")
    elif engine.lowering.no_default_profile:
        out.append(f"  # no bundled profile: {engine.lowering.no_default_profile}")
    return "\n".join(out) + "\n"


def _version(engine_name: str) -> str:
    """The default target, or the first version that has the engine."""
    if versions.has(versions.DEFAULT, engine_name):
        return versions.DEFAULT
    return versions.first_with(engine_name) or versions.DEFAULT


def _source(engine_name: str, uri: str, scheme: str) -> list[str]:
    lines = ["source:", f"  - uri: {_quote(uri)}"]
    facts = ENGINES[engine_name].mounts.storage.get(scheme)
    options = {o: f"<{env_name(o)}>" for o in facts.options} if facts else {}
    options.update(facts.suggested if facts else {})  # named placeholders for the required ones too
    if options:
        lines.append("    options:  # non-secret engine options")
        lines += [f"      {key}: {_quote(value)}" for key, value in sorted(options.items())]
    keys = _starter_keys(facts) if facts else []
    if keys:
        lines += ["    credentials:  # read at build time; the values only ever go into a Secret",
                  "      fromEnv:"]
        lines += [f"        {key}: {env_name(key)}" for key in keys]
    return lines


def _starter_keys(facts: Storage) -> list[str]:
    """The secret options a starter asks for: what the engine requires, the first key pair,
    and one of the alternatives it needs (a metadata URL before a token)."""
    keys = set(facts.required) | (set(facts.pairs[0]) if facts.pairs else set())
    if facts.needs_one_of and not facts.needs_one_of & keys:
        keys.add(sorted(facts.needs_one_of)[0])
    return sorted(keys)
