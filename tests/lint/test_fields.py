"""lint/fields.py: FG140 and FG141 read the runtime-fields matrix through the objects a run holds.

What the rules themselves decide (the cells are held cell by cell against Fluid's code by
tests/catalog/test_runtime_fields.py; here, how the rules reach them):
- FG140 reports a runtime field at its own key (the cell's dotted field split into keys), once per
  field however many of its leaves are set.
- FG141 judges a Dataset by the engine of the runtime *bound* to it (the runtime of the same name and
  namespace: an engine reads its Dataset as utils.GetDataset(e.Client, e.name, e.namespace), its own
  name and namespace; pkg/ddc/vineyard/transform.go transform, both commits), and is silent for a
  Dataset bound to nothing.
- The Dataset's owner is read by Alluxio's FUSE (pkg/ddc/alluxio/transform_fuse.go transformFuse:
  dataset.Spec.Owner) and by no code of Vineyard's (pkg/ddc/vineyard), at both commits: read from
  ../shared/fluid-src here, so the finding the test expects is Fluid's fact, not fluidgen's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fluidgen.base.versions import NAMES
from tests.harness.fluid_src import need_tree
from tests.lint.test_lint import dataset, lint_err, runtime

OWNER = "  owner: {uid: 1000, gid: 1000, user: a, group: b}\n"
VINEYARD = "tieredstore: {levels: [{mediumtype: MEM, quota: 1Gi}]}"


def _reads_owner(root: Path, package: str) -> bool:
    """Whether any non-test Go file of the package reads a Dataset's Spec.Owner."""
    return any(re.search(r"\.Spec\.Owner\b", f.read_text()) for f in (root / package).rglob("*.go")
               if not f.name.endswith("_test.go"))


@pytest.mark.parametrize("version", NAMES)
def test_the_facts_these_tests_rest_on_are_fluids(version: str) -> None:
    root = need_tree(version)
    body = (root / "pkg/ddc/vineyard/transform.go").read_text().split("func (e *VineyardEngine) transform(", 1)[1]
    assert "utils.GetDataset(e.Client, e.name, e.namespace)" in body.split("\n}\n", 1)[0]
    assert _reads_owner(root, "pkg/ddc/alluxio")
    assert not _reads_owner(root, "pkg/ddc/vineyard")


def test_fg141_reads_the_engine_of_the_bound_runtime(tmp_path: Path) -> None:
    """The same Dataset (with an owner) is reported under a VineyardRuntime of its name and not
    under an AlluxioRuntime of its name."""
    ds = dataset(extra=OWNER)
    err = lint_err(tmp_path, ds, runtime("VineyardRuntime", VINEYARD))
    assert ("[FG141]: spec.owner: VineyardRuntime ignores the Dataset's owner; drop it "
            "(pkg/ddc/vineyard/transform.go transform (every version))") in err, err
    assert "[FG141]" not in lint_err(tmp_path, ds, runtime("AlluxioRuntime")), "Alluxio reads the owner"


def test_fg141_is_silent_for_a_dataset_bound_to_no_runtime(tmp_path: Path) -> None:
    """A VineyardRuntime of another name does not serve the Dataset: nothing to judge it by."""
    err = lint_err(tmp_path, dataset(extra=OWNER), runtime("VineyardRuntime", VINEYARD, name="other"))
    assert "[FG141]" not in err, err


def test_fg140_reports_a_field_once_at_its_own_key(tmp_path: Path) -> None:
    """fuse.resources with two leaves set is one finding, located at the `resources` key (line 7,
    column 10 of the runtime document: spec.fuse.resources), not at `spec`."""
    err = lint_err(tmp_path, runtime("VineyardRuntime", VINEYARD + "\nfuse:\n  resources: {limits: {cpu: 1}, "
                                                       "requests: {cpu: 1}}"))
    found = [line for line in err.splitlines() if "[FG140]" in line]
    assert len(found) == 1, err
    assert ":7:5: warning [FG140]: spec.fuse.resources: VineyardRuntime ignores fuse.resources" in found[0], found
