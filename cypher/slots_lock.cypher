// Apply, first statement for operations on existing claims: lock their slots in id order
// (a fixed order, so two such transactions cannot deadlock) and tell whether the revision ran.
// Params: $namespace, $slot_ids, $revision_id
// Returns: slot_id, seq_before, last_revision (one row per slot), replay
UNWIND $slot_ids AS slot_id
MATCH (s:Slot {id: slot_id, namespace: $namespace})
WITH s ORDER BY s.id
// Take the write lock before reading (see write/lock.cypher).
SET s.locked = true
WITH s
WITH s, s.last_revision AS last_revision
SET s.seq = s.seq + 1, s.last_revision = $revision_id
REMOVE s.locked
WITH s, last_revision
OPTIONAL MATCH (r:Revision {namespace: $namespace, id: $revision_id})
RETURN s.id AS slot_id, s.seq - 1 AS seq_before, last_revision, r.result AS replay
