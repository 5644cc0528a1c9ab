// Policies in force that evidence disputes (open CONTRADICTS from claims held against them) or
// that were demoted to disputed, oldest first, each with the evidence against it.
// Params: $namespace   Returns: policy, evidence (list of claims, oldest first)
MATCH (p:Claim {namespace: $namespace, status: 'active'})
WHERE p.kind = 'policy'
CALL (p) {
  OPTIONAL MATCH (e:Claim {namespace: $namespace})-[x:CONTRADICTS]->(p)
  WHERE x.resolution IS NULL AND e.disputes_policy = true AND e.status = 'pending'
  WITH e ORDER BY e.recorded_at
  RETURN collect(e {.*, embedding: null}) AS evidence
}
WITH p, evidence
WHERE size(evidence) > 0 OR p.demoted = true
RETURN p {.*, embedding: null} AS policy, evidence
ORDER BY p.recorded_at
