// Doctor: remove the namespace a doctor run wrote its probe claims into, whole (claims, slots,
// episodes, revisions and every relationship they have): no tombstone, no revision, nothing of
// it left. Only a probe's own namespace ('doctor:probe:<id>') is ever touched.
// Params: $namespace   Returns: nodes (how many were removed)
CALL () {
  MATCH (c:Claim {namespace: $namespace})
  WHERE $namespace STARTS WITH 'doctor:probe:'
  DETACH DELETE c
  RETURN count(*) AS claims
}
CALL () {
  MATCH (s:Slot {namespace: $namespace})
  WHERE $namespace STARTS WITH 'doctor:probe:'
  DETACH DELETE s
  RETURN count(*) AS slots
}
CALL () {
  MATCH (e:Episode {namespace: $namespace})
  WHERE $namespace STARTS WITH 'doctor:probe:'
  DETACH DELETE e
  RETURN count(*) AS episodes
}
CALL () {
  MATCH (r:Revision {namespace: $namespace})
  WHERE $namespace STARTS WITH 'doctor:probe:'
  DETACH DELETE r
  RETURN count(*) AS revisions
}
RETURN claims + slots + episodes + revisions AS nodes
