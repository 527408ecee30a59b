"""`fluidgen validate FILES`: specs and manifests checked strictly against the Fluid and
Kubernetes APIs. The arguments record click fills and `execute(args) -> exit code`; the file
checks themselves are compile/filecheck.py's. `lint` shares `checks` and `finish`."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from ..base import versions
from ..base.diagnostics import Diagnostic, errors_in
from ..compile.filecheck import Checks, check_paths
from ..io import report, settings
from ..io.crds import CrdSet
from .build import ignore_ids
from .usage import EXIT_OK, EXIT_USER, resolve


@dataclass(frozen=True)
class ValidateArgs:
    files: tuple[str, ...]
    crds: tuple[str, ...] = ()
    fluid_version: str | None = None
    namespace: str | None = None
    allow_read: tuple[str, ...] = ()
    gitops: str | None = None
    with_lint: bool = False
    ignore: tuple[str, ...] = ()
    specs_only: bool = False
    forbid_secret_values: bool = False
    fmt: str = "text"


def execute(args: ValidateArgs) -> int:
    found = checks(args.fluid_version, args.namespace, args.allow_read, args.gitops,
                   crds=CrdSet.load_all(args.crds) if args.crds else None, lint=args.with_lint,
                   ignore=ignore_ids(args.ignore), specs_only=args.specs_only,
                   forbid_secret_values=args.forbid_secret_values)
    return finish(check_paths(args.files, found), args.fmt)


def finish(diags: list[Diagnostic], fmt: str) -> int:
    """The diagnostics in `fmt` (json on stdout, text on stderr); exit 1 when one is an error."""
    (report.as_json if fmt == "json" else report.text)(diags, sys.stdout if fmt == "json" else sys.stderr)
    return EXIT_USER if errors_in(diags) else EXIT_OK


def checks(fluid_version: str | None, namespace: str | None, allow_read: tuple[str, ...], gitops: str | None,
           **kw: Any) -> Checks:
    version = resolve(settings.fluid_version, fluid_version) or versions.DEFAULT
    return Checks(version, namespace=resolve(settings.namespace, namespace),
                  gitops=resolve(settings.gitops, gitops), allow_read=resolve(settings.allow_read, allow_read), **kw)
