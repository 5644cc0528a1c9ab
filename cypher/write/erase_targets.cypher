// Erase, one batch: up to $limit claims the erase $id still has to erase (not erased yet), and the
// write locks of their facts, taken in key order as every writer takes them (seq moved, the
// erase their last revision: a write decided before goes again, a rollback of an earlier
// revision of theirs is refused). What the erase covers: a whole namespace; a subject's facts
// and the text-only claims of their own that name it ($mention, a whole-word pattern of the
// subject as vocabulary.fold makes it, matched on the text as fold made it, text_key; a claim
// stored before text_key is matched on its lower-cased text by $legacy); or listed ids.
// Params: $namespace, $id (the erase's revision id), $scope ('namespace' | 'subject' |
//         'claims'), $key, $mention, $legacy, $ids, $limit
// Returns: claims (list of {id, slot_id}), slot_ids (their facts this erase had not touched
//          before: the rest already moved to it, and are in its Revision's slot_ids)
CALL () {
  WITH $scope AS scope WHERE scope = 'namespace'
  MATCH (c:Claim {namespace: $namespace})
  USING INDEX SEEK c:Claim(namespace, status)
  WHERE c.status IN ['active', 'superseded', 'retracted', 'pending', 'rejected']
  RETURN c
  UNION
  WITH $scope AS scope WHERE scope = 'subject'
  MATCH (s:Slot {namespace: $namespace, subject_key: $key})<-[:IN_SLOT]-(c:Claim)
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WHERE s.predicate IS NOT NULL AND c.status <> 'erased'
  RETURN c
  UNION
  WITH $scope AS scope WHERE scope = 'subject'
  MATCH (s:Slot {namespace: $namespace})<-[:IN_SLOT]-(c:Claim)
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WHERE s.subject_key STARTS WITH 'text:' AND s.predicate IS NOT NULL AND c.status <> 'erased'
    AND CASE WHEN c.text_key IS NULL THEN toLower(c.text) =~ $legacy
             ELSE c.text_key =~ $mention END
  RETURN c
  UNION
  WITH $scope AS scope WHERE scope = 'claims'
  UNWIND $ids AS id
  MATCH (c:Claim {id: id, namespace: $namespace})
  USING INDEX SEEK c:Claim(id)
  WHERE c.status <> 'erased'
  RETURN c
}
WITH c LIMIT $limit
WITH collect(c {.id, .slot_id}) AS claims
CALL (claims) {
  UNWIND claims AS c
  MATCH (s:Slot {id: c.slot_id, namespace: $namespace})
  USING INDEX SEEK s:Slot(id)
  WITH DISTINCT s ORDER BY s.namespace, s.subject_key, s.predicate
  SET s.locked = true
  WITH s, coalesce(s.last_revision = $id, false) AS recorded
  SET s.seq = s.seq + 1, s.last_revision = $id
  REMOVE s.locked
  RETURN collect(CASE WHEN NOT recorded THEN s.id END) AS slot_ids
}
RETURN claims, slot_ids
