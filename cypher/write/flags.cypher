// Flag the direct dependents of retired premises for review (no recursive cascade): claims that
// DEPEND_ON a retired claim, and claims a retired claim SUPPORTS.
// Params: $batch, one map (docs/engine.md#plans) of: retired (list of {id, revision_id, why})
// Returns: revision_id, flagged (ids)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; and the lists come in one map, so no list's length
// makes Neo4j plan it again (docs/engine.md#plans).
CYPHER replan=skip
UNWIND $batch.retired AS x
MATCH (p:Claim {id: x.id, namespace: x.namespace})
USING INDEX SEEK p:Claim(id)
CALL (p) {
  MATCH (d:Claim)-[:DEPENDS_ON]->(p) RETURN d, 'depends on' AS link
  UNION
  MATCH (p)-[:SUPPORTS]->(d:Claim) RETURN d, 'is supported by' AS link
}
WITH x, p, d, link
WHERE d.namespace = p.namespace AND d.status IN ['active', 'pending']
SET d.needs_review = true, d.review_revision = x.revision_id,
    d.review_reason = 'it ' + link + ' claim ' + p.id + ', which was ' + x.why + ' by revision '
                      + x.revision_id
RETURN x.revision_id AS revision_id, collect(DISTINCT d.id) AS flagged
