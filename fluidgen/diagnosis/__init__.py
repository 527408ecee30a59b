"""`fluidgen diagnose`: from what the cluster shows back to the spec line that caused it.

facts.py: what Fluid, Kubernetes, Helm, libfuse and storage services write, each with its
source, and the failure families; dump.py: the dump and logs read, bounded, secrets masked;
cluster.py: which live objects the specs generated or Fluid made for them; rules.py: one
function per family; findings.py: the values returned; run.py: the command and `--collect`.
"""
