// Retract a claim: the record was wrong (it was never true, as far as we now know).
// Params: $namespace, $id, $at   Returns: id, previous_valid_to
MATCH (c:Claim {id: $id, namespace: $namespace})
SET c.status = 'retracted', c.retracted_at = $at, c.disputed = false
RETURN c.id AS id, c.valid_to AS previous_valid_to
