// Doctor: the schema's constraints and indexes and their states.
// Params: none   Returns: name, type, state, dimensions (of a vector index, else null)
SHOW INDEXES YIELD name, type, state, options
RETURN name, type, state, options.indexConfig['vector.dimensions'] AS dimensions
