// Restore, a batch of (:Revision)-[:RETIRED]->(:Claim) relationships from a snapshot, with their
// properties as exported.
// Params: $namespace, $rows (list of {start, end, props})   Returns: created (count)
UNWIND $rows AS row
MATCH (a:Revision {namespace: $namespace, id: row.start})
MATCH (b:Claim {namespace: $namespace, id: row.end})
CREATE (a)-[r:RETIRED]->(b)
SET r = row.props
RETURN count(r) AS created
