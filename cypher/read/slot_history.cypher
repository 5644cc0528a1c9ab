// A slot's every claim, oldest first (versions, then pending and rejected by record time).
// Params: $namespace, $subject_key, $predicate
// Returns: claim, its moments as ISO-8601 text (read/as_of_claims says why)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; the hint keeps the planner from ever starting with a
// scan (docs/engine.md#plans).
CYPHER replan=skip
//@include read/hidden
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
      <-[:IN_SLOT]-(c:Claim)
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE NOT (c.namespace IN hidden.whole
     OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
     OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
     OR c.id IN hidden.ids)
RETURN c {.*, embedding: null,
          valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
          recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
          reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
          retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)} AS claim
ORDER BY c.recorded_at, c.version
