// Doctor: the schema's constraints and indexes and their states.
// Params: none   Returns: name, type, state, properties, dimensions and quantization (of a
// vector index, else null; quantization is null on Neo4j 5, whose setting is on or off)
SHOW INDEXES YIELD name, type, state, properties, options
RETURN name, type, state, properties, options.indexConfig['vector.dimensions'] AS dimensions,
       options.indexConfig['vector.quantization.type'] AS quantization
