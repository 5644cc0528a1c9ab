// Erase, inside its transaction: replace the reasons found by erase_reasons (on the Revision and
// in its stored result), and drop the free text of a dismissal from the CONTRADICTS edges of
// the erased claims.
// Params: $namespace, $revisions (list of {id, reason, result}), $claim_ids
// Returns: scrubbed (count of revisions)
CALL () {
  UNWIND $claim_ids AS id
  MATCH (:Claim {namespace: $namespace, id: id})-[e:CONTRADICTS]-(:Claim)
  WHERE e.resolution STARTS WITH 'dismissed'
  SET e.resolution = 'dismissed'
}
UNWIND $revisions AS x
MATCH (r:Revision {namespace: $namespace, id: x.id})
SET r.reason = x.reason, r.result = x.result
RETURN count(r) AS scrubbed
