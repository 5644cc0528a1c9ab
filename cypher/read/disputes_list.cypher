// Policies in force that evidence disputes (open CONTRADICTS from claims held against them) or
// that were demoted to disputed, oldest first, each with the evidence against it.
// Params: $namespace   Returns: policy, evidence (list of claims, oldest first)
//@include read/hidden
MATCH (p:Claim {namespace: $namespace, status: 'active'})
WHERE p.kind = 'policy' AND NOT (p.namespace IN hidden.whole
     OR [p.namespace, coalesce(p.subject_key, '')] IN hidden.keys
     OR (p.namespace IN hidden.text AND coalesce(p.subject_key, 'text:') STARTS WITH 'text:')
     OR p.id IN hidden.ids)
CALL (p, hidden) {
  OPTIONAL MATCH (e:Claim {namespace: $namespace})-[x:CONTRADICTS]->(p)
  WHERE x.resolution IS NULL AND e.disputes_policy = true AND e.status = 'pending'
    AND NOT (e.namespace IN hidden.whole
         OR [e.namespace, coalesce(e.subject_key, '')] IN hidden.keys
         OR (e.namespace IN hidden.text AND coalesce(e.subject_key, 'text:') STARTS WITH 'text:')
         OR e.id IN hidden.ids)
  WITH e ORDER BY e.recorded_at
  RETURN collect(e {.*, embedding: null}) AS evidence
}
WITH p, evidence
WHERE size(evidence) > 0 OR p.demoted = true
RETURN p {.*, embedding: null} AS policy, evidence
ORDER BY p.recorded_at
