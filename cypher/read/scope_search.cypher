// Semantic retrieval through a scope chain: vector top-$fetch over every namespace, filtered to
// the namespaces of $namespaces and to what $mode asks for (read/search_hits' tests, its
// tie-break and its pending rivals), best $k kept.
// Each hit names its fact, so the caller can resolve it through the chain (scope_facts).
// Params: $namespaces (the chain, nearest first), $embedding, $fetch, $k,
//         $mode ('current' | 'history' | 'as_of'), $now, $valid_at, $known_at, $walk_up_to
//         (read/search_holds)
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          reach (how many of those were as near as the last hit: the fetch that would have
//          held the hits), hits (list of {claim, score, layer, subject_key, predicate,
//          cardinality, episodes, rivals}, best first)
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS near
CALL (near) {
  UNWIND near AS hit
  WITH hit.c AS c, hit.score AS score
  WHERE c.namespace IN $namespaces
//@include read/search_holds
  WITH c, score ORDER BY score DESC LIMIT $k
  MATCH (c)-[:IN_SLOT]->(s:Slot {namespace: c.namespace})
  CALL (c) {
    OPTIONAL MATCH (c)-[x:CONTRADICTS]-(r:Claim {namespace: c.namespace})
    WHERE x.resolution IS NULL AND r.status IN ['active', 'pending']
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
RETURN size(near) AS fetched, hits,
       CASE size(hits) WHEN 0 THEN size(near)
       ELSE size([x IN near WHERE x.score >= hits[-1].score]) END AS reach
