// Which of these ids exist in the namespace, and which exist anywhere.
// Params: $namespace, $ids   Returns: here (ids), anywhere (ids)
UNWIND $ids AS id
OPTIONAL MATCH (c:Claim {id: id})
RETURN collect(CASE WHEN c.namespace = $namespace THEN id END) AS here,
       collect(CASE WHEN c IS NOT NULL THEN id END) AS anywhere
