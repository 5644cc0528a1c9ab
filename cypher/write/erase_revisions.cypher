// Erase, after its claims and facts: a page of the namespace's revisions (by id, after $after),
// each with what an erase scrubs of the caller's free text: its reason, its stored result and
// its undo record, the claims it touched and the facts it was made on (the caller decides which
// to scrub, from what the erase $id erased: write/erase_scrub). An erase's own edges are left
// out: its reason is the engine's, and it may touch every claim of a namespace.
// Params: $namespace, $id, $after (a revision id; '' for the first page), $limit
// Returns: id, op, reason, result, undo, slot_ids, claims (ids)
MATCH (r:Revision {namespace: $namespace})
USING INDEX SEEK r:Revision(namespace, id)
WHERE r.id > $after AND r.id <> $id
WITH r ORDER BY r.id LIMIT $limit
RETURN r.id AS id, r.op AS op, r.reason AS reason, r.result AS result, r.undo AS undo,
       coalesce(r.slot_ids, []) AS slot_ids,
       CASE r.op WHEN 'erase' THEN [] ELSE [(r)-->(c:Claim) | c.id] END AS claims
