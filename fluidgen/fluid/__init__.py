"""What fluidgen knows about Fluid itself, apart from the engines: the shared schema
pieces, the Dataset, the data operations, and each version's assembled API."""
