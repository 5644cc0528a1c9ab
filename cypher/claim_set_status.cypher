// Settle a claim's status without touching its validity (a pending claim rejected).
// Params: $namespace, $id, $status   Returns: id
MATCH (c:Claim {id: $id, namespace: $namespace})
SET c.status = $status, c.disputed = false
RETURN c.id AS id
