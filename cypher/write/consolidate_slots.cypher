// Consolidation, read: one page of a namespace's slots in id order, each slot's seq first (the
// apply step checks it again under the slot's lock, as for every write).
// Params: $namespace, $after (last id of the previous page; '' for the first), $limit
// Returns: slot (id, subject_key, predicate, subject, cardinality, versions, head, seq,
//          last_revision, last_recorded_at as ISO-8601 text)
MATCH (s:Slot {namespace: $namespace})
WHERE s.id > $after
WITH s ORDER BY s.id LIMIT $limit
WITH s, s.seq AS seq
RETURN s {.id, .subject_key, .predicate, .subject, .cardinality, .versions, .head,
          .last_revision, seq: seq, last_recorded_at: toString(s.last_recorded_at)} AS slot
