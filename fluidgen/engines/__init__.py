"""Floor 5, the engines: the contract, one module per Fluid runtime, and the table above them.
Importing one engine module imports nothing else of this package: the table of engines is
engines/engine_table.py, above the engine modules."""
