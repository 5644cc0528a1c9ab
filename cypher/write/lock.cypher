// Apply, first statement: create or lock every slot of the batch (in the caller's sorted order, so
// concurrent batches cannot deadlock on each other, nor with a read step: write/state) and
// report revisions that ran meanwhile.
// A slot that existed when it was read is locked by its id (an erase may have renamed its key
// since: the caller sees the key it has now and plans again); a slot not created yet is merged
// by its key (a concurrent writer may have created it: the caller sees another id).
// Params: $slots (sorted list of {namespace, subject_key, predicate, id, subject, cardinality,
//         new}), $revisions (list of {namespace, id})
// Returns: slots (namespace, subject_key, predicate, id: as read; slot_id, key_now, seq_before:
//          as locked), replayed (ids), erasing (ids of the erases running over a slot of the
//          batch: a whole namespace's, or a subject's; the caller refuses the write)
UNWIND $slots AS k
CALL (k) {
  WITH k WHERE k.new
  MERGE (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
    ON CREATE SET s.id = k.id, s.subject = k.subject, s.cardinality = k.cardinality, s.seq = 0,
                  s.versions = 0
  RETURN s
  UNION
  WITH k WHERE NOT k.new
  MATCH (s:Slot {id: k.id, namespace: k.namespace})
  RETURN s
}
// Every slot is found or created before any is locked, then locked in key order: a lookup by key
// in a statement that writes takes a lock on the key's index entry (exclusive when the key is
// not there yet), and write/state takes those of its keys (sorted) before it locks its slots.
// Taking the keys' entries as each slot is locked instead, an apply waiting on the entry of a
// slot it creates while holding the lock of a slot write/state waits on was a deadlock.
WITH collect({k: k, s: s}) AS found
UNWIND found AS f
WITH f.k AS k, f.s AS s ORDER BY s.namespace, s.subject_key, s.predicate
// Writing a property first takes the slot's write lock; only then is seq read, so two writers
// cannot both read the same seq (a read-then-write in one SET could lose an update).
SET s.locked = true
WITH k, s
SET s.seq = s.seq + 1
REMOVE s.locked
WITH collect(k {.namespace, .subject_key, .predicate, slot_id: s.id, key_now: s.subject_key,
                seq_before: s.seq - 1}) AS slots
CALL () {
  UNWIND $revisions AS rv
  MATCH (r:Revision {namespace: rv.namespace, id: rv.id})
  RETURN collect(r.id) AS replayed
}
CALL (slots) {
  UNWIND slots AS k
  MATCH (e:Erasing)
  WHERE e.namespace = k.namespace
    AND (e.erasing_scope = 'namespace' OR (e.erasing_scope = 'subject' AND e.erasing_key = k.key_now))
  RETURN collect(DISTINCT e.id) AS erasing
}
RETURN slots, replayed, erasing
