// Close the open CONTRADICTS edges around a claim, and lift 'disputed' from rivals that have no
// other open conflict.
// Params: $namespace, $id, $resolution   Returns: rival_ids
MATCH (c:Claim {id: $id, namespace: $namespace})-[x:CONTRADICTS]-(r:Claim)
WHERE x.resolution IS NULL
SET x.resolution = $resolution
WITH DISTINCT r
OPTIONAL MATCH (r)-[open:CONTRADICTS]-(:Claim) WHERE open.resolution IS NULL
WITH r, count(open) AS still_open
SET r.disputed = still_open > 0
RETURN collect(r.id) AS rival_ids
