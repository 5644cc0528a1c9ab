// DEPENDS_ON and SUPPORTS edges from new claims (the type is picked from two fixed branches).
// Params: $references (list of {from, to, kind: 'DEPENDS_ON' | 'SUPPORTS'})   Returns: linked
UNWIND $references AS x
MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
FOREACH (_ IN CASE WHEN x.kind = 'DEPENDS_ON' THEN [1] ELSE [] END | CREATE (a)-[:DEPENDS_ON]->(b))
FOREACH (_ IN CASE WHEN x.kind = 'SUPPORTS' THEN [1] ELSE [] END | CREATE (a)-[:SUPPORTS]->(b))
RETURN count(*) AS linked
