// One claim by id within one namespace (never its embedding).
// Params: $namespace, $id
// Returns: claim (with what it contradicts: read/claim_overruled), its moments as ISO-8601 text
// (read/as_of_claims says why)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; the hint keeps the planner from ever starting with a
// scan (docs/engine.md#plans).
CYPHER replan=skip
//@include read/hidden
MATCH (c:Claim {id: $id, namespace: $namespace})
USING INDEX SEEK c:Claim(id)
WHERE NOT (c.namespace IN hidden.whole
     OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
     OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
     OR c.id IN hidden.ids)
//@include read/claim_overruled
RETURN c {.*, embedding: null, contradicts: overruled,
          valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
          recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
          reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
          retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)} AS claim
