"""Kubernetes structural schemas: how fluidgen describes, loads and checks object shapes.

- `dsl`: helpers that write the OpenAPI v3 subset Kubernetes uses for CRDs.
- `validate`: one checker for that subset, used for fluidgen's built-in Fluid model, for
  CRDs a user points at, and for core kinds.
- `kube`: the core Kubernetes types, from the schemas kubernetes-validate ships.
- io/crds.py: CustomResourceDefinition files a user points at (--crds).
"""
