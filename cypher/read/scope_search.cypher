// Semantic retrieval through a scope chain: vector top-$fetch over every namespace, then the
// hits of the chain's namespaces (read/scope_hits).
// Params: $namespaces (the chain, nearest first), $embedding, $fetch, $k,
//         $mode ('current' | 'history' | 'as_of'), $now, $valid_at, $known_at, $walk_up_to
//         (read/scope_hits)
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          reach (how many of those were as near as the last hit: the fetch that would have
//          held the hits), hits (read/scope_hits')
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS near
//@include read/scope_hits
RETURN size(near) AS fetched, hits,
       CASE size(hits) WHEN 0 THEN size(near)
       ELSE size([x IN near WHERE x.score >= hits[-1].score]) END AS reach
