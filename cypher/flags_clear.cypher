// Lift review flags a revision set (rollback of that revision).
// Params: $namespace, $ids, $revision_id   Returns: cleared (ids)
UNWIND $ids AS id
MATCH (c:Claim {id: id, namespace: $namespace})
WHERE c.review_revision = $revision_id
SET c.needs_review = false, c.review_reason = null, c.review_revision = null
RETURN collect(c.id) AS cleared
