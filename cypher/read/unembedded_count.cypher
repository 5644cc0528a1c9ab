// Embed (read): how many of a namespace's claims should carry a vector and have none (not
// erased, with a sentence).
// Params: $namespace   Returns: claims
MATCH (c:Claim {namespace: $namespace})
WHERE c.embedding IS NULL AND c.text IS NOT NULL AND c.status <> 'erased'
RETURN count(c) AS claims
