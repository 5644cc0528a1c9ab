// SAME verdicts: one more mention each (rows apply in order, so repeats add up).
// Params: $reinforcements (list of {id, at, confidence, namespace, episode_id, episode_content,
//         origin})   Returns: reinforced (count)
UNWIND $reinforcements AS x
MATCH (c:Claim {id: x.id, namespace: x.namespace})
SET c.frequency = c.frequency + 1, c.reinforced_at = x.at,
    c.confidence = CASE WHEN x.confidence > c.confidence THEN x.confidence ELSE c.confidence END
WITH c, x
CALL (c, x) {
  WITH c, x WHERE x.episode_id IS NOT NULL
  MERGE (e:Episode {namespace: x.namespace, id: x.episode_id})
    ON CREATE SET e.occurred_at = x.at, e.content = x.episode_content, e.source = x.origin
  MERGE (c)-[:DERIVED_FROM]->(e)
}
RETURN count(c) AS reinforced
