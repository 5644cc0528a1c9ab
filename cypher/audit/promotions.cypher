// Audit: promotions. Every promotion and demotion in a namespace, newest first: who made it,
// on what basis (the reason), and the claims it added, retired or flagged, with the chain edge a
// promotion drew from the new policy to what it superseded.
// Params: $namespace (string)
// Returns: revision_id, op, at, actor, decision, reason, change, id, text, kind, status,
//          changed (path), supersedes (paths)
MATCH (r:Revision {namespace: $namespace})
USING INDEX SEEK r:Revision(namespace, at)
WHERE r.at IS NOT NULL AND r.op IN ['promote', 'demote']
OPTIONAL MATCH changed = (r)-[e:ADDED|RETIRED|FLAGGED]->(c:Claim)
CALL (r, c) {
  OPTIONAL MATCH step = (c)-[:SUPERSEDES {revision_id: r.id}]->(:Claim {namespace: $namespace})
  RETURN collect(step) AS supersedes
}
RETURN r.id AS revision_id, r.op AS op, r.at AS at, r.actor AS actor, r.decision AS decision,
       r.reason AS reason, type(e) AS change, c.id AS id, c.text AS text, c.kind AS kind,
       c.status AS status, changed, supersedes
ORDER BY r.at DESC, change, id
