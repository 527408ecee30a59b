"""lint/fuse_mode.py: FG131 speaks only where hand-written fuse.args replace Fluid's own FUSE args,
for a Dataset the runtime binds, and says what Fluid's args would have done and the fix.

Fluid's facts held (read from ../shared/fluid-src at every version the engine has):
- Alluxio's and GooseFS's optimizeDefaultFuse (pkg/ddc/{alluxio,goosefs}/transform_optimization.go)
  and JindoCache's transformFuseArg (pkg/ddc/jindocache/transform.go) take `runtime.Spec.Fuse.Args`
  whole when `len(runtime.Spec.Fuse.Args) > 0`, and set their own (ro or rw by the access modes)
  otherwise: so no args, or an empty list, leave the mode to Fluid and there is nothing to report.
- The message cites the function FG131 reads the engine's mode from (Lowering.fuse_mode_source), a
  function of that file at each version it cites.
(The access-mode rule itself, every combination and every engine, is tests/features/test_read_only_dataset.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.engines.engine_table import ENGINES
from fluidgen.lint import runtime_kinds_at
from tests.conftest import run_cli
from tests.harness.fluid_src import need_tree
from tests.lint.test_lint import dataset, runtime

FUSE_MODE_ENGINES = sorted(n for n, e in ENGINES.items() if e.lowering.fuse_mode_source is not None)
ARGS_WITH_RO = {"jindo": "['-okernel_cache', '-oro']"}
ARGS_WITHOUT_RO = {"jindo": "['-okernel_cache']"}
RWX = "  accessModes: [ReadWriteMany]\n"


def _versions(name: str) -> list[str]:
    engine = ENGINES[name]
    source = engine.lowering.fuse_mode_source
    assert source is not None
    return [v for v in source.versions if engine.kind in runtime_kinds_at(v)]


def _lint(tmp_path: Path, version: str, *docs: str) -> str:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join(docs))
    result = run_cli("lint", "--fluid-version", version, str(manifest))
    assert result.code in (0, 1), result.err
    return result.err


@pytest.mark.parametrize("name", FUSE_MODE_ENGINES)
def test_fluid_takes_given_fuse_args_whole_in_the_cited_function(name: str) -> None:
    source = ENGINES[name].lowering.fuse_mode_source
    assert source is not None
    for version in _versions(name):
        text = (need_tree(version) / source.path).read_text()
        head = re.search(rf"^func \([^)]*\) {source.function}\(", text, re.M)
        assert head is not None, (version, source.cite())
        body = text[head.start():text.find("\n}\n", head.start())]
        assert "if len(runtime.Spec.Fuse.Args) > 0 {" in body, (version, source.cite())


@pytest.mark.parametrize("name", FUSE_MODE_ENGINES)
@pytest.mark.parametrize("args", [None, "[]"])
def test_fg131_is_silent_when_fluid_sets_the_fuse_args(tmp_path: Path, name: str, args: str | None) -> None:
    """No fuse.args, or an empty list: Fluid's own args follow the access modes, for a read-only
    (no modes) and for a writable Dataset."""
    kind = ENGINES[name].kind
    spec = "replicas: 1" if args is None else f"fuse: {{args: {args}}}"
    for version in _versions(name):
        for modes in ("", RWX):
            err = _lint(tmp_path, version, dataset(extra=modes), runtime(kind, spec))
            assert "[FG131]" not in err, (version, modes, err)


@pytest.mark.parametrize("name", FUSE_MODE_ENGINES)
def test_fg131_is_silent_for_a_runtime_bound_to_no_dataset(tmp_path: Path, name: str) -> None:
    """Args with ro beside a writable Dataset of another name, args without ro beside a read-only one:
    neither Dataset is the runtime's, so neither mode is the runtime's to follow."""
    kind = ENGINES[name].kind
    with_ro = ARGS_WITH_RO.get(name, "[fuse, '--fuse-opts=kernel_cache,ro']")
    without = ARGS_WITHOUT_RO.get(name, "[fuse, '--fuse-opts=kernel_cache']")
    for version in _versions(name):
        for modes, args in ((RWX, with_ro), ("", without)):
            err = _lint(tmp_path, version, dataset(name="other", extra=modes), runtime(kind, f"fuse: {{args: {args}}}"))
            assert "[FG131]" not in err, (version, err)


@pytest.mark.parametrize("name", FUSE_MODE_ENGINES)
def test_fg131_says_what_fluid_would_do_and_the_fix(tmp_path: Path, name: str) -> None:
    """Both findings in full: the Dataset, the mode Fluid's own args would give, the cited function
    (read from Fluid above) and the fix (add ro; drop ro)."""
    engine = ENGINES[name]
    source = engine.lowering.fuse_mode_source
    assert source is not None
    cite = source.cite()
    with_ro = ARGS_WITH_RO.get(name, "[fuse, '--fuse-opts=kernel_cache,ro']")
    without = ARGS_WITHOUT_RO.get(name, "[fuse, '--fuse-opts=kernel_cache']")
    for version in _versions(name):
        err = _lint(tmp_path, version, dataset(), runtime(engine.kind, f"fuse: {{args: {without}}}"))
        assert (f"[FG131]: spec.fuse.args: Dataset d is read-only, and Fluid's own FUSE args for it would mount "
                f"ro ({cite}), but fuse.args replace them and have no ro, so the FUSE mount is writable; add ro"
                ) in err, err
        err = _lint(tmp_path, version, dataset(extra=RWX), runtime(engine.kind, f"fuse: {{args: {with_ro}}}"))
        assert (f"[FG131]: spec.fuse.args[1]: Dataset d is writable (no ReadOnlyMany among its access modes), "
                f"but these fuse.args mount it ro, so every write fails (Fluid's own args would not: {cite}); "
                "drop ro") in err, err
