// Audit: revision_changes. What one revision (one write operation) changed: the claims it ADDED,
// RETIRED, REINFORCED, FLAGGED or RESTORED, and the SUPERSEDES edges it drew between them.
// Params: $namespace (string), $revision_id (string)
// Returns: op, at, actor, verdict, decision, reason, change, id, text, status, changed (path),
//          supersedes (paths)
MATCH (r:Revision {namespace: $namespace, id: $revision_id})
OPTIONAL MATCH changed = (r)-[e:ADDED|RETIRED|REINFORCED|FLAGGED|RESTORED]->(c:Claim)
CALL (c) {
  OPTIONAL MATCH step = (c)-[:SUPERSEDES {revision_id: $revision_id}]->(:Claim {namespace: $namespace})
  RETURN collect(step) AS supersedes
}
RETURN r.op AS op, r.at AS at, r.actor AS actor, r.verdict AS verdict, r.decision AS decision,
       r.reason AS reason, type(e) AS change, c.id AS id, c.text AS text, c.status AS status,
       changed, supersedes
ORDER BY change, id
