// A pending claim becomes the belief (confirmed by a human or an explicit promotion).
// Params: $namespace, $id, $at, $contradiction   Returns: id
MATCH (c:Claim {id: $id, namespace: $namespace})
SET c.status = 'active', c.accepted_at = $at, c.disputed = false,
    c.contradiction = $contradiction
RETURN c.id AS id
