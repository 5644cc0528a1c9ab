// Apply, first statement: create or lock the slot (writing it takes its lock, so writers of one
// fact serialize), and tell whether the revision already ran.
// Params: $namespace, $subject_key, $predicate, $subject, $cardinality, $slot_id, $revision_id,
//         $recorded_at
// Returns: slot_id, seq_before, replay
MERGE (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
  ON CREATE SET s.id = $slot_id, s.subject = $subject, s.cardinality = $cardinality, s.seq = 0,
                s.versions = 0
SET s.seq = s.seq + 1, s.last_revision = $revision_id,
    s.last_recorded_at = CASE WHEN s.last_recorded_at IS NULL OR s.last_recorded_at < $recorded_at
                              THEN $recorded_at ELSE s.last_recorded_at END
WITH s
OPTIONAL MATCH (r:Revision {namespace: $namespace, id: $revision_id})
RETURN s.id AS slot_id, s.seq - 1 AS seq_before, r.result AS replay
