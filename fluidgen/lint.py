"""Semantic lint rules over Fluid manifests (placeholder until rules land)."""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostic
from .source import Document


def lint_objects(objects: list[dict[str, Any]], doc: Document, version: str,
                 ignore: set[str]) -> list[Diagnostic]:
    return []
