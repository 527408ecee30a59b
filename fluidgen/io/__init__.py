"""Floor 3, reading and remembering input: the YAML reader, inputs and build inputs, settings,
the build cache, sops, credentials sources, user CRDs, git trees, Kubernetes Lists and reports."""
