// Add a claim to its slot, with its provenance episode and DEPENDS_ON / SUPPORTS edges.
// Params: $namespace, $slot_id, $props (claim properties), $episode_id, $episode_content,
//         $occurred_at, $depends_on, $supports
// Returns: id
MATCH (s:Slot {id: $slot_id, namespace: $namespace})
CREATE (c:Claim)-[:IN_SLOT]->(s)
SET c = $props, c.slot_id = s.id
WITH c
CALL (c) {
  WITH c WHERE $episode_id IS NOT NULL
  MERGE (e:Episode {namespace: $namespace, id: $episode_id})
    ON CREATE SET e.occurred_at = $occurred_at, e.content = $episode_content, e.source = c.origin
  CREATE (c)-[:DERIVED_FROM]->(e)
}
CALL (c) {
  UNWIND $depends_on AS premise_id
  MATCH (p:Claim {id: premise_id, namespace: $namespace})
  CREATE (c)-[:DEPENDS_ON]->(p)
}
CALL (c) {
  UNWIND $supports AS target_id
  MATCH (t:Claim {id: target_id, namespace: $namespace})
  CREATE (c)-[:SUPPORTS]->(t)
}
RETURN c.id AS id
