// Close the validity of superseded claims (the world moved on; nothing is deleted).
// Params: $closes (list of {id, valid_to, at})   Returns: closed (count)
UNWIND $closes AS x
MATCH (c:Claim {id: x.id, namespace: x.namespace})
SET c.status = 'superseded', c.valid_to = x.valid_to, c.superseded_at = x.at, c.disputed = false
RETURN count(c) AS closed
