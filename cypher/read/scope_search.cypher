// Semantic retrieval through a scope chain: vector top-$fetch over every namespace, then the
// hits of the chain's namespaces (read/scope_hits).
// Params: $namespaces (the chain, nearest first), $embedding, $fetch, $k,
//         $mode ('current' | 'history' | 'as_of'), $now, $valid_at, $known_at, $walk_up_to
//         (read/scope_hits)
// Returns: one row: fetched (how many the index gave; fewer than $fetch means it has no more),
//          hits, reach and answers (read/scope_hits')
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS near
//@include read/hidden
//@include read/scope_hits
RETURN size(near) AS fetched, hits, reach, answers
