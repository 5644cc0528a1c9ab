// The server's version and the Cypher versions it speaks (what the engine may use).
// Params: none   Returns: name ('Neo4j Kernel', 'Cypher', ...), versions, edition
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions, edition
