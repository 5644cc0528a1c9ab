// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace. The vector index spans every namespace (and every status), so it is over-fetched
// (`fetch`) and filtered; a look-up whose fetch came back full with fewer slots than it ranks
// (another namespace's nearer claims, or superseded versions, filled it) asks the index once
// more, 16 times wider, as search widens: a neighbour missed is a contradiction missed.
// write/state carries this statement (a single draft's look-up and its state read are one
// round trip); a batch's look-ups run on their own, in halves side by side (Store.read_leader_split).
// Params: $batch.near (list of {draft, namespace, embedding, fetch, k, rank}), $fetch (unused here:
//         the cypher25 statement's)
// Returns: near (list of {namespace, id}: the slots of each draft's k nearest claims), ranked
//          (list of {draft, namespace, ids, k, complete}: each look-up's rank nearest slots,
//          nearest first, and whether they are every slot it could find, the index holding
//          fewer claims than it fetched; a look-up that finds nothing is left out)
CALL () {
  UNWIND $batch.near AS q
  CALL (q) {
    CALL db.index.vector.queryNodes('claim_embedding', q.fetch, q.embedding) YIELD node, score
    WITH q, node, score ORDER BY score DESC
    WITH q, count(*) AS fetched, collect(DISTINCT CASE
        WHEN node.namespace = q.namespace AND node.status = 'active' THEN node.slot_id
      END) AS slot_ids
    RETURN fetched < q.fetch AS whole, slot_ids
  }
  CALL (q, whole, slot_ids) {
    WITH whole, slot_ids WHERE whole OR size(slot_ids) >= q.rank
    RETURN whole AS covered, slot_ids AS found
    UNION ALL
    WITH q WHERE NOT whole AND size(slot_ids) < q.rank
    CALL db.index.vector.queryNodes('claim_embedding', q.fetch * 16, q.embedding)
      YIELD node, score
    WITH q, node, score ORDER BY score DESC
    WITH q, count(*) AS fetched, collect(DISTINCT CASE
        WHEN node.namespace = q.namespace AND node.status = 'active' THEN node.slot_id
      END) AS wider
    RETURN fetched < q.fetch * 16 AS covered, wider AS found
  }
  WITH collect({draft: q.draft, namespace: q.namespace, ids: found[..q.rank], k: q.k,
                complete: covered AND size(found) <= q.rank}) AS ranked
  RETURN ranked, COLLECT {
    UNWIND ranked AS r
    UNWIND r.ids[..r.k] AS id
    RETURN DISTINCT {namespace: r.namespace, id: id}
  } AS near
}
RETURN near, ranked
