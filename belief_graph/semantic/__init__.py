"""The models: sentence embeddings and the contradiction (NLI) scorer, loaded from this machine."""
