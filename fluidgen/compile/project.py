"""A project file (fluidgen.yaml) names the builds of a directory per environment.

    apiVersion: fluidgen.io/v1alpha1
    kind: Project
    environments:
      staging:
        specs:
          - [imagenet.yaml, envs/staging/imagenet.yaml]   # overlays, merged in order (build -f)
          - mnist.yaml                                     # a spec on its own
        manifests: [rbac.yaml]                             # plain Kubernetes objects, unchanged
        namespace: ml-staging
      prod:
        specs:
          - [imagenet.yaml, envs/prod/imagenet.yaml]
        namespace: ml-prod
        fluidVersion: <a version fluidgen knows>

`fluidgen build DIR` with DIR/fluidgen.yaml builds the environment chosen with --env or
FLUIDGEN_ENV (ARGOCD_ENV_FLUIDGEN_ENV in Argo CD); a project with one environment needs no
choice. An environment's settings are written in git next to the specs, so, like a spec's
own `fluid:`, they win over flags and FLUIDGEN_* variables; a spec's metadata.namespace
still wins over all. Paths are relative to the project file and stay inside its directory.
YAML files of the directory that the environment does not use are reported, never built; in
Argo CD mode a plain Kubernetes manifest that no environment lists is an error (pipeline.py).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BeforeValidator, Field, ValidationError

from ..base import versions
from ..base.diagnostics import Diagnostic, FluidgenError, did_you_mean
from ..base.spectypes import DnsLabel, Model, Namespace, choice
from ..model.spec_errors import translate

if TYPE_CHECKING:
    from ..base.options import Options
    from ..io.inputs import Reader
    from ..io.yamlreader import Document

FILE = "fluidgen.yaml"
KIND = "Project"

if TYPE_CHECKING:
    FluidVersion = str
else:
    FluidVersion = choice(versions.NAMES)


def _chain(value: object) -> object:
    return [value] if isinstance(value, str) else value


# Fixed bounds on the work one project file buys (issue 38): each environment builds at most
# MAX_SPECS specs, each merged from at most MAX_OVERLAYS files, no entry twice, and at most
# MAX_NODES values over its chains, a file counted once per chain that uses it (pipeline.py
# _over_budget): about what one spec file at the YAML reader's node limit holds. So the largest
# project fluidgen accepts stays within README's promise (10 s, 300 MB on 2 cores);
# benchmarks/project_caps.py builds it, its figures are in README's threat model.
MAX_SPECS = 500
MAX_OVERLAYS = 10
MAX_NODES = 100_000

Chain = Annotated[list[Annotated[str, Field(min_length=1)]], BeforeValidator(_chain),
                  Field(min_length=1, max_length=MAX_OVERLAYS)]


class Environment(Model):
    specs: list[Chain] = Field(min_length=1, max_length=MAX_SPECS,
                               description=f"Specs to build: a file, or a list of files merged in order into one "
                                           f"spec (build -f); at most {MAX_SPECS}, each of at most {MAX_OVERLAYS} "
                                           "files, none twice.")
    namespace: Namespace | None = Field(None, description="Namespace for specs without metadata.namespace.")
    fluidVersion: FluidVersion | None = Field(None, description="Target Fluid version for specs without `fluid:`.")
    gitops: Literal["argocd", "flux", "none"] | None = Field(None, description="GitOps mode (see build --gitops).")
    manifests: list[Annotated[str, Field(min_length=1)]] = Field(
        [], description="Files of plain Kubernetes objects put into this environment's output unchanged "
                        "(as kustomize would apply them).")


class Project(Model):
    apiVersion: Literal["fluidgen.io/v1alpha1"]
    kind: Literal["Project"]
    environments: dict[DnsLabel, Environment] = \
        Field(min_length=1)


@dataclass(frozen=True)
class Selected:
    name: str
    chains: list[list[str]]  # paths, resolved against the project's directory
    manifests: list[str]  # plain manifests this environment passes through, resolved likewise
    options: Options
    unused: list[Diagnostic]  # YAML files of the directory this environment does not build
    unlisted: list[str]  # YAML files of the directory that no environment lists


def _only_inside(path: str) -> None:
    """A project file is a regular file whose real path stays in its directory: a hostile
    repository's link to a file elsewhere, or a FIFO, is never read."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise FluidgenError([Diagnostic(path, 0, 0, "error", f"cannot read: {exc.strerror}")]) from exc
    if not stat.S_ISREG(mode):
        raise FluidgenError([Diagnostic(path, 0, 0, "error", "is not a regular file; not read")])
    home = os.path.realpath(os.path.dirname(path) or ".")
    if os.path.dirname(os.path.realpath(path)) != home:
        raise FluidgenError([Diagnostic(path, 0, 0, "error", "is a link to a file outside its directory; not read")])


def is_project(data: object) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND and str(data.get("apiVersion", "")).startswith(
        "fluidgen.io/")


def check(doc: Document) -> list[Diagnostic]:
    """The problems of a project file's document (what `validate` says about fluidgen.yaml)."""
    try:
        return repeats(Project.model_validate(doc.data), doc)
    except ValidationError as exc:
        return translate(exc, doc, Project)


def load(path: str, reader: Reader) -> tuple[Project, Document]:
    _only_inside(path)
    docs = reader.load(path)
    if len(docs) != 1 or not isinstance(docs[0].data, dict):
        raise FluidgenError([Diagnostic(path, 1, 1, "error", f"{FILE} holds one {KIND} mapping")])
    try:
        project = Project.model_validate(docs[0].data)
    except ValidationError as exc:
        raise FluidgenError(translate(exc, docs[0], Project)) from None
    if problems := repeats(project, docs[0]):
        raise FluidgenError(problems)
    return project, docs[0]


