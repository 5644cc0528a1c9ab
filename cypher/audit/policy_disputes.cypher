// Audit: policy_disputes. Policies in force (kind policy, active) that evidence disputes or that
// were demoted to disputed, oldest first, each with the evidence held against it (pending
// claims with an open CONTRADICTS edge to it) and that evidence's provenance episodes.
// Params: $namespace (string)
// Returns: id, text, demoted, review_reason, evidence_ids, evidence, episodes, policy (path),
//          disputes (paths)
MATCH policy = (p:Claim {namespace: $namespace, status: 'active'})-[:IN_SLOT]->(:Slot)
WHERE p.kind = 'policy'
CALL (p) {
  OPTIONAL MATCH dispute = (e:Claim {namespace: $namespace})-[x:CONTRADICTS]->(p)
  WHERE x.resolution IS NULL AND e.disputes_policy = true AND e.status = 'pending'
  OPTIONAL MATCH (e)-[:DERIVED_FROM]->(ep:Episode)
  RETURN collect(DISTINCT dispute) AS disputes, collect(DISTINCT e.id) AS evidence_ids,
         collect(DISTINCT e.text) AS evidence, count(DISTINCT ep) AS episodes
}
WITH p, policy, disputes, evidence_ids, evidence, episodes
WHERE size(disputes) > 0 OR p.demoted = true
RETURN p.id AS id, p.text AS text, coalesce(p.demoted, false) AS demoted,
       p.review_reason AS review_reason, evidence_ids, evidence, episodes, policy, disputes
ORDER BY p.recorded_at
