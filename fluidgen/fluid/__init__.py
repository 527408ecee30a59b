"""Floor 2, what fluidgen knows about Fluid and Kubeflow themselves, apart from the engines, as
data: the shared schema pieces, the Dataset, the data operations, edit syncing, engine-neutral
behaviour (fluidbase) and the training job kinds (jobkinds)."""
