"""Floor 10, the compiler: the pipeline and its project files, output writing, Helm, plans,
drift and file checks."""
