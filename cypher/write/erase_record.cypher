// Erase, end of a batch: the erase's Revision linked to the claims the batch erased (RETIRED) and
// the dependents it flagged (FLAGGED needs_review), and the facts it touched added to its
// slot_ids (each fact once: the batch passes only those it moved to the erase first, so no
// check of the growing list, which made each batch slower than the last).
// Params: $namespace, $id, $claims (ids), $flagged (ids), $slot_ids (not in its slot_ids yet)
// Returns: linked (count of claims)
MATCH (r:Revision {namespace: $namespace, id: $id})
USING INDEX SEEK r:Revision(namespace, id)
SET r.slot_ids = coalesce(r.slot_ids, []) + $slot_ids
WITH r
CALL (r) {
  UNWIND $flagged AS id
  MATCH (c:Claim {id: id, namespace: $namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[:FLAGGED {flag: 'needs_review'}]->(c)
}
CALL (r) {
  UNWIND $claims AS id
  MATCH (c:Claim {id: id, namespace: $namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[:RETIRED]->(c)
  RETURN count(c) AS linked
}
RETURN linked
