// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace. The vector index spans every namespace, so it is over-fetched (`fetch`) and filtered.
// write/state carries this statement (a single draft's look-up and its state read are one
// round trip); a batch's look-ups run on their own, in halves side by side (Store.read_leader_split).
// Params: $batch.near (list of {namespace, embedding, fetch, k}), $fetch (unused here: the
//         cypher25 statement's)
// Returns: near (list of {namespace, id}: the slots of each draft's k nearest claims)
CALL () {
  UNWIND $batch.near AS q
  CALL db.index.vector.queryNodes('claim_embedding', q.fetch, q.embedding) YIELD node, score
  WITH q, node, score
  WHERE node.namespace = q.namespace AND node.status = 'active'
  WITH q, node ORDER BY score DESC
  WITH q, collect(DISTINCT node.slot_id) AS slot_ids
  UNWIND slot_ids[..q.k] AS id
  RETURN collect(DISTINCT {namespace: q.namespace, id: id}) AS near
}
RETURN near
