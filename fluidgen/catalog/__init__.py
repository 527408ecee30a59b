"""Floor 6, readers of the engine table: every kind fluidgen emits, the Fluid API model of each
version, object checks and the health judgement (with its cases in health/)."""
