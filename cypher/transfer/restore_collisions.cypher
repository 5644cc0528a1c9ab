// Before a restore: does the namespace already hold nodes, and do any of the snapshot's claim or
// slot ids (unique across the database) already exist elsewhere?
// Params: $namespace, $claim_ids, $slot_ids
// Returns: nodes (count in the namespace), claims (colliding ids), slots (colliding ids)
CALL () {
  CALL () {
    MATCH (n:Claim {namespace: $namespace}) USING INDEX SEEK n:Claim(namespace, status)
    WHERE n.status IS NOT NULL RETURN count(n) AS found
    UNION ALL
    MATCH (n:Slot {namespace: $namespace})
    USING INDEX SEEK n:Slot(namespace, subject_key, predicate)
    WHERE n.subject_key IS NOT NULL AND n.predicate IS NOT NULL
    RETURN count(n) AS found
    UNION ALL
    MATCH (n:Episode {namespace: $namespace}) USING INDEX SEEK n:Episode(namespace, id)
    WHERE n.id IS NOT NULL RETURN count(n) AS found
    UNION ALL
    MATCH (n:Revision {namespace: $namespace}) USING INDEX SEEK n:Revision(namespace, id)
    WHERE n.id IS NOT NULL RETURN count(n) AS found
  }
  RETURN sum(found) AS nodes
}
CALL () {
  UNWIND $claim_ids AS id
  MATCH (c:Claim {id: id})
  RETURN collect(c.id)[..5] AS claims
}
CALL () {
  UNWIND $slot_ids AS id
  MATCH (s:Slot {id: id})
  RETURN collect(s.id)[..5] AS slots
}
RETURN nodes, claims, slots
