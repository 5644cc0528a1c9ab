// SAME verdict: one more mention of an existing claim; no new version.
// Params: $namespace, $id, $at, $confidence, $episode_id, $episode_content, $occurred_at, $origin
// Returns: id, frequency
MATCH (c:Claim {id: $id, namespace: $namespace})
SET c.frequency = c.frequency + 1, c.reinforced_at = $at,
    c.confidence = CASE WHEN $confidence > c.confidence THEN $confidence ELSE c.confidence END
WITH c
CALL (c) {
  WITH c WHERE $episode_id IS NOT NULL
  MERGE (e:Episode {namespace: $namespace, id: $episode_id})
    ON CREATE SET e.occurred_at = $occurred_at, e.content = $episode_content, e.source = $origin
  MERGE (c)-[:DERIVED_FROM]->(e)
}
RETURN c.id AS id, c.frequency AS frequency
