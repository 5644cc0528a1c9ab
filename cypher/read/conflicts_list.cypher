// Recorded contradictions in a namespace, newest first; $open_only keeps the unresolved ones.
// Params: $namespace, $open_only   Returns: claim, rival, score, revision_id, resolution
//@include read/hidden
MATCH (a:Claim {namespace: $namespace})-[x:CONTRADICTS]->(b:Claim {namespace: $namespace})
WHERE a.status <> 'erased' AND b.status <> 'erased'
  AND NOT (a.namespace IN hidden.whole
       OR [a.namespace, coalesce(a.subject_key, '')] IN hidden.keys
       OR (a.namespace IN hidden.text AND coalesce(a.subject_key, 'text:') STARTS WITH 'text:')
       OR a.id IN hidden.ids)
  AND NOT (b.namespace IN hidden.whole
       OR [b.namespace, coalesce(b.subject_key, '')] IN hidden.keys
       OR (b.namespace IN hidden.text AND coalesce(b.subject_key, 'text:') STARTS WITH 'text:')
       OR b.id IN hidden.ids)
  AND (NOT $open_only OR x.resolution IS NULL)
RETURN a {.*, embedding: null} AS claim, b {.*, embedding: null} AS rival, x.score AS score,
       x.revision_id AS revision_id, x.resolution AS resolution
ORDER BY a.recorded_at DESC
