// Audit: open_conflicts. Contradictions in a namespace that nobody has resolved yet
// (CONTRADICTS.resolution is null), newest first, as a graph with each side's slot.
// Params: $namespace (string)
// Returns: claim_id, claim, claim_status, rival_id, rival, rival_status, score, revision_id,
//          conflict (path), slots (paths)
MATCH conflict = (a:Claim {namespace: $namespace})-[x:CONTRADICTS]->(b:Claim {namespace: $namespace})
WHERE x.resolution IS NULL AND a.status <> 'erased' AND b.status <> 'erased'
CALL (a, b) {
  UNWIND [a, b] AS side
  OPTIONAL MATCH slot = (side)-[:IN_SLOT]->(:Slot)
  RETURN collect(slot) AS slots
}
RETURN a.id AS claim_id, a.text AS claim, a.status AS claim_status,
       b.id AS rival_id, b.text AS rival, b.status AS rival_status,
       x.score AS score, x.revision_id AS revision_id, conflict, slots
ORDER BY a.recorded_at DESC
