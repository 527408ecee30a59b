"""`fluidgen import`: existing Fluid manifests in, specs out, proven by a round trip.

Stages, one module each:
- objects.py: read files, open kubectl Lists, drop what the server set, group the objects
  around each Dataset (its runtime, data operations, Secrets, NFS volume and claim).
- mapping.py: the spec keys each object's fields become (the engine module owns its section).
- residual.py: build the spec, compare with the input, and move what is left into overrides;
  the bundled profile that leaves the least is chosen.
- roundtrip.py: the comparison itself, modulo the documented normalisations.
- compact.py: the spec as short YAML.

No credential value is ever written: options that are secrets become env var names, and
the round trip hands the values to the build in memory only.
"""
