// What held at world time $valid_at according to what was known at transaction time $known_at.
// Known at T: accepted by T and not retracted by T. Its end counts only if the change that set it
// was recorded by T (superseded_at <= T); a valid_to given with the claim itself counts from the
// start. When several match, the latest accepted wins (a later restore or correction).
// Params: $namespace, $subject_key, $predicate, $valid_at, $known_at (ISO-8601 text)
// Returns: claim (best first), its moments as ISO-8601 text: the driver packs and hydrates
// native datetimes slowly, and a read like this one is little more than its round trip.
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; the hint keeps the planner from ever starting with a
// scan (docs/engine.md#plans).
CYPHER replan=skip
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
      <-[:IN_SLOT]-(c:Claim)
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE c.status IN ['active', 'superseded', 'retracted']
  AND c.accepted_at <= known_at
  AND (c.retracted_at IS NULL OR c.retracted_at > known_at)
  AND c.valid_from <= valid_at
  AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > known_at)
       OR valid_at < c.valid_to)
RETURN c {.*, embedding: null,
          valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
          recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
          reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
          retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)} AS claim
ORDER BY c.accepted_at DESC, c.version DESC
