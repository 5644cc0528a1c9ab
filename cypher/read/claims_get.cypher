// Claims by id within one namespace (never an embedding).
// Params: $namespace, $ids   Returns: claim
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics (docs/engine.md#plans).
CYPHER replan=skip
UNWIND $ids AS id
MATCH (c:Claim {id: id, namespace: $namespace})
RETURN c {.*, embedding: null} AS claim
