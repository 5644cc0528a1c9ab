// Claims waiting for confirmation, oldest first.
// Params: $namespace   Returns: claim
MATCH (c:Claim {namespace: $namespace, status: 'pending'})
RETURN c {.*, embedding: null} AS claim
ORDER BY c.recorded_at
