// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace. The vector index spans every namespace (and every status), so it is over-fetched
// (q.fetch) and filtered; a look-up whose fetch came back full with fewer slots than it ranks
// (another namespace's nearer claims, or superseded versions, filled it) asks the index once
// more, wider (q.wider, when wider than q.fetch), as search widens: a neighbour missed is a
// contradiction missed. Each look-up says how many claims held the slots it ranks (its reach),
// so the next look-up in its namespace can start as wide (widening.Widening).
// write/state carries this statement (a single draft's look-up and its state read are one
// round trip); a batch's look-ups run on their own, in halves side by side (Store.read_leader_split).
// Params: $batch.near (list of {draft, namespace, embedding, fetch, wider, k, rank, extent}),
//         $fetch (unused here: the cypher25 statement's)
// Returns: near (list of {namespace, id}: the slots of each draft's k nearest claims), ranked
//          (list of {draft, namespace, ids, k, complete, reach}: each look-up's nearest slots,
//          nearest first, as many as its fetch held up to q.extent (past the q.rank it ranks:
//          those beyond are still the nearest in order, since a slot the fetch missed has no
//          claim nearer than the fetch's last); whether they are every slot it could
//          find, the index holding fewer claims than it fetched; and how many of the claims
//          fetched, of every namespace and status, were as near as the nearest claim of the
//          rank-th of them, or, short of them, how many it fetched; a look-up that finds
//          nothing is left out)
CALL () {
  UNWIND $batch.near AS q
  CALL (q) {
    CALL db.index.vector.queryNodes('claim_embedding', q.fetch, q.embedding) YIELD node, score
    WITH q, node, score ORDER BY score DESC
    WITH q, collect(score) AS scores, collect(CASE
        WHEN node.namespace = q.namespace AND node.status = 'active'
        THEN {slot: node.slot_id, score: score} END) AS mine, collect(DISTINCT CASE
        WHEN node.namespace = q.namespace AND node.status = 'active' THEN node.slot_id
      END) AS slot_ids
    // The nearest claim of the last slot ranked (none: too few slots).
    WITH q, scores, slot_ids, [m IN mine WHERE m.slot = slot_ids[q.rank - 1]][0].score AS bar
    RETURN size(scores) < q.fetch AS whole, slot_ids,
           CASE WHEN bar IS NULL THEN size(scores)
                ELSE size([x IN scores WHERE x >= bar]) END AS reach
  }
  CALL (q, whole, slot_ids, reach) {
    WITH whole, slot_ids, reach WHERE whole OR size(slot_ids) >= q.rank OR q.wider <= q.fetch
    RETURN whole AS covered, slot_ids AS found, reach AS needed
    UNION ALL
    WITH q WHERE NOT whole AND size(slot_ids) < q.rank AND q.wider > q.fetch
    CALL db.index.vector.queryNodes('claim_embedding', q.wider, q.embedding) YIELD node, score
    WITH q, node, score ORDER BY score DESC
    WITH q, collect(score) AS scores, collect(CASE
        WHEN node.namespace = q.namespace AND node.status = 'active'
        THEN {slot: node.slot_id, score: score} END) AS mine, collect(DISTINCT CASE
        WHEN node.namespace = q.namespace AND node.status = 'active' THEN node.slot_id
      END) AS wider
    WITH q, scores, wider, [m IN mine WHERE m.slot = wider[q.rank - 1]][0].score AS bar
    RETURN size(scores) < q.wider AS covered, wider AS found,
           CASE WHEN bar IS NULL THEN size(scores)
                ELSE size([x IN scores WHERE x >= bar]) END AS needed
  }
  WITH collect({draft: q.draft, namespace: q.namespace, ids: found[..q.extent], k: q.k,
                complete: covered AND size(found) <= q.extent, reach: needed}) AS ranked
  RETURN ranked, COLLECT {
    UNWIND ranked AS r
    UNWIND r.ids[..r.k] AS id
    RETURN DISTINCT {namespace: r.namespace, id: id}
  } AS near
}
RETURN near, ranked