def repeats(project: Project, doc: Document) -> list[Diagnostic]:
    """An entry an environment lists twice, found while the file is validated (before anything
    is compiled): the same spec or chain of overlays twice in specs, a file twice in one chain,
    a file twice in manifests. Each would be built (or passed through) again only to clash with
    itself: the work of a small file multiplied, not a different build."""
    out = []
    for name, env in sorted(project.environments.items()):
        seen: dict[tuple[str, ...], int] = {}
        for i, chain in enumerate(env.specs):
            files = tuple(_opened(doc, p) for p in chain)
            if files in seen:
                out.append(doc.diag(("environments", name, "specs", i), f"lists the same {_what(chain)} as "
                                    f"specs[{seen[files]}]; each spec is built once: remove the repeat"))
                continue
            seen[files] = i
            firsts: dict[str, int] = {}
            for j, file in enumerate(files):
                if file in firsts:
                    out.append(doc.diag(("environments", name, "specs", i, j), f"merges {chain[j]} a second time "
                                        f"(it is also file {firsts[file]} of this chain); each overlay is merged once"))
                firsts.setdefault(file, j)
        listed: dict[str, int] = {}
        for i, path in enumerate(env.manifests):
            if (first := listed.setdefault(_opened(doc, path), i)) != i:
                out.append(doc.diag(("environments", name, "manifests", i), f"lists {path} again (as manifests"
                                    f"[{first}]); its objects would clash with themselves: remove the repeat"))
    return out


def _opened(doc: Document, path: str) -> str:
    """The file a listed path opens, for comparison only: joined to the project file's directory
    and resolved as the system resolves it (`link/../a.yaml` is the a.yaml beside the link's
    target, which `os.path.normpath` would call ./a.yaml)."""
    return os.path.realpath(os.path.join(os.path.dirname(doc.file), path))


def _what(chain: list[str]) -> str:
    return f"spec {chain[0]}" if len(chain) == 1 else f"chain of {len(chain)} files"


def select(directory: str, wanted: str | None, options: Options, reader: Reader) -> Selected:
    """The environment of DIR/fluidgen.yaml to build, with its settings applied to `options`."""
    path = os.path.join(directory, FILE)
    project, doc = load(path, reader)
    wanted = _environment(path, project, wanted)
    env = project.environments[wanted]
    chains = [[str(reader.referenced(doc, ("environments", wanted, "specs", i, j), p)) for j, p in enumerate(chain)]
              for i, chain in enumerate(env.specs)]
    manifests = [str(reader.referenced(doc, ("environments", wanted, "manifests", i), p))
                 for i, p in enumerate(env.manifests)]
    chosen = replace(options, namespace=env.namespace or options.namespace,
                     namespace_from=f"the namespace of environment {wanted} in {path}" if env.namespace
                     else options.namespace_from,
                     fluid_version=env.fluidVersion or options.fluid_version, gitops=env.gitops or options.gitops)
    unused, unlisted = _not_listed(directory, project, wanted, [*manifests, *(p for c in chains for p in c)], reader)
    return Selected(wanted, chains, manifests, chosen, unused, unlisted)


def _not_listed(directory: str, project: Project, wanted: str, used: list[str], reader: Reader
                ) -> tuple[list[Diagnostic], list[str]]:
    """The notes for the directory's files that environment `wanted` does not use (with the
    links and FIFOs the walk refused), and its YAML files that no environment lists."""
    found, walked = reader.expand([directory])
    found = [f for f in found if os.path.basename(f) != FILE]
    # compared as the files the system opens: an entry may be absolute (the walk's paths are as
    # given), and `link/../a.yaml` opens the a.yaml beside the link's target, not the one a
    # textual normalisation names
    mine = {os.path.realpath(p) for p in used}
    unused = [n for n in walked if n.severity == "warning"]  # links that leave, FIFOs: named, never dropped
    unused += [Diagnostic(f, 0, 0, "info", f'not built: environment "{wanted}" of {FILE} does not list it')
               for f in found if os.path.realpath(f) not in mine]
    anywhere = _listed_anywhere(directory, project)
    return unused, [f for f in found if os.path.realpath(f) not in anywhere]


def _listed_anywhere(directory: str, project: Project) -> set[str]:
    """Every file any environment lists (specs, overlays, manifests), joined to the project's
    directory and resolved as the system opens it, for comparison only: nothing is read through it."""
    listed = set()
    for env in project.environments.values():
        for path in [*env.manifests, *(p for chain in env.specs for p in chain)]:
            listed.add(os.path.realpath(os.path.join(directory, path)))
    return listed


def _environment(path: str, project: Project, wanted: str | None) -> str:
    """The environment asked for, or the project's only one; refuses a missing choice or name."""
    names = sorted(project.environments)
    if wanted is None and len(names) == 1:
        return names[0]
    if wanted is None:
        raise FluidgenError([Diagnostic(path, 1, 1, "error", f"{FILE} defines the environments {', '.join(names)}; "
                                                             "choose one with --env or FLUIDGEN_ENV")])
    if wanted not in project.environments:
        raise FluidgenError([Diagnostic(path, 1, 1, "error", f'no environment "{wanted}" in {FILE} (it has '
                                                             f"{', '.join(names)}){did_you_mean(wanted, names)}")])
    return wanted

