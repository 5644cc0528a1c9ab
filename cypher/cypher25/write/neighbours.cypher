// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace, filtered inside the vector index (Neo4j 2026.01+, claim_embedding declares namespace
// and status): every hit is an active claim of the namespace, so $fetch is a few more than k.
// Params: $queries (list of {index, namespace, embedding, k}), $fetch
// Returns: index, slot_ids (nearest first, at most k)
CYPHER 25
UNWIND $queries AS q
CALL (q) {
  MATCH (node:Claim)
    SEARCH node IN (
      VECTOR INDEX claim_embedding
      FOR q.embedding
      WHERE node.namespace = q.namespace AND node.status = 'active'
      LIMIT $fetch
    ) SCORE AS score
  RETURN node, score
}
WITH q, node ORDER BY score DESC
WITH q, collect(DISTINCT node.slot_id) AS slot_ids
RETURN q.index AS index, slot_ids[..q.k] AS slot_ids
