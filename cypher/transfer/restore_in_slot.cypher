// Restore, a batch of (:Claim)-[:IN_SLOT]->(:Slot) relationships from a snapshot, with their
// properties as exported.
// Params: $namespace, $rows (list of {start, end, props})   Returns: created (count)
UNWIND $rows AS row
MATCH (a:Claim {namespace: $namespace, id: row.start})
MATCH (b:Slot {namespace: $namespace, id: row.end})
CREATE (a)-[r:IN_SLOT]->(b)
SET r = row.props
RETURN count(r) AS created
