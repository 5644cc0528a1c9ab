// Every current belief about a subject.
// Params: $namespace, $subject_key, $now   Returns: claim
MATCH (c:Claim {namespace: $namespace, subject_key: $subject_key, status: 'active'})
WHERE c.valid_from <= $now AND (c.valid_to IS NULL OR c.valid_to > $now)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.predicate, c.accepted_at
