// Create the batch's new claims in their slots, each with its provenance episode.
// Params: $claims (list of {slot_id, props, episode_id, episode_content})
// Returns: created (count)
UNWIND $claims AS row
MATCH (s:Slot {id: row.slot_id, namespace: row.props.namespace})
CREATE (c:Claim)-[:IN_SLOT]->(s)
SET c = row.props, c.slot_id = s.id
WITH c, row
CALL (c, row) {
  WITH c, row WHERE row.episode_id IS NOT NULL
  MERGE (e:Episode {namespace: c.namespace, id: row.episode_id})
    ON CREATE SET e.occurred_at = c.recorded_at, e.content = row.episode_content, e.source = c.origin
  CREATE (c)-[:DERIVED_FROM]->(e)
}
RETURN count(c) AS created
