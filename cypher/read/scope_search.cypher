// Semantic retrieval through a scope chain: vector top-$fetch over every namespace, filtered to
// the namespaces of $namespaces and to what $mode asks for (search_claims' tests), best $k kept.
// Each hit names its fact, so the caller can resolve it through the chain (scope_facts).
// Params: $namespaces (the chain, nearest first), $embedding, $fetch, $k,
//         $mode ('current' | 'history' | 'as_of'), $now, $valid_at, $known_at
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits (list of {claim, score, layer, subject_key, predicate, cardinality, episodes,
//          rivals}, best first)
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS near
CALL (near) {
  UNWIND near AS hit
  WITH hit.c AS c, hit.score AS score
  WITH c, score, CASE $mode WHEN 'current' THEN $now ELSE $valid_at END AS t,
       CASE $mode WHEN 'current' THEN $now ELSE $known_at END AS known
  WHERE c.namespace IN $namespaces
    AND CASE $mode
      WHEN 'history' THEN c.status <> 'erased'
      ELSE c.status IN ['active', 'superseded', 'retracted']
           AND c.accepted_at <= known
           AND (c.retracted_at IS NULL OR c.retracted_at > known)
           AND c.valid_from <= t
           AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > known)
                OR t < c.valid_to)
           AND NOT EXISTS {
             MATCH (c)-[:IN_SLOT]->(:Slot {cardinality: 'single'})<-[:IN_SLOT]-(o:Claim)
             WHERE o <> c AND o.status IN ['active', 'superseded', 'retracted']
               AND o.accepted_at <= known
               AND (o.retracted_at IS NULL OR o.retracted_at > known)
               AND o.valid_from <= t
               AND (o.valid_to IS NULL OR (o.superseded_at IS NOT NULL AND o.superseded_at > known)
                    OR t < o.valid_to)
               AND (o.accepted_at > c.accepted_at
                    OR (o.accepted_at = c.accepted_at AND o.version > c.version))
           }
    END
  WITH c, score ORDER BY score DESC LIMIT $k
  MATCH (c)-[:IN_SLOT]->(s:Slot {namespace: c.namespace})
  CALL (c) {
    OPTIONAL MATCH (c)-[x:CONTRADICTS]-(r:Claim {namespace: c.namespace})
    WHERE x.resolution IS NULL AND r.status IN ['active', 'pending']
    RETURN collect(r {.*, embedding: null}) AS contradicting
  }
  CALL (c, s) {
    OPTIONAL MATCH (s)<-[:IN_SLOT]-(p:Claim {namespace: c.namespace, status: 'pending'})
    WHERE p <> c
    RETURN collect(p {.*, embedding: null}) AS waiting
  }
  WITH c, s, score, contradicting + waiting AS rivals ORDER BY score DESC
  RETURN collect({claim: c {.*, embedding: null}, score: score,
                  layer: [i IN range(0, size($namespaces) - 1) WHERE $namespaces[i] = c.namespace][0],
                  subject_key: s.subject_key, predicate: s.predicate,
                  cardinality: s.cardinality,
                  episodes: COUNT { (c)-[:DERIVED_FROM]->(:Episode) },
                  rivals: rivals}) AS hits
}
RETURN size(near) AS fetched, hits
