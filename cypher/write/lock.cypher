// Apply, first statement: create or lock every slot of the batch (in the caller's sorted order, so
// concurrent batches cannot deadlock on each other) and report revisions that ran meanwhile.
// Params: $slots (sorted list of {namespace, subject_key, predicate, id, subject, cardinality}),
//         $revisions (list of {namespace, id})
// Returns: slots (namespace, subject_key, predicate, slot_id, seq_before), replayed (ids)
UNWIND $slots AS k
MERGE (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  ON CREATE SET s.id = k.id, s.subject = k.subject, s.cardinality = k.cardinality, s.seq = 0,
                s.versions = 0
// Writing a property first takes the slot's write lock; only then is seq read, so two writers
// cannot both read the same seq (a read-then-write in one SET could lose an update).
SET s.locked = true
WITH k, s
SET s.seq = s.seq + 1
REMOVE s.locked
WITH collect(k {.namespace, .subject_key, .predicate, slot_id: s.id, seq_before: s.seq - 1}) AS slots
CALL () {
  UNWIND $revisions AS rv
  MATCH (r:Revision {namespace: rv.namespace, id: rv.id})
  RETURN collect(r.id) AS replayed
}
RETURN slots, replayed
