// Everything about one claim: its slot's versions, the SUPERSEDES edges between them, the
// provenance episodes of every version, the revisions that touched it, its dependents and its premises.
// Params: $namespace, $id
// Returns: claim (with what it contradicts: read/claim_overruled), chain, supersedes, episodes,
//          revisions, dependents, premises
//@include read/hidden
MATCH (c:Claim {id: $id, namespace: $namespace})
WHERE NOT (c.namespace IN hidden.whole
     OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
     OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
     OR c.id IN hidden.ids)
//@include read/claim_overruled
OPTIONAL MATCH (c)-[:IN_SLOT]->(s:Slot)
CALL (s, hidden) {
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(v:Claim)
  WHERE NOT (v.namespace IN hidden.whole
       OR [v.namespace, coalesce(v.subject_key, '')] IN hidden.keys
       OR (v.namespace IN hidden.text AND coalesce(v.subject_key, 'text:') STARTS WITH 'text:')
       OR v.id IN hidden.ids)
  WITH v ORDER BY v.recorded_at, v.version
  RETURN collect(v {.*, embedding: null}) AS chain
}
CALL (s) {
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(a:Claim)-[e:SUPERSEDES]->(b:Claim)
  WITH a, e, b ORDER BY a.recorded_at
  RETURN collect(CASE WHEN e IS NOT NULL THEN
    {from: a.id, to: b.id, verdict: e.verdict, revision_id: e.revision_id} END) AS supersedes
}
CALL (s, hidden) {
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(v:Claim)-[:DERIVED_FROM]->(e:Episode)
  WHERE NOT (v.namespace IN hidden.whole
       OR [v.namespace, coalesce(v.subject_key, '')] IN hidden.keys
       OR (v.namespace IN hidden.text AND coalesce(v.subject_key, 'text:') STARTS WITH 'text:')
       OR v.id IN hidden.ids)
  WITH v, e ORDER BY e.occurred_at
  RETURN collect(CASE WHEN e IS NOT NULL THEN
    e {.id, .occurred_at, .source, .content, claim_id: v.id} END) AS episodes
}
CALL (c) {
  OPTIONAL MATCH (r:Revision {namespace: $namespace})-->(c)
  WITH DISTINCT r ORDER BY r.at
  RETURN collect(r {.id, .op, .at, .actor, .verdict, .decision, .reason}) AS revisions
}
CALL (c, hidden) {
  OPTIONAL MATCH (d:Claim {namespace: $namespace})-[:DEPENDS_ON]->(c)
  WHERE NOT (d.namespace IN hidden.whole
       OR [d.namespace, coalesce(d.subject_key, '')] IN hidden.keys
       OR (d.namespace IN hidden.text AND coalesce(d.subject_key, 'text:') STARTS WITH 'text:')
       OR d.id IN hidden.ids)
  RETURN collect(d {.*, embedding: null}) AS dependents
}
CALL (c, hidden) {
  OPTIONAL MATCH (c)-[:DEPENDS_ON]->(p:Claim {namespace: $namespace})
  WHERE NOT (p.namespace IN hidden.whole
       OR [p.namespace, coalesce(p.subject_key, '')] IN hidden.keys
       OR (p.namespace IN hidden.text AND coalesce(p.subject_key, 'text:') STARTS WITH 'text:')
       OR p.id IN hidden.ids)
  RETURN collect(p {.*, embedding: null}) AS premises
}
RETURN c {.*, embedding: null, contradicts: overruled} AS claim, chain, supersedes, episodes,
       revisions, dependents, premises
