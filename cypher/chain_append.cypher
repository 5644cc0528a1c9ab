// A claim joins its slot's version chain: it gets the next version number and SUPERSEDES the
// chain's head (the previous version, whatever its status), so every version but the first has
// exactly one predecessor.
// Params: $namespace, $id, $revision_id, $verdict   Returns: version, predecessor
MATCH (c:Claim {id: $id, namespace: $namespace})-[:IN_SLOT]->(s:Slot)
WITH s, c, s.versions + 1 AS version
SET s.versions = version, c.version = version
WITH s, c, version
OPTIONAL MATCH (head:Claim {id: s.head, namespace: $namespace})
SET s.head = c.id
WITH c, version, head
CALL (c, head) {
  WITH c, head WHERE head IS NOT NULL
  CREATE (c)-[:SUPERSEDES {revision_id: $revision_id, verdict: $verdict}]->(head)
}
RETURN version, head.id AS predecessor
