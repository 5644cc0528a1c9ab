// Close a claim's validity: the world moved on (supersession, or contract without retraction).
// Params: $namespace, $id, $valid_to, $at   Returns: id, previous_valid_to
MATCH (c:Claim {id: $id, namespace: $namespace})
WITH c, c.valid_to AS previous_valid_to
SET c.status = 'superseded', c.valid_to = $valid_to, c.superseded_at = $at, c.disputed = false
RETURN c.id AS id, previous_valid_to
