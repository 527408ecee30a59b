"""The top floor below cli.py: one module per command, each an arguments record (a frozen
dataclass click fills) and `execute(args) -> exit code`; cli.py declares the options and
imports a command's module only when that command runs. Shared: the exit codes and flag
resolving (usage.py), the target flags of compiling commands (build.py's TargetArgs)."""
