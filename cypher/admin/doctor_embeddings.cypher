// Doctor: per namespace, the claims that should carry an embedding (not erased, with a
// sentence) and those that do.
// Params: none   Returns: namespace, claims, embedded (one row per namespace holding claims)
MATCH (c:Claim)
WHERE c.status <> 'erased' AND c.text IS NOT NULL
RETURN c.namespace AS namespace, count(c) AS claims, count(c.embedding) AS embedded
ORDER BY namespace
