// The hits of a semantic search through a scope chain, from the claims fetched
// (read/scope_search and its Cypher 25 variant carry it; they differ in how they fetch): those
// of the chain's namespaces that pass what $mode asks for (read/search_holds: search's tests,
// its tie-break), best $k kept; each hit names its fact and carries its open rivals
// (read/pending_rivals too); unless $mode is 'history', each namespace's answer for the facts
// of the hits (read/scope_facts, with each claim's similarity to $embedding), through which the
// caller resolves each fact along the chain.
// Params, alone: $id (a claim to take as the one fetched), $namespaces (the chain, nearest
//         first), $k, $mode ('current' | 'history' | 'as_of'), $now, $valid_at, $known_at
//         (datetimes), $embedding, $walk_up_to (read/search_holds, read/scope_facts)
// Carried, from its //@shared line on: near (list of {c, score}: the claims fetched), and the
// same parameters but $id.
// Returns: hits (list of {claim, score, layer, subject_key, predicate, cardinality, episodes,
//          rivals}, best first), reach (as read/search_hits'), answers (read/scope_facts')
MATCH (node:Claim {id: $id})
WITH [{c: node, score: 1.0}] AS near
//@include read/hidden
//@shared
CALL (near, hidden) {
  UNWIND near AS hit
  // In score order first: the tests below (one subquery a claim) then run only until $k
  // claims pass, the planner keeping the order and the LIMIT stopping the pulls.
  WITH hit.c AS c, hit.score AS score ORDER BY score DESC
  WHERE c.namespace IN $namespaces AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
//@include read/search_holds
  WITH c, score, hidden ORDER BY score DESC LIMIT $k
  MATCH (c)-[:IN_SLOT]->(s:Slot {namespace: c.namespace})
  CALL (c, hidden) {
    OPTIONAL MATCH (c)-[x:CONTRADICTS]-(r:Claim {namespace: c.namespace})
    WHERE x.resolution IS NULL AND r.status IN ['active', 'pending'] AND NOT (r.namespace IN hidden.whole
         OR [r.namespace, coalesce(r.subject_key, '')] IN hidden.keys
         OR (r.namespace IN hidden.text AND coalesce(r.subject_key, 'text:') STARTS WITH 'text:')
         OR r.id IN hidden.ids)
    RETURN collect(r {.*, embedding: null}) AS contradicting
  }
//@include read/pending_rivals
  WITH c, s, score, contradicting + waiting AS rivals ORDER BY score DESC
  RETURN collect({claim: c {.*, embedding: null}, score: score,
                  layer: [i IN range(0, size($namespaces) - 1) WHERE $namespaces[i] = c.namespace][0],
                  subject_key: s.subject_key, predicate: s.predicate,
                  cardinality: s.cardinality,
                  episodes: COUNT { (c)-[:DERIVED_FROM]->(:Episode) },
                  rivals: rivals}) AS hits
}
WITH near, hits, hidden,
     CASE size(hits) WHEN 0 THEN size(near)
     ELSE size([x IN near WHERE x.score >= hits[-1].score]) END AS reach,
     CASE $mode WHEN 'history' THEN [] ELSE reduce(fs = [], h IN hits |
       CASE WHEN {subject_key: h.subject_key, predicate: h.predicate} IN fs THEN fs
       ELSE fs + [{subject_key: h.subject_key, predicate: h.predicate}] END) END AS facts
//@include read/scope_facts
RETURN hits, reach, answers
