// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace. The vector index spans every namespace, so it is over-fetched (`fetch`) and filtered.
// Params: $queries (list of {index, namespace, embedding, fetch, k})
// Returns: index, slot_ids (nearest first, at most k)
UNWIND $queries AS q
CALL db.index.vector.queryNodes('claim_embedding', q.fetch, q.embedding) YIELD node, score
WITH q, node, score
WHERE node.namespace = q.namespace AND node.status = 'active'
WITH q, node ORDER BY score DESC
WITH q, collect(DISTINCT node.slot_id) AS slot_ids
RETURN q.index AS index, slot_ids[..q.k] AS slot_ids
