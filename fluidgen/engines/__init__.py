"""One module per Fluid runtime. Importing one imports nothing else of this package: the
table of engines is fluidgen/engine_table.py, above the engine modules."""
