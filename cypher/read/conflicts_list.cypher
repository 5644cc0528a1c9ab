// Recorded contradictions in a namespace, newest first; $open_only keeps the unresolved ones.
// Params: $namespace, $open_only   Returns: claim, rival, score, revision_id, resolution
MATCH (a:Claim {namespace: $namespace})-[x:CONTRADICTS]->(b:Claim {namespace: $namespace})
WHERE a.status <> 'erased' AND b.status <> 'erased'
  AND (NOT $open_only OR x.resolution IS NULL)
RETURN a {.*, embedding: null} AS claim, b {.*, embedding: null} AS rival, x.score AS score,
       x.revision_id AS revision_id, x.resolution AS resolution
ORDER BY a.recorded_at DESC
