// Semantic retrieval in one namespace: vector top-$fetch over every namespace, filtered to this one
// and to what $mode asks for, best $k kept; each hit with its open rivals (claims it contradicts
// or is contradicted by, and pending claims of its slot) and their validity windows.
// Params: $namespace, $embedding, $fetch, $k, $mode ('current' | 'history' | 'as_of'), $now,
//         $valid_at, $known_at
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits (list of {claim, score, rivals}, best first)
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS near
CALL (near) {
  UNWIND near AS hit
  WITH hit.c AS c, hit.score AS score
  WHERE c.namespace = $namespace
    AND CASE $mode
      WHEN 'current' THEN c.status = 'active' AND c.valid_from <= $now
                          AND (c.valid_to IS NULL OR c.valid_to > $now)
      WHEN 'history' THEN c.status <> 'erased'
      ELSE c.status IN ['active', 'superseded', 'retracted']
           AND c.accepted_at <= $known_at
           AND (c.retracted_at IS NULL OR c.retracted_at > $known_at)
           AND c.valid_from <= $valid_at
           AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > $known_at)
                OR $valid_at < c.valid_to)
    END
  WITH c, score ORDER BY score DESC LIMIT $k
  CALL (c) {
    OPTIONAL MATCH (c)-[x:CONTRADICTS]-(r:Claim)
    WHERE x.resolution IS NULL AND r.status IN ['active', 'pending']
    RETURN collect(r {.*, embedding: null}) AS contradicting
  }
  CALL (c) {
    OPTIONAL MATCH (c)-[:IN_SLOT]->(:Slot)<-[:IN_SLOT]-(p:Claim {status: 'pending'})
    WHERE p <> c
    RETURN collect(p {.*, embedding: null}) AS waiting
  }
  WITH c, score, contradicting + waiting AS rivals ORDER BY score DESC
  RETURN collect({claim: c {.*, embedding: null}, score: score, rivals: rivals}) AS hits
}
RETURN size(near) AS fetched, hits
