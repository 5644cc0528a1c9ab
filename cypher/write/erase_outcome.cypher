// Erase, last transaction: what it erased, from its Revision's edges: the claims (RETIRED), the
// dependents it flagged that are not erased themselves (FLAGGED), the facts it touched
// (slot_ids), how many of them are tombstones, and how many episodes lost their content with
// its claims.
// Params: $namespace, $id
// Returns: retired (ids), flagged (ids), slot_ids, tombstones, episodes (counts)
MATCH (r:Revision {namespace: $namespace, id: $id})
USING INDEX SEEK r:Revision(namespace, id)
CALL (r) {
  OPTIONAL MATCH (r)-[:RETIRED]->(c:Claim)
  RETURN collect(c.id) AS retired
}
CALL (r) {
  OPTIONAL MATCH (r)-[:FLAGGED]->(c:Claim)
  WHERE c.status <> 'erased'
  RETURN collect(DISTINCT c.id) AS flagged
}
CALL (r) {
  UNWIND coalesce(r.slot_ids, []) AS id
  MATCH (s:Slot {id: id, namespace: $namespace})
  USING INDEX SEEK s:Slot(id)
  WHERE s.subject_key STARTS WITH 'erased:'
  RETURN count(s) AS tombstones
}
CALL (r) {
  OPTIONAL MATCH (r)-[:RETIRED]->(:Claim)-[:DERIVED_FROM]->(e:Episode)
  RETURN count(DISTINCT e) AS episodes
}
RETURN retired, flagged, coalesce(r.slot_ids, []) AS slot_ids, tombstones, episodes
