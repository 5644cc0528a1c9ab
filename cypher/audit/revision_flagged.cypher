// Audit: revision_flagged. The dependents one revision flagged needs_review, with the premises
// they DEPEND_ON and the claims that SUPPORT them (among them, the claim the revision retired).
// Params: $namespace (string), $revision_id (string)
// Returns: id, text, status, needs_review, review_reason, flag, flagged (path),
//          premises (paths), supporters (paths)
MATCH flagged = (r:Revision {namespace: $namespace, id: $revision_id})-[f:FLAGGED]->(d:Claim)
CALL (d) {
  OPTIONAL MATCH premise = (d)-[:DEPENDS_ON]->(:Claim {namespace: $namespace})
  RETURN collect(premise) AS premises
}
CALL (d) {
  OPTIONAL MATCH support = (:Claim {namespace: $namespace})-[:SUPPORTS]->(d)
  RETURN collect(support) AS supporters
}
RETURN d.id AS id, d.text AS text, d.status AS status, d.needs_review AS needs_review,
       d.review_reason AS review_reason, f.flag AS flag, flagged, premises, supporters
ORDER BY d.recorded_at
