// Consolidation, read (models on): the active claims nearest to each listed text-only claim by
// its stored embedding, in its namespace. The vector index spans every namespace, so it is
// over-fetched (`fetch`) and filtered.
// Params: $namespace, $ids (text-only claim ids), $fetch, $k
// Returns: id, embedding, near (list of {id, text, object_key, embedding}, nearest first)
UNWIND $ids AS id
MATCH (c:Claim {namespace: $namespace, id: id})
WHERE c.embedding IS NOT NULL
CALL db.index.vector.queryNodes('claim_embedding', $fetch, c.embedding) YIELD node, score
WITH c, node, score
WHERE node.namespace = $namespace AND node.status = 'active' AND node.id <> c.id
WITH c, node ORDER BY score DESC
WITH c, collect(node {.id, .text, .object_key, .embedding}) AS near
RETURN c.id AS id, c.embedding AS embedding, near[..$k] AS near
