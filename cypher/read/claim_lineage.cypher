// Everything about one claim: its slot's versions, the SUPERSEDES edges between them, the
// provenance episodes of every version, the revisions that touched it, its dependents and its premises.
// Params: $namespace, $id
// Returns: claim (with what it contradicts: read/claim_overruled), chain, supersedes, episodes,
//          revisions, dependents, premises
MATCH (c:Claim {id: $id, namespace: $namespace})
//@include read/claim_overruled
OPTIONAL MATCH (c)-[:IN_SLOT]->(s:Slot)
CALL (s) {
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(v:Claim)
  WITH v ORDER BY v.recorded_at, v.version
  RETURN collect(v {.*, embedding: null}) AS chain
}
CALL (s) {
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(a:Claim)-[e:SUPERSEDES]->(b:Claim)
  WITH a, e, b ORDER BY a.recorded_at
  RETURN collect(CASE WHEN e IS NOT NULL THEN
    {from: a.id, to: b.id, verdict: e.verdict, revision_id: e.revision_id} END) AS supersedes
}
CALL (s) {
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(v:Claim)-[:DERIVED_FROM]->(e:Episode)
  WITH v, e ORDER BY e.occurred_at
  RETURN collect(CASE WHEN e IS NOT NULL THEN
    e {.id, .occurred_at, .source, .content, claim_id: v.id} END) AS episodes
}
CALL (c) {
  OPTIONAL MATCH (r:Revision {namespace: $namespace})-->(c)
  WITH DISTINCT r ORDER BY r.at
  RETURN collect(r {.id, .op, .at, .actor, .verdict, .decision, .reason}) AS revisions
}
CALL (c) {
  OPTIONAL MATCH (d:Claim {namespace: $namespace})-[:DEPENDS_ON]->(c)
  RETURN collect(d {.*, embedding: null}) AS dependents
}
CALL (c) {
  OPTIONAL MATCH (c)-[:DEPENDS_ON]->(p:Claim {namespace: $namespace})
  RETURN collect(p {.*, embedding: null}) AS premises
}
RETURN c {.*, embedding: null, contradicts: overruled} AS claim, chain, supersedes, episodes,
       revisions, dependents, premises
