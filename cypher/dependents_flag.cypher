// Flag the direct dependents of retired premises for review (no recursive cascade): claims that
// DEPEND_ON a retired claim, and claims a retired claim SUPPORTS.
// Params: $namespace, $premise_ids, $revision_id, $why ('retracted' | 'superseded' | ...)
// Returns: flagged (ids)
UNWIND $premise_ids AS premise_id
MATCH (p:Claim {id: premise_id, namespace: $namespace})
CALL (p) {
  MATCH (d:Claim)-[:DEPENDS_ON]->(p) RETURN d, 'depends on' AS link
  UNION
  MATCH (p)-[:SUPPORTS]->(d:Claim) RETURN d, 'is supported by' AS link
}
WITH p, d, link
WHERE d.namespace = $namespace AND d.status IN ['active', 'pending']
SET d.needs_review = true, d.review_revision = $revision_id,
    d.review_reason = 'it ' + link + ' claim ' + p.id + ', which was ' + $why + ' by revision '
                      + $revision_id
RETURN collect(DISTINCT d.id) AS flagged
