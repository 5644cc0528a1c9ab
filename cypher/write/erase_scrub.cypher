// Erase: the caller's free text it takes along. The text of a dismissal leaves the CONTRADICTS
// edges of the erased claims $claim_ids; each revision of $revisions gets the reason, stored
// result and undo record the caller made of it (null: none).
// Params: $namespace, $revisions (list of {id, reason, result, undo}), $claim_ids
// Returns: scrubbed (count of revisions)
CALL () {
  UNWIND $claim_ids AS id
  MATCH (:Claim {namespace: $namespace, id: id})-[e:CONTRADICTS]-(:Claim)
  WHERE e.resolution STARTS WITH 'dismissed'
  SET e.resolution = 'dismissed'
}
UNWIND $revisions AS x
MATCH (r:Revision {namespace: $namespace, id: x.id})
SET r.reason = x.reason, r.result = x.result, r.undo = x.undo
RETURN count(r) AS scrubbed
