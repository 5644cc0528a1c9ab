// Semantic retrieval in one namespace, filtered inside the vector index (Neo4j 2026.01+, whose
// claim_embedding index declares namespace and status): the top $fetch of this namespace's
// claims whose status is one of $statuses, then the same test as read/search_claims, best $k
// kept (read/search_hits).
// Params: $namespace, $embedding, $fetch, $k, $statuses, $mode ('current' | 'history' | 'as_of'),
//         $now, $valid_at, $known_at, $walk_up_to (read/search_hits)
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits and reach (read/search_hits')
CYPHER 25
MATCH (node:Claim)
  SEARCH node IN (
    VECTOR INDEX claim_embedding
    FOR $embedding
    WHERE node.namespace = $namespace AND node.status IN $statuses
    LIMIT $fetch
  ) SCORE AS score
WITH collect({c: node, score: score}) AS near
//@include read/hidden
//@include read/search_hits
RETURN size(near) AS fetched, hits, reach
