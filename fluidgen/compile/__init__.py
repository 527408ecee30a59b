"""Floor 10, the compiler: gathering the inputs, the pipeline and its project files, output
writing, Helm, plans, drift and file checks."""
