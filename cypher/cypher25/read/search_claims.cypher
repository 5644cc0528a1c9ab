// Semantic retrieval in one namespace, filtered inside the vector index (Neo4j 2026.01+, whose
// claim_embedding index declares namespace and status): the top $fetch of this namespace's
// claims whose status is one of $statuses, then the same test as read/search_claims, best $k kept.
// Params: $namespace, $embedding, $fetch, $k, $statuses, $mode ('current' | 'history' | 'as_of'),
//         $now, $valid_at, $known_at
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits (list of {claim, score, rivals}, best first; a hit's moments as ISO-8601 text:
//          the driver hydrates native datetimes slowly, and a search returns k claims)
CYPHER 25
MATCH (node:Claim)
  SEARCH node IN (
    VECTOR INDEX claim_embedding
    FOR $embedding
    WHERE node.namespace = $namespace AND node.status IN $statuses
    LIMIT $fetch
  ) SCORE AS score
WITH collect({c: node, score: score}) AS near
CALL (near) {
  UNWIND near AS hit
  WITH hit.c AS c, hit.score AS score
  WITH c, score, CASE $mode WHEN 'current' THEN $now ELSE $valid_at END AS t,
       CASE $mode WHEN 'current' THEN $now ELSE $known_at END AS known
  WHERE c.namespace = $namespace
    AND CASE $mode
      WHEN 'history' THEN c.status <> 'erased'
      // current is as_of(now, now): the same test and the same tie-break as as_of_claims
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
  RETURN collect({claim: c {.*, embedding: null,
                    valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
                    recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
                    reinforced_at: toString(c.reinforced_at),
                    superseded_at: toString(c.superseded_at),
                    retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)},
                   score: score, rivals: rivals}) AS hits
}
RETURN size(near) AS fetched, hits
