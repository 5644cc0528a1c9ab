// Claim counts by status in a namespace, and how many carry an embedding.
// Params: $namespace   Returns: status, claims, embedded
MATCH (c:Claim {namespace: $namespace})
USING INDEX SEEK c:Claim(namespace, status)
WHERE c.status IS NOT NULL
RETURN c.status AS status, count(c) AS claims, count(c.embedding) AS embedded
