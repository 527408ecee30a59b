"""fluidgen: compile short specs into validated, tuned Fluid manifests.

The modules stand on floors; each imports only from its own floor and those below, and no
import (module-level or inside a function) closes a circle (tests/test_architecture.py holds
the floors as data and checks them):

1. toolkit: diagnostics, merge, quantity, names, versions, emit, manifest (safe reads of
   parsed objects), uri (schemes, Fluid's dataset:// references), options, rules (the rule
   shape), spectypes, fluidsource/fluidbase, the schema vocabulary (structural.dsl, kube,
   validate; fluid/common.py);
2. machinery: the YAML reader (yamlreader.py), inputs, settings, the build cache, sops, user
   CRDs, Fluid's Dataset, operation, mount and sync facts, job kinds;
3. models: the spec parts that know no engine (specparts.py), the lowering context;
4. the engine contract (contract.py); 5. the engine modules (engines/*.py: the contract and
   the toolkit only); 6. the engine table (engine_table.py);
7. readers of the table: kinds, the Fluid API model (fluid/schemas.py), lint, the whole spec
   (spec.py: engine names and sections), profiles, health;
8. lowering (lower/*.py); 9. the pipeline, the commands and the Python API.

The Python API: `build`, `validate` (api.py), `Build`, `Diagnostic`, `FluidgenError`
(results.py) and `health`, `readiness`, `Health`, `Readiness` (healthcheck.py, the one health
table of the Argo CD and Flux checks). `import fluidgen` imports none of it; each name loads
its module on first use (python -X importtime: fluidgen 2 ms, results.py under 1 ms; api.py
loads the compiler, 150 ms and more), so naming FluidgenError does not load the compiler.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs milliseconds at start-up; mypy reads this name as True
if TYPE_CHECKING:
    from .api import build, validate
    from .healthcheck import Health, Readiness, health, readiness
    from .results import Build, Diagnostic, FluidgenError

__version__ = "0.1.0"
__all__ = ["Build", "Diagnostic", "FluidgenError", "Health", "Readiness", "__version__", "build", "health",
           "readiness", "validate"]
_API = frozenset({"build", "validate"})
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
        from . import healthcheck

        return getattr(healthcheck, name)
    raise AttributeError(f"module 'fluidgen' has no attribute {name!r}")
