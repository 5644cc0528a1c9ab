// Claims waiting for confirmation, oldest first.
// Params: $namespace   Returns: claim
//@include read/hidden
MATCH (c:Claim {namespace: $namespace, status: 'pending'})
WHERE NOT (c.namespace IN hidden.whole
     OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
     OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
     OR c.id IN hidden.ids)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.recorded_at
