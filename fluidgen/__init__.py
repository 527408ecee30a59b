"""fluidgen: compile short specs into validated, tuned Fluid manifests.

The folders are the floors, lowest first; a module imports only from its own folder and the
folders below it, and no import (module-level or inside a function) closes a circle
(pyproject.toml's import-linter contracts state the order once; tests/features/test_architecture.py runs
them):

1. base/: diagnostics, merge, quantity, names, versions, emit, manifest (safe reads of parsed
   objects), manifest_index, uri (schemes, Fluid's dataset:// references), options, rules (the
   rule shape), spectypes, fluidsource (Fluid source records), the schema vocabulary
   (structural/: dsl, kube, validate);
2. fluid/: Fluid's and Kubeflow's facts as data: shared schema pieces, the Dataset, data
   operations, edit syncing, engine-neutral behaviour (fluidbase), training job kinds (jobkinds);
3. io/: the YAML reader, inputs, build inputs, settings, the build cache, sops, user CRDs,
   credential sources, git trees, Lists, reports;
4. model/: the spec parts that know no engine (specparts, spec_errors), the lowering context;
5. engines/: the contract, one module per Fluid runtime (the contract, base/ and fluid/ only),
   and the engine table above them;
6. catalog/: readers of the table: kinds, the Fluid API model (schemas), object checks, health;
7. lint/; 8. spec/: the whole spec (engine names and sections), its JSON schema, profiles;
9. lower/: lowering; 10. compile/: the pipeline, projects, output, Helm, plan, drift, file checks;
11. importer/ (`fluidgen import`);
12. diagnosis/ (`fluidgen diagnose`: a cluster dump read back to the spec lines);
13. commands/: one module per command, an arguments record and `execute(args) -> exit code`;
14. at the top: results.py, api.py, cli.py (the options only) and __main__.py.

The Python API: `build`, `validate`, `diagnose` and its `Diagnosis` and `Finding` (api.py),
`Build`, `Diagnostic`, `FluidgenError`
(results.py) and `health`, `readiness`, `Health`, `Readiness` (catalog/healthcheck.py, the one health
table of the Argo CD and Flux checks). `import fluidgen` imports none of it; each name loads
its module on first use (python -X importtime: fluidgen 2 ms, results.py under 1 ms; api.py
loads the compiler, 150 ms and more), so naming FluidgenError does not load the compiler.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs milliseconds at start-up; mypy reads this name as True
if TYPE_CHECKING:
    from .api import build, diagnose, validate
    from .catalog.healthcheck import Health, Readiness, health, readiness
    from .diagnosis.findings import Diagnosis, Finding
    from .results import Build, Diagnostic, FluidgenError

__version__ = "0.1.0"
__all__ = ["Build", "Diagnosis", "Diagnostic", "Finding", "FluidgenError", "Health", "Readiness", "__version__",
           "build", "diagnose", "health", "readiness", "validate"]
_API = frozenset({"build", "diagnose", "validate", "Diagnosis", "Finding"})
_RESULTS = frozenset({"Build", "Diagnostic", "FluidgenError"})
_HEALTH = frozenset({"Health", "Readiness", "health", "readiness"})


def __getattr__(name: str) -> object:
    if name in _API:
        from . import api

        return getattr(api, name)
    if name in _RESULTS:
        from . import results

        return getattr(results, name)
    if name in _HEALTH:
        from .catalog import healthcheck

        return getattr(healthcheck, name)
    raise AttributeError(f"module 'fluidgen' has no attribute {name!r}")
