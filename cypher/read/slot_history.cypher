// A slot's every claim, oldest first (versions, then pending and rejected by record time).
// Params: $namespace, $subject_key, $predicate   Returns: claim
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics (docs/engine.md#plans).
CYPHER replan=skip
MATCH (:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
      <-[:IN_SLOT]-(c:Claim)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.recorded_at, c.version
