// Audit: pending_confirmations. Claims waiting for a human to confirm or reject them, oldest
// first, each with the open contradiction to the belief it would replace and their slot.
// Params: $namespace (string)
// Returns: id, text, source_type, recorded_at, rival_id, rival, rival_status, pending (path),
//          conflicts (paths)
MATCH pending = (p:Claim {namespace: $namespace, status: 'pending'})-[:IN_SLOT]->(:Slot)
CALL (p) {
  OPTIONAL MATCH conflict = (p)-[x:CONTRADICTS]-(r:Claim {namespace: $namespace})
  WHERE x.resolution IS NULL
  RETURN collect(conflict) AS conflicts, collect(r.id) AS rival_ids, collect(r.text) AS rivals,
         collect(r.status) AS rival_statuses
}
RETURN p.id AS id, p.text AS text, p.source_type AS source_type, p.recorded_at AS recorded_at,
       rival_ids, rivals, rival_statuses, pending, conflicts
ORDER BY p.recorded_at
