// Rollback of a revision that settled or withdrew a claim that was never the belief (pending or
// rejected): it returns to that status; a pending claim's conflicts reopen and its rivals are
// disputed again.
// Params: $namespace, $id, $status ('pending' | 'rejected')   Returns: id
MATCH (c:Claim {id: $id, namespace: $namespace})
SET c.status = $status, c.retracted_at = null, c.disputed = $status = 'pending'
WITH c
CALL (c) {
  MATCH (c)-[x:CONTRADICTS]->(r:Claim)
  WHERE $status = 'pending' AND r.status = 'active'
  SET x.resolution = null, r.disputed = true
}
RETURN c.id AS id
