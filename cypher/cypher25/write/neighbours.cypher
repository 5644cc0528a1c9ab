// Detect (read): the slots of the active claims nearest to each draft's embedding, in its
// namespace, filtered inside the vector index (Neo4j 2026.01+, claim_embedding declares namespace
// and status): every hit is an active claim of the namespace, so $fetch is a few more than k.
// A look-up whose fetch came back full with fewer slots than it ranks (a fact of many values
// near the draft holds them all) asks once more, 16 times wider, as write/neighbours does.
// cypher25/write/state carries this statement (see write/neighbours).
// Every look-up fetches $fetch (a SEARCH's LIMIT may not refer to a variable), then $fetch * 16;
// q.fetch and q.wider are write/neighbours'.
// Params: $batch.near (list of {draft, namespace, embedding, fetch, wider, k, rank, extent}),
//         $fetch
// Returns: near, ranked (see write/neighbours; a reach counts claims of the namespace only)
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
    WITH q, node, score ORDER BY score DESC
    WITH q, collect({slot: node.slot_id, score: score}) AS mine,
         collect(DISTINCT node.slot_id) AS slot_ids
    WITH q, mine, slot_ids, [m IN mine WHERE m.slot = slot_ids[q.rank - 1]][0].score AS bar
    RETURN size(mine) < $fetch AS whole, slot_ids,
           CASE WHEN bar IS NULL THEN size(mine)
                ELSE size([m IN mine WHERE m.score >= bar]) END AS reach
  }
  CALL (q, whole, slot_ids, reach) {
    WITH whole, slot_ids, reach WHERE whole OR size(slot_ids) >= q.rank
    RETURN whole AS covered, slot_ids AS found, reach AS needed
    UNION ALL
    WITH q WHERE NOT whole AND size(slot_ids) < q.rank
    MATCH (node:Claim)
      SEARCH node IN (
        VECTOR INDEX claim_embedding
        FOR q.embedding
        WHERE node.namespace = q.namespace AND node.status = 'active'
        LIMIT $fetch * 16
      ) SCORE AS score
    WITH q, node, score ORDER BY score DESC
    WITH q, collect({slot: node.slot_id, score: score}) AS mine,
         collect(DISTINCT node.slot_id) AS wider
    WITH q, mine, wider, [m IN mine WHERE m.slot = wider[q.rank - 1]][0].score AS bar
    RETURN size(mine) < $fetch * 16 AS covered, wider AS found,
           CASE WHEN bar IS NULL THEN size(mine)
                ELSE size([m IN mine WHERE m.score >= bar]) END AS needed
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
