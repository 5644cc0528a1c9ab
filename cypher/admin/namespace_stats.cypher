// Claim counts by status in a namespace, and how many carry an embedding.
// Params: $namespace   Returns: status, claims, embedded
MATCH (c:Claim {namespace: $namespace})
RETURN c.status AS status, count(c) AS claims, count(c.embedding) AS embedded
