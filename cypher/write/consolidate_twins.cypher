// Consolidation, read (models on): the active claims nearest to each listed text-only claim by
// its stored embedding, in its namespace. The vector index spans every namespace, so it is
// over-fetched (`fetch`) and filtered; a claim whose fetch came back full with fewer than k
// (another namespace's nearer sentences filled it) asks the index once more, 16 times wider,
// as write/neighbours does.
// Params: $namespace, $ids (text-only claim ids), $fetch, $k
// Returns: id, embedding, near (list of {id, text, object_key, embedding}, nearest first)
UNWIND $ids AS id
MATCH (c:Claim {namespace: $namespace, id: id})
WHERE c.embedding IS NOT NULL
CALL (c) {
  CALL db.index.vector.queryNodes('claim_embedding', $fetch, c.embedding) YIELD node, score
  WITH node, score ORDER BY score DESC
  WITH count(*) AS fetched, collect(CASE
      WHEN node.namespace = $namespace AND node.status = 'active' AND node.id <> c.id THEN node
    END) AS found
  RETURN fetched = $fetch AND size(found) < $k AS crowded, found
}
CALL (c, crowded, found) {
  WITH found WHERE NOT crowded
  RETURN found AS nearest
  UNION ALL
  WITH c WHERE crowded
  CALL db.index.vector.queryNodes('claim_embedding', $fetch * 16, c.embedding)
    YIELD node, score
  WITH c, node, score ORDER BY score DESC
  WITH c, collect(CASE
      WHEN node.namespace = $namespace AND node.status = 'active' AND node.id <> c.id THEN node
    END) AS wider
  RETURN wider AS nearest
}
RETURN c.id AS id, c.embedding AS embedding,
       [n IN nearest[..$k] | n {.id, .text, .object_key, .embedding}] AS near
