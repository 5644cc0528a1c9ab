// Record a contradiction the engine did not resolve by supersession; optionally mark the rival
// disputed (an open conflict) rather than leave it undisturbed (a lower-trust claim was rejected).
// Params: $namespace, $id, $rival_id, $score, $revision_id, $dispute (bool), $resolution
// Returns: id, rival_id
MATCH (c:Claim {id: $id, namespace: $namespace}), (r:Claim {id: $rival_id, namespace: $namespace})
CREATE (c)-[:CONTRADICTS {score: $score, revision_id: $revision_id, resolution: $resolution}]->(r)
SET r.disputed = r.disputed OR $dispute, c.disputed = $dispute
RETURN c.id AS id, r.id AS rival_id
