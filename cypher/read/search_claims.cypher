// Semantic retrieval in one namespace: vector top-$fetch over every namespace, then filtered to
// this one and to what $mode asks for, best $k kept, each hit with its open rivals
// (read/search_hits).
// Params: $namespace, $embedding, $fetch, $k, $mode ('current' | 'history' | 'as_of'), $now,
//         $valid_at, $known_at, $walk_up_to (read/search_hits)
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits and reach (read/search_hits')
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS near
//@include read/hidden
//@include read/search_hits
RETURN size(near) AS fetched, hits, reach
