"""fluidgen: compile short specs into validated, tuned Fluid manifests."""

from __future__ import annotations

__version__ = "0.1.0"

# Supported Fluid API versions, oldest first. The first is the default target.
FLUID_VERSIONS: tuple[str, ...] = ("v1.0.8", "v1.1.0-dev")
DEFAULT_FLUID_VERSION = "v1.0.8"
