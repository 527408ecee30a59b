"""Floor 8, the whole spec: its model assembled from the engine table, its JSON schema, and the
bundled and user profiles."""
