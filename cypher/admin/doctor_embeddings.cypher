// Doctor: claims that should carry an embedding (not erased) and those that do, database-wide.
// Params: none   Returns: claims, embedded
MATCH (c:Claim)
WHERE c.status <> 'erased'
RETURN count(c) AS claims, count(c.embedding) AS embedded
