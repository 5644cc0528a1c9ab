// Claims flagged because a premise they depend on was retired, oldest first.
// Params: $namespace   Returns: claim
MATCH (c:Claim {namespace: $namespace})
WHERE c.needs_review = true AND c.status IN ['active', 'pending']
RETURN c {.*, embedding: null} AS claim
ORDER BY c.recorded_at
