// Undo one reinforcement (rollback of a SAME verdict).
// Params: $namespace, $id   Returns: id, frequency
MATCH (c:Claim {id: $id, namespace: $namespace})
SET c.frequency = CASE WHEN c.frequency > 1 THEN c.frequency - 1 ELSE 1 END
RETURN c.id AS id, c.frequency AS frequency
