// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace, filtered inside the vector index (Neo4j 2026.01+, claim_embedding declares namespace
// and status): every hit is an active claim of the namespace, so $fetch is a few more than k.
// cypher25/write/state carries this statement (see write/neighbours).
// Params: $batch.near (list of {draft, namespace, embedding, fetch, k, rank}), $fetch
// Returns: near, ranked (see write/neighbours)
CYPHER 25
CALL () {
  UNWIND $batch.near AS q
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
  WITH q, count(*) < $fetch AS whole, collect(DISTINCT node.slot_id) AS slot_ids
  WITH collect({draft: q.draft, namespace: q.namespace, ids: slot_ids[..q.rank], k: q.k,
                complete: whole AND size(slot_ids) <= q.rank}) AS ranked
  RETURN ranked, COLLECT {
    UNWIND ranked AS r
    UNWIND r.ids[..r.k] AS id
    RETURN DISTINCT {namespace: r.namespace, id: id}
  } AS near
}
RETURN near, ranked
