// The current belief(s) of a slot: active, and valid at $now.
// Params: $namespace, $subject_key, $predicate, $now   Returns: claim (newest first)
MATCH (:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
      <-[:IN_SLOT]-(c:Claim {status: 'active'})
WHERE c.valid_from <= $now AND (c.valid_to IS NULL OR c.valid_to > $now)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.accepted_at DESC, c.version DESC
