// Claims flagged because a premise they depend on was retired, oldest first.
// Params: $namespace   Returns: claim
//@include read/hidden
MATCH (c:Claim {namespace: $namespace})
WHERE c.needs_review = true AND c.status IN ['active', 'pending']
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
RETURN c {.*, embedding: null} AS claim
ORDER BY c.recorded_at
