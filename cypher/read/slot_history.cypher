// A slot's every claim, oldest first (versions, then pending and rejected by record time).
// Params: $namespace, $subject_key, $predicate   Returns: claim
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; the hint keeps the planner from ever starting with a
// scan (docs/engine.md#plans).
CYPHER replan=skip
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
      <-[:IN_SLOT]-(c:Claim)
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.recorded_at, c.version
