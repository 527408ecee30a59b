"""Floor 11, one module per command family that cli.py runs: build, diff and plan, argocd, flux,
init, explain, and the exit codes and flags they share (usage)."""
