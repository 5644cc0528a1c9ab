// Wait until every index is online (the vector index may take a moment after creation).
// Params: $timeout (seconds)   Returns: nothing
CALL db.awaitIndexes($timeout)
