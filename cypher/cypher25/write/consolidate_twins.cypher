// Consolidation, read (models on), on a server that filters inside the vector index (Neo4j
// 2026.01+): the active claims nearest to each listed text-only claim, every hit one of the
// namespace's active claims (the claim itself among them, left out), so no fetch is crowded.
// Params: $namespace, $ids (text-only claim ids), $fetch, $k
// Returns: id, embedding, near (see write/consolidate_twins)
CYPHER 25
UNWIND $ids AS id
MATCH (c:Claim {namespace: $namespace, id: id})
WHERE c.embedding IS NOT NULL
CALL (c) {
  MATCH (node:Claim)
    SEARCH node IN (
      VECTOR INDEX claim_embedding
      FOR c.embedding
      WHERE node.namespace = $namespace AND node.status = 'active'
      LIMIT $fetch
    ) SCORE AS score
  WITH node, score WHERE node.id <> c.id
  WITH node ORDER BY score DESC
  RETURN collect(node) AS nearest
}
RETURN c.id AS id, c.embedding AS embedding,
       [n IN nearest[..$k] | n {.id, .text, .object_key, .embedding}] AS near
