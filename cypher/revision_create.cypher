// The audit record of one write operation, linked to every claim it touched.
// Params: $namespace, $props (id, op, at, actor, verdict, decision, reason, slot_ids, result),
//         $added, $retired (list of {id, previous_valid_to,
//         previous_status}), $reinforced, $flagged (list of
//         {id, flag}), $restored (list of {id, from})
// Returns: id
CREATE (r:Revision)
SET r = $props, r.namespace = $namespace
WITH r
CALL (r) {
  UNWIND $added AS id
  MATCH (c:Claim {id: id, namespace: $namespace})
  CREATE (r)-[:ADDED]->(c)
}
CALL (r) {
  UNWIND $retired AS item
  MATCH (c:Claim {id: item.id, namespace: $namespace})
  CREATE (r)-[:RETIRED {previous_valid_to: item.previous_valid_to,
                         previous_status: item.previous_status}]->(c)
}
CALL (r) {
  UNWIND $reinforced AS id
  MATCH (c:Claim {id: id, namespace: $namespace})
  CREATE (r)-[:REINFORCED]->(c)
}
CALL (r) {
  UNWIND $flagged AS item
  MATCH (c:Claim {id: item.id, namespace: $namespace})
  CREATE (r)-[:FLAGGED {flag: item.flag}]->(c)
}
CALL (r) {
  UNWIND $restored AS item
  MATCH (c:Claim {id: item.id, namespace: $namespace})
  CREATE (r)-[:RESTORED {restored_from: item.from}]->(c)
}
RETURN r.id AS id
