// Whether an open CONTRADICTS edge joins two claims (either direction).
// Params: $namespace, $claim_id, $rival_id   Returns: open (count)
OPTIONAL MATCH (:Claim {id: $claim_id, namespace: $namespace})-[x:CONTRADICTS]-
               (:Claim {id: $rival_id, namespace: $namespace})
WHERE x.resolution IS NULL
RETURN count(x) AS open
