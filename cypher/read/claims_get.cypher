// Claims by id within one namespace (never an embedding).
// Params: $namespace, $ids   Returns: claim
UNWIND $ids AS id
MATCH (c:Claim {id: id, namespace: $namespace})
RETURN c {.*, embedding: null} AS claim
