// Erase, after its claims: up to $limit facts it covers still named, each locked (in key order),
// moved on (seq, last revision) and left a tombstone: its subject removed, its key
// 'erased:<slot id>' (never reused: a later claim about the subject makes a fact of its own).
// A fact is covered as a whole by an erase of its namespace (every fact with a subject), of its
// subject, or of listed claims once none of its claims is left unerased.
// Params: $namespace, $id (the erase's revision id), $scope, $key, $ids, $limit
// Returns: slot_ids (those tombstoned now), new_slot_ids (of those, the ones this erase had not
//          touched before, so not in its Revision's slot_ids yet)
CALL () {
  WITH $scope AS scope WHERE scope = 'namespace'
  MATCH (s:Slot {namespace: $namespace})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WHERE s.subject_key IS NOT NULL AND s.predicate IS NOT NULL
    AND NOT s.subject_key STARTS WITH 'erased:'
    AND (s.subject IS NOT NULL OR NOT s.subject_key STARTS WITH 'text:')
  RETURN s
  UNION
  WITH $scope AS scope WHERE scope = 'subject'
  MATCH (s:Slot {namespace: $namespace, subject_key: $key})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WHERE s.predicate IS NOT NULL
  RETURN s
  UNION
  WITH $scope AS scope WHERE scope = 'claims'
  UNWIND $ids AS id
  MATCH (c:Claim {id: id, namespace: $namespace})-[:IN_SLOT]->(s:Slot)
  USING INDEX SEEK c:Claim(id)
  WHERE NOT s.subject_key STARTS WITH 'erased:'
    AND (s.subject IS NOT NULL OR NOT s.subject_key STARTS WITH 'text:')
    AND NOT EXISTS { MATCH (s)<-[:IN_SLOT]-(o:Claim) WHERE o.status <> 'erased' }
  RETURN s
}
WITH DISTINCT s LIMIT $limit
WITH s ORDER BY s.namespace, s.subject_key, s.predicate
SET s.locked = true
WITH s, coalesce(s.last_revision = $id, false) AS recorded
SET s.seq = s.seq + 1, s.last_revision = $id, s.subject = null, s.subject_key = 'erased:' + s.id
REMOVE s.locked
RETURN collect(s.id) AS slot_ids, collect(CASE WHEN NOT recorded THEN s.id END) AS new_slot_ids
