// Doctor: the schema's constraints and indexes and their states.
// Params: none   Returns: name, type, state
SHOW INDEXES YIELD name, type, state
RETURN name, type, state
