"""fluidgen: compile short specs into validated, tuned Fluid manifests."""

from __future__ import annotations

__version__ = "0.1.0"
