"""Floor 1, the toolkit: engine-neutral helpers that import nothing of fluidgen above them:
diagnostics, YAML writing, manifests and their index, merging, names, quantities, versions, URIs,
pipeline options, the rule shape, spec value types, Fluid source records and the structural schema code."""
