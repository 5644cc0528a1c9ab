// Erase, last transaction, once nothing it covers is left: its Revision gets its result and loses
// its label and what it covered (the subject's key and patterns are content too), so reads and
// writes of what it covered resume.
// Params: $namespace, $id, $result (the stored result, JSON)
// Returns: closed (count)
MATCH (r:Revision {namespace: $namespace, id: $id})
USING INDEX SEEK r:Revision(namespace, id)
SET r.result = $result
REMOVE r:Erasing, r.erasing_scope, r.erasing_key, r.erasing_mention, r.erasing_legacy,
       r.erasing_ids
RETURN count(r) AS closed
