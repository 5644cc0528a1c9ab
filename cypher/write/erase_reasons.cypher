// Erase, inside its transaction: the revisions whose reason may hold erased content: a reason
// the caller wrote (contract, resolve, dismiss, review, and any operation not listed below as
// writing its own fixed reasons), on a revision linked to an erased claim or made on one of
// the erased facts (dismiss and review link no claim). The caller rewrites their reason and
// stored result; an empty reason is left alone.
// Params: $namespace, $claim_ids, $slot_ids
// Returns: id, result
CALL () {
  UNWIND $claim_ids AS id
  MATCH (c:Claim {namespace: $namespace, id: id})<-[]-(r:Revision)
  USING INDEX SEEK c:Claim(id)
  RETURN r
  UNION
  MATCH (r:Revision {namespace: $namespace})
  USING INDEX SEEK r:Revision(namespace, id)
  WHERE r.id IS NOT NULL AND any(s IN coalesce(r.slot_ids, []) WHERE s IN $slot_ids)
  RETURN r
}
WITH DISTINCT r
WHERE NOT r.op IN ['remember', 'confirm', 'reject', 'rectify', 'rollback', 'erase']
  AND coalesce(r.reason, '') <> ''
RETURN r.id AS id, r.result AS result
