// What held at world time $valid_at according to what was known at transaction time $known_at.
// Known at T: accepted by T and not retracted by T. Its end counts only if the change that set it
// was recorded by T (superseded_at <= T); a valid_to given with the claim itself counts from the
// start. When several match, the latest accepted wins (a later restore or correction).
// Params: $namespace, $subject_key, $predicate, $valid_at, $known_at
// Returns: claim (best first)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; the hint keeps the planner from ever starting with a
// scan (docs/engine.md#plans).
CYPHER replan=skip
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
      <-[:IN_SLOT]-(c:Claim)
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE c.status IN ['active', 'superseded', 'retracted']
  AND c.accepted_at <= $known_at
  AND (c.retracted_at IS NULL OR c.retracted_at > $known_at)
  AND c.valid_from <= $valid_at
  AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > $known_at)
       OR $valid_at < c.valid_to)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.accepted_at DESC, c.version DESC
