// One claim by id within one namespace (never its embedding).
// Params: $namespace, $id   Returns: claim
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; the hint keeps the planner from ever starting with a
// scan (docs/engine.md#plans).
CYPHER replan=skip
MATCH (c:Claim {id: $id, namespace: $namespace})
USING INDEX SEEK c:Claim(id)
RETURN c {.*, embedding: null} AS claim
