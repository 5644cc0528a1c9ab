// Semantic retrieval through a scope chain, filtered inside the vector index (Neo4j 2026.01+,
// whose claim_embedding index declares namespace and status): the top $fetch of the chain's
// claims whose status is one of $statuses, then the same hits as read/scope_search
// (read/scope_hits).
// Params: $namespaces (the chain, nearest first), $embedding, $fetch, $k, $statuses,
//         $mode ('current' | 'history' | 'as_of'), $now, $valid_at, $known_at, $walk_up_to
//         (read/scope_hits)
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits, reach and answers (read/scope_hits')
CYPHER 25
MATCH (node:Claim)
  SEARCH node IN (
    VECTOR INDEX claim_embedding
    FOR $embedding
    WHERE node.namespace IN $namespaces AND node.status IN $statuses
    LIMIT $fetch
  ) SCORE AS score
WITH collect({c: node, score: score}) AS near
//@include read/hidden
//@include read/scope_hits
RETURN size(near) AS fetched, hits, reach, answers
