// Contradictions recorded rather than resolved by supersession: a pending claim disputes the
// belief (open), a lower-trust claim is rejected against it (resolved at once).
// Params: $contradictions (list of {from, to, score, revision_id, dispute, resolution})
// Returns: recorded (count)
UNWIND $contradictions AS x
MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
CREATE (a)-[:CONTRADICTS {score: x.score, revision_id: x.revision_id, resolution: x.resolution}]->(b)
SET b.disputed = b.disputed OR x.dispute, a.disputed = x.dispute
RETURN count(*) AS recorded
