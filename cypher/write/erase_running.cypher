// The erases of a namespace not finished yet (a crashed one included), and the revision $id
// (running or not): what a new erase resumes or replays.
// Params: $namespace, $id (a revision id, or null)
// Returns: id, op, running (labelled Erasing), scope, key (the subject key), mention, legacy
//          (its patterns), ids, result
MATCH (r:Erasing)
WHERE r.namespace = $namespace
RETURN r.id AS id, r.op AS op, true AS running, r.erasing_scope AS scope, r.erasing_key AS key,
       r.erasing_mention AS mention, r.erasing_legacy AS legacy, r.erasing_ids AS ids,
       r.result AS result
UNION
MATCH (r:Revision {namespace: $namespace, id: $id})
USING INDEX SEEK r:Revision(namespace, id)
RETURN r.id AS id, r.op AS op, r:Erasing AS running, r.erasing_scope AS scope,
       r.erasing_key AS key, r.erasing_mention AS mention, r.erasing_legacy AS legacy,
       r.erasing_ids AS ids, r.result AS result
